package import UnderstudyLua
package import UnderstudyRunner

/// Runs scenario source text (no file on disk) and returns the suite result.
package func runScenarios(
    _ source: String, file: String = "scenarios/test.lua", seed: UInt64 = 1, jobs: Int = 1,
    limits: ScenarioLimits = ScenarioLimits(maxInstructions: 5_000_000, maxMemory: 32 * 1024 * 1024),
    selection: ScenarioSelection = ScenarioSelection()
) -> SuiteResult {
    runFiles([(file, source)], seed: seed, jobs: jobs, limits: limits, selection: selection)
}

/// Runs several in-memory scenario files.
package func runFiles(
    _ files: [(path: String, source: String)], seed: UInt64 = 1, jobs: Int = 1,
    limits: ScenarioLimits = ScenarioLimits(maxInstructions: 5_000_000, maxMemory: 32 * 1024 * 1024),
    selection: ScenarioSelection = ScenarioSelection()
) -> SuiteResult {
    let runner = SuiteRunner(configuration: RunConfiguration(seed: seed, limits: limits, jobs: jobs, selection: selection))
    return runner.run(files.map { ScenarioFile(path: $0.path, contents: Array($0.source.utf8)) })
}

extension SuiteResult {
    /// The outcome of the scenario with this name.
    package func outcome(_ name: String) -> ScenarioOutcome? {
        outcomes.first { $0.declaration.name == name }
    }
}

/// The repository's folder of this checkout (where `scenarios/` and `docs/` are).
package let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
}()

/// Runs the scenario files under `folder` (relative to the repository), as `understudy run folder` does, in
/// this process.
package func runScenarioFolder(_ folder: String, seed: UInt64 = 1, jobs: Int = 2) throws -> SuiteResult {
    let files = try ScenarioDiscovery.files(at: [repositoryRoot + "/" + folder])
    let runner = SuiteRunner(configuration: RunConfiguration(seed: seed, limits: ScenarioLimits(), jobs: jobs))
    return runner.run(files)
}
