import Testing
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

@Suite("Strings from Lua reach the backends as given")
struct BridgeInputTests {
    /// Each scenario passes one argument that is not valid UTF-8; the Lua error it raises, by scenario name.
    static let refusals: [(name: String, call: String, message: String)] = [
        ("backendless property value", #"understudy.backendless().users.register{ email = "\255@b.co", password = "p" }"#,
         "users.register: property 'email' is not valid UTF-8"),
        ("backendless password", #"understudy.backendless().users.register{ email = "a@b.co", password = "p\254" }"#,
         "users.register: property 'password' is not valid UTF-8"),
        ("backendless property name", #"understudy.backendless().users.register{ ["n\255"] = "x", email = "a@b.co", password = "p" }"#,
         "users.register: property name 'n\u{FFFD}' is not valid UTF-8"),
        ("backendless login identity", #"understudy.backendless().users.login("\255@b.co", "p")"#,
         "users.login: identity_value (argument 1) is not valid UTF-8"),
        ("backendless find", #"understudy.backendless().users.find("\255@b.co")"#,
         "users.find: identity_value (argument 1) is not valid UTF-8"),
        ("backendless device channel", #"understudy.backendless().devices.register{ token = "t", device_id = "d", os = "IOS", channels = { "a", "b\255" } }"#,
         "devices.register: registration.channels[2] is not valid UTF-8"),
        ("backendless setting", #"understudy.backendless{ identity = "\255" }"#,
         "understudy.backendless: setting 'identity' cannot be a string that is not valid UTF-8"),
        ("kii registration field", #"understudy.kii().users.register{ username = "bond\255", password = "123ABC" }"#,
         "users.register: registration.username is not valid UTF-8"),
        ("kii login password", #"understudy.kii().users.login("bond007", "123ABC\255")"#,
         "users.login: password (argument 2) is not valid UTF-8"),
        ("kii change_email", #"understudy.kii().users.change_email("u", "\192\128@b.co")"#,
         "users.change_email: email (argument 2) is not valid UTF-8"),
        ("fault message", #"understudy.kii().faults.inject{ op = "users.login", code = "UNAUTHORIZED", message = "bad \237\160\128" }"#,
         "faults.inject: fault.message is not valid UTF-8"),
    ]

    @Test("a table argument's declared fields are read and checked from the declaration, misuse naming the field")
    func declaredTableFields() {
        let cases: [(name: String, call: String, message: String)] = [
            ("missing", #"local app = understudy.kii(); app.push.send_to_user{ message = "hi" }"#,
             "push.send_to_user: push.user is required (the userID)"),
            ("missing message", #"local app = understudy.kii(); app.push.send_to_user{ user = "u" }"#,
             "push.send_to_user: push.message is required"),
            ("wrong type", #"local app = understudy.kii(); app.push.send_to_user{ user = "u", message = 7 }"#,
             "push.send_to_user: push.message must be a string, got number"),
            ("unknown field", #"local app = understudy.kii(); app.push.send_to_user{ user = "u", message = "m", extra = 1 }"#,
             "push.send_to_user: the push has an unknown field 'extra' (known fields: user, message)"),
            ("not UTF-8", #"local app = understudy.kii(); app.push.send_to_user{ user = "u\255", message = "m" }"#,
             "push.send_to_user: push.user is not valid UTF-8"),
        ]
        let source = cases.map { #"scenario("\#($0.name)", function() \#($0.call) end)"# }.joined(separator: "\n")
        let result = runScenarios(source)
        for item in cases {
            let message = result.outcome(item.name)?.message ?? "(no outcome)"
            #expect(message.contains(item.message), "\(item.name): \(message)")
        }
        let ok = runScenarios(#"""
            scenario("delivered", function()
              local app = understudy.kii()
              local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
              expect.equal(expect.ok(app.push.send_to_user{ user = user.userID, message = "hi" }).delivered, {})
            end)
            """#)
        #expect(ok.outcome("delivered")?.status == .passed, "\(ok.outcome("delivered")?.message ?? "")")
    }

    @Test("an argument that is not valid UTF-8 is refused with a Lua error naming the function and the argument")
    func invalidUTF8IsRefused() {
        let source = Self.refusals.map { #"scenario("\#($0.name)", function() \#($0.call) end)"# }.joined(separator: "\n")
        let result = runScenarios(source)
        for refusal in Self.refusals {
            let message = result.outcome(refusal.name)?.message ?? "(no outcome)"
            #expect(message.contains(refusal.message), "\(refusal.name): \(message)")
        }
        #expect(result.failed == Self.refusals.count)
    }

    @Test("two emails that differ only in invalid bytes are not a false duplicate; valid UTF-8 comes back unchanged")
    func noFalseDuplicate() {
        let result = runScenarios(#"""
            scenario("backendless", function()
              local app = understudy.backendless()
              expect.equal(pcall(app.users.register, { email = "\255@b.co", password = "p" }), false)
              expect.equal(pcall(app.users.register, { email = "\254@b.co", password = "p" }), false)
              expect.equal(app.users.count(), 0)
              local user = expect.ok(app.users.register{ email = "zoe@b.co", name = "Zoë \u{1F600}", password = "p" })
              expect.equal(user.name, "Zoë \u{1F600}")
              expect.equal(expect.ok(app.users.register{ email = "nul@b.co", name = "a\0b", password = "p" }).name, "a\0b")
              expect.equal(pcall(app.users.register, { email = "x@b.co", name = "a\0\255", password = "p" }), false)
              expect.equal(app.users.count(), 2)
            end)
            scenario("kii", function()
              local app = understudy.kii()
              expect.equal(pcall(app.users.register, { username = "bond\255", password = "123ABC" }), false)
              expect.equal(pcall(app.users.register, { username = "bond\254", password = "123ABC" }), false)
              expect.equal(app.users.count(), 0)
            end)
            """#)
        #expect(result.outcome("backendless")?.status == .passed, "\(result.outcome("backendless")?.message ?? "")")
        #expect(result.outcome("kii")?.status == .passed, "\(result.outcome("kii")?.message ?? "")")
    }
}
