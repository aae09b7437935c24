import Testing
import Understudy

@Suite("Kii registration")
struct KiiRegistrationTests {
    // MARK: Username

    @Test("a username of 3 or 64 characters is accepted", arguments: [3, 64])
    func usernameLengthAccepted(length: Int) throws {
        let app = makeKiiApp()
        let name = String(repeating: "a", count: length)
        #expect(try app.registerUser(username: name).loginName == name)
    }

    @Test("a username of 2 or 65 characters is refused naming loginName", arguments: [2, 65])
    func usernameLengthRefused(length: Int) {
        let app = makeKiiApp()
        let error = kiiFailure { try app.registerUser(username: String(repeating: "a", count: length)) }
        #expect(error?.status == 400)
        #expect(error?.code == "INVALID_INPUT_DATA")
        #expect(error?.field == "loginName")
        #expect(app.userCount == 0)
    }

    @Test("letters, digits, underscore, hyphen and period make a username")
    func usernameCharacters() throws {
        let app = makeKiiApp()
        #expect(try app.registerUser(username: "agent_007-mi6.uk").loginName == "agent_007-mi6.uk")
        #expect(try app.registerUser(username: "._-").loginName == "._-")
    }

    @Test(
        "any other character in a username is refused",
        arguments: ["bond 007", "bond@007", "bond+007", "bond!", "bönd007", "bond\t007", "\u{212A}elvin", "bond\0x"]
    )
    func usernameBadCharacter(name: String) {
        let app = makeKiiApp()
        #expect(kiiFailure { try app.registerUser(username: name) }?.field == "loginName")
        #expect(app.userCount == 0)
    }

    @Test("a username is stored lower-cased and is unique whatever its case")
    func usernameCase() throws {
        let app = makeKiiApp()
        #expect(try app.registerUser(username: "Bond007").loginName == "bond007")
        let error = kiiFailure { try app.registerUser(username: "BOND007") }
        #expect(error?.status == 409)
        #expect(error?.code == "USER_ALREADY_EXISTS")
        #expect(error?.field == "loginName")
        #expect(error?.value == "bond007")
        #expect(error?.message == "User with loginName bond007 already exists")
        #expect(app.userCount == 1)
    }

    // MARK: Email address

