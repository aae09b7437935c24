import ArgumentParser
import UnderstudyLua
import UnderstudyRunner

/// `understudy worker` (hidden): a worker process of `understudy run`, fed scenario files over standard input.
struct WorkerModeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run scenarios sent by `understudy run` over standard input (internal).",
        shouldDisplay: false
    )

    @OptionGroup var limits: LuaLimitOptions

    @Option var seed: UInt64 = 1

    @Flag var unsafe = false

    func run() throws {
        ScenarioWorker.serve(configuration: RunConfiguration(seed: seed, limits: limits.limits(unsafe: unsafe)))
    }
}
