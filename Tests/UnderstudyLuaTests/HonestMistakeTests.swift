import Testing
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

/// Mistakes a scenario writer makes that used to pass silently or fail far from the cause.
@Suite("Honest mistakes fail loudly")
struct HonestMistakeTests {
    @Test("an error nobody looked at fails the scenario, naming the call, its line and the error")
    func uncheckedErrorFails() {
        let result = runScenarios("""
            scenario("dropped on its own line", function()
              local app = understudy.backendless()
              app.users.register{ email = "taken@x.io", password = "p" }
              app.users.register{ email = "taken@x.io", password = "p" }
            end)
            scenario("kept in a variable nobody reads", function()
              local app = understudy.kii()
              expect.ok(app.users.register{ username = "bond", password = "secret1" })
              local user, err = app.users.register{ username = "bond", password = "secret1" }
              expect.is_nil(user)
            end)
            scenario("a truthiness test is not a look", function()
              local app = understudy.backendless()
              local _, err = app.users.login("nobody@x.io", "p")
              if err then end
            end)
            """)
        let dropped = result.outcome("dropped on its own line")
        #expect(dropped?.status == .failed)
        #expect(dropped?.message?.hasPrefix("users.register at line 4 returned 3033 ") == true, "\(dropped?.message ?? "")")
        #expect(dropped?.message?.contains("nothing checked it") == true)
        #expect(dropped?.location == "scenarios/test.lua:4")
        let kept = result.outcome("kept in a variable nobody reads")
        #expect(kept?.status == .failed)
        #expect(kept?.message?.hasPrefix("users.register at line 9 returned 409 USER_ALREADY_EXISTS ") == true, "\(kept?.message ?? "")")
        let truthiness = result.outcome("a truthiness test is not a look")
        #expect(truthiness?.message?.hasPrefix("users.login at line 14 returned ") == true, "\(truthiness?.message ?? "")")
    }

    @Test("a fault predicate that raises inside pcall fails the scenario with the predicate's error, not an unchecked one")
    func raisingPredicateInsidePcall() {
        let result = runScenarios("""
            scenario("pcall", function()
              local app = understudy.backendless()
              app.faults.inject{ op = "users.login", code = 3000, when = function(args) return args.login.x.y end }
              pcall(app.users.login, "nobody@x.io", "wrong")
            end)
            scenario("pcall of a helper", function()
              local app = understudy.backendless()
              app.faults.inject{ op = "users.login", code = 3000, when = function() error("boom in the predicate") end }
              local ok, message = pcall(function() return app.users.login("nobody", "wrong") end)
              expect.falsy(ok)
              expect.match(message, "boom in the predicate")
            end)
            """)
        let first = result.outcome("pcall")
        #expect(first?.status == .failed)
        #expect(first?.message?.contains("the 'when' predicate of a fault on users.login failed") == true, "\(first?.message ?? "")")
        #expect(first?.message?.contains("nothing checked it") == false, "\(first?.message ?? "")")
        let second = result.outcome("pcall of a helper")
        #expect(second?.status == .failed)
        #expect(second?.message?.contains("boom in the predicate") == true, "\(second?.message ?? "")")
        #expect(second?.message?.contains("nothing checked it") == false, "\(second?.message ?? "")")
    }

