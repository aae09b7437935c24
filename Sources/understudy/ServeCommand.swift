import ArgumentParser
import Dispatch
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// `understudy serve`: the emulated backends over HTTP, steered through the control API.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the emulated Backendless and Kii apps over HTTP at the real services' REST paths.",
        discussion: """
            With no --script it serves one Backendless app (app id \(DefaultApps.backendlessAppID), REST key \
            \(DefaultApps.backendlessAPIKey)) and one Kii app (app id \(DefaultApps.kiiAppID), app key \
            \(DefaultApps.kiiAppKey)). A setup script creates the apps it wants instead (understudy.backendless{...}, \
            understudy.kii{...}), seeds users, sets settings and faults. The control API lives under /_understudy/. \
            Ctrl-C stops the server.
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

    @Option(help: "Lua instructions one control chunk, setup script or fault predicate may run.")
    var maxInstructions: Int64 = 100_000_000

    @Option(help: "Memory the server's Lua state may use, in MiB.")
    var maxMemory: Int = 256

    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535, got \(port)") }
        if !Self.loopbackHosts.contains(host), !host.hasPrefix("127."), (controlToken ?? "").isEmpty {
            throw ValidationError(
                "--host \(host) reaches beyond this machine: give --control-token TOKEN so that only you can steer the server"
            )
        }
        if maxInstructions < 1000 { throw ValidationError("--max-instructions must be at least 1000") }
        if maxMemory < 1 { throw ValidationError("--max-memory must be at least 1 (MiB)") }
    }

    /// Serves on the event loops themselves: Swift concurrency runs on NIO's threads, so a request never hops
    /// between thread pools (this must happen before any concurrency code runs, hence a synchronous command).
    func run() throws {
        UnderstudyServer.runConcurrencyOnEventLoops()
        let finished = DispatchSemaphore(value: 0)
        let command = self
        Task {
            do {
                try await command.serve()
            } catch {
                FileOutput.standardError.write("understudy serve: \(error)\n")
                FileOutput.exit(1)
            }
            finished.signal()
        }
        finished.wait()
    }

    func serve() async throws {
        var setup: ScenarioFile?
        if let script {
            guard let file = try? ScenarioDiscovery.files(at: [script]).first else {
                FileOutput.standardError.write("understudy serve: cannot read the setup script \(script)\n")
                FileOutput.exit(2)
            }
            setup = file
        }
        let options = ServerOptions(
            host: host, port: port, setupScript: setup, seed: seed,
            limits: ScenarioLimits(maxInstructions: maxInstructions, maxMemory: maxMemory * 1024 * 1024),
            controlToken: controlToken
        )
        let server: UnderstudyServer
        do {
            server = try UnderstudyServer(options: options)
        } catch {
            FileOutput.standardError.write("understudy serve: \(error.message)\n")
            FileOutput.exit(2)
        }
        let banner = server.withStage { stage in Self.banner(stage, options: options) }
        try await server.run {
            FileOutput.standardOutput.write(banner)
        }
        FileOutput.standardOutput.write("understudy serve: stopped\n")
    }

    static func banner(_ stage: Stage, options: ServerOptions) -> String {
        var lines = ["understudy serving on \(options.linkBase) (seed \(options.seed))"]
        for app in stage.apps {
            switch app {
            case let app as BackendlessApp:
                lines.append("  Backendless app \(app.settings.appID), REST key \(app.settings.apiKey): \(options.linkBase)/\(app.settings.appID)/\(app.settings.apiKey)/")
            case let app as KiiApp:
                lines.append("  Kii app \(app.settings.appID), app key \(app.settings.appKey): \(options.linkBase)/api/apps/\(app.settings.appID)/")
            default: continue
            }
        }
        lines.append("  control API: \(options.linkBase)/_understudy/" + (options.controlToken == nil ? "" : " (X-Understudy-Token required)"))
        lines.append("  dashboard: \(options.linkBase)/_understudy/ui/")
        lines.append("Ctrl-C stops the server.")
        return lines.joined(separator: "\n") + "\n"
    }
}
