import Testing
import Understudy

@Suite("Backendless sign-up and login through an OAuth provider")
struct BackendlessOAuthTests {
    static let email = "james.bond@mi6.co.uk"
    static let mapping = OAuthLoginOptions(fieldsMapping: [OAuthFieldMapping("email", to: "email"), OAuthFieldMapping("name", to: "name")])

    /// An app whose provider "facebook" accepts "fb-1" for Bond's profile.
    func app(_ configure: (inout BackendlessSettings) -> Void = { _ in }, capacity: Capacity = Capacity()) throws -> BackendlessApp {
        var settings = BackendlessSettings()
        configure(&settings)
        let app = BackendlessApp(settings: settings, seed: 7, capacity: capacity)
        try app.defineOAuthAccount(
            OAuthAccount(
                provider: "Facebook", token: "fb-1",
                profile: [Property("id", "10001"), Property("email", .string(Self.email)), Property("name", "James")]
            )
        )
        return app
    }

    @Test("the first login registers a linked social user; later logins (any token of that profile id) log it in")
    func firstLoginRegistersLaterLoginsLogIn() throws {
        let app = try app()
        try app.defineOAuthAccount(OAuthAccount(provider: "facebook", token: "fb-2", profile: [Property("id", "10001")]))
        let first = try app.loginOAuth(provider: "FACEBOOK", token: "fb-1", options: Self.mapping)
        #expect(first.user.socialAccount == "facebook")
        #expect(first.user.isSocial)
        #expect(first.user.status == .enabled)
        #expect(first.user.properties == [Property("email", .string(Self.email)), Property("name", "James")])
        #expect(first.user.lastLogin == app.clock.milliseconds)
        #expect(app.userCount == 1)
        #expect(app.find(identity: Self.email.uppercased())?.objectID == first.user.objectID)
        #expect(try app.user(forToken: first.token).objectID == first.user.objectID)

        let second = try app.loginOAuth(provider: "facebook", token: "fb-2")
        #expect(second.user.objectID == first.user.objectID)
        #expect(second.token != first.token)
        #expect(app.userCount == 1)
        #expect(app.oauthAccounts.map(\.token) == ["fb-1", "fb-2"])
        #expect(app.oauthUser(of: app.oauthAccounts[0])?.objectID == first.user.objectID)
    }

    @Test("a password user shows socialAccount BACKENDLESS and is not social")
    func passwordUsersAreBackendless() throws {
        let app = try app()
        let user = try app.register([Property("email", "m@mi6.co.uk"), Property("password", "pw"), Property("socialAccount", "twitter")])
        #expect(user.socialAccount == "BACKENDLESS")
        #expect(!user.isSocial)
        #expect(user.properties[named: "socialAccount"] == nil)
    }

    @Test("a guest converted by the first login keeps its objectId and session, and stops being a guest")
    func guestConversion() throws {
        let app = try app()
        let guest = try app.guestLogin()
        #expect(app.userCount == 0)
        let session = try app.loginOAuth(
            provider: "facebook", token: "fb-1", options: OAuthLoginOptions(fieldsMapping: Self.mapping.fieldsMapping, guest: guest.user.objectID)
        )
        #expect(session.user.objectID == guest.user.objectID)
        #expect(session.user.status == .enabled)
        #expect(app.userCount == 1)
        #expect(app.allUsers.count == 1)
        #expect(try app.user(forToken: guest.token).socialAccount == "facebook")
    }

    @Test("a failed first login registers nobody, converts no guest and indexes nothing")
    func failedFirstLoginChangesNothing() throws {
        let app = try app { $0.properties = ["rank": BackendlessSettings.PropertyRule(required: true)] }
        let guest = try app.guestLogin()
        let options = OAuthLoginOptions(fieldsMapping: Self.mapping.fieldsMapping, guest: guest.user.objectID)
        let error = backendlessFailure { try app.loginOAuth(provider: "facebook", token: "fb-1", options: options) }
        #expect(error?.code == 3014)
        #expect(error?.message == "Unable to register user. External registration failed with message: Unable to register user. Property 'rank' is required")
        #expect(app.userCount == 0)
        #expect(app.user(objectID: guest.user.objectID)?.status == .guest)
        #expect(app.find(identity: Self.email) == nil)
        // The same account registers once the rule is met: the failed attempt linked nothing.
        app.settings.properties = [:]
        #expect(try app.loginOAuth(provider: "facebook", token: "fb-1", options: options).user.objectID == guest.user.objectID)
    }

    @Test("3014 wraps 3033 when the identity is taken, 8000 for a long value; the failing rule's message is kept whole")
    func externalRegistrationWrapsTheRule() throws {
        let app = try app { $0.properties = ["name": BackendlessSettings.PropertyRule(maxLength: 3)] }
        _ = try app.register([Property("email", .string(Self.email)), Property("password", "pw")])
        let long = backendlessFailure { try app.loginOAuth(provider: "facebook", token: "fb-1", options: Self.mapping) }
        #expect(long == BackendlessError(code: 3014, message: "Unable to register user. External registration failed with message: Invalid value range: the value of 'name' is longer than 3 characters"))
        let taken = backendlessFailure {
            try app.loginOAuth(provider: "facebook", token: "fb-1", options: OAuthLoginOptions(fieldsMapping: [OAuthFieldMapping("email", to: "email")]))
        }
        #expect(taken == BackendlessError(code: 3014, message: "Unable to register user. External registration failed with message: Unable to register user. User already exists."))
        #expect(app.userCount == 1)
    }

