import Testing
import Understudy

/// The code of the `BackendlessError` that `body` throws, or nil when it succeeds.
private func failureCode<T>(_ body: () throws -> T) -> Int? {
    do {
        _ = try body()
        return nil
    } catch let error as BackendlessError {
        return error.code
    } catch {
        Issue.record("expected a BackendlessError, got \(error)")
        return nil
    }
}

@Suite("Backendless account lifecycle (domain)")
struct BackendlessLifecycleTests {
    static let email = "james.bond@mi6.co.uk"
    static let password = "iAmWatchingU"

    /// An app with Bond registered and logged in.
    func bond(_ configure: (inout BackendlessSettings) -> Void = { _ in }) throws -> (BackendlessApp, BackendlessUser, String) {
        var settings = BackendlessSettings()
        configure(&settings)
        let app = BackendlessApp(settings: settings, seed: 7)
        let user = try app.register([Property("email", .string(Self.email)), Property("password", .string(Self.password))])
        let session = try app.login(identity: Self.email, password: Self.password)
        return (app, user, session.token)
    }

    @Test("the setting reads and writes by name and refuses anything but \"link\", \"temporary\" or false")
    func setting() throws {
        var settings = BackendlessSettings()
        #expect(settings.value(of: "password_recovery") == .string("link"))
        try settings.set("password_recovery", to: false)
        #expect(settings.passwordRecovery == .off)
        #expect(settings.value(of: "password_recovery") == .bool(false))
        #expect(BackendlessSettings.names.contains("password_recovery"))
        #expect(throws: SettingError.self) { try settings.set("password_recovery", to: true) }
        #expect(throws: SettingError.self) { try settings.set("password_recovery", to: "sms") }
        #expect(settings.passwordRecovery == .off)
    }

    @Test("a recovery link resets the password once; the session stays and a second use is 3092")
    func recoveryLink() throws {
        let (app, _, token) = try bond()
        try app.restorePassword(identity: Self.email)
        let link = try #require(app.outbox.emails.last?.link)
        #expect(app.outbox.emails.last?.kind == .passwordRecovery)
        _ = try app.login(identity: Self.email, password: Self.password)
        try app.resetPassword(linkOrToken: link, newPassword: "shaken")
        #expect(failureCode { try app.login(identity: Self.email, password: Self.password) } == 3003)
        _ = try app.login(identity: Self.email, password: "shaken")
        _ = try app.user(forToken: token)
        #expect(failureCode { try app.resetPassword(linkOrToken: link, newPassword: "stirred") } == 3092)
        #expect(app.recoveryLinkState(link)?.used == true)
    }

    @Test("restore_password checks 3101, then 3020, then 3025, and sends nothing when it fails")
    func recoveryOrder() throws {
        let off = BackendlessApp(seed: 1)
        off.settings.passwordRecovery = .off
        #expect(failureCode { try off.restorePassword(identity: "nobody@example.com") } == 3101)
        let (app, _, _) = try bond()
        #expect(failureCode { try app.restorePassword(identity: "nobody@example.com") } == 3020)
        let named = BackendlessApp(seed: 1)
        named.settings.identity = "name"
        _ = try named.register([Property("name", "bond"), Property("password", "pw")])
        #expect(failureCode { try named.restorePassword(identity: "bond") } == 3025)
        #expect(off.outbox.emails.isEmpty && app.outbox.emails.isEmpty && named.outbox.emails.isEmpty)
    }

    @Test("a temporary password replaces the old one at once and is the one in the email")
    func temporaryPassword() throws {
        let (app, _, _) = try bond { $0.passwordRecovery = .temporary }
        try app.restorePassword(identity: Self.email)
        let password = try #require(app.outbox.emails.last?.password)
        #expect(app.outbox.emails.last?.link == nil)
        #expect(failureCode { try app.login(identity: Self.email, password: Self.password) } == 3003)
        _ = try app.login(identity: Self.email, password: password)
    }

    @Test("resend_confirmation and confirmation_url check 3103, 3104, 3102 in order; the URL sends no email")
    func confirmation() throws {
        let app = BackendlessApp(seed: 3)
        #expect(failureCode { try app.resendConfirmation(identity: "nobody@example.com") } == 3103)
        app.settings.emailConfirmation = true
        #expect(failureCode { try app.confirmationURL(identity: "nobody@example.com") } == 3104)
        let user = try app.register([Property("email", .string(Self.email)), Property("password", "pw")])
        let link = try app.confirmationURL(identity: Self.email)
        #expect(app.outbox.emails.count == 1)
        try app.resendConfirmation(identity: Self.email)
        #expect(app.outbox.emails.count == 2)
        let token = String(link.split(separator: "/").last ?? "")
        #expect(try app.confirmEmail(linkToken: token).status == .enabled)
        #expect(failureCode { try app.resendConfirmation(identity: Self.email) } == 3102)
        #expect(app.user(objectID: user.objectID)?.status == .enabled)
    }

    @Test("update checks its codes in the contract's order", arguments: [
        (["email": "bad", "password": ""], 3040),
        (["email": "m@mi6.co.uk", "password": ""], 3018),
        (["password": "", "bio": String(repeating: "x", count: 501)], 3045),
        (["bio": String(repeating: "x", count: 501)], 8000),
    ])
    func updateOrder(changes: [String: String], code: Int) throws {
        let (app, user, token) = try bond()
        _ = try app.register([Property("email", "m@mi6.co.uk"), Property("password", "pw")])
        let properties = changes.sorted { $0.key < $1.key }.map { Property($0.key, .string($0.value)) }
        #expect(failureCode { try app.update(objectID: user.objectID, properties: properties, token: token) } == code)
        #expect(app.user(objectID: user.objectID)?.properties == user.properties)
        _ = try app.login(identity: Self.email, password: Self.password)
    }

    @Test("update answers 3064, 3030 and 3029 before looking at the properties")
    func updateSessionChecks() throws {
        let (app, user, token) = try bond()
        _ = try app.register([Property("email", "m@mi6.co.uk"), Property("password", "pw")])
        let other = try app.login(identity: "m@mi6.co.uk", password: "pw").token
        let bad = [Property("email", "bad")]
        #expect(failureCode { try app.update(objectID: "nope", properties: bad, token: "nope") } == 3064)
        #expect(failureCode { try app.update(objectID: "nope", properties: bad, token: token) } == 3030)
        #expect(failureCode { try app.update(objectID: user.objectID, properties: bad, token: other) } == 3029)
    }

    @Test("a changed identity is re-indexed and a changed password re-hashed")
    func updateReindexes() throws {
        let (app, user, token) = try bond()
        let updated = try app.update(
            objectID: user.objectID,
            properties: [Property("email", "M@MI6.co.uk"), Property("password", "new"), Property("objectId", "x")],
            token: token
        )
        #expect(updated.objectID == user.objectID)
        #expect(app.find(identity: Self.email) == nil)
        #expect(app.find(identity: "m@mi6.co.uk")?.objectID == user.objectID)
        _ = try app.login(identity: "m@mi6.co.uk", password: "new")
        #expect(updated.properties[named: "password"] == nil)
    }

    @Test("delete ends the sessions, frees the identity, and a second delete is 1000")
    func delete() throws {
        let (app, user, token) = try bond()
        try app.delete(objectID: user.objectID)
        #expect(failureCode { try app.user(forToken: token) } == 3064)
        #expect(app.userCount == 0)
        _ = try app.register([Property("email", .string(Self.email)), Property("password", "again")])
        #expect(failureCode { try app.delete(objectID: user.objectID) } == 1000)
    }
}
