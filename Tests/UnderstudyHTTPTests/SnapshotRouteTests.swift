import HTTPTypes
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// `/_understudy/snapshots`: keep the world under a name, bring it back before each test of an app's suite.
@Suite("Snapshots: the world after a restore is the world the snapshot kept")
struct SnapshotRouteTests {
    /// A world with a bit of everything: users of each status, a session, a device, a Kii user with a pending
    /// SMS code, a fault, a changed setting, a moved clock and an outbox.
    static let setup = #"""
        local b = understudy.backendless{}
        b.settings.email_confirmation = true
        b.users.seed{ count = 50, email = "seed%d@example.com", password = "secret1" }
        b.users.register{ email = "pending@example.com", password = "secret1" }
        b.faults.inject{ op = "users.login", code = 3003, times = 1, when = function(args) return args.identity_value == "trap@example.com" end }
        b.clock.advance(3600)
        local k = understudy.kii{}
        k.users.register{ username = "agent", phone = "+819012345678", country = "JP", password = "secret1" }
        """#

    static func count(_ json: JSON) -> Int { if case .array(let items) = json { return items.count } else { return -1 } }
    static func integer(_ json: JSON) -> Int64 { if case .integer(let number) = json { return number } else { return -1 } }

    static func state(_ client: any TestClientProtocol) async throws -> String {
        try await client.send(.get, "/_understudy/state").text
    }

    @Test("restore brings back users, sessions, settings, clocks, outboxes, faults and the ids handed out next")
    func restoreIsTheSnapshot() async throws {
        try await withServer(setup: Self.setup) { server, client in
            let login = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"seed1@example.com","password":"secret1"}"#)
            #expect(login.status == 200, "\(login.text)")
            let token = try #require(login.json("user-token")?.stringValue)
            let taken = try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"seeded"}"#)
            #expect(taken.status == 201, "\(taken.text)")
            #expect(taken.json("users") == .integer(52), "\(taken.text)")
            let before = try await Self.state(client)

            // The test after the snapshot: a registration (an id and an email), a setting, the clock, a fault.
            let first = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"new@example.com","password":"secret1"}"#)
            #expect(first.status == 200, "\(first.text)")
            let firstID = try #require(first.json("objectId")?.stringValue)
            #expect(try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":86400}"#).status == 200)
            #expect(try await client.send(.patch, "/_understudy/settings?app=backendless", json: #"{"registration":false}"#).status == 200)
            #expect(try await client.send(.post, "/_understudy/faults", json: #"{"app":"backendless","op":"users.register","code":3009}"#).status == 201)
            let logout = try await client.send(.get, "\(backendless)/users/logout", headers: [HTTPField.Name("user-token")!: token])
            #expect(logout.status == 200, "\(logout.text)")
            #expect(try await Self.state(client) != before)

            let restored = try await client.send(.post, "/_understudy/snapshots/seeded/restore")
            #expect(restored.status == 200, "\(restored.text)")
            #expect(try await Self.state(client) == before)
            // What the restore itself took, for a suite's timings: `restore;dur=` and milliseconds.
            let timing = restored.headers[HTTPField.Name("Server-Timing")!] ?? ""
            #expect(timing.hasPrefix("restore;dur=") && Double(timing.dropFirst("restore;dur=".count)) != nil, "\(timing)")
            // The session that was live at the snapshot is live again.
            let valid = try await client.send(.get, "\(backendless)/users/isvalidusertoken/\(token)")
            #expect(valid.text == "true", "\(valid.text)")
            // The generators are back too: the same registration gets the same id, and no id collides.
            let again = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"new@example.com","password":"secret1"}"#)
            #expect(again.status == 200, "\(again.text)")
            #expect(again.json("objectId")?.stringValue == firstID)

            // Restoring twice in a row gives the same world again.
            _ = try await client.send(.post, "/_understudy/snapshots/seeded/restore")
            _ = try await client.send(.post, "/_understudy/snapshots/seeded/restore")
            #expect(try await Self.state(client) == before)
            // What the apps do after a restore never changes the snapshot.
            let kept = server.withStage { $0.snapshots.named("seeded")?.image.userCount }
            #expect(kept == 52)
        }
    }

    @Test("a restore survives a reset; list, delete and unknown names answer as documented")
    func listDeleteAndErrors() async throws {
        try await withServer(setup: Self.setup) { _, client in
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"a"}"#).status == 201)
            let before = try await Self.state(client)
            #expect(try await client.send(.post, "/_understudy/reset").status == 200)
            _ = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"x@example.com","password":"secret1"}"#)
            #expect(try await client.send(.post, "/_understudy/snapshots/a/restore").status == 200)
            #expect(try await Self.state(client) == before)

            let again = try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"a"}"#)
            #expect(again.json("replaced") == .bool(true), "\(again.text)")
            let list = try await client.send(.get, "/_understudy/snapshots")
            #expect(list.json("snapshots").map(Self.count) == 1, "\(list.text)")
            #expect((list.json("bytes").map(Self.integer) ?? 0) > 0, "\(list.text)")

            let unknown = try await client.send(.post, "/_understudy/snapshots/b/restore")
            #expect(unknown.status == 404)
            #expect(unknown.json("error") == .string("SNAPSHOT_NOT_FOUND"), "\(unknown.text)")
            #expect(unknown.json("message")?.stringValue?.contains("snapshots: a") == true, "\(unknown.text)")
            let badName = try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"a/b"}"#)
            #expect(badName.status == 400)
            #expect(badName.json("message")?.stringValue?.contains("name must be 1 to 64 letters") == true, "\(badName.text)")
            let noName = try await client.send(.post, "/_understudy/snapshots", json: #"{"nam":"a"}"#)
            #expect(noName.json("message")?.stringValue?.contains("unknown field 'nam'") == true, "\(noName.text)")

            #expect(try await client.send(.delete, "/_understudy/snapshots/a").json("deleted") == .string("a"))
            #expect(try await client.send(.get, "/_understudy/snapshots").json("snapshots").map(Self.count) == 0)
            #expect(try await client.send(.delete, "/_understudy/snapshots/a").status == 404)
        }
    }

    @Test("snapshots count against --max-memory: one that would not fit is refused with 507, and deleting frees it")
    func snapshotsCountAgainstTheCap() async throws {
        let options = ServerOptions(port: 0, limits: ScenarioLimits(maxMemory: 3 * 1024 * 1024), clockStart: VirtualClock.start)
        // About 1 MiB of users: the apps and two snapshots (each counting what the apps held) fit 3 MiB, a third
        // does not.
        let setup = #"assert(understudy.backendless{}.users.seed{ count = 650, email = "u%d@example.com", password = "secret1", bio = ("x"):rep(450), note = ("y"):rep(450) })"#
        try await withServer(options, setup: setup) { server, client in
            let apps = server.withStage { $0.world.appBytes }
            #expect(apps > 800_000 && apps * 3 <= 3 * 1024 * 1024, "\(apps)")
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"one"}"#).status == 201)
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"two"}"#).status == 201)
            let three = try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"three"}"#)
            #expect(three.status == 507, "\(three.text)")
            #expect(three.json("message")?.stringValue?.contains("--max-memory 3 MiB") == true, "\(three.text)")
            // Replacing the snapshot of the same name fits (the old one is freed).
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"one"}"#).status == 201)
            #expect(server.withStage { $0.heldBytes } == apps * 3, "the app, and two snapshots counting what it held")
            #expect(try await client.send(.delete, "/_understudy/snapshots/one").status == 200)
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"three"}"#).status == 201)
        }
    }

    /// Every user of both apps of `ExportRouteTests.setup` with every field `users.all()` shows (profiles and
    /// sessions included), serialised with sorted keys, and the outboxes' sizes.
    static let fingerprint = #"""
        local function dump(value)
            if type(value) ~= "table" then return tostring(value) end
            local keys = {}
            for key in pairs(value) do keys[#keys + 1] = tostring(key) end
            table.sort(keys)
            local parts = {}
            for _, key in ipairs(keys) do
                local item = value[key]
                if item == nil then item = value[tonumber(key)] end
                parts[#parts + 1] = key .. "=" .. dump(item)
            end
            return "{" .. table.concat(parts, ",") .. "}"
        end
        local b, k = understudy.app("SHOP"), understudy.app("kiiapp")
        return dump({ b.users.all(), k.users.all(), #b.outbox.emails(), #k.outbox.emails(), #k.outbox.sms(), b.users.count(), k.users.count() })
        """#

    /// What a test between restores does to the apps: every kind of change to users that already exist (a login,
    /// a failed one, a status, a deletion, a password change, a profile, a reset), and new users. It runs from either
    /// snapshot's world, so a call that fails there (the user already deleted, say) is not an error.
    static let changes = #"""
        local b, k = understudy.app("SHOP"), understudy.app("kiiapp")
        local seed1, seed3 = b.users.find("seed1@example.com"), b.users.find("seed3@example.com")
        b.users.login("seed2@example.com", "secret1")
        b.users.login("seed2@example.com", "wrong")
        if seed1 then b.users.set_status(seed1.objectId, "DISABLED") end
        if seed3 then b.users.delete(seed3.objectId) end
        b.users.restore_password("seed2@example.com")
        b.users.register{ email = "later@example.com", password = "later-pw" }
        assert(b.users.guest_login())
        local q, agent = k.users.find("qbranch"), k.users.find("agent")
        k.users.login("qbranch", "gadgets")
        k.users.update(q.userID, { displayName = "Q", rank = 7 })
        k.users.change_password(q.userID, "gadgets", "new-gadgets")
        if agent then k.users.set_disabled(agent.userID, true) end
        k.users.change_email(q.userID, "quartermaster@mi6.co.uk")
        k.users.register{ username = "later", password = "later-pw" }
        b.clock.advance(60)
        return "changed"
        """#

    /// The world as every view of it shows it: the export, the state and the fingerprint.
    static func world(_ client: any TestClientProtocol) async throws -> [String] {
        [try await ExportRouteTests.export(client), try await state(client), try await ExportRouteTests.lua(client, fingerprint)]
    }

    @Test("two snapshots restored in turn, with changes between, each gives back its world: export, state and every user field")
    func snapshotsRestoredInTurn() async throws {
        try await withServer(setup: ExportRouteTests.setup) { _, client in
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"a"}"#).status == 201)
            let first = try await Self.world(client)
            #expect(try await ExportRouteTests.lua(client, Self.changes) == "changed")
            let changed = try await Self.world(client)
            #expect(changed[0] != first[0] && changed[2] != first[2], "the changes changed nothing")
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"b"}"#).status == 201)
            #expect(try await Self.world(client) == changed, "taking a snapshot changed the world")

            // b, then a, then a again, then b, then b again: each restore after the same changes.
            for (name, expected) in [("a", first), ("a", first), ("b", changed), ("b", changed), ("a", first)] {
                _ = try await ExportRouteTests.lua(client, Self.changes)
                let restored = try await client.send(.post, "/_understudy/snapshots/\(name)/restore")
                #expect(restored.status == 200, "\(restored.text)")
                let world = try await Self.world(client)
                #expect(world[0] == expected[0], "the export after restoring \(name) differs")
                #expect(world[1] == expected[1], "the state after restoring \(name) differs")
                #expect(world[2] == expected[2], "the users after restoring \(name) differ")
            }
            // Back at a: the users log in with the passwords they had, not those changed since.
            let old = try await client.send(.post, "/api/apps/kiiapp/oauth2/token", json: #"{"username":"qbranch","password":"gadgets"}"#, headers: ExportRouteTests.kiiHeaders)
            #expect(old.status == 200, "\(old.text)")
            let later = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"later@example.com","password":"later-pw"}"#)
            #expect(later.status == 401, "a user registered after the snapshot is gone: \(later.text)")
            let deleted = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed3@example.com","password":"secret1"}"#)
            #expect(deleted.status == 200, "a user deleted after the snapshot is back: \(deleted.text)")
        }
    }

    @Test("a session begun after the snapshot ends at the restore; one live at the snapshot lives on")
    func sessionsAfterARestore() async throws {
        try await withServer(setup: ExportRouteTests.setup) { _, client in
            let before = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed1@example.com","password":"secret1"}"#)
            let kept = try #require(before.json("user-token")?.stringValue)
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"s"}"#).status == 201)
            let after = try await client.send(.post, "/SHOP/SHOP-KEY/users/login", json: #"{"login":"seed2@example.com","password":"secret1"}"#)
            let ended = try #require(after.json("user-token")?.stringValue)
            let logout = try await client.send(.get, "/SHOP/SHOP-KEY/users/logout", headers: [HTTPField.Name("user-token")!: kept])
            #expect(logout.status == 200, "\(logout.text)")
            #expect(try await client.send(.post, "/_understudy/snapshots/s/restore").status == 200)
            #expect(try await client.send(.get, "/SHOP/SHOP-KEY/users/isvalidusertoken/\(kept)").text == "true")
            #expect(try await client.send(.get, "/SHOP/SHOP-KEY/users/isvalidusertoken/\(ended)").text == "false")
        }
    }

    @Test("every stored property of the classes a snapshot keeps is kept or named as needing no keeping")
    func imagesCoverEveryProperty() {
        for (type, stored, imaged) in ImagedProperties.check() {
            #expect(stored.subtracting(imaged).isEmpty, "\(type)'s image does not keep \(stored.subtracting(imaged).sorted())")
            #expect(imaged.subtracting(stored).isEmpty, "\(type).imagedProperties names \(imaged.subtracting(stored).sorted()), not stored properties")
        }
    }
}
