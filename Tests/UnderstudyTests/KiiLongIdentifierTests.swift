import Testing
import Understudy

/// Identifiers far longer than any phone number. libphonenumber's parser is quadratic in its input (100,000
/// digits took about a minute), so these must be answered without it; the tests pin the answers, not the time.
@Suite("Kii over-long identifiers")
struct KiiLongIdentifierTests {
    static let digits = String(repeating: "0", count: 100_000)

    @Test(
        "a 100,000-digit phone identifier (after this prefix) logs in as invalid_grant and is found as nil",
        arguments: ["JP-", "PHONE:JP-", "US-9", "", "+"]
    )
    func longIdentifierIsUnknown(prefix: String) throws {
        let identifier = prefix + Self.digits
        let app = makeKiiApp()
        try app.registerUser(username: "id123456", phone: "+819012345678")
        #expect(kiiFailure { try app.login(identifier: identifier, password: kiiPassword) } == .invalidGrant)
        #expect(app.find(identifier: identifier) == nil)
        // A well-formed number still logs in afterwards.
        #expect(app.loginUserID("JP-09012345678") != nil)
    }

    @Test("registering or changing to 100,000 local digits is an invalid phoneNumber; an unknown country still wins")
    func longLocalNumberIsInvalid() throws {
        let app = makeKiiApp()
        let invalid = kiiFailure { try app.registerUser(username: "id123456", phone: "JP-" + Self.digits) }
        #expect(invalid?.code == "INVALID_INPUT_DATA")
        #expect(invalid?.field == "phoneNumber")
        #expect(invalid?.message.hasSuffix("is not a valid phone number") == true)
        let bare = kiiFailure { try app.registerUser(username: "id123456", phone: Self.digits, country: "JP") }
        #expect(bare?.field == "phoneNumber")
        let unknownCountry = kiiFailure { try app.registerUser(username: "id123456", phone: Self.digits, country: "XX") }
        #expect(unknownCountry?.field == "country")
        #expect(unknownCountry?.message == "country XX is not a known country")
        let user = try app.registerUser(username: "id123456")
        let change = kiiFailure { try app.changePhone(userID: user.userID, phone: Self.digits, country: "JP") }
        #expect(change?.field == "phoneNumber")
        #expect(app.userCount == 1)
    }
}
