import Testing
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

@Suite("Backendless OAuth bindings")
struct BackendlessOAuthBindingTests {
    @Test("provider accounts count towards the memory cap: defining them without end stops at --max-memory")
    func accountsAreCapped() {
        let source = #"""
            scenario("accounts", function()
              local app = understudy.backendless()
              for i = 1, 300000 do
                app.oauth.account{ provider = "facebook", token = "t" .. i, profile = { id = tostring(i) } }
              end
            end)
            scenario("replacing", function()
              local app = understudy.backendless()
              for i = 1, 20000 do
                app.oauth.account{ provider = "facebook", token = "same", profile = { id = tostring(i) } }
              end
            end)
            """#
        let limits = ScenarioLimits(maxInstructions: Int64.max / 2, maxMemory: 8 * 1024 * 1024, timeout: 20)
        let result = runScenarios(source, limits: limits)
        #expect(result.outcome("accounts")?.message?.contains("memory cap exceeded") == true, "\(result.outcome("accounts")?.message ?? "passed")")
        #expect(result.outcome("replacing")?.status == .passed, "replacing an account holds nothing more: \(result.outcome("replacing")?.message ?? "")")
    }
}
