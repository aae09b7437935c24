import Testing
import Understudy

@Suite("Kii pseudo users")
struct KiiPseudoUserTests {
    @Test("a pseudo user has a token, no identifier and no password, and counts as a user")
    func registerPseudo() throws {
        let app = makeKiiApp()
        let user = try app.registerPseudo(fields: [Property("displayName", "Anon"), Property("score", 3)])
        #expect(user.hasPassword == false)
        #expect(user.loginName == nil && user.emailAddress == nil && user.phoneNumber == nil)
        #expect(user.displayName == "Anon")
        #expect(user.customFields == [Property("score", 3)])
        let token = try #require(user.token)
        #expect(try app.me(token: token).userID == user.userID)
        #expect(app.userCount == 1)
        #expect(app.pseudoUsers.map(\.userID) == [user.userID])
    }

    @Test("identifiers, the password and reserved names are refused and nothing is registered")
    func refusedFields() {
        let app = makeKiiApp()
        for name in ["loginName", "emailAddress", "phoneNumber", "password", "internalUserID", "_x", "hasPassword"] {
            let error = kiiFailure { try app.registerPseudo(fields: [Property(name, "x")]) }
            #expect(error?.code == "INVALID_INPUT_DATA" && error?.field == name, "\(name)")
        }
        #expect(app.userCount == 0)
    }

    @Test("put_identity makes a normal user who logs in; the pseudo token keeps working")
    func putIdentity() throws {
        let app = makeKiiApp()
        let token = try #require(try app.registerPseudo().token)
        let user = try app.putIdentity(token: token, identity: KiiIdentity(username: "Bond007", password: kiiPassword))
        #expect(user.hasPassword && user.loginName == "bond007")
        #expect(try app.me(token: token).loginName == "bond007")
        #expect(app.loginUserID("bond007") == user.userID)
        #expect(app.pseudoUsers.isEmpty)
        #expect(kiiFailure { try app.putIdentity(token: token, identity: KiiIdentity(username: "x", password: kiiPassword)) }?.code == "INVALID_STATUS")
    }

    @Test("a refused put_identity changes nothing: the identifiers stay free and the user stays pseudo")
    func refusedChangesNothing() throws {
        let app = makeKiiApp()
        try app.registerUser(username: "taken")
        let token = try #require(try app.registerPseudo().token)
        let error = kiiFailure {
            try app.putIdentity(token: token, identity: KiiIdentity(username: "free", email: "a@b.com", phone: "+819012345678", password: "x"))
        }
        #expect(error?.code == "PASSWORD_TOO_SHORT")
        #expect(kiiFailure { try app.putIdentity(token: token, identity: KiiIdentity(username: "taken", password: kiiPassword)) }?.field == "loginName")
        #expect(try app.me(token: token).hasPassword == false)
        #expect(app.find(identifier: "free") == nil)
        try app.registerUser(username: "free", email: "a@b.com", phone: "+819012345678")
    }

    @Test("with email verification on, put_identity sends a code and the email logs in only once verified")
    func verification() throws {
        let app = makeKiiApp(emailVerification: true)
        let token = try #require(try app.registerPseudo().token)
        let user = try app.putIdentity(token: token, identity: KiiIdentity(username: "bond", email: "bond@mi6.co.uk", password: kiiPassword))
        #expect(user.emailAddressVerified == false)
        let code = try #require(app.outbox.emails.last?.code)
        #expect(app.loginUserID("bond@mi6.co.uk") == nil)
        _ = try app.verifyEmail(userID: user.userID, code: code)
        #expect(app.loginUserID("bond@mi6.co.uk") == user.userID)
    }

    @Test("a pseudo user's password cannot be changed (there is none to give), and deletion ends the token")
    func noPassword() throws {
        let app = makeKiiApp()
        let user = try app.registerPseudo()
        #expect(kiiFailure { try app.changePassword(userID: user.userID, oldPassword: "", newPassword: "abcd") }?.code == "WRONG_PASSWORD")
        try app.delete(userID: user.userID)
        #expect(kiiFailure { try app.me(token: user.token!) }?.code == "WRONG_TOKEN")
    }
}

@Suite("Kii pseudo users without a password")
struct KiiPseudoUserLoginTests {
    @Test("a pseudo user given an email by update cannot log in with an empty password")
    func noEmptyPasswordLogin() throws {
        let app = makeKiiApp()
        let user = try app.registerPseudo()
        _ = try app.update(userID: user.userID, fields: [Property("emailAddress", "anon@example.com")])
        #expect(app.loginUserID("anon@example.com", password: "") == nil)
        #expect(try app.me(token: user.token!).hasPassword == false)
    }
}
