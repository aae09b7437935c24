import ArgumentParser
import Understudy
import UnderstudyLua
import UnderstudyRunner

/// The `understudy` command.
@main
struct UnderstudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "understudy",
        abstract: "A scriptable, in-memory stand-in for Backendless and Kii Cloud user, verification and push backends.",
        version: UnderstudyVersion.current,
        subcommands: [
            RunCommand.self, CodesCommand.self, ServeCommand.self, HealthCommand.self, ExportCommand.self, RecordCommand.self, InitCommand.self, TypesCommand.self, ExplainCommand.self, DocsCommand.self,
            WorkerModeCommand.self,
        ]
    )

    /// Usage errors exit with 2 (argument-parser's default is 64).
    static func main() {
        // The signals that end a run end it, whatever mask the process was started with (a test harness, a CI
        // agent): a cancelled job must not leave a runner, or its workers, behind.
        WorkerSignals.unblockEndingSignals()
        do {
            // `serve` also reads its options from UNDERSTUDY_* environment variables.
            let arguments = ServeEnvironment.arguments(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.variables)
            if let unknown = UsageSuggestions.unknownSubcommand(arguments, subcommands: configuration.subcommands) {
                FileOutput.standardError.write(unknown + "\n")
                exit(withError: ExitCode(2))
            }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = UsageSuggestions.improving(fullMessage(for: error))
                FileOutput.standardError.write(message + "\n")
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}

