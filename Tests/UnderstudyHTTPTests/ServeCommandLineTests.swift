#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
import UnderstudyTestSupport

/// A loopback port nothing listens on right now.
func freePort() -> Int {
    #if canImport(Glibc)
    let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let made = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { _ = close(made) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            _ = bind(made, pointer, length)
            return getsockname(made, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A socket listening on loopback `port`; nil when the port is taken.
func listening(on port: Int) -> Int32? {
    #if canImport(Glibc)
    let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let made = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(made, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(made, 1) == 0 else {
        _ = close(made)
        return nil
    }
    return made
}

/// The `understudy` binary this build made.
let understudyBinary = repositoryRoot + "/.build/debug/understudy"

/// Runs `understudy ARGUMENTS` to its end with `environment` added: exit status, standard output, standard error.
func runUnderstudy(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String, String) {
    let result = try await runCommand(arguments, environment: environment)
    return (result.status, result.stdout, result.stderr)
}

/// `understudy serve` running in the background: its output collected as it comes.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    /// Text that arrives on a pipe, a piece at a time.
    final class Collected: Sendable {
        let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
    }
    private let output = Collected()
    private let errors = Collected()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: understudyBinary)
        process.arguments = ["serve"] + arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
            .merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [output] handle in output.append(handle.availableData) }
        err.fileHandleForReading.readabilityHandler = { [errors] handle in errors.append(handle.availableData) }
        try process.run()
    }

    var printed: String { output.text.withLock { $0 } }
    var complaints: String { errors.text.withLock { $0 } }

    /// Waits until standard output has `text` (true), or the process ends or `seconds` pass (false).
    func waitFor(_ text: String, seconds: Double = 60) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if printed.contains(text) { return true }
            if !process.isRunning { return printed.contains(text) }
            try? await Task.sleep(for: .milliseconds(50))
        }
        // A test task can be resumed late on a loaded machine: what arrived meanwhile still counts.
        return printed.contains(text)
    }

    /// SIGTERM, then waits for the end.
    func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        try? await Task.sleep(for: .milliseconds(100))  // the last output
    }
}

@Suite("understudy serve as a service: ready line, health command, configuration by environment")
struct ServeCommandLineTests {
    @Test("serve prints one ready line naming its URL; understudy health exits 0 against it, 1 once it stopped")
    func readyLineAndHealth() async throws {
        let port = freePort()
        let server = try ServeProcess(["--port", String(port)])
        let url = "http://127.0.0.1:\(port)"
        #expect(await server.waitFor("understudy ready on \(url)\n"), "\(server.printed)\(server.complaints)")
        let (status, printed, _) = try await runUnderstudy(["health", "--url", url])
        #expect(status == 0)
        #expect(printed.contains(#""status":"ok""#), "\(printed)")
        // Requests and a reset do not print the line again.
        _ = try await runUnderstudy(["health", "--url", url + "/"])
        await server.stop()
        let lines = server.printed.split(separator: "\n").filter { $0.hasPrefix("understudy ready on") }
        #expect(lines == ["understudy ready on \(url)"], "\(server.printed)")
        let (closed, _, complaint) = try await runUnderstudy(["health", "--url", url, "--timeout", "2"])
        #expect(closed == 1)
        #expect(complaint.contains("refused"), "\(complaint)")
    }

    @Test("understudy health reads UNDERSTUDY_URL, else UNDERSTUDY_PORT, as serve does")
    func healthDefaultsFromEnvironment() async throws {
        let port = freePort()
        let server = try ServeProcess([], environment: ["UNDERSTUDY_PORT": String(port)])
        #expect(await server.waitFor("understudy ready on http://127.0.0.1:\(port)\n"), "\(server.printed)\(server.complaints)")
        #expect(try await runUnderstudy(["health"], environment: ["UNDERSTUDY_PORT": String(port)]).0 == 0)
        #expect(try await runUnderstudy(["health"], environment: ["UNDERSTUDY_URL": "http://127.0.0.1:\(port)"]).0 == 0)
        await server.stop()
        #expect(try await runUnderstudy(["health"], environment: ["UNDERSTUDY_PORT": String(port)]).0 == 1)
    }

