import ArgumentParser
import Foundation
import Dispatch
import Synchronization
import Understudy
import UnderstudyHTTP
import UnderstudyLua
import UnderstudyRunner

extension ClockMode: ExpressibleByArgument {}

/// `understudy serve`: the emulated backends over HTTP, steered through the control API.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the emulated Backendless and Kii apps over HTTP at the real services' REST paths.",
        discussion: """
            With no --script it serves one Backendless app (app id \(DefaultApps.backendlessAppID), REST key \
            \(DefaultApps.backendlessAPIKey)) and one Kii app (app id \(DefaultApps.kiiAppID), app key \
            \(DefaultApps.kiiAppKey)). A setup script creates the apps it wants instead (understudy.backendless{...}, \
            understudy.kii{...}), seeds users, sets settings and faults. The control API lives under /_understudy/; \
            GET /_understudy/health answers without a token. Once it listens, the server prints one line \
            `understudy ready on URL` (a log-wait strategy can match it). Ctrl-C or SIGTERM stops the server.

            Every option is also read from an environment variable: --NAME from UNDERSTUDY_NAME (upper case, - as _: \
            UNDERSTUDY_PORT, UNDERSTUDY_CONTROL_TOKEN, UNDERSTUDY_CLOCK), a flag from UNDERSTUDY_NAME=1, and more \
            options from UNDERSTUDY_OPTIONS; the command line wins.
            """
    )

    @Option(help: "The address to listen on. Beyond the loopback interface --control-token is required.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "A Lua setup script: create apps, seed users, set settings and faults. Runs again on every reset.")
    var script: String?

    @Option(help: "The seed of every id, token and code.")
    var seed: UInt64 = 1

    @Option(help: "A token the control API (/_understudy/) requires in the X-Understudy-Token header.")
    var controlToken: String?

    @Option(help: "Seconds a connection may go without a complete request part (idle keep-alive, a head or body that stops arriving) before it is closed; 0: never.")
    var idleTimeout: Double = 10

    @Option(name: .customLong("codes-json"), help: ArgumentHelp("At exit, write what the app under test met (GET /_understudy/coverage) to FILE, in the format of `run --codes-json`: `understudy codes merge` and `codes check` read it.", valueName: "FILE"))
    var codesJSON: String?

    @Option(help: "Where the apps' virtual clocks start, and restart at each reset: an ISO 8601 time (2030-01-01T00:00:00Z) or seconds since the epoch. Default: the real time of the start (and of each reset).")
    var clockStart: String?

    @Option(help: "How the apps' clocks move: virtual (only when told: advance, set) or real (they follow the real time from their start; advance and set still move them).")
    var clock: ClockMode = .virtual

    @Option(help: "The MQTT broker's TCP port (Kii's MQTT installations; MQTT over WebSocket is at /mqtt on --port); 0: no TCP listener. Default 1883; when it is taken, serve goes on without MQTT over TCP.")
    var mqttPort: Int?

    @Flag(inversion: .prefixedNo, help: "Answer MQTT over WebSocket at /mqtt on --port.")
    var mqttWebsocket = true

    @OptionGroup(title: "Limits")
    var limits: LuaLimitOptions

    /// bench/http.py's floor: a trivial Hummingbird POST handler on the same server set-up, no emulated app.
    @Flag(help: ArgumentHelp("Serve a trivial POST handler instead of the apps (bench/http.py's floor).", visibility: .private))
    var benchTrivial = false

    /// `--clock-start` as seconds since the epoch; nil when not given.
    static func clockStartSeconds(_ text: String?) throws -> Double? {
        guard let text else { return nil }
        if let seconds = Double(text), VirtualClock.accepts(seconds) { return seconds }
        if let date = try? Date(text, strategy: .iso8601) { return date.timeIntervalSince1970 }
        throw ValidationError("--clock-start must be an ISO 8601 time such as 2030-01-01T00:00:00Z or seconds since the epoch, got '\(text)'")
    }

    func validate() throws {
        _ = try Self.clockStartSeconds(clockStart)
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535, got \(port)") }
        if let mqttPort, !(0...65535).contains(mqttPort) || mqttPort == port {
            throw ValidationError("--mqtt-port must be from 0 (off) to 65535 and differ from --port, got \(mqttPort)")
        }
        if !(idleTimeout >= 0) || idleTimeout > 1e6 { throw ValidationError("--idle-timeout must be a number of seconds, 0 or more") }
        if (controlToken ?? "").isEmpty, !LoopbackCheck.onlyLoopback(host) {
            throw ValidationError(
                "--host \(host) reaches beyond this machine (or does not resolve to loopback addresses only): give --control-token TOKEN so that only you can steer the server"
            )
        }
    }

    /// Serves on the event loops themselves: Swift concurrency runs on NIO's threads, so a request never hops
    /// between thread pools (this must happen before any concurrency code runs, hence a synchronous command).
    func run() throws {
        UnderstudyServer.runConcurrencyOnEventLoops()
        let finished = DispatchSemaphore(value: 0)
        let failure = Mutex<ExitCode?>(nil)
        let command = self
        Task {
            do {
                try await command.serve()
            } catch let code as ExitCode {
                failure.withLock { $0 = code }
            } catch {
                FileOutput.standardError.write("understudy serve: \(error)\n")
                failure.withLock { $0 = .failure }
            }
            finished.signal()
        }
        finished.wait()
        if let code = failure.withLock({ $0 }) { throw code }
    }

    func serve() async throws {
        if benchTrivial {
            let address = "\(host):\(port)"
            try await TrivialServer.run(host: host, port: port) {
                FileOutput.standardOutput.write("understudy serve --bench-trivial: a trivial POST handler on \(address)\n")
            }
            return
        }
        var setup: ScenarioFile?
        if let script {
            guard let file = try? ScenarioDiscovery.files(at: [script]).first else {
                FileOutput.standardError.write("understudy serve: cannot read the setup script \(script)\n")
                throw ExitCode(2)
            }
            setup = file
        }
        var options = ServerOptions(
            host: host, port: port, setupScript: setup, seed: seed,
            limits: limits.limits(),
            controlToken: controlToken, idleTimeout: idleTimeout, clockStart: try Self.clockStartSeconds(clockStart),
            clockMode: clock
        )
        options.mqttPort = mqttPort ?? (port == 1883 ? 0 : 1883)
        options.mqttPortRequired = mqttPort != nil
        options.mqttWebSocket = mqttWebsocket
        let server: UnderstudyServer
        do {
            server = try UnderstudyServer(options: options)
        } catch {
            FileOutput.standardError.write("understudy serve: \(error.message)\n")
            throw ExitCode(2)
        }
        if let codesJSON {  // refuse a path it cannot write before serving, not at the end
            guard let probe = FileOutput(path: codesJSON) else {
                FileOutput.standardError.write("understudy serve: cannot write --codes-json \(codesJSON)\n")
                throw ExitCode(2)
            }
            probe.close()
        }
        let watch = Self.watchStopSignals(server)
        defer { watch.forEach { $0.cancel() } }
        try await server.run {
            FileOutput.standardOutput.write(server.withStage { stage in Self.banner(stage, options: stage.options) })
        } warn: { message in
            FileOutput.standardError.write("understudy serve: \(message)\n")
        }
        if let codesJSON, let file = FileOutput(path: codesJSON) {
            file.write(server.coverageText())
            file.close()
            FileOutput.standardOutput.write("understudy serve: wrote the coverage to \(codesJSON)\n")
        }
        FileOutput.standardOutput.write("understudy serve: stopped\n")
    }

    /// How long a stopping server may take before the process exits anyway (a control chunk running up to its
    /// `--timeout`, a client that never reads).
    static let stopGrace: Double = 3

    /// SIGTERM and SIGINT (which the service group also turns into a graceful shutdown): pending delays end at once,
    /// and if the server has not stopped `stopGrace` seconds later, or at a second signal, the process exits.
    static func watchStopSignals(_ server: UnderstudyServer) -> [any DispatchSourceSignal] {
        final class Count: Sendable { let value = Atomic<Int>(0) }
        let signalled = Count()
        return [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)  // as the service group does: the sources below receive it
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                server.beginShutdown()
                if signalled.value.add(1, ordering: .relaxed).oldValue > 0 {
                    FileOutput.standardError.write("understudy serve: stopped at a second signal\n")
                    Foundation.exit(128 + number)
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + stopGrace) {
                    FileOutput.standardError.write("understudy serve: stopped after \(Int(stopGrace)) s with requests still pending\n")
                    Foundation.exit(128 + number)
                }
            }
            source.resume()
            return source
        }
    }

    static func banner(_ stage: Stage, options: ServerOptions) -> String {
        var lines = ["understudy serving on \(options.linkBase) (seed \(options.seed))"]
        for app in stage.apps {
            let key = app.flavour == .backendless ? "REST key" : "app key"
            let keys = app.keys.map { "\(key) \($0.value)" }.joined(separator: ", ")
            lines.append("  \(app.flavour.displayName) app \(app.appID), \(keys): \(options.linkBase)\(app.restPath)/")
        }
        lines.append("  control API: \(options.linkBase)/_understudy/" + (options.controlToken == nil ? "" : " (X-Understudy-Token required)"))
        lines.append("  dashboard: \(options.linkBase)/_understudy/ui/")
        let mqtt = options.mqttAddress
        var transports: [String] = []
        if mqtt.portTCP > 0 { transports.append("mqtt://\(mqtt.host):\(mqtt.portTCP)") }
        if mqtt.portWS > 0 { transports.append("ws://\(mqtt.host):\(mqtt.portWS)/mqtt") }
        lines.append("  MQTT broker (Kii MQTT installations): " + (transports.isEmpty ? "off" : transports.joined(separator: ", ")))
        if options.clockMode == .real { lines.append("  clocks: real time (advance and set still move them)") }
        lines.append("Ctrl-C stops the server.")
        lines.append(readyLine(options))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The one line a log-wait strategy (Testcontainers' `Wait.forLogMessage`) matches: printed once, when the
    /// server listens. Its form is stable: `understudy ready on http://HOST:PORT`.
    static func readyLine(_ options: ServerOptions) -> String {
        "understudy ready on \(options.linkBase)"
    }
}
