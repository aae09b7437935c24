import ArgumentParser

/// `understudy export`: asks a running server's `GET /_understudy/export` and writes the Lua setup script it
/// answers (the world: apps, users with password hashes, devices, clocks), for `serve --setup FILE`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a running server's world as a Lua setup script that `understudy serve --setup FILE` loads.",
        discussion: """
            Asks URL/_understudy/export. Without --server it asks $UNDERSTUDY_URL, else \
            http://127.0.0.1:$UNDERSTUDY_PORT (8080 when unset); the control token comes from --control-token, else \
            $UNDERSTUDY_CONTROL_TOKEN. The file holds password hashes, never passwords, and the state of every \
            generator, so the ids handed out after `serve --setup FILE` never collide with the exported ones.
            """
    )

    @Option(help: "The server's base URL (http://HOST:PORT). Default: $UNDERSTUDY_URL, else http://127.0.0.1:$UNDERSTUDY_PORT or :8080.")
    var server: String?

    @Option(help: "The control token the server requires (X-Understudy-Token). Default: $UNDERSTUDY_CONTROL_TOKEN.")
    var controlToken: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the script to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @Option(help: "Only the app with this app id.")
    var app: String?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 60

    func validate() throws {
        if !(timeout > 0) || timeout > 3600 { throw ValidationError("--timeout must be a number of seconds above 0, up to 3600") }
        if let server, HealthCheck.Target(server, route: "/_understudy/export") == nil {
            throw ValidationError("--server must be http://HOST[:PORT][/PATH], got '\(server)'")
        }
        if let app, app.isEmpty || app.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "#") || $0 >= 0x7F }) {
            throw ValidationError("--app must be an app id (letters, digits, '-', '_'), got '\(app)'")
        }
    }

    func run() throws {
        let environment = ProcessEnvironment.variables
        let given = server ?? HealthCheck.defaultURL(environment: environment)
        guard var target = HealthCheck.Target(given, route: "/_understudy/export") else {
            FileOutput.standardError.write("understudy export: \(given) is not an http:// URL\n")
            throw ExitCode(1)
        }
        if let app { target.path += "?app=" + app }
        var headers: [(name: String, value: String)] = []
        if let token = controlToken ?? environment["UNDERSTUDY_CONTROL_TOKEN"], !token.isEmpty {
            headers.append(("X-Understudy-Token", token))
        }
        switch HealthCheck.ask(target, headers: headers, timeout: timeout, limit: 1 << 31) {
        case .success(let (status, body)) where status == 200:
            guard let output else {
                FileOutput.standardOutput.write(body)
                return
            }
            guard let file = FileOutput(path: output) else {
                FileOutput.standardError.write("understudy export: cannot write \(output)\n")
                throw ExitCode(1)
            }
            file.write(body)
            file.close()
            FileOutput.standardError.write("understudy export: wrote \(target.description) to \(output)\n")
        case .success(let (status, body)):
            FileOutput.standardError.write("understudy export: \(target.description) answered \(status): \(body)\n")
            throw ExitCode(1)
        case .failure(let failure):
            FileOutput.standardError.write("understudy export: \(target.description): \(failure.message)\n")
            throw ExitCode(1)
        }
    }
}
