import ArgumentParser
import UnderstudyLua
import UnderstudyRunner

/// `understudy run PATH...`: runs scenario files and reports the outcome.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files (every .lua file under the given files and folders).",
        discussion: """
            Exit status: 0 when every scenario passes, 1 when any fails, 2 for a usage error or a file that \
            does not load, 5 when no scenario ran (no scenario files, files that declare none, or a --tag or \
            --filter that selects none), saying why in every format. Editor definition files (---@meta, such as \
            the types/understudy.lua that understudy init writes) are not scenario files and are not run.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case pretty, tap, junit
    }

    @Argument(help: "Scenario files or folders.")
    var paths: [String] = []

    @Option(help: "Run only scenarios whose name contains this text.")
    var filter: String?

    @Option(name: .customLong("tag"), help: "Run only scenarios with this tag (repeatable).")
    var tags: [String] = []

    @Option(help: "The seed of every id, token and code; the same seed replays the same run.")
    var seed: UInt64 = 1

    @Option(help: "Report format: pretty, tap or junit.")
    var format: Format = .pretty

    @Option(help: "Write the report to this file (the pretty report still goes to the terminal).")
    var output: String?

    @Flag(help: "Show the printed output of passing scenarios too.")
    var verbose = false

    @Flag(help: "Open the whole Lua standard library (io, os, debug, require) to scenarios.")
    var unsafe = false

    @Flag(help: "List the scenarios without running them.")
    var list = false

    @Option(help: "Worker processes (threads with --in-process; default: the number of cores).")
    var jobs: Int?

    @Option(help: "Run only shard K of N (for example 2/4): a stable partition of the scenarios.")
    var shard: String?

    @OptionGroup(title: "Limits")
    var limits: LuaLimitOptions

    @Flag(help: "Run the scenarios on threads of this process instead of worker processes (faster to start; a crash or a hang inside C code then ends the whole run).")
    var inProcess = false

    @OptionGroup(title: "Error-code coverage and watch mode")
    var extras: RunExtras

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one scenario file or folder, e.g. `understudy run scenarios/`") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        try extras.validate()
        if shard != nil, parsedShard == nil {
            throw ValidationError("--shard must look like K/N with 1 ≤ K ≤ N, e.g. --shard 2/4")
        }
    }

    var parsedShard: (index: Int, count: Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, index >= 1, index <= count
        else { return nil }
        return (index, count)
    }

    func run() throws {
        throw try runSuite()
    }

    /// Runs the suite; the exit code says how it went.
    private func runSuite() throws -> ExitCode {
        let files: [ScenarioFile]
        var skippedFiles: [String] = []
        do {
            files = try ScenarioDiscovery.files(at: paths, skipped: &skippedFiles)
        } catch {
            throw ValidationError(error.description)
        }
        let workers = WorkerCommand(
            executable: FileOutput.executablePath,
            arguments: ["worker", "--seed", String(seed)] + limits.arguments + (unsafe ? ["--unsafe"] : [])
        )
        let configuration = RunConfiguration(
            seed: seed,
            limits: limits.limits(unsafe: unsafe),
            jobs: jobs ?? FileOutput.processorCount,
            selection: ScenarioSelection(filter: filter, tags: tags, shard: parsedShard),
            workers: inProcess || list ? nil : workers
        )
        let runner = SuiteRunner(configuration: configuration)
        if extras.watch {
            try watch(runner)
            return .success
        }
        if list { return listScenarios(runner, files) }

        let console = FileOutput.standardOutput
        let pretty = PrettyReporter(verbose: verbose)
        let streamsPretty = format == .pretty || output != nil
        let lastFile = LastFile()
        let result = runner.run(files) { event in
            guard streamsPretty else { return }
            console.write(pretty.render(event, previousFile: lastFile.swap(event)))
        }
        let coverage = extras.codes || extras.codesJSON != nil ? CodeCoverage(result: result) : nil
        if let path = extras.codesJSON, let coverage {
            guard let file = FileOutput(path: path) else { throw ValidationError("cannot write to \(path)") }
            file.write(coverage.json())
            file.close()
        }
        let emptyReason = EmptyRun.reason(
            of: result, files: files, paths: paths, configuration: configuration, skippedFiles: skippedFiles
        )
        var report: String?
        switch format {
        case .pretty: report = nil
        case .tap: report = TAPReporter().render(result) + (extras.codes ? coverage?.tapComment() ?? "" : "")
        case .junit: report = JUnitReporter().render(result)
        }
        if let emptyReason {
            switch format {
            case .pretty: break
            case .tap: report = TAPReporter().renderEmpty(emptyReason, seed: seed)
            case .junit: report = JUnitReporter().renderEmpty(emptyReason, seed: seed)
            }
        }
        if format == .junit, extras.codes, let coverage, let xml = report { report = coverage.addingProperties(toJUnit: xml) }
        if let output {
            guard let file = FileOutput(path: output) else { throw ValidationError("cannot write to \(output)") }
            file.write(report ?? (result.events.map { pretty.render($0, previousFile: nil) }.joined() + pretty.summary(result)))
            file.close()
        } else if let report {
            console.write(report)
        }
        if streamsPretty { console.write(pretty.summary(result)) }
        if streamsPretty, extras.codes, let coverage { console.write(coverage.renderTable()) }
        if let emptyReason {
            FileOutput.standardError.write("understudy: no scenario ran: \(emptyReason)\n")
            return ExitCode(EmptyRun.exitStatus)
        }
        if !result.loadErrors.isEmpty { return ExitCode(2) }
        if result.failed > 0 { return .failure }
        if extras.codes, let coverage, !extras.meetsMinimum(coverage) { return .failure }
        return .success
    }

    private func listScenarios(_ runner: SuiteRunner, _ files: [ScenarioFile]) -> ExitCode {
        let console = FileOutput.standardOutput
        var failedToLoad = false
        for entry in runner.list(files) {
            switch entry {
            case .success(let listing):
                for declaration in listing.declarations {
                    // Names and tags come from scenario files: control characters are shown, not sent to the terminal.
                    let tags = declaration.tags.isEmpty ? "" : "  [" + declaration.tags.map(TextEscaping.inline).joined(separator: ", ") + "]"
                    console.write("\(TextEscaping.inline(listing.file)):\(declaration.line)  \(TextEscaping.inline(declaration.name))\(tags)\n")
                }
            case .failure(let error):
                failedToLoad = true
                FileOutput.standardError.write("\(TextEscaping.inline(error.file)): the file did not load: \(TextEscaping.visible(error.message))\n")
            }
        }
        return failedToLoad ? ExitCode(2) : .success
    }
}

/// Remembers the file of the last streamed event, so the pretty report prints each file's name once.
final class LastFile: @unchecked Sendable {
    private var file: String?

    func swap(_ event: SuiteEvent) -> String? {
        let previous = file
        switch event {
        case .loadFailed(let error): file = error.file
        case .finished(let outcome): file = outcome.file
        }
        return previous
    }
}