    @Test("--host 0.0.0.0 with the control token from UNDERSTUDY_CONTROL_TOKEN: starts, and the token guards the control API")
    func tokenFromEnvironment() async throws {
        let port = freePort()
        // Without a token anywhere it refuses, as before.
        let refused = try await runUnderstudy(["serve", "--host", "0.0.0.0", "--port", String(port)])
        #expect(refused.0 == 2)
        #expect(refused.2.contains("--control-token"))
        let server = try ServeProcess([], environment: [
            "UNDERSTUDY_HOST": "0.0.0.0", "UNDERSTUDY_PORT": String(port), "UNDERSTUDY_CONTROL_TOKEN": "from-env-s3cret",
            "UNDERSTUDY_OPTIONS": "--seed 7 --clock real",
        ])
        #expect(await server.waitFor("understudy ready on http://127.0.0.1:\(port)\n"), "\(server.printed)\(server.complaints)")
        #expect(server.printed.contains("(seed 7)"))
        #expect(server.printed.contains("clocks: real time"))
        #expect(!server.printed.contains("from-env-s3cret"), "the token is a secret: never printed")
        let connection = try #require(RawConnection(port: port))
        connection.send("GET /_understudy/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(await connection.statusLine() == "HTTP/1.1 401 Unauthorized")
        let withToken = try #require(RawConnection(port: port))
        withToken.send("GET /_understudy/clock HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Understudy-Token: from-env-s3cret\r\n\r\n")
        let reply = await withToken.reply()
        #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
        #expect(reply.contains(#""mode":"real""#))
        await server.stop()
    }

    @Test("serve starts when the default MQTT port is taken: MQTT over TCP is off, said on standard error and in every endpoint")
    func defaultMQTTPortTaken() async throws {
        // Held here, or by another program already: taken either way.
        let holder = listening(on: 1883)
        defer { if let holder { _ = close(holder) } }
        let port = freePort()
        let server = try ServeProcess(["--port", String(port)])
        #expect(await server.waitFor("understudy ready on http://127.0.0.1:\(port)\n"), "\(server.printed)\(server.complaints)")
        #expect(server.complaints.contains("MQTT over TCP is off: port 1883 is taken"), "\(server.complaints)")
        #expect(server.printed.contains("MQTT broker (Kii MQTT installations): ws://127.0.0.1:\(port)/mqtt\n"), "\(server.printed)")
        let chunk = """
            local app = understudy.app("kii")
            local user = assert(app.users.register{ username = "mqtt_user", password = "123ABC" })
            local id = app.installations.register{ user = user.userID, type = "MQTT" }.installationID
            local endpoint = app.installations.mqtt_endpoint(id)
            return endpoint.portTCP .. "/" .. endpoint.portWS
            """
        let connection = try #require(RawConnection(port: port))
        connection.send(
            "POST /_understudy/lua HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: text/plain\r\nContent-Length: \(chunk.utf8.count)\r\n\r\n\(chunk)"
        )
        let reply = await connection.reply()
        #expect(reply.contains("0/\(port)"), "\(reply)")
        await server.stop()
    }

    @Test("the command line wins over the environment")
    func commandLineWins() async throws {
        let port = freePort()
        let server = try ServeProcess(["--port", String(port), "--seed", "9"], environment: ["UNDERSTUDY_SEED": "5", "UNDERSTUDY_PORT": "1"])
        #expect(await server.waitFor("understudy ready on http://127.0.0.1:\(port)\n"), "\(server.printed)\(server.complaints)")
        #expect(server.printed.contains("(seed 9)"))
        await server.stop()
    }

    @Test("a bad value from the environment is refused like the same option on the command line")
    func badEnvironmentValue() async throws {
        let (status, _, complaint) = try await runUnderstudy(["serve"], environment: ["UNDERSTUDY_PORT": "99999"])
        #expect(status == 2)
        #expect(complaint.contains("--port"), "\(complaint)")
    }
}

@Suite("understudy explain suggests the nearest code")
struct ExplainSuggestionTests {
    @Test("explain 30333 says 'did you mean 3033?', as expect.error does")
    func nearestCode() async throws {
        let (status, _, complaint) = try await runUnderstudy(["explain", "30333"])
        #expect(status == 2)
        #expect(complaint.contains("30333 is not in the catalogue (did you mean 3033?)"), "\(complaint)")
        let (_, _, kii) = try await runUnderstudy(["explain", "USER_ALREADY_EXIST"])
        #expect(kii.contains("(did you mean USER_ALREADY_EXISTS?)"), "\(kii)")
        let (flavourStatus, _, flavour) = try await runUnderstudy(["explain", "3033", "--flavour", "backendles"])
        #expect(flavourStatus == 2)
        #expect(flavour.contains("got 'backendles' (did you mean 'backendless'?)"), "\(flavour)")
    }

    @Test("a misspelt subcommand or option value gets the nearest name, as a misspelt option does")
    func nearestOnTheCommandLine() async throws {
        let cases: [([String], String)] = [
            (["rn", "scenarios/"], "'rn' is not a subcommand of understudy (did you mean 'run'?) (subcommands: run, codes, serve"),
            (["codes", "mrege", "a.json"], "'mrege' is not a subcommand of understudy codes (did you mean 'merge'?)"),
            (["run", "--format", "junitt", "scenarios/"], "Please provide one of 'pretty', 'tap' or 'junit'. Did you mean 'junit'?"),
            (["serve", "--clock", "reel"], "Did you mean 'real'?"),
            (["run", "--sead", "3", "scenarios/"], "Did you mean '--seed'?"),
        ]
        for (arguments, expected) in cases {
            let (status, _, complaint) = try await runUnderstudy(arguments)
            #expect(status == 2, "\(arguments)")
            #expect(complaint.contains(expected), "\(arguments): \(complaint)")
        }
        // A right name still runs; help is not a misspelling.
        #expect(try await runUnderstudy(["help", "run"]).0 == 0)
    }
}