    @Test("a predicate reading an undeclared name fails its scenario, naming the declared arguments and the nearest")
    func strictPredicateArguments() {
        let source = #"""
            scenario("misspelt", function()
              local app = understudy.backendless()
              app.users.register{ email = "locked@example.com", password = "pw" }
              app.faults.inject{ op = "users.login", code = 3036, when = function(args) return args.identity == "locked@example.com" end }
              app.users.login("locked@example.com", "pw")
            end)
            scenario("kii", function()
              local app = understudy.kii()
              app.faults.inject{ op = "users.login", code = "UNAUTHORIZED", when = function(args) return args.username == "bond" end }
              app.users.login("bond", "pw")
            end)
            scenario("declared", function()
              local app = understudy.backendless()
              app.users.register{ email = "locked@example.com", password = "pw" }
              app.faults.inject{ op = "users.login", code = 3036, when = function(args) return args.identity_value == "locked@example.com" end }
              expect.error(3036, app.users.login("locked@example.com", "pw"))
            end)
            """#
        let result = runScenarios(source, file: "s/args.lua")
        let misspelt = result.outcome("misspelt")?.message ?? "passed"
        #expect(misspelt.contains(
            "args.identity is not an argument of users.login (did you mean args.identity_value?): its arguments are identity_value, password"
        ), "\(misspelt)")
        let kii = result.outcome("kii")?.message ?? "passed"
        #expect(kii.contains("args.username is not an argument of users.login"), "\(kii)")
        #expect(kii.contains("its arguments are"), "\(kii)")
        #expect(result.outcome("declared")?.status == .passed, "\(result.outcome("declared")?.message ?? "")")
    }

    @Test("pairs() visits a record's fields, settings, an error's fields and any table in the same order in every state")
    func pairsOrderIsFixed() {
        let source = """
            local function keys(t) local seen = {} for k in pairs(t) do seen[#seen + 1] = k end return seen end
            local function sorted(list) local copy = { table.unpack(list) } table.sort(copy) return copy end
            scenario("order", function()
              local app = understudy.backendless()
              local user = expect.ok(app.users.register{ email = "o@x.io", password = "p", zeta = 1, alpha = 2, name = "N", mid = true })
              expect.equal(keys(user), sorted(keys(user)))
              expect.equal(keys(app.settings), sorted(keys(app.settings)))
              local _, err = app.users.login("nobody@x.io", "p")
              expect.equal(keys(err), sorted(keys(err)))
              local kii = understudy.kii()
              local kuser = expect.ok(kii.users.register{ username = "orderly", password = "secret1", country = "JP", email = "o@x.io" })
              expect.equal(keys(kuser), sorted(keys(kuser)))
              local t = { 10, 20, 30, b = 1, a = 2, [100] = 3, [-1] = 0, [true] = 4, [false] = 5, [2.5] = 6 }
              local shown = {} for k in pairs(t) do shown[#shown + 1] = tostring(k) end
              expect.equal(table.concat(shown, " "), "1 2 3 -1 2.5 100 a b false true")
              local cleared = { a = 1, b = 2, c = 3, d = 4 }
              local visited = {} for k in pairs(cleared) do visited[#visited + 1] = k; cleared.c = nil end
              expect.equal(visited, { "a", "b", "d" })
              print(table.concat(keys(user), ","))
            end)
            """
        var outputs: Set<String> = []
        for seed in [1, 1, 2, 3] as [UInt64] {
            let result = runScenarios(source, seed: seed)
            #expect(result.outcome("order")?.status == .passed, "\(result.outcome("order")?.message ?? "")")
            outputs.insert(result.outcome("order")?.output ?? "")
        }
        #expect(outputs.count == 1, "\(outputs)")
    }

    @Test("next() walks a record, the settings and any table in pairs' order in every state, and stays a correct next")
    func nextOrderIsFixed() {
        let source = """
            local function walk(t) local seen, k = {}, next(t) while k ~= nil do seen[#seen + 1] = tostring(k); k = next(t, k) end return table.concat(seen, " ") end
            local function listed(t) local seen = {} for k in pairs(t) do seen[#seen + 1] = tostring(k) end return table.concat(seen, " ") end
            scenario("next", function()
              local app = understudy.backendless()
              local user = expect.ok(app.users.register{ email = "o@x.io", password = "p", zeta = 1, alpha = 2, name = "N", mid = true })
              expect.equal(walk(user), listed(user))
              local first = listed(user):match("^%S+")
              expect.equal((next(user)), first)
              local kii = understudy.kii()
              local kuser = expect.ok(kii.users.register{ username = "orderly", password = "secret1", country = "JP", email = "o@x.io" })
              expect.equal(walk(kuser), listed(kuser))
              local t = { 10, 20, 30, b = 1, a = 2, [100] = 3, [-1] = 0, [true] = 4, [false] = 5, [2.5] = 6 }
              expect.equal(walk(t), "1 2 3 -1 2.5 100 a b false true")
              local shown = {} for k in next, t do shown[#shown + 1] = tostring(k) end
              expect.equal(table.concat(shown, " "), "1 2 3 -1 2.5 100 a b false true")
              expect.equal(next({}), nil)
              expect.equal(select("#", next({})), 1)
              -- emptying a table with next, and a table changed between traversals
              local bag = { x = 1, y = 2, z = 3 }
              while next(bag) do bag[(next(bag))] = nil end
              expect.equal(next(bag), nil)
              bag.q = 1; bag.a = 2
              expect.equal(walk(bag), "a q")
              expect.ok(not pcall(next, bag, "missing"))
              print(walk(user), "|", walk(kuser))
            end)
            """
        var outputs: Set<String> = []
        for seed in [1, 1, 1, 2, 3] as [UInt64] {
            let result = runScenarios(source, seed: seed)
            #expect(result.outcome("next")?.status == .passed, "\(result.outcome("next")?.message ?? "")")
            outputs.insert(result.outcome("next")?.output ?? "")
        }
        #expect(outputs.count == 1, "\(outputs)")
    }

    @Test("a Backendless password that is not text is 3050 'Password should be string', not 3011 'is required'")
    func numericPassword() {
        let result = runScenarios("""
            scenario("types", function()
              local app = understudy.backendless()
              for _, password in ipairs({ 123456, true, 1.5 }) do
                local _, err = app.users.register{ email = "n@x.io", password = password }
                expect.equal(err.code, 3050)
                expect.equal(err.message, "Password should be string")
              end
              expect.error(3011, app.users.register{ email = "n@x.io", password = "" })
              expect.error(3011, app.users.register{ email = "n@x.io" })
            end)
            """)
        #expect(result.outcome("types")?.status == .passed, "\(result.outcome("types")?.message ?? "")")
    }

    @Test("reading a field, expect.*, text or understudy.ignore count as looking at an error")
    func lookedAtErrorsPass() {
        let result = runScenarios("""
            local function failing(app) return app.users.login("nobody@x.io", "p") end
            scenario("field read", function() local _, err = failing(understudy.backendless()); assert(err.code == 3003) end)
            scenario("expect.error", function() expect.error(3003, failing(understudy.backendless())) end)
            scenario("expect.not_nil", function() local _, err = failing(understudy.backendless()); expect.not_nil(err) end)
            scenario("expect.equal", function()
              local _, err = failing(understudy.backendless())
              expect.equal(err, { code = 3003, message = err.message })
            end)
            scenario("tostring", function() local _, err = failing(understudy.backendless()); local s = tostring(err) end)
            scenario("concatenated", function()
              local _, err = failing(understudy.backendless())
              expect.match("login: " .. err, "3003")
            end)
            scenario("string.format", function() local _, err = failing(understudy.backendless()); print(("%s"):format(err)) end)
            scenario("pairs", function() local _, err = failing(understudy.backendless()); for k in pairs(err) do end end)
            scenario("ignored by variable", function() local _, err = failing(understudy.backendless()); understudy.ignore(err) end)
            scenario("ignored around the call", function()
              local user = understudy.ignore(failing(understudy.backendless()))
              assert(user == nil)
            end)
            """)
        for outcome in result.outcomes {
            #expect(outcome.status == .passed, "\(outcome.declaration.name): \(outcome.message ?? "")")
        }
        #expect(result.outcome("string.format")?.output.contains("code = 3003") == true)
    }

    @Test("indexing the nil a failed call returned names that call and its error")
    func nilIndexNamesTheCall() {
        let result = runScenarios("""
            scenario("nil user", function()
              local app = understudy.backendless()
              expect.ok(app.users.register{ email = "q@x.io", password = "p" })
              local user = app.users.register{ email = "q@x.io", password = "p" }
              print(user.objectId)
            end)
            """)
        let message = result.outcome("nil user")?.message ?? ""
        #expect(message.contains("attempt to index a nil value"))
        #expect(message.contains("users.register at line 4 returned 3033"), "\(message)")
    }

    @Test("a live chunk and JSON see an error's fields")
    func errorsKeepTheirShape() {
        let result = runScenarios("""
            scenario("render", function()
              local app = understudy.backendless()
              local _, err = app.users.login("nobody@x.io", "p")
              expect.fails(function() expect.equal(err, { code = 1 }) end, "values differ at code: expected 1, got 3003")
              expect.equal(#err, 0)
              local ok, message = pcall(error, err)
              expect.match(tostring(message), "code = 3003")
            end)
            """)
        #expect(result.outcome("render")?.status == .passed, "\(result.outcome("render")?.message ?? "")")
    }

    @Test("expect.ok refuses a function")
    func expectOkRefusesAFunction() {
        let result = runScenarios("""
            scenario("function", function() expect.ok(function() return nil end) end)
            scenario("error with a function", function() expect.error(3033, function() end) end)
            """)
        #expect(result.outcome("function")?.status == .failed)
        #expect(result.outcome("function")?.message?.contains("expect.ok: argument 1 is a function") == true)
        #expect(result.outcome("function")?.location == "scenarios/test.lua:1")
        #expect(result.outcome("error with a function")?.message?.contains("argument 2 is a function") == true)
    }

    @Test("expect.error understands each flavour's codes and refuses codes no backend answers")
    func expectErrorCodes() {
        let result = runScenarios("""
            local function taken_kii()
              local app = understudy.kii()
              expect.ok(app.users.register{ username = "bond", password = "secret1" })
              return app
            end
            local function taken_backendless()
              local app = understudy.backendless()
              expect.ok(app.users.register{ email = "q@x.io", password = "p" })
              return app
            end
            scenario("kii status", function()
              expect.error(409, taken_kii().users.register{ username = "bond", password = "secret1" })
            end)
            scenario("kii name", function()
              expect.error("USER_ALREADY_EXISTS", taken_kii().users.register{ username = "bond", password = "secret1" })
            end)
            scenario("kii table with status", function()
              expect.error({ status = 409, code = "USER_ALREADY_EXISTS" }, taken_kii().users.register{ username = "bond", password = "secret1" })
            end)
            scenario("kii wrong status", function()
              expect.error(404, taken_kii().users.register{ username = "bond", password = "secret1" })
            end)
            scenario("backendless number", function()
              expect.error(3033, taken_backendless().users.register{ email = "q@x.io", password = "p" })
            end)
            scenario("backendless number as text", function()
              expect.error("3033", taken_backendless().users.register{ email = "q@x.io", password = "p" })
            end)
            scenario("unknown number", function()
              expect.error(30333, taken_backendless().users.register{ email = "q@x.io", password = "p" })
            end)
            scenario("unknown name", function()
              expect.error("USER_ALREADY_EXIST", taken_kii().users.register{ username = "bond", password = "secret1" })
            end)
            scenario("unknown code on success", function()
              expect.error(99999, understudy.backendless().users.register{ email = "new@x.io", password = "p" })
            end)
            scenario("injected code", function()
              local app = understudy.backendless()
              app.faults.inject{ op = "users.register", code = 77777 }
              expect.error(77777, app.users.register{ email = "new@x.io", password = "p" })
            end)
            """)
        for name in ["kii status", "kii name", "kii table with status", "backendless number", "backendless number as text", "injected code"] {
            #expect(result.outcome(name)?.status == .passed, "\(name): \(result.outcome(name)?.message ?? "")")
        }
        #expect(result.outcome("kii wrong status")?.message?.contains("expected error 404, got 409 USER_ALREADY_EXISTS") == true)
        let unknown = result.outcome("unknown number")?.message ?? ""
        #expect(unknown.contains("30333 is not an error code of Backendless or Kii"), "\(unknown)")
        #expect(unknown.contains("did you mean 3033?"), "\(unknown)")
        #expect(result.outcome("unknown name")?.message?.contains("did you mean \"USER_ALREADY_EXISTS\"?") == true)
        #expect(result.outcome("unknown code on success")?.message?.contains("99999 is not an error code") == true)
    }
}

/// The tables of calls name what they have when a scenario reaches for something else.
@Suite("API tables answer for themselves")
struct APITableMessageTests {
    @Test("an unknown call names the known ones and the nearest match")
    func unknownCall() {
        let result = runScenarios("""
            scenario("typo", function() understudy.backendless().users.regster{ email = "a@x.io", password = "p" } end)
            scenario("kii devices", function() understudy.kii().devices.register{} end)
            scenario("backendless installations", function() understudy.backendless().installations.list() end)
            scenario("unknown app field", function() local app = understudy.kii(); app.outbx.emails() end)
            scenario("module", function() understudy.backendles() end)
            scenario("expect", function() expect.equals(1, 1) end)
            scenario("far off", function() understudy.backendless().clock.zzzzzzzz() end)
            """)
        let typo = result.outcome("typo")?.message ?? ""
        #expect(typo.contains("app.users.regster does not exist (did you mean app.users.register?)"), "\(typo)")
        #expect(typo.contains("app.users has: all, confirm_email, "), "\(typo)")
        #expect(result.outcome("typo")?.location == "scenarios/test.lua:1")
        let devices = result.outcome("kii devices")?.message ?? ""
        #expect(devices.contains("app.devices does not exist: a Kii backend registers devices for push as installations: app.installations.register"), "\(devices)")
        #expect(result.outcome("backendless installations")?.message?.contains("app.devices.register") == true)
        #expect(result.outcome("unknown app field")?.message?.contains("did you mean app.outbox?") == true)
        #expect(result.outcome("module")?.message?.contains("did you mean understudy.backendless?") == true)
        #expect(result.outcome("expect")?.message?.contains("did you mean expect.equal?") == true)
        let far = result.outcome("far off")?.message ?? ""
        #expect(!far.contains("did you mean"), "\(far)")
        #expect(far.contains("app.clock has: advance, now, set"), "\(far)")
    }

    @Test("a colon call is explained, with the same message on every run")
    func colonCall() {
        let source = """
            scenario("colon", function()
              local app = understudy.backendless()
              app.users:register{ email = "a@x.io", password = "p" }
            end)
            scenario("kii colon", function() understudy.kii().installations:list("u") end)
            """
        let messages = (1...4).map { seed in runScenarios(source, seed: UInt64(seed)).outcome("colon")?.message ?? "" }
        #expect(Set(messages).count == 1, "\(messages)")
        #expect(messages[0].contains("users.register: called with a colon (app.users:register(...))"), "\(messages[0])")
        #expect(messages[0].contains("call it with a dot: app.users.register(...)"))
        let kii = runScenarios(source).outcome("kii colon")?.message ?? ""
        #expect(kii.contains("app.installations:list(...)"), "\(kii)")
    }
}

/// Calls take what the message they answer carried.
@Suite("Verification calls take what the message carried")
struct MessageCarriedTests {
    @Test("confirm_email takes the emailed link, its token or the objectId; verify_email the link; verify_phone the SMS")
    func confirmationLinks() {
        let result = runScenarios("""
            scenario("backendless link", function()
              local app = understudy.backendless{ email_confirmation = true }
              local user = expect.ok(app.users.register{ email = "a@x.io", password = "p" })
              local mail = app.outbox.last_email()
              expect.equal(expect.ok(app.users.confirm_email(mail.link)).userStatus, "ENABLED")
              expect.ok(app.users.login("a@x.io", "p"))
            end)
            scenario("backendless token and id", function()
              local app = understudy.backendless{ email_confirmation = true }
              local user = expect.ok(app.users.register{ email = "a@x.io", password = "p" })
              local token = app.outbox.last_email().link:match("[^/]+$")
              expect.ok(app.users.confirm_email(token))
              local other = expect.ok(app.users.register{ email = "b@x.io", password = "p" })
              expect.ok(app.users.confirm_email(other.objectId))
            end)
            scenario("backendless unknown link", function()
              local app = understudy.backendless{ email_confirmation = true }
              expect.error(3092, app.users.confirm_email("http://localhost/x/y/users/confirmemail/nope"))
              expect.error(1000, app.users.confirm_email("nope"))
            end)
            scenario("kii link and sms", function()
              local app = understudy.kii{ email_verification = true, phone_verification = true }
              local user = expect.ok(app.users.register{ username = "bond", email = "a@x.io", phone = "+819012345678", password = "secret1" })
              expect.equal(expect.ok(app.users.verify_email(user.userID, app.outbox.last_email().link)).emailAddressVerified, true)
              expect.equal(expect.ok(app.users.verify_phone(user.userID, app.outbox.last_sms().body)).phoneNumberVerified, true)
            end)
            """)
        for outcome in result.outcomes {
            #expect(outcome.status == .passed, "\(outcome.declaration.name): \(outcome.message ?? "")")
        }
    }
}

@Suite("Faults combine")
struct FaultCombinationTests {
    @Test("a delay-only fault never hides an error fault injected after it")
    func delayDoesNotShadowError() {
        let result = runScenarios("""
            scenario("delay then error", function()
              local app = understudy.backendless()
              local delay = app.faults.inject{ op = "users.register", delay_ms = 500 }
              local boom = app.faults.inject{ op = "users.register", code = 3036, times = 1 }
              expect.error(3036, app.users.register{ email = "a@x.io", password = "p" })
              expect.ok(app.users.register{ email = "a@x.io", password = "p" })
              expect.equal(boom.hits, 1)
              expect.equal(delay.hits, 2)
            end)
            scenario("kii drop then error", function()
              local app = understudy.kii()
              app.faults.inject{ op = "users.login", drop = true }
              app.faults.inject{ op = "users.login", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
              expect.error(503, app.users.login("bond", "secret1"))
            end)
            """)
        for outcome in result.outcomes {
            #expect(outcome.status == .passed, "\(outcome.declaration.name): \(outcome.message ?? "")")
        }
    }
}
