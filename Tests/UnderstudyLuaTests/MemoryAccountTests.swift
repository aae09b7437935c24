import Testing
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

/// `--max-memory` counts everything a scenario can make a backend hold, charged before what a call's arguments
/// do not bound is built, and credited back when it is freed (issue 29, item 3).
@Suite("Memory account: every byte a scenario grows a backend by counts towards --max-memory")
struct MemoryAccountTests {
    static let limits = ScenarioLimits(maxInstructions: Int64.max / 2, maxMemory: 8 * 1024 * 1024, timeout: 120)

    /// Each grows a backend by about 100 MiB (unless stopped) through one kind of record the cap did not count.
    static let growers: [(name: String, body: String)] = [
        ("push templates", #"local big = ("x"):rep(1024 * 1024) for i = 1, 100 do app.push.templates.define{ name = "t" .. i, message = big .. i } end"#),
        ("email templates", #"local big = ("x"):rep(1024 * 1024) for i = 1, 100 do app.email.templates.define{ name = "e" .. i, subject = "s", body = big .. i } end"#),
        ("fault messages", #"local big = ("m"):rep(1024 * 1024) for i = 1, 100 do app.faults.inject{ op = "users.register", code = 3033, message = big .. i } end"#),
        ("fault operations", #"local big = ("m"):rep(1024 * 1024) for i = 1, 100 do app.faults.inject{ op = "*", code = 3033, times = 1000000000, message = big .. i } end"#),
        ("roles", #"local big = ("r"):rep(1024 * 1024) for i = 1, 100 do app.roles.define(big .. i) end"#),
        ("device channels", #"""
            local channels = {}
            for c = 1, 300 do channels[c] = ("c"):rep(90) .. c end
            for d = 1, 300 do app.devices.register{ token = "t", device_id = "d" .. d, os = "IOS", channels = channels } end
            """#),
        ("settings", #"local big = ("s"):rep(1024 * 1024) for i = 1, 100 do understudy.backendless{ app_id = big .. i } end"#),
        ("setting changes", #"local big = ("s"):rep(1024 * 1024) for i = 1, 100 do understudy.backendless().settings.identity = big .. i end"#),
        ("push template placeholders", #"""
            app.push.templates.define{ name = "t", message = ("{v}"):rep(100000) }
            app.push.with_template("t", { v = ("y"):rep(1000) })
            """#),
        ("push template placeholders in headers", #"""
            app.push.templates.define{ name = "t", message = "m", headers = { h = ("{v}"):rep(100000) } }
            app.push.with_template("t", { v = ("y"):rep(1000) })
            """#),
        ("email template placeholders", #"""
            app.email.templates.define{ name = "e", subject = "s", body = ("{v}"):rep(100000) }
            app.email.send_template("e", { to = { "a@example.com" } }, { v = ("y"):rep(1000) })
            """#),
        ("confirmation template placeholders", #"""
            app.settings.email_confirmation = true
            app.email.templates.define{ name = "Confirmation", subject = "s", body = ("{Users.bio}"):rep(100000) }
            app.users.register{ email = "a@example.com", password = "secret", bio = ("b"):rep(490) }
            """#),
    ]

    @Test("each record a scenario can grow stops at the cap with the cap's failure (templates, placeholders filled, fault messages, roles, channels, settings)")
    func everyGrowthIsCapped() {
        let source = Self.growers.map { #"scenario("\#($0.name)", function() local app = understudy.backendless() \#($0.body) end)"# }
            .joined(separator: "\n") + "\nscenario(\"fine\", function() end)"
        let result = runScenarios(source, limits: Self.limits)
        for grower in Self.growers {
            let message = result.outcome(grower.name)?.message ?? "passed"
            #expect(message.contains("memory cap exceeded"), "\(grower.name): \(message)")
        }
        #expect(result.outcome("fine")?.status == .passed)
    }

    @Test("what a scenario frees is credited back: users, faults and templates made and dropped again and again stay under the cap")
    func freedMemoryIsCredited() {
        let source = #"""
            scenario("users", function()
              local app = understudy.backendless()
              for i = 1, 24 do -- 1 MB each: 24 MB in all under an 8 MiB cap
                local properties = { email = "u" .. i .. "@example.com", password = "secret" }
                for p = 1, 2000 do properties["p" .. p] = ("b"):rep(490) .. i end
                local user = expect.ok(app.users.register(properties))
                expect.ok(app.users.delete(user.objectId))
              end
            end)
            scenario("faults", function()
              local app = understudy.kii()
              for i = 1, 60 do
                app.faults.inject{ op = "users.register", code = "X", status = 400, message = ("m"):rep(1024 * 1024) .. i }
                app.faults.clear()
              end
            end)
            scenario("templates", function()
              local app = understudy.backendless()
              for i = 1, 60 do app.push.templates.define{ name = "same", message = ("t"):rep(1024 * 1024) .. i } end
            end)
            """#
        let result = runScenarios(source, limits: Self.limits)
        for name in ["users", "faults", "templates"] {
            #expect(result.outcome(name)?.status == .passed, "\(name): \(result.outcome(name)?.message ?? "")")
        }
    }
}
