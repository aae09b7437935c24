import ArgumentParser
import Dispatch
import Synchronization
import Understudy
import UnderstudyHTTP
import UnderstudyLua
import UnderstudyRunner

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

    @Option(help: "Seconds a connection may go without a complete request part (idle keep-alive, a head or body that stops arriving) before it is closed; 0: never.")
    var idleTimeout: Double = 10

    @OptionGroup(title: "Limits")
    var limits: LuaLimitOptions

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535, got \(port)") }
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
        var setup: ScenarioFile?
        if let script {
            guard let file = try? ScenarioDiscovery.files(at: [script]).first else {
                FileOutput.standardError.write("understudy serve: cannot read the setup script \(script)\n")
                throw ExitCode(2)
            }
            setup = file
        }
        let options = ServerOptions(
            host: host, port: port, setupScript: setup, seed: seed,
            limits: limits.limits(),
            controlToken: controlToken, idleTimeout: idleTimeout
        )
        let server: UnderstudyServer
        do {
            server = try UnderstudyServer(options: options)
        } catch {
            FileOutput.standardError.write("understudy serve: \(error.message)\n")
            throw ExitCode(2)
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
            let key = app.flavour == .backendless ? "REST key" : "app key"
            let keys = app.keys.map { "\(key) \($0.value)" }.joined(separator: ", ")
            lines.append("  \(app.flavour.displayName) app \(app.appID), \(keys): \(options.linkBase)\(app.restPath)/")
        }
        lines.append("  control API: \(options.linkBase)/_understudy/" + (options.controlToken == nil ? "" : " (X-Understudy-Token required)"))
        lines.append("  dashboard: \(options.linkBase)/_understudy/ui/")
        lines.append("Ctrl-C stops the server.")
        return lines.joined(separator: "\n") + "\n"
    }
}
