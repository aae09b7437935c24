import HTTPTypes
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// `GET /_understudy/export` and `serve --setup` of it: the world goes round and comes back the same.
@Suite("Export and import: the export of an imported export is the same file, and users log in as before")
struct ExportRouteTests {
    /// A world with users of every kind: confirmed, pending, locked-out attempts, a device, a push template, a
    /// Kii user with a pending SMS code, a pseudo user, an installation, a topic with a subscriber.
    static let setup = #"""
        local b = understudy.backendless{ app_id = "SHOP", api_key = "SHOP-KEY", email_confirmation = true, lockout_after = 5 }
        assert(b.users.seed{ count = 3, email = "seed%d@example.com", password = "secret1", name = "Seed %d" })
        assert(b.users.register{ email = "pending@example.com", password = "pending-pw", nickname = "p\"q\n" })
        assert(b.devices.register{ token = "tok-1", device_id = "phone-1", os = "IOS", channels = { "news" } })
        b.push.templates.define{ name = "welcome", message = "Hi {name}", channel = "news" }
        b.clock.advance(86400)
        local k = understudy.kii{ app_id = "kiiapp", app_key = "kiikey", phone_verification = true }
        local agent = assert(k.users.register{ username = "agent", phone = "+819012345678", country = "JP", password = "bond-pw" })
        assert(k.users.register{ username = "q", email = "q@mi6.co.uk", password = "gadgets" })
        assert(k.users.register_pseudo{})
        """#

    static func export(_ client: any TestClientProtocol) async throws -> String {
        let reply = try await client.send(.get, "/_understudy/export")
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        return reply.text
    }

    @Test("export → serve --setup → export gives the same bytes; no password is in it; users log in with theirs")
    func roundTrip() async throws {
        var first = ""
        var nextID = ""
        try await withServer(setup: Self.setup) { _, client in
            // A failed login counts towards the lockout, and is kept.
            let wrong = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed1@example.com","password":"nope"}"#)
            #expect(wrong.status == 401, "\(wrong.text)")
            first = try await Self.export(client)
            let next = try await client.send(.post, "/SHOP/SHOP-KEY/users/register", json: #"{"email":"after@example.com","password":"secret1"}"#)
            nextID = next.json("objectId")?.stringValue ?? ""
        }
        for secret in ["secret1", "pending-pw", "bond-pw", "gadgets", "nope"] {
            #expect(!first.contains(secret), "the export holds the password '\(secret)'")
        }
        #expect(first.contains("sha256:"), "\(first.prefix(500))")
        #expect(first.hasPrefix("-- The world of `understudy serve`, exported"))

        try await withServer(setup: first) { _, client in
            let second = try await Self.export(client)
            #expect(second == first, "the export of the imported export differs")
            // The same users log in with the same passwords.
            let login = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed2@example.com","password":"secret1"}"#)
            #expect(login.status == 200, "\(login.text)")
            let pending = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"pending@example.com","password":"pending-pw"}"#)
            #expect(pending.json("code") == .integer(3087), "still waiting for its confirmation: \(pending.text)")
            let kii = try await client.send(
                .post, "/api/apps/kiiapp/oauth2/token", json: #"{"username":"q","password":"gadgets"}"#,
                headers: [HTTPField.Name("X-Kii-AppID")!: "kiiapp", HTTPField.Name("X-Kii-AppKey")!: "kiikey"]
            )
            #expect(kii.status == 200, "\(kii.text)")
            // Ids go on from where the exported world was: the next registration gets the id it got there.
            let next = try await client.send(.post, "/SHOP/SHOP-KEY/users/register", json: #"{"email":"after@example.com","password":"secret1"}"#)
            #expect(next.json("objectId")?.stringValue == nextID, "\(next.text)")
            let state = try await client.send(.get, "/_understudy/clock?app=SHOP")
            #expect(state.text.contains("1893542400"), "the clock moved a day: \(state.text)")
        }
    }

    @Test("a damaged export names the field at fault when serve loads it")
    func damagedExport() async throws {
        var text = ""
        try await withServer(setup: Self.setup) { _, client in text = try await Self.export(client) }
        let damaged = text.replacingOccurrences(of: "sha256:", with: "md5:")
        #expect(throws: StageError.self) {
            _ = try UnderstudyServer(options: ServerOptions(port: 0, setupScript: ScenarioFile(path: "export.lua", contents: Array(damaged.utf8))))
        }
        do {
            _ = try UnderstudyServer(options: ServerOptions(port: 0, setupScript: ScenarioFile(path: "export.lua", contents: Array(damaged.utf8))))
        } catch {
            #expect(error.message.contains("understudy.import.apps[1].users[1].password must be a password hash"), "\(error.message)")
        }
    }
}
