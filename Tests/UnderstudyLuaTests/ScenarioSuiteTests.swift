import Testing
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

/// The scenario suite under `scenarios/` is the readable specification of every rule: a plain `swift test` runs it
/// too, so no rule of either flavour can break without a failing test.
@Suite("The scenario suite")
struct ScenarioSuiteTests {
    @Test("every scenario under scenarios/ passes, and every file loads", arguments: ["scenarios/backendless", "scenarios/kii", "scenarios/contract-v2"])
    func suitePasses(folder: String) throws {
        let result = try runScenarioFolder(folder)
        #expect(result.loadErrors.isEmpty, "files that did not load: \(result.loadErrors.map(\.file))")
        let failed = result.outcomes.filter { $0.status == .failed }
        #expect(failed.isEmpty, "\(failed.count) failed: \(failed.map { "\($0.file): \($0.declaration.name): \($0.message ?? "")" })")
        #expect(result.passed > 50, "\(folder) ran only \(result.passed) scenarios")
    }
}
