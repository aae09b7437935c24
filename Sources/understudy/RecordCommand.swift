import ArgumentParser

/// `understudy record`: asks a running server's `GET /_understudy/record` and writes the scenario file that
/// replays its session (to standard output, or `-o FILE`).
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Write the session of a running `understudy serve` since its last reset as a Lua scenario file.",
        discussion: """
            Asks SERVER/_understudy/record: every vendor request as the Lua call its operation is, in order, with \
            the control actions (settings, clock moves, Lua chunks) in place, each outcome asserted and what the \
            outbox received checked. Passwords become placeholders; ids, tokens, codes and links become variables \
            read from earlier results and the outbox; a fault appears only on the call it fired on. Requests that \
            sent an X-Understudy-Test header get a scenario per test; the others one scenario named by --name. \
            `understudy run FILE` replays it. Without --server it asks $UNDERSTUDY_URL, else \
            http://127.0.0.1:$UNDERSTUDY_PORT (8080 when unset); the control token defaults to \
            $UNDERSTUDY_CONTROL_TOKEN.
            """
    )

    @Option(help: "The server's base URL (http://HOST:PORT). Default: $UNDERSTUDY_URL, else http://127.0.0.1:$UNDERSTUDY_PORT or :8080.")
    var server: String?

    @Option(help: "The server's control token (X-Understudy-Token). Default: $UNDERSTUDY_CONTROL_TOKEN.")
    var controlToken: String?

    @Option(help: "The name of the scenario that holds the requests without an X-Understudy-Test header.")
    var name: String?

    @Option(name: .shortAndLong, help: "Write the file here instead of standard output.")
    var output: String?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 30

    func validate() throws {
        if !(timeout > 0) || timeout > 3600 { throw ValidationError("--timeout must be a number of seconds above 0, up to 3600") }
        if let server, HealthCheck.Target(server) == nil {
            throw ValidationError("--server must be http://HOST[:PORT][/PATH], got '\(server)'")
        }
        if let name, name.isEmpty || name.count > 200 { throw ValidationError("--name must be 1 to 200 characters") }
        if let output, output.isEmpty { throw ValidationError("-o/--output must name a file") }
    }

    func run() throws {
        let environment = ProcessEnvironment.variables
        let given = server ?? HealthCheck.defaultURL(environment: environment)
        guard let target = HealthCheck.Target(given) else {
            FileOutput.standardError.write("understudy record: \(given) is not an http:// URL\n")
            throw ExitCode(1)
        }
        var headers: [(name: String, value: String)] = []
        if let token = controlToken ?? environment["UNDERSTUDY_CONTROL_TOKEN"], !token.isEmpty {
            headers.append(("X-Understudy-Token", token))
        }
        let path = target.base + "/_understudy/record" + (name.map { "?name=" + Self.percentEncoded($0) } ?? "")
        switch HealthCheck.get(target, path: path, headers: headers, timeout: timeout, limit: 256 << 20) {
        case .success(let (status, body)) where status == 200:
            if let output {
                guard let file = FileOutput(path: output) else {
                    FileOutput.standardError.write("understudy record: cannot write \(output)\n")
                    throw ExitCode(1)
                }
                file.write(body)
                file.close()
            } else {
                FileOutput.standardOutput.write(body)
            }
        case .success(let (status, body)):
            FileOutput.standardError.write("understudy record: \(target.host):\(target.port) answered \(status): \(body)\n")
            throw ExitCode(1)
        case .failure(let failure):
            FileOutput.standardError.write("understudy record: \(given): \(failure.message)\n")
            throw ExitCode(1)
        }
    }

    /// A query value with everything but unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }
}
