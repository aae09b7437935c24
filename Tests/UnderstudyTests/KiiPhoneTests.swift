import Testing
import Understudy

@Suite("Kii phone numbers")
struct KiiPhoneTests {
    @Test(
        "mobile numbers are accepted and stored in E.164 form",
        arguments: [
            ("+819012345678", nil, "+819012345678"), ("09012345678", "JP", "+819012345678"),
            ("JP-09012345678", nil, "+819012345678"), ("+12015550123", nil, "+12015550123"),
            ("2015550123", "US", "+12015550123"), ("US-2015550123", nil, "+12015550123"),
            ("+6581234567", nil, "+6581234567"),  // 10 digits: a Singapore mobile
            ("+436641234567890", nil, "+436641234567890"),  // 15 digits: an Austrian mobile
        ] as [(String, String?, String)]
    )
    func accepted(phone: String, country: String?, e164: String) throws {
        let app = makeKiiApp()
        let user = try app.registerUser(phone: phone, country: country)
        #expect(user.phoneNumber == e164)
        #expect(app.loginUserID(e164) == user.userID)
    }

    @Test(
        "malformed, invalid, too short or too long, and landline numbers are refused naming phoneNumber",
        arguments: [
            ("+81312345678", nil),  // a Tokyo landline
            ("0312345678", "JP"),  // the same landline in local form
            ("+11234567890", nil),  // the seed's example: no US area code starts with 1
            ("+376312345", nil),  // 9 digits: a valid Andorran mobile, still too short
            ("+4366412345678901", nil),  // 16 digits
            ("+81 90 1234 5678", nil), ("+81-90-1234-5678", nil), ("+81.90.1234.5678", nil), ("+81(90)12345678", nil),
            ("+", nil), ("phone", nil), ("090-1234-5678", "JP"), ("+8190123456789\0", nil),
        ] as [(String, String?)]
    )
    func refused(phone: String, country: String?) {
        let app = makeKiiApp()
        let error = kiiFailure { try app.registerUser(username: "bond007", phone: phone, country: country) }
        #expect(error?.status == 400)
        #expect(error?.code == "INVALID_INPUT_DATA")
        #expect(error?.field == "phoneNumber")
        #expect(app.userCount == 0)
    }

    @Test("a landline's refusal says it is not a mobile number")
    func landlineMessage() {
        let app = makeKiiApp()
        let error = kiiFailure { try app.registerUser(phone: "+81312345678") }
        #expect(error?.message.contains("mobile") == true)
        #expect(error?.value == "+81312345678")
    }

    @Test(
        "a local number needs a known two-capital-letter country",
        arguments: [(nil, "09012345678"), ("jp", "09012345678"), ("JPN", "09012345678"), ("XX", "09012345678")]
            as [(String?, String)]
    )
    func localNeedsCountry(country: String?, phone: String) {
        let app = makeKiiApp()
        let error = kiiFailure { try app.registerUser(phone: phone, country: country) }
        #expect(error?.code == "INVALID_INPUT_DATA")
        #expect(error?.field == "country")
        #expect(app.userCount == 0)
    }

    @Test("the country is kept, or taken from the REST form")
    func country() throws {
        let app = makeKiiApp()
        #expect(try app.registerUser(username: "alice", phone: "+819012345678", country: "JP").country == "JP")
        #expect(try app.registerUser(username: "bob", phone: "US-2015550123").country == "US")
        #expect(try app.registerUser(username: "carol").country == nil)
    }

    @Test("+819012345678 and JP-09012345678 are the same user for login, find and uniqueness")
    func bothFormsOneUser() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(phone: "+819012345678")
        #expect(app.loginUserID("JP-09012345678") == user.userID)
        #expect(app.loginUserID("PHONE:JP-09012345678") == user.userID)
        #expect(app.find(identifier: "JP-09012345678")?.userID == user.userID)
        for (phone, country) in [("09012345678", "JP"), ("JP-09012345678", nil)] as [(String, String?)] {
            let error = kiiFailure { try app.registerUser(username: "bond007", phone: phone, country: country) }
            #expect(error == .userAlreadyExists(field: "phoneNumber", value: "+819012345678"))
        }
        #expect(app.userCount == 1)
    }

    @Test("a number registered in local form logs in in international form")
    func localThenInternational() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(phone: "2015550123", country: "US")
        #expect(app.loginUserID("+12015550123") == user.userID)
        #expect(app.loginUserID("US-2015550123") == user.userID)
        #expect(app.loginUserID("JP-2015550123") == nil)
    }

    @Test("a local number in change_phone is read in the user's own country when none is given")
    func changeUsesUsersCountry() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "id123456", phone: "09012345678", country: "JP")
        #expect(try app.changePhone(userID: user.userID, phone: "09087654321").phoneNumber == "+819087654321")
        let stateless = try app.registerUser(username: "bond007")
        #expect(kiiFailure { try app.changePhone(userID: stateless.userID, phone: "09011112222") }?.field == "country")
    }
}
