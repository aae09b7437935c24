import Foundation
import Testing
import Understudy
import UnderstudyLua

/// An imported world (`understudy.import`, `serve --setup` of an export) is charged what it holds, as the same
/// world built by calls is, and an import the memory cap has no room for adds nothing (issue 29).
@Suite("Import account: an imported world is charged as the same world built by calls")
struct ImportAccountTests {
    /// A world with something of every kind an export keeps, changed on the way (settings, replaced templates,
    /// unassigned roles, deleted users, revoked grants, removed installations).
    static let setup = #"""
        local b = understudy.backendless{ app_id = "SHOP-" .. ("s"):rep(300), api_key = "SHOP-KEY", email_confirmation = true }
        b.settings.lockout_after = 5
        for i = 1, 12 do
          assert(b.users.register{ email = "u" .. i .. "@example.com", password = "secret1", bio = ("b"):rep(400) .. i, ["p" .. i] = "x" })
        end
        b.settings.email_confirmation = false
        assert(b.users.register{ email = "plain@example.com", password = "secret1" })
        b.roles.define("vip") b.roles.define(("gold"):rep(50))
        assert(b.roles.assign("u1@example.com", "vip", "cloudcode"))
        assert(b.roles.assign("u2@example.com", ("gold"):rep(50), "cloudcode"))
        assert(b.roles.assign("u3@example.com", "vip", "cloudcode"))
        assert(b.roles.unassign("u3@example.com", "vip", "cloudcode"))
        b.email.templates.define{ name = "Welcome", subject = "Hello {name}", body = ("w"):rep(2000) }
        b.email.templates.define{ name = "Welcome", subject = "Hello again", body = ("w"):rep(1000), html = "<p>hi</p>" }
        b.push.templates.define{ name = "promo", message = ("m"):rep(800), title = "T", headers = { ["android-ticker-text"] = ("h"):rep(300) } }
        b.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "fb-id-1", email = "fb1@example.com" } }
        b.oauth.account{ provider = "facebook", token = "fb-2", profile = { id = "fb-id-2", email = "fb2@example.com" } }
        assert(b.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email" } }))
        local gone = assert(b.users.login_oauth("facebook", "fb-2", { fields_mapping = { email = "email" } }))
        assert(b.users.delete(gone.user.objectId))
        for d = 1, 5 do
          assert(b.devices.register{ token = ("t"):rep(200) .. d, device_id = "phone-" .. d, os = "IOS",
            channels = { "news", "c" .. ("x"):rep(90) .. d }, expiration = b.clock.now() + 86400 * d })
        end
        assert(b.devices.unregister("phone-5"))
        assert(b.push.publish{ channel = "news", message = ("later"):rep(100), publish_at = b.clock.now() + 3600 })

        local k = understudy.kii{ app_id = "kiiapp", app_key = "kiikey" }
        k.settings.phone_verification = true
        local q = assert(k.users.register{ username = "qbranch", email = "q@mi6.co.uk", password = "gadgets" })
        local agent = assert(k.users.register{ username = "agent", phone = "+819012345678", country = "JP", password = "bond-pw" })
        local extra = assert(k.users.register{ username = "extra", password = "extra-pw" })
        local anon = assert(k.users.register_pseudo{})
        assert(k.installations.register{ user = q.userID, type = "ANDROID", token = ("f"):rep(150) })
        local mqtt = assert(k.installations.register{ user = q.userID, type = "MQTT" })
        assert(k.installations.register{ user = agent.userID, type = "MQTT" })
        assert(k.installations.unregister(mqtt.installationID))
        assert(k.topics.create("news"))
        assert(k.topics.create("gone"))
        assert(k.topics.create("mine", q.userID))
        assert(k.topics.subscribe("news", anon.userID))
        assert(k.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. q.userID))
        assert(k.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. agent.userID))
        assert(k.topics.revoke("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. agent.userID))
        assert(k.topics.revoke("news", "SUBSCRIBE_TO_TOPIC", "UserID:ANY_AUTHENTICATED_USER"))
        assert(k.topics.grant("gone", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. q.userID))
        assert(k.topics.delete("gone"))
        k.groups.create{ name = ("team"):rep(40), owner = q.userID, members = { agent.userID, extra.userID } }
        assert(k.users.delete(extra.userID))
        k.social.account{ provider = "facebook", token = "kii-fb-token", profile = { id = "kfb-1", name = ("Jim"):rep(30) } }
        assert(k.users.login_social("facebook", "kii-fb-token"))
        """#

    /// A world made by `setup` in a live session (what `serve` runs its setup and chunks in).
    static func world(_ setup: String) -> ServedWorld {
        let world = ServedWorld(linkBase: "http://127.0.0.1:1")
        do {
            let session = try LiveSession(world: world, seed: 7)
            if case .failure(let failure) = session.evaluate(setup) { Issue.record("the setup failed: \(failure.message)") }
        } catch {
            Issue.record("no live session: \(error.message)")
        }
        return world
    }

    @Test("each imported app holds what the exported app held (sessions, outbox and faults apart, which an export leaves out)")
    func importedWorldIsChargedAsBuilt() {
        let built = Self.world(Self.setup)
        #expect(built.apps.count == 2)
        let imported = Self.world(WorldExport.script(built.apps))
        #expect(imported.apps.count == built.apps.count)
        for (original, copy) in zip(built.apps, imported.apps) {
            #expect(copy.heldBytes == original.heldBytes - original.transientBytes, "\(original.flavour.rawValue): imported \(copy.heldBytes), built \(original.heldBytes - original.transientBytes)")
            #expect(copy.consoleBytes == original.consoleBytes, "\(original.flavour.rawValue): consoleBytes imported \(copy.consoleBytes), built \(original.consoleBytes)")
        }
        // And again: the export of the import imports to the same account.
        let again = Self.world(WorldExport.script(imported.apps))
        for (first, second) in zip(imported.apps, again.apps) { #expect(first.heldBytes == second.heldBytes) }
    }

    @Test("an import the world's memory check has no room for is refused with a message, and adds no app")
    func importOverTheCapAddsNothing() {
        let world = ServedWorld(linkBase: "http://127.0.0.1:1")
        let limit = 4 * 1024 * 1024
        world.growthChecks.append { [unowned world] bytes in HeldBytes.sum(world.appBytes, bytes) <= limit }  // serve's --max-memory
        guard let session = try? LiveSession(world: world, seed: 7) else {
            Issue.record("no live session")
            return
        }
        // 2,000 users sharing one 4,000-character property in Lua: little Lua memory, 8 MB of records.
        let chunk = #"""
            local big = ("p"):rep(4000)
            local users = {}
            for i = 1, 2000 do
              users[i] = { id = string.format("00000000-0000-0000-0000-%012X", i), status = "ENABLED", created = 0, properties = { { "bio", big } } }
            end
            return understudy.import{ format = 1, apps = { { flavour = "backendless", settings = { app_id = "BIG", api_key = "K" }, users = users } } }
            """#
        guard case .failure(let failure) = session.evaluate(chunk) else {
            Issue.record("an import of 8 MB of records was admitted under a 4 MiB cap")
            return
        }
        #expect(failure.message.contains("understudy.import") && failure.message.contains("nothing was imported"), "\(failure.message)")
        #expect(world.apps.isEmpty, "the refused import added \(world.apps.count) app(s)")
        // A small one fits.
        let small = chunk.replacingOccurrences(of: "for i = 1, 2000", with: "for i = 1, 20")
        if case .failure(let failure) = session.evaluate(small) { Issue.record("a small import was refused: \(failure.message)") }
        #expect(world.apps.count == 1)
    }
}

/// A table Lua holds once can be reached many times (`t = {t, t}` twenty times over is a few hundred bytes in Lua
/// and a million values read): what Understudy reads out of Lua is bounded by the room the memory cap leaves, so
/// neither an argument nor a control chunk's result can make the process build past the cap (or hold the server
/// for as long as the reading takes).
@Suite("Values read from Lua are bounded by the memory cap")
struct BoundedValueTests {
    static let dag = "local t = { ('x'):rep(64) } for i = 1, 20 do t = { t, t } end"

    @Test("a control chunk's result that reaches a million values reads as far as the cap leaves room, the rest a placeholder")
    func resultIsBounded() throws {
        let world = ServedWorld(linkBase: "http://127.0.0.1:1")
        let session = try LiveSession(world: world, seed: 1, limits: ScenarioLimits(maxInstructions: 10_000_000, maxMemory: 4 * 1024 * 1024, timeout: 60))
        guard case .success(let result) = session.evaluate(Self.dag + " return t") else {
            Issue.record("the chunk failed")
            return
        }
        var texts = 0, placeholders = 0
        func walk(_ value: Value) {
            switch value {
            case .array(let items): items.forEach(walk)
            case .object(let members): members.values.forEach(walk)
            case .string(let text): if text.hasPrefix("<more than") { placeholders += 1 } else { texts += 1 }
            default: break
            }
        }
        result.values.forEach(walk)
        #expect(placeholders > 0, "the result was read whole: \(texts) strings of 64 bytes")
        #expect(texts * 64 < 4 * 1024 * 1024, "\(texts) strings of 64 bytes read under a 4 MiB cap")
    }

    @Test("an argument that reaches a million values is refused by name (understudy.import, a setting)")
    func argumentIsRefused() throws {
        let world = ServedWorld(linkBase: "http://127.0.0.1:1")
        let session = try LiveSession(world: world, seed: 1, limits: ScenarioLimits(maxInstructions: 10_000_000, maxMemory: 4 * 1024 * 1024, timeout: 60))
        for call in ["understudy.import(t)", "understudy.backendless().settings.identity = t"] {
            guard case .failure(let failure) = session.evaluate(Self.dag + " " + call) else {
                Issue.record("\(call) was accepted")
                continue
            }
            #expect(failure.message.contains("memory cap leaves room for") || failure.message.contains("memory cap exceeded"), "\(call): \(failure.message)")
        }
    }
}
