import Testing
import Understudy
import UnderstudyLua
import UnderstudyTestSupport

/// Every deletion credits back what its creation charged: a create/delete cycle repeated does not ratchet a
/// backend's memory account up (issue 29: a Kii topic's deletion kept its ACL entries charged; removed MQTT
/// installations, finished faults and cancelled devices' expirations were kept without bound).
@Suite("Deletion credit: create/delete cycles do not ratchet the memory account")
struct DeletionCreditTests {
    static let setup = #"""
        local b = understudy.backendless{ app_id = "B", api_key = "BK" }
        b.roles.define("vip")
        b.oauth.account{ provider = "facebook", token = "fb", profile = { id = "fb-id", email = "fb@example.com" } }
        local k = understudy.kii{ app_id = "K", app_key = "KK" }
        assert(k.topics.create("news"))
        k.social.account{ provider = "facebook", token = "kii-fb", profile = { id = "kfb-1" } }
        """#

    /// Each cycle makes records of one kind and deletes them again (names differ per cycle where deletion frees
    /// the name too).
    static let cycles: [(name: String, body: String)] = [
        ("Backendless users with properties, roles and sessions", #"""
            local u = assert(b.users.register{ email = "u" .. i .. "@example.com", password = "secret1", bio = ("b"):rep(300) })
            assert(b.roles.assign(u.objectId, "vip", "cloudcode"))
            local s = assert(b.users.login("u" .. i .. "@example.com", "secret1"))
            assert(b.users.logout(s.token))
            assert(b.users.login("u" .. i .. "@example.com", "secret1"))
            assert(b.users.delete(u.objectId))
            """#),
        ("Backendless OAuth users", #"""
            local social = assert(b.users.login_oauth("facebook", "fb", { fields_mapping = { email = "email" } }))
            assert(b.users.delete(social.user.objectId))
            """#),
        ("Backendless devices with channels and expirations", #"""
            assert(b.devices.register{ token = "t" .. i, device_id = "d" .. i, os = "IOS", channels = { "news" }, expiration = b.clock.now() + 86400 })
            assert(b.devices.unregister("d" .. i))
            """#),
        ("Backendless faults injected and cleared", #"""
            b.faults.inject{ op = "users.register", code = 3033, message = ("m"):rep(100) .. i }
            b.faults.clear()
            """#),
        ("Backendless templates replaced", #"""
            b.push.templates.define{ name = "same", message = ("t"):rep(100) .. i }
            b.email.templates.define{ name = "same", subject = "s", body = ("t"):rep(100) .. i }
            """#),
        ("Kii topics with ACL grants and subscriptions", #"""
            local u = assert(k.users.register{ username = "keeper" .. i, password = "secret-pw" })
            assert(k.topics.create("t" .. i))
            assert(k.topics.grant("t" .. i, "SEND_MESSAGE_TO_TOPIC", "UserID:" .. u.userID))
            assert(k.topics.subscribe("t" .. i, u.userID))
            assert(k.topics.delete("t" .. i))
            assert(k.users.delete(u.userID))
            """#),
        ("Kii users with user-scope topics, grants, installations and tokens", #"""
            local u = assert(k.users.register{ username = "user" .. i, password = "secret-pw" })
            assert(k.users.login("user" .. i, "secret-pw"))
            assert(k.topics.create("mine", u.userID))
            assert(k.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. u.userID))
            assert(k.topics.subscribe("news", u.userID))
            assert(k.installations.register{ user = u.userID, type = "ANDROID", token = "fcm" .. i })
            assert(k.installations.register{ user = u.userID, type = "MQTT" })
            assert(k.users.delete(u.userID))
            """#),
        ("Kii MQTT installations removed", #"""
            local u = k.users.find("mqtt-owner") or assert(k.users.register{ username = "mqtt-owner", password = "secret-pw" })
            local installation = assert(k.installations.register{ user = u.userID, type = "MQTT" })
            assert(k.installations.unregister(installation.installationID))
            """#),
        ("Kii social users", #"""
            local social = assert(k.users.login_social("facebook", "kii-fb"))
            assert(k.users.delete(social.user.userID))
            """#),
        ("Kii faults injected and cleared", #"""
            k.faults.inject{ op = "users.register", code = "X", status = 400, message = ("m"):rep(100) .. i }
            k.faults.clear()
            """#),
    ]

    @Test("the account after 2N create/delete cycles equals the account after N, for every kind of record", arguments: cycles.indices)
    func cyclesDoNotRatchet(_ index: Int) async {
        // Thousands of Lua calls: run on a thread of their own, not on the shared threads other tests wait on.
        let (afterN, after2N, failures) = await offTheSharedThreads { Self.measure(index) }
        let name = Self.cycles[index].name
        for failure in failures { Issue.record("\(name): \(failure)") }
        #expect(after2N == afterN, "\(name): \(afterN) after 1,100 cycles, \(after2N) after 2,200")
    }

    /// Each app's `heldBytes` after 1,100 cycles and after 2,200, and the chunks' failures.
    static func measure(_ index: Int) -> (afterN: [Int], after2N: [Int], failures: [String]) {
        let cycle = cycles[index]
        let world = ServedWorld(linkBase: "http://127.0.0.1:1")
        guard let session = try? LiveSession(world: world, seed: 3) else { return ([], [], ["no live session"]) }
        var failures: [String] = []
        func run(_ chunk: String) {
            if case .failure(let failure) = session.evaluate(chunk) { failures.append(failure.message) }
        }
        run(setup)
        // More cycles than the kept finished faults and removed MQTT installations (1,024 each).
        func repeatCycles(from first: Int, to last: Int) {
            run("local b, k = understudy.app('B'), understudy.app('K') for i = \(first), \(last) do \(cycle.body) end")
        }
        repeatCycles(from: 1, to: 1100)
        let afterN = world.apps.map(\.heldBytes)
        repeatCycles(from: 1101, to: 2200)
        return (afterN, world.apps.map(\.heldBytes), failures)
    }
}
