import Testing
import Understudy
@testable import UnderstudyLua
import UnderstudyTestSupport

/// Kii calls the operation adapter serves from their declarations (issue 28), which were hand-written bindings:
/// the misuse messages their declarations word (`FieldMisuse`), the domain's refusals, and the faults of calls
/// answered by reading state (`answeredByAdapter`) are what scenarios saw before.
@Suite("Kii calls served from their declarations")
struct KiiDerivedBindingTests {
    @Test("installations.register, .get and .list are the operation adapter's")
    func served() {
        for operation in [KiiOperation.registerInstallation, .getInstallation, .listInstallations] {
            #expect(KiiBindings.binding(for: operation) == nil, "\(operation.name) still has a hand-written binding")
            #expect(operation.declaration.perform != nil, "\(operation.name) names no domain method")
        }
    }

    @Test("installations.register words its misuse as the contract does; another device type is the domain's 400")
    func registerMisuse() {
        let result = runScenarios(
            #"""
            local function raised(f)
              local ok, err = pcall(f)
              expect.equal(ok, false)
              return tostring(err)
            end
            scenario("misuse", function()
              local app = understudy.kii()
              local alice = assert(app.users.register{ username = "alice", password = "secret1" })
              local function has(text, wanted)
                if not text:find(wanted, 1, true) then error("raised: " .. text .. "\nwanted: " .. wanted, 0) end
              end
              has(raised(function() app.installations.register{ type = "ANDROID", token = "t" } end),
                  "registration.user is required (the userID)")
              has(raised(function() app.installations.register{ user = {}, type = "ANDROID" } end),
                  "registration.user must be a string, got table")
              has(raised(function() app.installations.register{ user = alice.userID } end),
                  'registration.type is required ("ANDROID", "IOS", "JPUSH" or "MQTT")')
              has(raised(function() app.installations.register{ user = alice.userID, type = 7 } end),
                  "registration.type must be a string, got number")
              has(raised(function() app.installations.register{ user = alice.userID, type = "ANDROID", token = true } end),
                  "registration.token must be a string, got boolean")
              has(raised(function() app.installations.register{ user = alice.userID, type = "MQTT", development = "yes" } end),
                  "registration.development must be a boolean, got string")
              has(raised(function() app.installations.register{ user = alice.userID, type = "MQTT", tokn = "x" } end),
                  "has an unknown field 'tokn'")
              expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "deviceType" },
                           app.installations.register{ user = alice.userID, type = "FAX", token = "t" })
              local inst = assert(app.installations.register{ user = alice.userID, type = "ANDROID", token = "fcm-1", development = true })
              expect.equal(inst.deviceType, "ANDROID")
              expect.equal(inst.development, true)
            end)
            """#
        )
        let outcome = result.outcome("misuse")
        #expect(outcome?.status == .passed, "\(outcome?.message ?? "no outcome")")
    }

    @Test("a fault on installations.get or .list fails it; without one they read what the app holds")
    func readingCallsCheckFaults() {
        let result = runScenarios(
            #"""
            scenario("faults", function()
              local app = understudy.kii()
              local alice = assert(app.users.register{ username = "alice", password = "secret1" })
              local inst = assert(app.installations.register{ user = alice.userID, type = "IOS", token = "apns-1" })
              expect.equal(app.installations.get(inst.installationID).userID, alice.userID)
              expect.equal(app.installations.get("missing"), nil)
              expect.equal(#app.installations.list(alice.userID), 1)
              app.faults.inject{ op = "installations.get", code = "UNDEFINED_ERROR", status = 503,
                                 when = function(args) return args.installationID == inst.installationID end }
              expect.error({ status = 503, code = "UNDEFINED_ERROR" }, app.installations.get(inst.installationID))
              expect.equal(app.installations.get("missing"), nil)
              app.faults.inject{ op = "installations.list", code = "UNDEFINED_ERROR", status = 500 }
              expect.error({ status = 500 }, app.installations.list(alice.userID))
            end)
            """#
        )
        let outcome = result.outcome("faults")
        #expect(outcome?.status == .passed, "\(outcome?.message ?? "no outcome")")
    }
}
