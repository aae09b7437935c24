import ArgumentParser

/// The `understudy` command.
@main
struct UnderstudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "understudy",
        abstract: "A scriptable, in-memory stand-in for Backendless and Kii Cloud user, verification and push backends.",
        version: "0.1.0",
        subcommands: [RunCommand.self, ServeCommand.self, InitCommand.self, TypesCommand.self, ExplainCommand.self]
    )

    /// Usage errors exit with 2 (argument-parser's default is 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = fullMessage(for: error)
                FileOutput.standardError.write(message + "\n")
                FileOutput.exit(2)
            }
            exit(withError: error)
        }
    }
}
