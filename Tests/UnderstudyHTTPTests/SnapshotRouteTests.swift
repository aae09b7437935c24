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
            // The session that was live at the snapshot is live again.
            let valid = try await client.send(.get, "\(backendless)/users/isvalidusertoken/\(token)")
            #expect(valid.text == "true", "\(valid.text)")
            // The generators are back too: the same registration gets the same id, and no id collides.
            let again = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"new@example.com","password":"secret1"}"#)
            #expect(again.status == 200, "\(again.text)")
            #expect(again.json("objectId")?.stringValue == firstID)

            // Restoring twice in a row (no spare ready, or a spare) gives the same world again.
            _ = try await client.send(.post, "/_understudy/snapshots/seeded/restore")
            _ = try await client.send(.post, "/_understudy/snapshots/seeded/restore")
            #expect(try await Self.state(client) == before)
            // The apps served are copies: changing them never changes the snapshot.
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
        // About 1 MiB of users: the apps and one snapshot (twice that) fit 3 MiB, a second snapshot does not.
        let setup = #"assert(understudy.backendless{}.users.seed{ count = 650, email = "u%d@example.com", password = "secret1", bio = ("x"):rep(450), note = ("y"):rep(450) })"#
        try await withServer(options, setup: setup) { server, client in
            let apps = server.withStage { $0.world.appBytes }
            #expect(apps > 800_000 && apps * 3 <= 3 * 1024 * 1024, "\(apps)")
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"one"}"#).status == 201)
            let two = try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"two"}"#)
            #expect(two.status == 507, "\(two.text)")
            #expect(two.json("message")?.stringValue?.contains("--max-memory 3 MiB") == true, "\(two.text)")
            // Replacing the snapshot of the same name fits (the old one is freed).
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"one"}"#).status == 201)
            #expect(server.withStage { $0.heldBytes } == apps * 3, "the app, and a snapshot holding it twice")
            #expect(try await client.send(.delete, "/_understudy/snapshots/one").status == 200)
            #expect(try await client.send(.post, "/_understudy/snapshots", json: #"{"name":"two"}"#).status == 201)
        }
    }

    @Test("every stored property of the classes a copy goes through is copied (a new one must be added to copy())")
    func copiesCoverEveryProperty() {
        for (type, stored, copied) in CopiedProperties.check() {
            #expect(stored.subtracting(copied).isEmpty, "\(type).copy() does not copy \(stored.subtracting(copied).sorted())")
            #expect(copied.subtracting(stored).isEmpty, "\(type).copiedProperties names \(copied.subtracting(stored).sorted()), not stored properties")
        }
    }
}
