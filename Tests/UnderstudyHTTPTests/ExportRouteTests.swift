import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// `GET /_understudy/export` and `serve --setup` of it: the world goes round and comes back the same.
@Suite("Export and import: the export of an imported export is the same file, and users log in as before")
struct ExportRouteTests {
    /// A world with something of every kind the apps hold: confirmed, pending and OAuth users, a failed login, a
    /// device on a channel, a push template, an email template, a role and its holder, a scheduled push; a Kii
    /// user with a pending SMS code, one with an email, a pseudo user, an installation, topics with a subscriber.
    static let setup = #"""
        local b = understudy.backendless{ app_id = "SHOP", api_key = "SHOP-KEY", email_confirmation = true, lockout_after = 5 }
        assert(b.users.seed{ count = 3, email = "seed%d@example.com", password = "secret1", name = "Seed %d" })
        assert(b.users.register{ email = "pending@example.com", password = "pending-pw", nickname = "p\"q\n" })
        assert(b.devices.register{ token = "tok-1", device_id = "phone-1", os = "IOS", channels = { "news" } })
        b.push.templates.define{ name = "welcome", message = "Hi {name}", channel = "news" }
        b.email.templates.define{ name = "Welcome", subject = "Hello {name}", body = "Welcome aboard" }
        b.roles.define("vip")
        assert(b.roles.assign("seed1@example.com", "vip", "cloudcode"))
        b.oauth.account{ provider = "facebook", token = "fb-token", profile = { id = "fb-1", email = "fb@example.com" } }
        assert(b.users.login_oauth("facebook", "fb-token", { fields_mapping = { email = "email" } }))
        b.clock.advance(86400)
        assert(b.push.publish{ channel = "news", message = "later", publish_at = b.clock.now() + 3600 })
        local k = understudy.kii{ app_id = "kiiapp", app_key = "kiikey", phone_verification = true }
        local agent = assert(k.users.register{ username = "agent", phone = "+819012345678", country = "JP", password = "bond-pw" })
        local q = assert(k.users.register{ username = "qbranch", email = "q@mi6.co.uk", password = "gadgets" })
        local anon = assert(k.users.register_pseudo{})
        assert(k.installations.register{ user = q.userID, type = "ANDROID", token = "fcm-1" })
        assert(k.topics.create("news"))
        assert(k.topics.subscribe("news", anon.userID))
        assert(k.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. q.userID))
        k.groups.create{ name = "team", owner = q.userID, members = { agent.userID } }
        k.social.account{ provider = "facebook", token = "kii-fb-token", profile = { id = "kfb-1", name = "Jim" } }
        assert(k.users.login_social("facebook", "kii-fb-token"))
        assert(k.installations.register{ user = q.userID, type = "MQTT" })
        """#

    static let kiiHeaders: HTTPFields = [HTTPField.Name("X-Kii-AppID")!: "kiiapp", HTTPField.Name("X-Kii-AppKey")!: "kiikey"]

    static func export(_ client: any TestClientProtocol, query: String = "") async throws -> String {
        let reply = try await client.send(.get, "/_understudy/export" + query)
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        #expect(reply.headers[.contentType] == "text/x-lua; charset=utf-8")
        return reply.text
    }

    /// Runs a Lua chunk on the live apps; its first result as text.
    static func lua(_ client: any TestClientProtocol, _ chunk: String) async throws -> String {
        let reply = try await client.send(.post, "/_understudy/lua", text: chunk)
        #expect(reply.status == 200, "\(reply.text)")
        guard case .array(let results)? = reply.json("results"), let first = results.first, case .string(let text) = first else { return "" }
        return text
    }

    /// Ids the world hands out next: a Backendless user (over HTTP), a device registration, a published message,
    /// a Kii user and an installation.
    static func mintIDs(_ client: any TestClientProtocol) async throws -> [String] {
        let next = try await client.send(.post, "/SHOP/SHOP-KEY/users/register", json: #"{"email":"after@example.com","password":"secret1"}"#)
        #expect(next.status == 200, "\(next.text)")
        let chunk = """
            local b, k = understudy.app("SHOP"), understudy.app("kiiapp")
            local device = assert(b.devices.register{ token = "tok-9", device_id = "phone-9", os = "ANDROID" })
            local message = assert(b.push.publish{ channel = "news", message = "now" })
            local user = assert(k.users.register{ username = "after", password = "after-pw" })
            local installation = assert(k.installations.register{ user = user.userID, type = "IOS", token = "apns-9" })
            return table.concat({ device.registrationId, message.messageId, user.userID, installation.installationID }, " ")
            """
        return [next.json("objectId")?.stringValue ?? ""] + (try await lua(client, chunk)).split(separator: " ").map(String.init)
    }

    @Test("export → serve --setup → export gives the same bytes; no password is in it; users log in with theirs")
    func roundTrip() async throws {
        let first = NIOLockedValueBox("")
        try await withServer(setup: Self.setup) { _, client in
            // A failed login counts towards the lockout, and is kept.
            let wrong = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed1@example.com","password":"nope"}"#)
            #expect(wrong.status == 401, "\(wrong.text)")
            first.withLockedValue { $0 = "" }
            let text = try await Self.export(client)
            first.withLockedValue { $0 = text }
        }
        let exported = first.withLockedValue { $0 }
        for secret in ["secret1", "pending-pw", "bond-pw", "gadgets", "nope"] {
            #expect(!exported.contains(secret), "the export holds the password '\(secret)'")
        }
        #expect(exported.contains("sha256:"), "\(exported.prefix(500))")
        #expect(exported.hasPrefix("-- The world of `understudy serve`, exported"))
        for kept in ["failed_logins = 1", "\"vip\"", "Welcome aboard", "fb-token", "later", "fcm-1", "news", "+819012345678", "team", "kfb-1", "MQTT"] {
            #expect(exported.contains(kept), "the export lacks \(kept)")
        }

        try await withServer(setup: exported) { _, client in
            let second = try await Self.export(client)
            #expect(second == exported, "the export of the imported export differs")
            // The same users log in with the same passwords.
            let login = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed2@example.com","password":"secret1"}"#)
            #expect(login.status == 200, "\(login.text)")
            let wrong = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed2@example.com","password":"secret2"}"#)
            #expect(wrong.status == 401, "a wrong password still fails: \(wrong.text)")
            let pending = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"pending@example.com","password":"pending-pw"}"#)
            #expect(pending.json("code") == .integer(3087), "still waiting for its confirmation: \(pending.text)")
            let kii = try await client.send(.post, "/api/apps/kiiapp/oauth2/token", json: #"{"username":"qbranch","password":"gadgets"}"#, headers: Self.kiiHeaders)
            #expect(kii.status == 200, "\(kii.text)")
            // The OAuth account logs in the user it registered; the role's holder still holds it.
            let checks = """
                local b = understudy.app("SHOP")
                local social = assert(b.users.login_oauth("facebook", "fb-token"))
                local holders = assert(b.roles.users("vip"))
                local found = b.users.find("fb@example.com")
                return table.concat({ tostring(found ~= nil and social.user.objectId == found.objectId), #b.users.all(), #holders }, " ")
                """
            let kept = try await Self.lua(client, checks)
            #expect(kept == "true 5 1", "the OAuth user logs in as itself, 5 users, 1 holder of vip")
            // Kii: the social account logs in its user, the group and the ACL grant are there.
            let kiiChecks = """
                local k = understudy.app("kiiapp")
                local social = assert(k.users.login_social("facebook", "kii-fb-token"))
                local q = k.users.find("qbranch")
                local acl = assert(k.topics.acl("news"))
                local groups = assert(k.groups.owned_by(q.userID))
                return table.concat({ tostring(social.new_user_created), #groups, groups[1].name, table.concat(acl.SEND_MESSAGE_TO_TOPIC, ",") == "UserID:" .. q.userID and "granted" or "lost" }, " ")
                """
            let kiiKept = try await Self.lua(client, kiiChecks)
            #expect(kiiKept == "false 1 team granted", "the social user logs in again, the group and the ACL grant are kept")
            // The scheduled push fires when the clock reaches it, to the device registered on its channel.
            let clock = try await client.send(.post, "/_understudy/clock/advance?app=SHOP", json: #"{"seconds": 3600}"#)
            #expect(clock.status == 200, "\(clock.text)")
            let pushes = try await client.send(.get, "/_understudy/outbox?app=SHOP&kind=pushes")
            #expect(pushes.text.contains("later") && pushes.text.contains("phone-1"), "\(pushes.text)")
            let state = try await client.send(.get, "/_understudy/clock?app=SHOP")
            #expect(state.text.contains("1893546000"), "the clock moved a day, then an hour: \(state.text)")
        }
    }

    @Test("ids handed out after an import are the ones the exported world would have handed out, and none is an imported one")
    func idsAfterImport() async throws {
        let exported = NIOLockedValueBox("")
        let original = NIOLockedValueBox<[String]>([])
        try await withServer(setup: Self.setup) { _, client in
            let text = try await Self.export(client)
            exported.withLockedValue { $0 = text }
            let minted = try await Self.mintIDs(client)
            original.withLockedValue { $0 = minted }
        }
        let text = exported.withLockedValue { $0 }
        try await withServer(setup: text) { _, client in
            let minted = try await Self.mintIDs(client)
            #expect(minted.count == 5 && minted.allSatisfy { !$0.isEmpty }, "\(minted)")
            #expect(minted == original.withLockedValue { $0 })
            for id in minted {
                // `ID::channel` (a registration id), `message:ID`: the id is the longest part.
                let bare = String(id.split(separator: ":").max { $0.count < $1.count } ?? Substring(id))
                #expect(!text.lowercased().contains(bare.lowercased()), "the id \(id) handed out after the import is in the export")
            }
        }
    }

    @Test("?app= exports one app; an unknown app is refused by name")
    func oneApp() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let kii = try await Self.export(client, query: "?app=kiiapp")
            #expect(kii.contains(#"flavour = "kii""#) && !kii.contains(#"flavour = "backendless""#), "\(kii.prefix(400))")
            let unknown = try await client.send(.get, "/_understudy/export?app=NOPE")
            #expect(unknown.status == 404 && unknown.text.contains("NOPE"), "\(unknown.text)")
            let typo = try await client.send(.get, "/_understudy/export?ap=SHOP")
            #expect(typo.status == 400 && typo.text.contains("ap"), "\(typo.text)")
        }
    }

    @Test("understudy.import in a control chunk returns the apps it made; their users log in")
    func importInChunk() async throws {
        let exported = NIOLockedValueBox("")
        try await withServer(setup: Self.setup) { _, client in
            let text = try await Self.export(client)
            exported.withLockedValue { $0 = text }
        }
        let body = exported.withLockedValue { $0 }.replacingOccurrences(of: "understudy.import{", with: "local apps = understudy.import{")
        let chunk = body + """

            assert(#apps == 2 and apps[1].users.count() == 5, "apps: " .. #apps)
            assert(apps[1].users.login("seed3@example.com", "secret1"))
            return apps[2].users.find("qbranch").loginName
            """
        try await withServer { _, client in
            let name = try await Self.lua(client, chunk)
            #expect(name == "qbranch")
        }
    }

    @Test("every stored property of the classes a world is made of is exported or named as left out")
    func exportCoversEveryProperty() {
        for (type, stored, _) in ImagedProperties.check() {
            guard let (kept, leftOut) = ArchivedProperties.byType[type] else {
                Issue.record("ArchivedProperties does not list \(type)")
                continue
            }
            let named = kept.union(leftOut)
            #expect(stored.subtracting(named).isEmpty, "\(type): the export neither keeps nor leaves out \(stored.subtracting(named).sorted())")
            #expect(named.subtracting(stored).isEmpty, "\(type): ArchivedProperties names \(named.subtracting(stored).sorted()), not stored properties")
            #expect(kept.isDisjoint(with: leftOut), "\(type): \(kept.intersection(leftOut).sorted()) both kept and left out")
        }
    }

    @Test("a damaged export names the field at fault when serve loads it, and adds no app")
    func damagedExport() async throws {
        let exported = NIOLockedValueBox("")
        try await withServer(setup: Self.setup) { _, client in
            let text = try await Self.export(client)
            exported.withLockedValue { $0 = text }
        }
        let text = exported.withLockedValue { $0 }
        func load(_ damaged: String) -> String {
            do {
                _ = try UnderstudyServer(options: ServerOptions(port: 0, setupScript: ScenarioFile(path: "export.lua", contents: Array(damaged.utf8))))
                return ""
            } catch {
                return error.message
            }
        }
        let hash = load(text.replacingOccurrences(of: "sha256:", with: "md5:"))
        #expect(hash.contains("understudy.import.apps[1].users[1].password must be a password hash"), "\(hash)")
        let format = load(text.replacingOccurrences(of: "format = 1", with: "format = 9"))
        #expect(format.contains("understudy.import.format must be 1"), "\(format)")
        let status = load(text.replacingOccurrences(of: #"status = "ENABLED""#, with: #"status = "HAPPY""#))
        #expect(status.contains("status must be one of"), "\(status)")
        // A failed import adds nothing: a chunk that catches the error still sees only the apps it had.
        let caught = text.replacingOccurrences(of: "sha256:", with: "md5:")
            .replacingOccurrences(of: "understudy.import{", with: "local ok = pcall(understudy.import, {") + ")\nreturn #understudy.apps() .. ''"
        try await withServer { _, client in
            let count = try await Self.lua(client, caught)
            #expect(count == "2", "the default apps only")
        }
    }
}