    @Test("3052 for an unknown token, another provider's token, or a missing or wrong secret")
    func externalAuthentication() throws {
        let app = try app()
        try app.defineOAuthAccount(OAuthAccount(provider: "twitter", token: "tw", secret: "s", profile: [Property("id", "t")]))
        let expected = BackendlessError(code: 3052, message: "External authentication failed with message 'Invalid access token'")
        #expect(backendlessFailure { try app.loginOAuth(provider: "facebook", token: "nope") } == expected)
        #expect(backendlessFailure { try app.loginOAuth(provider: "twitter", token: "fb-1") } == expected)
        #expect(backendlessFailure { try app.loginOAuth(provider: "twitter", token: "tw") } == expected)
        #expect(backendlessFailure { try app.loginOAuth(provider: "twitter", token: "tw", options: OAuthLoginOptions(secret: "x")) } == expected)
        #expect(try app.loginOAuth(provider: "twitter", token: "tw", options: OAuthLoginOptions(secret: "s")).user.socialAccount == "twitter")
        #expect(try app.loginOAuth(provider: "facebook", token: "fb-1", options: OAuthLoginOptions(secret: "ignored")).user.socialAccount == "facebook")
    }

    @Test("a fault comes before every check, sees the options, and changes nothing")
    func faultFirst() throws {
        let app = try app { $0.logins = false }
        nonisolated(unsafe) var seen: Value?
        _ = app.faults.inject(Fault(operation: "users.login_oauth", code: .number(3052), times: 1, condition: { arguments in
            seen = arguments.object
            return true
        }))
        #expect(backendlessFailure { try app.loginOAuth(provider: "facebook", token: "fb-1", options: Self.mapping) }?.code == 3052)
        guard case .object(let arguments)? = seen, case .object(let options)? = arguments["options"] else {
            Issue.record("the fault saw \(String(describing: seen))")
            return
        }
        #expect(arguments["provider"] == .string("facebook"))
        #expect(options["fields_mapping"] == .object(["email": .string("email"), "name": .string("name")]))
        #expect(backendlessFailure { try app.loginOAuth(provider: "facebook", token: "fb-1") }?.code == 3034)
        #expect(app.userCount == 0)
    }

    @Test("the emulator's user limit applies to a first login (3021), not to a guest's conversion")
    func capacity() throws {
        let app = try app(capacity: Capacity(maxUsers: 1))
        let guest = try app.guestLogin()
        #expect(backendlessFailure { try app.loginOAuth(provider: "facebook", token: "fb-1") }?.code == 3021)
        let options = OAuthLoginOptions(guest: guest.user.objectID)
        #expect(try app.loginOAuth(provider: "facebook", token: "fb-1", options: options).user.objectID == guest.user.objectID)
    }

    @Test("a social user: login 3003 (counted towards the lockout), update 3072 then 3096, restore_password 3075")
    func socialUserRules() throws {
        let app = try app { $0.lockoutAfter = 2 }
        let session = try app.loginOAuth(provider: "facebook", token: "fb-1", options: Self.mapping)
        let id = session.user.objectID
        #expect(backendlessFailure { try app.update(objectID: id, properties: [Property("password", "pw"), Property("email", "x@y.z")], token: session.token) }?.code == 3072)
        #expect(backendlessFailure { try app.update(objectID: id, properties: [Property("email", "x@y.z")], token: session.token) }?.code == 3096)
        #expect(try app.update(objectID: id, properties: [Property("email", .string(Self.email.uppercased())), Property("name", "Jim")], token: session.token).objectID == id)
        #expect(backendlessFailure { try app.restorePassword(identity: Self.email) } == BackendlessError(code: 3075, message: "Cannot request password restoration for a user, authorized using a social network"))
        #expect(backendlessFailure { try app.login(identity: Self.email, password: "pw") }?.code == 3003)
        #expect(backendlessFailure { try app.login(identity: Self.email, password: "pw") }?.code == 3003)
        #expect(backendlessFailure { try app.loginOAuth(provider: "facebook", token: "fb-1") }?.code == 3036)
        _ = try app.setStatus(objectID: id, to: .disabled)
        #expect(backendlessFailure { try app.loginOAuth(provider: "facebook", token: "fb-1") }?.code == 3090)
    }

    @Test("an account the scenario cannot define names the offending field")
    func accountProblems() throws {
        let app = BackendlessApp(seed: 1)
        func problem(_ account: OAuthAccount) -> String? {
            do {
                try app.defineOAuthAccount(account)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(problem(OAuthAccount(provider: "", token: "t", profile: [Property("id", "1")])) == "provider must be a non-empty string")
        #expect(problem(OAuthAccount(provider: "p", token: "", profile: [Property("id", "1")])) == "token must be a non-empty string")
        #expect(problem(OAuthAccount(provider: "p", token: "t", profile: [Property("name", "x")]))?.hasPrefix("profile.id is required") == true)
        #expect(problem(OAuthAccount(provider: "p", token: "t", profile: [Property("id", 1)])) == "profile.id must be a string, got number")
        #expect(problem(OAuthAccount(provider: "p", token: "t", secret: "", profile: [Property("id", "1")])) == "secret must be a non-empty string when given")
        #expect(app.oauthAccounts.isEmpty)
    }
}
