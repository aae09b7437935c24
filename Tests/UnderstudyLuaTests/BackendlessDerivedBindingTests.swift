import Testing
import Understudy
@testable import UnderstudyLua
import UnderstudyTestSupport

/// Backendless and console calls the operation adapter serves from their declarations (issue 28), which were
/// hand-written bindings: tables read by the named Lua readers their declarations reference keep the misuse
/// messages scenarios saw, and `understudy.journal.*` keep theirs.
@Suite("Backendless and console calls served from their declarations")
struct BackendlessDerivedBindingTests {
    @Test("devices.register, push.publish, users.login_oauth, oauth.account, push.templates.define and the journal are the adapter's")
    func served() {
        for operation in [BackendlessOperation.registerDevice, .publish, .loginOAuth] {
            #expect(BackendlessBindings.binding(for: operation) == nil, "\(operation.name) still has a hand-written binding")
            #expect(operation.declaration.perform != nil, "\(operation.name) names no domain method")
        }
        for call in [ConsoleCall.oauthAccount, .pushTemplatesDefine] {
            #expect(BackendlessBindings.console(for: call) == nil, "\(call.rawValue) still has a hand-written binding")
            #expect(OperationAdapter.index(of: call.declaration(for: .backendless)) != nil, "\(call.rawValue)")
        }
        for call in [ConsoleCall.moduleApp, .moduleApps, .journalEntries, .journalLast, .journalCount, .journalClear] {
            #expect(OperationAdapter.index(of: call.declaration(for: .backendless)) != nil, "\(call.rawValue)")
        }
    }

    @Test("the tables read by named Lua readers raise the messages they raised by hand")
    func readerMessages() {
        let result = runScenarios(
            #"""
            local function has(f, wanted)
              local ok, err = pcall(f)
              expect.equal(ok, false)
              if not tostring(err):find(wanted, 1, true) then error("raised: " .. tostring(err) .. "\nwanted: " .. wanted, 0) end
            end
            scenario("readers", function()
              local app = understudy.backendless()
              has(function() app.devices.register{ os = "IOS" } end,
                  "devices.register: registration.token is required (the APNS or FCM device token)")
              has(function() app.devices.register{ token = "t", os = "ios" } end,
                  'devices.register: registration.os must be "IOS" or "ANDROID", got "ios"')
              has(function() app.devices.register{ token = "t" } end, 'registration.os must be "IOS" or "ANDROID"')
              has(function() app.devices.register{ token = "t", os = "IOS", tokn = 1 } end, "has an unknown field 'tokn'")
              has(function() app.push.publish{ message = "m", broadcast = "SOME" } end,
                  'push.publish: publication.broadcast must be "ALL" or a list of "IOS", "ANDROID", "WP", "OSX", got "SOME"')
              has(function() app.push.publish{ message = "m", repeat_every = 1.5 } end,
                  "publication.repeat_every must be a whole number of seconds, at least 1, got 1.5")
              has(function() app.push.publish{ message = "m", repeat_expires_at = 10 } end,
                  "publication.repeat_expires_at is given without repeat_every")
              has(function() app.push.publish{ message = "m", policy = "ALL" } end,
                  'publication.policy must be "PUSH", "PUBSUB" or "BOTH", got "ALL"')
              has(function() app.users.login_oauth("facebook", "t", { fields_mapping = "email" }) end,
                  "options.fields_mapping must be a table { [profile field] = property }, got string")
              has(function() app.oauth.account{ provider = "facebook", token = "t", profile = { id = "1" }, secrt = "s" } end,
                  "oauth.account: the account has an unknown field 'secrt'")
              has(function() app.oauth.account{ provider = "", token = "t", profile = { id = "1" } } end,
                  "oauth.account: account.provider must be a non-empty string")
              has(function() app.push.templates.define{ name = "", message = "m" } end,
                  "push.templates.define: template.name is required (a non-empty string)")
              has(function() app.push.templates.define{ name = "t", message = "m", os = "WP" } end,
                  'template.os must be "ALL", "IOS" or "ANDROID", got "WP"')
              -- and what they read is performed: a whole repeat_every given as a float, a template, an account
              local device = assert(app.devices.register{ token = "t", os = "IOS", device_id = "d1", channels = { "news" } })
              expect.equal(device.device_id, "d1")
              assert(app.push.publish{ message = "m", channel = "news", publish_at = app.clock.now() + 60, repeat_every = 3600 / 60,
                               repeat_expires_at = app.clock.now() + 240 })
              expect.equal(app.push.templates.define{ name = "welcome", message = "hi", os = "IOS" }, true)
              expect.equal(app.push.templates.list().welcome.message, "hi")
              expect.equal(app.oauth.account{ provider = "Facebook", token = "fb-1", profile = { id = "7", email = "a@example.com" } }, true)
              local session = assert(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email" } }))
              expect.equal(session.user.email, "a@example.com")
            end)
            scenario("understudy.app and understudy.apps", function()
              local first = understudy.backendless()
              local kii = understudy.kii()
              local second = understudy.backendless{ app_id = "SECOND-APP" }
              expect.equal(understudy.app("backendless").settings.app_id, first.settings.app_id)
              expect.equal(understudy.app(second.settings.app_id).settings.app_id, second.settings.app_id)
              expect.equal(understudy.app("kii").settings.app_id, kii.settings.app_id)
              expect.equal(understudy.app("nope"), nil)
              local all = understudy.apps()
              expect.equal(#all, 3)
              expect.equal(all[2].flavour, "kii")
              assert(all[3].users.register{ email = "a@example.com", password = "secret" })
              expect.equal(second.users.count(), 1)
              has(function() understudy.app(7) end, "understudy.app: name (argument 1) must be a string, got number")
            end)
            scenario("journal outside serve", function()
              has(function() understudy.journal.count() end,
                  "journal.count: the journal records requests served over HTTP; it exists only under `understudy serve`")
              has(function() understudy.journal.entries("not a filter") end,
                  "journal.entries: the journal records requests served over HTTP")
              has(function() understudy.journal.clear() end, "journal.clear: the journal records requests")
            end)
            """#
        )
        for name in ["readers", "understudy.app and understudy.apps", "journal outside serve"] {
            let outcome = result.outcome(name)
            #expect(outcome?.status == .passed, "\(name): \(outcome?.message ?? "no outcome")")
        }
    }
}