    /// An address of exactly `length` characters (197 or more): labels of at most 63.
    static func email(ofLength length: Int) -> String {
        String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 63) + "."
            + String(repeating: "c", count: 63) + "." + String(repeating: "d", count: length - 197) + ".com"
    }

    @Test("a 200-character email address is accepted and stored as given")
    func email200() throws {
        let app = makeKiiApp()
        let address = Self.email(ofLength: 200)
        #expect(address.count == 200)
        #expect(try app.registerUser(email: address).emailAddress == address)
    }

    @Test("a 201-character email address is refused naming emailAddress")
    func email201() {
        let app = makeKiiApp()
        let error = kiiFailure { try app.registerUser(email: Self.email(ofLength: 201)) }
        #expect(error?.code == "INVALID_INPUT_DATA")
        #expect(error?.field == "emailAddress")
    }

    @Test("the local part may use letters, digits and . _ % + -, the domain several labels")
    func emailAccepted() throws {
        let app = makeKiiApp()
        #expect(try app.registerUser(email: "James.Bond_007%mi6+field-ops@mail.mi6.co.uk").emailAddress
            == "James.Bond_007%mi6+field-ops@mail.mi6.co.uk")
    }

    @Test(
        "malformed email addresses are refused",
        arguments: [
            "james.bond.mi6.co.uk", "james@bond@mi6.co.uk", "@mi6.co.uk", "james@", "james bond@mi6.co.uk",
            "james!@mi6.co.uk", "jämes@mi6.co.uk", "james@my-domain.com", "james@my_domain.com", "james@mi6+uk.com",
            ".james@mi6.co.uk", "james.@mi6.co.uk", "ja..mes@mi6.co.uk", "james@mi6..co.uk", "james@mi6.co.uk.",
            "james@.mi6.co.uk",
        ]
    )
    func emailRefused(address: String) {
        let app = makeKiiApp()
        let error = kiiFailure { try app.registerUser(username: "bond007", email: address) }
        #expect(error?.status == 400)
        #expect(error?.field == "emailAddress")
        #expect(app.userCount == 0)
    }

    @Test("an email address is unique whatever its case, and the 409 names it")
    func emailUnique() throws {
        let app = makeKiiApp()
        try app.registerUser(email: "james@mi6.co.uk")
        let error = kiiFailure { try app.registerUser(username: "bond007", email: "James@MI6.co.uk") }
        #expect(error?.status == 409)
        #expect(error?.field == "emailAddress")
        #expect(error?.value == "James@MI6.co.uk")
        #expect(error?.message == "User with emailAddress James@MI6.co.uk already exists")
        #expect(app.find(identifier: "bond007") == nil)
    }

    // MARK: Password

    @Test("a password of 4 or 50 characters is accepted and logs in", arguments: [4, 50])
    func passwordLengthAccepted(length: Int) throws {
        let app = makeKiiApp()
        let password = String(repeating: "p", count: length)
        let user = try app.register(username: "bond007", password: password)
        #expect(app.loginUserID("bond007", password: password) == user.userID)
    }

    @Test("a 3-character or empty password is PASSWORD_TOO_SHORT", arguments: ["123", ""])
    func passwordTooShort(password: String) {
        let app = makeKiiApp()
        let error = kiiFailure { try app.register(username: "bond007", password: password) }
        #expect(error?.status == 400)
        #expect(error?.code == "PASSWORD_TOO_SHORT")
        #expect(app.userCount == 0)
    }

    @Test(
        "a 51-character password or a character outside U+0020...U+007E is INVALID_INPUT_DATA naming password",
        arguments: [String(repeating: "p", count: 51), "pässword", "secret€", "pass\tword", "pass\0word", "password\u{7F}"]
    )
    func passwordInvalid(password: String) {
        let app = makeKiiApp()
        let error = kiiFailure { try app.register(username: "bond007", password: password) }
        #expect(error?.code == "INVALID_INPUT_DATA")
        #expect(error?.field == "password")
        #expect(app.userCount == 0)
    }

    @Test("every printable ASCII character, space included, is allowed in a password")
    func passwordPrintable() throws {
        let app = makeKiiApp()
        let password = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
        _ = try app.register(username: "bond007", password: password)
        #expect(app.loginUserID("bond007", password: password) != nil)
        #expect(app.loginUserID("bond007", password: "123abc") == nil)
    }

    @Test("a missing password is refused naming password")
    func passwordMissing() {
        let app = makeKiiApp()
        #expect(kiiFailure { try app.register(username: "bond007", password: nil) }?.field == "password")
    }

    // MARK: Identifiers and the verification combinations (footnotes *1 *2 *3)

    @Test("a registration without username, email or phone is refused")
    func noIdentifier() {
        let app = makeKiiApp()
        let error = kiiFailure { try app.register(password: kiiPassword) }
        #expect(error?.code == "INVALID_INPUT_DATA")
        #expect(app.userCount == 0)
    }

    struct Combination: Sendable, CustomTestStringConvertible {
        var email: Bool
        var phone: Bool
        var emailVerification: Bool
        var phoneVerification: Bool
        var refusedFor: String?
        var testDescription: String {
            "\(email ? "email" : "")\(email && phone ? "+" : "")\(phone ? "phone" : "") with verification email=\(emailVerification) phone=\(phoneVerification)"
        }
    }

    @Test(
        "without a username, each verification combination is accepted or refused as the footnotes say",
        arguments: [
            // *1 phone only
            Combination(email: false, phone: true, emailVerification: false, phoneVerification: true, refusedFor: "phone_verification"),
            Combination(email: false, phone: true, emailVerification: true, phoneVerification: false, refusedFor: nil),
            // *2 email only
            Combination(email: true, phone: false, emailVerification: true, phoneVerification: false, refusedFor: "email_verification"),
            Combination(email: true, phone: false, emailVerification: false, phoneVerification: true, refusedFor: nil),
            // *3 email and phone
            Combination(email: true, phone: true, emailVerification: true, phoneVerification: true, refusedFor: "verification"),
            Combination(email: true, phone: true, emailVerification: true, phoneVerification: false, refusedFor: nil),
            Combination(email: true, phone: true, emailVerification: false, phoneVerification: true, refusedFor: nil),
            Combination(email: true, phone: true, emailVerification: false, phoneVerification: false, refusedFor: nil),
        ]
    )
    func footnotes(combination: Combination) throws {
        let app = makeKiiApp(emailVerification: combination.emailVerification, phoneVerification: combination.phoneVerification)
        let email = combination.email ? "user@mydomain.com" : nil
        let phone = combination.phone ? "+819012345678" : nil
        if let setting = combination.refusedFor {
            let error = kiiFailure { try app.registerUser(email: email, phone: phone) }
            #expect(error?.status == 400)
            #expect(error?.code == "INVALID_INPUT_DATA")
            #expect(error?.message.contains(setting) == true)
            #expect(app.userCount == 0)
            #expect(app.outbox.emails.isEmpty && app.outbox.sms.isEmpty)
        } else {
            let user = try app.registerUser(email: email, phone: phone)
            #expect(user.token != nil)
            // At least one of the addresses logs in at once.
            let logins = [email, phone].compactMap { $0 }.filter { app.loginUserID($0) == user.userID }
            #expect(!logins.isEmpty)
        }
    }

    @Test("with a username, both verifications on never block a registration")
    func usernameUnblocks() throws {
        let app = makeKiiApp(emailVerification: true, phoneVerification: true)
        let user = try app.registerUser(username: "id123456", email: "user@mydomain.com", phone: "+819012345678")
        #expect(app.loginUserID("id123456") == user.userID)
    }

    // MARK: Order of checks

    @Test("a malformed field is reported before a forbidden verification combination")
    func fieldBeforeCombination() {
        let app = makeKiiApp(emailVerification: true)
        #expect(kiiFailure { try app.registerUser(email: "not-an-email") }?.field == "emailAddress")
    }

    @Test("a forbidden combination is reported before a taken address")
    func combinationBeforeUniqueness() throws {
        let app = makeKiiApp()
        try app.registerUser(email: "user@mydomain.com")
        app.settings.emailVerification = true
        let error = kiiFailure { try app.registerUser(email: "user@mydomain.com") }
        #expect(error?.code == "INVALID_INPUT_DATA")
        #expect(error?.message.contains("email_verification") == true)
    }

    @Test("uniqueness is reported loginName first, then emailAddress, then phoneNumber")
    func uniquenessOrder() throws {
        let app = makeKiiApp()
        try app.registerUser(username: "bond007", email: "james@mi6.co.uk", phone: "+819012345678")
        #expect(kiiFailure {
            try app.registerUser(username: "bond007", email: "james@mi6.co.uk", phone: "+819012345678")
        }?.field == "loginName")
        #expect(kiiFailure {
            try app.registerUser(username: "alice", email: "james@mi6.co.uk", phone: "+819012345678")
        }?.field == "emailAddress")
        #expect(kiiFailure {
            try app.registerUser(username: "alice", email: "alice@mi6.co.uk", phone: "+819012345678")
        }?.field == "phoneNumber")
        #expect(app.userCount == 1)
    }

    // MARK: The registered user

    @Test("registration logs in: the user carries a token that belongs to it")
    func registrationToken() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "id123456")
        let token = try #require(user.token)
        #expect(try app.user(forToken: token).userID == user.userID)
        #expect(app.find(identifier: "id123456")?.token == nil)
    }

    @Test("a userID is a lower-case UUID and created is the virtual clock in milliseconds")
    func userIDLayout() throws {
        let app = makeKiiApp()
        app.clock.set(to: 1_900_000_000.5)
        let user = try app.registerUser(username: "id123456")
        #expect(user.userID.count == 36)
        #expect(user.userID == user.userID.lowercased())
        #expect(Array(user.userID).enumerated().allSatisfy { [8, 13, 18, 23].contains($0.offset) == ($0.element == "-") })
        #expect(user.created == 1_900_000_000_500)
    }

    @Test("the same seed hands out the same userIDs and tokens; another seed different ones")
    func determinism() throws {
        func run(seed: UInt64) throws -> [String?] {
            let app = makeKiiApp(seed: seed)
            let user = try app.registerUser(username: "id123456")
            let login = try app.login(identifier: "id123456", password: kiiPassword)
            return [user.userID, user.token, login.token]
        }
        #expect(try run(seed: 1) == run(seed: 1))
        #expect(try run(seed: 1)[0] != run(seed: 2)[0])
        #expect(try run(seed: 1)[1] != run(seed: 2)[1])
    }

    @Test("count and allUsers list registered users in order; refusals are not counted")
    func countAndList() throws {
        let app = makeKiiApp()
        let alice = try app.registerUser(username: "alice")
        _ = kiiFailure { try app.registerUser(username: "ALICE") }
        let bob = try app.registerUser(email: "bob@mydomain.com")
        #expect(app.userCount == 2)
        #expect(app.allUsers.map(\.userID) == [alice.userID, bob.userID])
    }

    @Test("the capacity caps the number of users")
    func capacity() throws {
        let app = makeKiiApp(capacity: Capacity(maxUsers: 1))
        try app.registerUser(username: "alice")
        #expect(kiiFailure { try app.registerUser(username: "bob") } != nil)
        #expect(app.userCount == 1)
    }

    // MARK: Faults and settings

    @Test("an injected fault answers its status, code and message and creates nothing")
    func fault() throws {
        let app = makeKiiApp()
        let id = app.faults.inject(
            Fault(operation: "users.register", code: .text("RESOURCE_TEMPORARILY_UNAVAILABLE"), message: "down", status: 503, times: 1)
        )
        let error = kiiFailure { try app.registerUser(username: "bond007") }
        #expect(error == KiiError(status: 503, code: "RESOURCE_TEMPORARILY_UNAVAILABLE", message: "down"))
        #expect(app.userCount == 0)
        #expect(app.faults.hits(of: id) == 1)
        #expect(try app.registerUser(username: "bond007").loginName == "bond007")
    }

    @Test("a numeric fault code becomes text, with status 400 and a default message")
    func numericFault() {
        let app = makeKiiApp()
        app.faults.inject(Fault(operation: "users.register", code: .number(42)))
        #expect(kiiFailure { try app.registerUser(username: "bond007") }
            == KiiError(status: 400, code: "42", message: "Injected fault"))
    }

    @Test("settings read and write by name, and refuse unknown names and wrong kinds")
    func settings() throws {
        var settings = KiiSettings()
        #expect(settings.value(of: "email_verification") == .bool(false))
        #expect(settings.value(of: "phone_verification") == .bool(false))
        #expect(settings.value(of: "sms_code_ttl") == .int(86_400))
        #expect(settings.value(of: "app_id") == .string("understudy-kii-app"))
        #expect(settings.value(of: "app_key") == .string("understudy-kii-key"))
        try settings.set("phone_verification", to: true)
        try settings.set("sms_code_ttl", to: 600)
        #expect(settings.phoneVerification && settings.smsCodeTTL == 600)
        #expect(throws: SettingError.self) { try settings.set("email_verification", to: "yes") }
        #expect(throws: SettingError.self) { try settings.set("no_such_setting", to: true) }
        #expect(settings.value(of: "no_such_setting") == nil)
        #expect(KiiSettings.names.allSatisfy { settings.value(of: $0) != nil })
    }
}
