import Testing
import Understudy

@Suite("Kii login")
struct KiiLoginTests {
    static let username = "id123456"
    static let email = "user@mydomain.com"
    static let phone = "+819012345678"

    /// One row of the seed's identifier table: what is given at registration.
    struct Row: Sendable, CustomTestStringConvertible {
        var username: Bool
        var email: Bool
        var phone: Bool
        var testDescription: String {
            [username ? "username" : nil, email ? "email" : nil, phone ? "phone" : nil].compactMap { $0 }
                .joined(separator: " + ")
        }
    }

    @Test(
        "each row of the seed's table logs in with exactly the identifiers it registered",
        arguments: [
            Row(username: true, email: false, phone: false), Row(username: true, email: false, phone: true),
            Row(username: true, email: true, phone: false), Row(username: true, email: true, phone: true),
            Row(username: false, email: false, phone: true), Row(username: false, email: true, phone: false),
            Row(username: false, email: true, phone: true),
        ]
    )
    func identifierTable(row: Row) throws {
        let app = makeKiiApp()
        let user = try app.registerUser(
            username: row.username ? Self.username : nil, email: row.email ? Self.email : nil,
            phone: row.phone ? Self.phone : nil
        )
        #expect(user.token != nil)
        #expect((app.loginUserID(Self.username) == user.userID) == row.username)
        #expect((app.loginUserID(Self.email) == user.userID) == row.email)
        #expect((app.loginUserID(Self.phone) == user.userID) == row.phone)
        #expect((app.loginUserID("JP-09012345678") == user.userID) == row.phone)
    }

    @Test(
        "every accepted identifier form logs in",
        arguments: [
            "id123456", "ID123456", "Id123456", "user@mydomain.com", "USER@MyDomain.com", "+819012345678",
            "JP-09012345678", "EMAIL:user@mydomain.com", "PHONE:+819012345678", "PHONE:JP-09012345678",
            "LOGIN_NAME:id123456", "LOGIN_NAME:ID123456",
        ]
    )
    func identifierForms(identifier: String) throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: Self.username, email: Self.email, phone: Self.phone)
        let session = try app.login(identifier: identifier, password: kiiPassword)
        #expect(session.user.userID == user.userID)
        #expect(session.user.loginName == "id123456")
        #expect(session.user.token == session.token)
    }

    @Test(
        "identifiers that name nobody, or a prefix of the wrong kind, are refused",
        arguments: [
            "nobody", "nobody@mydomain.com", "+819087654321", "JP-09087654321", "09012345678", "EMAIL:id123456",
            "LOGIN_NAME:user@mydomain.com", "PHONE:user@mydomain.com", "PHONE:09012345678", "jp-09012345678",
            "",
        ]
    )
    func unknownIdentifiers(identifier: String) throws {
        let app = makeKiiApp()
        try app.registerUser(username: Self.username, email: Self.email, phone: Self.phone)
        #expect(kiiFailure { try app.login(identifier: identifier, password: kiiPassword) } == .invalidGrant)
        #expect(app.find(identifier: identifier) == nil)
    }

    @Test("a wrong password is the same 400 invalid_grant as an unknown user")
    func wrongPassword() throws {
        let app = makeKiiApp()
        try app.registerUser(username: Self.username, email: Self.email, phone: Self.phone)
        for identifier in [Self.username, Self.email, Self.phone, "JP-09012345678"] {
            let error = kiiFailure { try app.login(identifier: identifier, password: "123abc") }
            #expect(error?.status == 400)
            #expect(error?.code == "invalid_grant")
            #expect(error?.message == "The user was not found or a wrong password was provided")
        }
    }

    @Test("each login gets a new 43-character token and earlier tokens stay valid")
    func tokens() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: Self.username)
        let first = try app.login(identifier: Self.username, password: kiiPassword).token
        let second = try app.login(identifier: Self.username, password: kiiPassword).token
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for token in [user.token!, first, second] {
            #expect(token.count == 43)
            #expect(token.allSatisfy(alphabet.contains))
            #expect(try app.user(forToken: token).userID == user.userID)
        }
        #expect(Set([user.token!, first, second]).count == 3)
        #expect(kiiFailure { try app.user(forToken: "not-a-token") }?.status == 401)
    }

    @Test("each user logs in to their own account only")
    func twoUsers() throws {
        let app = makeKiiApp()
        let alice = try app.register(username: "alice", password: "alice-pw")
        let bob = try app.register(username: "bob", password: "bob-pw")
        #expect(app.loginUserID("alice", password: "alice-pw") == alice.userID)
        #expect(app.loginUserID("bob", password: "bob-pw") == bob.userID)
        #expect(app.loginUserID("alice", password: "bob-pw") == nil)
    }

    @Test("a username shaped like a country-local phone number still logs in when no phone matches")
    func phoneShapedUsername() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "JP-09012345678")
        #expect(user.loginName == "jp-09012345678")
        #expect(app.loginUserID("JP-09012345678") == user.userID)
        #expect(app.loginUserID("jp-09012345678") == user.userID)
    }

    @Test("a non-ASCII look-alike never folds onto a username (the Kelvin sign is not k)")
    func noUnicodeFolding() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "kelvin")
        #expect(app.loginUserID("KELVIN") == user.userID)
        #expect(app.loginUserID("\u{212A}elvin") == nil)
        #expect(app.find(identifier: "\u{212A}ELVIN") == nil)
    }

    @Test("find resolves the same identifiers as login and returns the stored user without a token")
    func find() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "Agent.Smith", email: Self.email, phone: Self.phone)
        for identifier in ["agent.smith", "AGENT.SMITH", Self.email, Self.phone, "JP-09012345678", "PHONE:JP-09012345678"] {
            let found = app.find(identifier: identifier)
            #expect(found?.userID == user.userID)
            #expect(found?.loginName == "agent.smith")
            #expect(found?.token == nil)
        }
        #expect(app.find(identifier: "nobody") == nil)
    }

    @Test("a fault on users.login refuses even the right password, and sees the identifier")
    func loginFault() throws {
        let app = makeKiiApp()
        try app.registerUser(username: "alice")
        try app.registerUser(username: "bob")
        app.faults.inject(
            Fault(
                operation: "users.login", code: .text("RESOURCE_TEMPORARILY_UNAVAILABLE"), status: 503,
                condition: { $0.object == .object(["identifier": "bob", "password": .string(kiiPassword)]) }
            )
        )
        #expect(app.loginUserID("alice") != nil)
        #expect(kiiFailure { _ = try app.perform(.login, ["identifier": "bob", "password": .string(kiiPassword)]) }?.status == 503)
    }
}
