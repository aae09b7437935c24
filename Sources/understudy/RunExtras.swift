import ArgumentParser
import Understudy
import UnderstudyLua
import UnderstudyRunner

/// The options `understudy run` adds for writing scenarios comfortably: error-code coverage and watch mode.
struct RunExtras: ParsableArguments {
    @Flag(help: "Add a table of every catalogued error code: produced by its real trigger, only by injection, or not at all (JUnit: properties; TAP: trailing comments).")
    var codes = false

    @Option(name: .customLong("codes-min"), help: ArgumentHelp("With --codes: fail the run when less than PCT % of the codes reachable in Lua are produced by their real trigger (each flavour).", valueName: "PCT"))
    var codesMin: Double?

    @Option(name: .customLong("codes-json"), help: ArgumentHelp("Write the codes this run produced (real and injected counts) as JSON to FILE, for combining shards with `understudy codes merge`.", valueName: "FILE"))
    var codesJSON: String?

    @Flag(help: "Keep running: re-run the files that change and show only what changed since the last run (Ctrl-C stops).")
    var watch = false

    func validate() throws {
        if let codesMin {
            guard codes else { throw ValidationError("--codes-min needs --codes") }
            guard (0...100).contains(codesMin) else { throw ValidationError("--codes-min must be a percentage from 0 to 100") }
        }
    }

    /// False when --codes-min is given and a flavour's share of codes produced by real triggers is below it.
    func meetsMinimum(_ coverage: CodeCoverage) -> Bool {
        guard let codesMin else { return true }
        // Only the flavours the suite met a code of: a Backendless-only suite is not failed for Kii's 0 %.
        let shortfalls = coverage.shortfalls(below: codesMin)
        for line in shortfalls { FileOutput.standardError.write("understudy run: \(line) (--codes-min)\n") }
        return shortfalls.isEmpty
    }
}

extension RunCommand {
    /// `--watch`: runs, then re-runs on every change until interrupted.
    func watch(_ runner: SuiteRunner) throws {
        guard format == .pretty, output == nil, !list else {
            throw ValidationError("--watch shows the pretty report on the terminal; it does not combine with --format, --output or --list")
        }
        guard let watcher = FileWatcher(paths: paths) else {
            throw ValidationError("cannot watch \(paths.joined(separator: " ")): the system refused a file watch")
        }
        let session = WatchSession(paths: paths, runner: runner, verbose: verbose)
        let console = FileOutput.standardOutput
        session.watch(with: watcher, output: { console.write($0) })
    }
}
