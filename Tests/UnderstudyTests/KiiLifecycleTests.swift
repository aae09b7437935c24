import Testing
import Understudy

@Suite("Kii account lifecycle")
struct KiiLifecycleTests {
    /// bond007 with a verified email and phone (verification off), and a live token.
    func bond(_ app: KiiApp) throws -> KiiUser {
        try app.registerUser(username: "bond007", email: "bond@mi6.co.uk", phone: "+819012345678")
    }

    @Test("every way a token ends answers 403 WRONG_TOKEN, and re-enabling does not revive it")
    func tokensEnd() throws {
        let endings: [(String, (KiiApp, KiiUser) throws -> Void)] = [
            ("password change", { app, user in try app.changePassword(userID: user.userID, oldPassword: kiiPassword, newPassword: "shaken") }),
            ("disable", { app, user in try app.setDisabled(userID: user.userID, disabled: true) }),
            ("delete", { app, user in try app.delete(userID: user.userID) }),
            ("reset link", { app, user in
                try app.requestPasswordReset(identifier: user.userID)
                try app.openResetLink(app.outbox.emails.last!.link!)
            }),
        ]
        for (name, end) in endings {
            let app = makeKiiApp()
            let user = try bond(app)
            let token = try #require(user.token)
            try end(app, user)
            #expect(kiiFailure { try app.me(token: token) }?.code == "WRONG_TOKEN", "\(name)")
            #expect(kiiFailure { try app.user(forToken: token) }?.status == 403, "\(name) over HTTP")
            if name == "disable" {
                try app.setDisabled(userID: user.userID, disabled: false)
                #expect(kiiFailure { try app.me(token: token) }?.code == "WRONG_TOKEN")
            }
        }
    }

    @Test("a token never issued is still 401 UNAUTHORIZED over HTTP")
    func unknownToken() {
        let app = makeKiiApp()
        #expect(kiiFailure { try app.user(forToken: "nope") }?.status == 401)
    }

    @Test("PINs and link codes are digits from the seeded generator: the same seed sends the same ones")
    func deterministicCodes() throws {
        func run() throws -> [String] {
            let app = makeKiiApp(seed: 42)
            let user = try bond(app)
            try app.requestPasswordReset(identifier: user.userID, method: .smsPIN)
            try app.requestPasswordReset(identifier: user.userID, method: .email)
            return [app.outbox.sms.last!.code!, app.outbox.emails.last!.link!]
        }
        let first = try run()
        let second = try run()
        #expect(first == second)
        let digits = Set("0123456789")
        #expect(first[0].allSatisfy { digits.contains($0) })
        #expect(first[1].split(separator: "=").last!.allSatisfy { digits.contains($0) })
    }

    @Test("a reset names the user by an unverified address, but the method needs a verified one")
    func unverifiedAddress() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "bond007", email: "bond@mi6.co.uk")
        let error = kiiFailure { try app.requestPasswordReset(identifier: "EMAIL:BOND@mi6.co.uk") }
        #expect(error?.status == 409)
        #expect(error?.code == "INVALID_STATUS")
        #expect(kiiFailure { try app.requestPasswordReset(identifier: "EMAIL:other@mi6.co.uk") }?.field == "emailAddress")
        _ = try app.verifyEmail(userID: user.userID, code: app.outbox.emails.last!.code!)
        try app.requestPasswordReset(identifier: "EMAIL:bond@mi6.co.uk")
        #expect(app.outbox.emails.last?.kind == .passwordReset)
    }

    @Test("update keeps predefined fields, replaces custom ones, and a refused update changes nothing")
    func updateMerge() throws {
        let app = makeKiiApp()
        let user = try bond(app)
        _ = try app.update(userID: user.userID, fields: [Property("displayName", "James"), Property("score", 7)])
        let updated = try app.update(userID: user.userID, fields: [Property("rank", "captain")])
        #expect(updated.displayName == "James")
        #expect(updated.customFields == [Property("rank", "captain")])
        #expect(app.find(identifier: "bond007")?.customFields == [Property("rank", "captain")])
        let refused = kiiFailure { try app.update(userID: user.userID, fields: [Property("country", "JP"), Property("_x", 1)]) }
        #expect(refused?.field == "_x")
        #expect(app.find(identifier: "bond007")?.country == user.country)
        #expect(kiiFailure { try app.update(userID: user.userID, fields: [Property("internalUserID", 5)]) }?.code == "INVALID_INPUT_DATA")
        _ = try app.update(userID: user.userID, fields: [Property("internalUserID", .int(user.internalUserID))])
    }

    @Test("update sending the current email keeps a pending change; a new one taken by another user is 409")
    func updateEmail() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "bond007", email: "bond@mi6.co.uk")
        _ = try app.registerUser(username: "moneypenny", email: "m@mi6.co.uk")
        _ = try app.changeEmail(userID: user.userID, email: "007@mi6.co.uk")
        let same = try app.update(userID: user.userID, fields: [Property("emailAddress", "BOND@mi6.co.uk")])
        #expect(same.pendingEmailAddress == "007@mi6.co.uk")
        let taken = kiiFailure { try app.update(userID: user.userID, fields: [Property("emailAddress", "m@mi6.co.uk")]) }
        #expect(taken?.status == 409)
    }

    @Test("deletion frees every identifier and the installations; a new user may take them")
    func deletion() throws {
        let app = makeKiiApp()
        let user = try bond(app)
        _ = try app.registerInstallation(userID: user.userID, type: "IOS", token: "apns-1")
        try app.delete(userID: user.userID)
        #expect(app.userCount == 0)
        #expect(app.allUsers.isEmpty)
        #expect(app.installation(type: "IOS", registrationID: "apns-1") == nil)
        let again = try bond(app)
        #expect(again.userID != user.userID)
    }

    @Test("installations move between owners, keep their id, and a disabled owner receives nothing")
    func installations() throws {
        let app = makeKiiApp()
        let alice = try app.registerUser(username: "alice")
        let bob = try app.registerUser(username: "bob")
        let first = try app.registerInstallation(userID: alice.userID, type: "ANDROID", token: "fcm-1")
        let moved = try app.registerInstallation(userID: bob.userID, type: "ANDROID", token: "fcm-1", development: true)
        #expect(moved.installationID == first.installationID)
        #expect(app.installations(userID: alice.userID).isEmpty)
        #expect(try app.sendToUser(userID: bob.userID, message: "hi") == [first.installationID])
        #expect(app.outbox.pushes.last?.installationID == first.installationID)
        try app.setDisabled(userID: bob.userID, disabled: true)
        #expect(try app.sendToUser(userID: bob.userID, message: "hi").isEmpty)
        #expect(app.outbox.pushes.count == 1)
        let tooLong = kiiFailure { try app.registerInstallation(userID: alice.userID, type: "IOS", token: String(repeating: "a", count: 10_240)) }
        #expect(tooLong?.field == "installationRegistrationID")
        #expect(tooLong.map { $0.message.count < 200 } == true)
    }

    @Test("a fault on installations.register sees the contract's argument names")
    func faultArguments() throws {
        let app = makeKiiApp()
        let alice = try app.registerUser(username: "alice")
        nonisolated(unsafe) var seen: Value?
        _ = app.faults.inject(Fault(operation: "installations.register", code: .text("BOOM"), status: 503, condition: { arguments in
            seen = arguments["registration"]
            return true
        }))
        #expect(kiiFailure { try app.registerInstallation(userID: alice.userID, type: "MQTT", token: nil) }?.code == "BOOM")
        #expect(seen == .object(["user": .string(alice.userID), "type": "MQTT", "token": .null, "development": false]))
    }
}
