import Testing
import Understudy

/// `heldBytes`, the running total the memory cap counts, follows what the records really hold: it grows with
/// the text of users' properties and outbox messages, and shrinks when they go.
@Suite("Held bytes: the memory account of a backend")
struct HeldBytesTests {
    static func user(_ number: Int, properties: Int, characters: Int) -> [Property] {
        var list = [Property("email", .string("u\(number)@example.com")), Property("password", "secret1")]
        for index in 0..<properties {
            list.append(Property("p\(index)", .string(String(repeating: "x", count: characters))))
        }
        return list
    }

    @Test("a Backendless user counts its properties' text; an update and a delete change the total by their size")
    func backendlessUsers() throws {
        let app = BackendlessApp(seed: 1)
        let empty = app.heldBytes
        let user = try app.register(Self.user(1, properties: 100, characters: 500))
        let registered = app.heldBytes - empty
        #expect(registered >= 100 * 500, "a user with 50,000 characters of properties counts \(registered) bytes")
        #expect(registered < 100 * 500 * 2)

        let session = try app.login(identity: "u1@example.com", password: "secret1")
        let added = (100..<140).map { Property("p\($0)", .string(String(repeating: "y", count: 500))) }
        _ = try app.update(objectID: user.objectID, properties: added, token: session.token)
        #expect(app.heldBytes - empty - registered >= 20_000, "40 more properties of 500 characters add over 20,000 bytes")

        try app.delete(objectID: user.objectID)
        // The columns stay: users.describe lists every property any user held (p0…p139 and email).
        #expect(app.heldBytes == empty + 141 * HeldBytes.perEntry, "deleting the user gives back all it counted but the columns")
    }

    @Test("sessions count: a thousand logins hold more than a thousand times a token's size until they end")
    func sessionsCount() throws {
        let app = BackendlessApp(seed: 1)
        _ = try app.register(Self.user(1, properties: 0, characters: 0))
        let before = app.heldBytes
        var tokens: [String] = []
        for _ in 0..<1000 { tokens.append(try app.login(identity: "u1@example.com", password: "secret1").token) }
        #expect(app.heldBytes - before >= 1000 * 64)
        for token in tokens { try app.logout(token: token) }
        #expect(app.heldBytes == before)
    }

    @Test("seeded users count their template's text")
    func seededUsers() throws {
        let app = BackendlessApp(seed: 1)
        let empty = app.heldBytes
        var template = [Property("email", "u%d@example.com"), Property("password", "secret1")]
        for index in 0..<20 { template.append(Property("t\(index)", .string(String(repeating: "z", count: 480)))) }
        try app.seedUsers(count: 100, template: template)
        #expect(app.heldBytes - empty >= 100 * 20 * 480)
    }

    @Test("a Kii user counts its custom fields; deleting the user gives them back")
    func kiiCustomFields() throws {
        let app = KiiApp(seed: 1)
        let empty = app.heldBytes
        let user = try app.register(username: "alice", password: "secret1")
        _ = try app.update(userID: user.userID, fields: [Property("bio", .string(String(repeating: "b", count: 10_000)))])
        #expect(app.heldBytes - empty >= 10_000)
        try app.delete(userID: user.userID)
        #expect(app.heldBytes == empty)
    }

    @Test("a Kii installation counts its registration id's text (a client's 1,024-character tokens); removing it gives it back")
    func kiiInstallationText() throws {
        let app = KiiApp(seed: 1)
        let user = try app.register(username: "alice", password: "secret1")
        let before = app.heldBytes
        var ids: [String] = []
        for index in 0..<100 {
            let token = String(repeating: "t", count: 1020) + String(1000 + index)
            ids.append(try app.registerInstallation(userID: user.userID, type: "ANDROID", token: token).installationID)
        }
        #expect(app.heldBytes - before >= 100 * 2 * 1024, "100 installations with 1,024-character tokens count \(app.heldBytes - before) bytes")
        for id in ids { try app.unregisterInstallation(id: id) }
        #expect(app.heldBytes == before)
    }

    @Test("pushes count their message once per firing; clearing the outbox gives the bytes back")
    func outboxPushes() throws {
        let app = BackendlessApp(seed: 1)
        for index in 0..<10 { _ = try app.registerDevice(token: "t\(index)", deviceID: "d\(index)", os: .android) }
        let before = app.heldBytes
        let message = String(repeating: "m", count: 4096)
        for _ in 0..<30 { _ = try app.publish(message: message) }
        let grown = app.heldBytes - before
        // 300 deliveries (a record each) and 30 messages held (in the outbox and in the message's status record)
        #expect(grown >= 300 * 128 + 30 * 4096, "\(grown)")
        #expect(grown < 300 * 128 + 30 * 4096 * 3 + 300 * 128, "the deliveries of one firing share its text: \(grown)")
        app.outbox.clear()
        #expect(app.heldBytes - before >= 30 * 4096, "the sent messages' status records stay")
        #expect(app.heldBytes - before < grown - 300 * 128)
    }

    @Test("the journal counts its entries' bodies and drops its oldest to make room")
    func journal() {
        var journal = RequestJournal(capacity: 100)
        for index in 0..<10 {
            journal.record(JournalEntry(
                method: "POST", path: "/x", query: "", flavour: nil, appID: nil, operation: nil,
                body: String(repeating: "j", count: 10_000) + "\(index)", json: nil, status: 200, code: nil, time: 0,
                delayMilliseconds: 0, connectionDropped: false
            ))
        }
        #expect(journal.heldBytes >= 100_000)
        journal.dropOldest(5)
        #expect(journal.count == 5)
        #expect(journal.dropped == 5)
        #expect(journal.heldBytes >= 50_000 && journal.heldBytes < 60_000)
        #expect(journal.entries().first?.body.hasSuffix("5") == true, "the oldest went first")
    }
}
