import Testing
import Understudy

@Suite("Kii verification and change of address")
struct KiiVerificationTests {
    static let email = "user@mydomain.com"
    static let phone = "+819012345678"

    static func isSixDigits(_ code: String?) -> Bool {
        guard let code else { return false }
        return code.count == 6 && code.allSatisfy(\.isASCII) && code.allSatisfy(\.isNumber)
    }

    // MARK: Email

    @Test("with email verification on, registration emails a code and a link, and the email cannot log in yet")
    func emailSent() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        #expect(user.emailAddressVerified == false)
        let mail = try #require(app.outbox.emails.first)
        #expect(app.outbox.emails.count == 1)
        #expect(mail.to == Self.email)
        #expect(mail.kind == .verification)
        #expect(Self.isSixDigits(mail.code))
        #expect(mail.link == "http://127.0.0.1:8080/api/apps/understudy-kii-app/users/\(user.userID)/email-address/verify?code=\(mail.code!)")
        #expect(app.loginUserID(Self.email) == nil)
        #expect(app.find(identifier: Self.email) == nil)
        #expect(app.loginUserID("id123456") == user.userID)
    }

    @Test("the emailed code verifies the email, which then logs in; a second verify is INVALID_ACCOUNT_STATUS")
    func emailVerified() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        let code = try #require(app.outbox.emails.first?.code)
        #expect(try app.verifyEmail(userID: user.userID, code: code).emailAddressVerified)
        #expect(app.loginUserID(Self.email) == user.userID)
        let again = kiiFailure { try app.verifyEmail(userID: user.userID, code: code) }
        #expect(again?.status == 400)
        #expect(again?.code == "INVALID_ACCOUNT_STATUS")
    }

    @Test("a wrong email code is 403 and does not use up the right one")
    func wrongEmailCode() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        let code = try #require(app.outbox.emails.first?.code)
        let error = kiiFailure { try app.verifyEmail(userID: user.userID, code: "000000" == code ? "111111" : "000000") }
        #expect(error?.status == 403)
        #expect(error?.code == "INVALID_VERIFICATION_CODE")
        #expect(app.loginUserID(Self.email) == nil)
        #expect(try app.verifyEmail(userID: user.userID, code: code).emailAddressVerified)
    }

    @Test("email codes never expire")
    func emailCodesDoNotExpire() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        app.clock.advance(by: 365 * 86_400)
        #expect(try app.verifyEmail(userID: user.userID, code: app.outbox.emails[0].code!).emailAddressVerified)
    }

    @Test("verifying for an unknown userID is 404 USER_NOT_FOUND naming userID")
    func unknownUser() throws {
        let app = makeKiiApp(emailVerification: true, phoneVerification: true)
        try app.registerUser(username: "id123456", email: Self.email, phone: Self.phone)
        for error in [
            kiiFailure { try app.verifyEmail(userID: "no-such-user", code: app.outbox.emails[0].code!) },
            kiiFailure { try app.verifyPhone(userID: "no-such-user", code: app.outbox.sms[0].code ?? "") },
            kiiFailure { try app.changeEmail(userID: "00000000-0000-0000-0000-000000000000", email: "a@b.com") },
            kiiFailure { try app.changePhone(userID: "no-such-user", phone: "+819087654321") },
        ] {
            #expect(error?.status == 404)
            #expect(error?.code == "USER_NOT_FOUND")
            #expect(error?.field == "userID")
        }
    }

    @Test("with verification off nothing is sent and both addresses log in at once")
    func verificationOff() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "id123456", email: Self.email, phone: Self.phone)
        #expect(user.emailAddressVerified && user.phoneNumberVerified)
        #expect(app.outbox.emails.isEmpty && app.outbox.sms.isEmpty)
        #expect(app.loginUserID(Self.email) == user.userID)
        #expect(app.loginUserID(Self.phone) == user.userID)
        #expect(kiiFailure { try app.verifyEmail(userID: user.userID, code: "123456") }?.code == "INVALID_ACCOUNT_STATUS")
    }

    // MARK: Phone

    @Test("with phone verification on, registration texts a code to the E.164 number")
    func smsSent() throws {
        let app = makeKiiApp(phoneVerification: true)
        let user = try app.registerUser(username: "id123456", phone: "09012345678", country: "JP")
        #expect(user.phoneNumberVerified == false)
        let sms = try #require(app.outbox.sms.first)
        #expect(sms.to == "+819012345678")
        #expect(Self.isSixDigits(sms.code))
        #expect(sms.body == "Your verification code is \(sms.code ?? "")")
        #expect(app.loginUserID(Self.phone) == nil)
        #expect(app.loginUserID("JP-09012345678") == nil)
        #expect(try app.verifyPhone(userID: user.userID, code: sms.code ?? "").phoneNumberVerified)
        #expect(app.loginUserID("JP-09012345678") == user.userID)
    }

    @Test("an SMS code is good up to exactly sms_code_ttl seconds", arguments: [86_399.0, 86_400.0])
    func smsCodeStillGood(elapsed: Double) throws {
        let app = makeKiiApp(phoneVerification: true)
        let user = try app.registerUser(username: "id123456", phone: Self.phone)
        app.clock.advance(by: elapsed)
        #expect(try app.verifyPhone(userID: user.userID, code: app.outbox.sms[0].code ?? "").phoneNumberVerified)
    }

    @Test("an SMS code older than sms_code_ttl is 410 and the phone stays unverified")
    func smsCodeExpired() throws {
        let app = makeKiiApp(phoneVerification: true)
        let user = try app.registerUser(username: "id123456", phone: Self.phone)
        app.clock.advance(by: 86_401)
        let error = kiiFailure { try app.verifyPhone(userID: user.userID, code: app.outbox.sms[0].code ?? "") }
        #expect(error?.status == 410)
        #expect(error?.code == "PHONE_NUMBER_VERIFICATION_CODE_EXPIRED")
        #expect(app.loginUserID(Self.phone) == nil)
    }

    @Test("a custom sms_code_ttl sets the lifetime, and a resent code starts a fresh one")
    func customTTLAndResend() throws {
        let app = makeKiiApp(phoneVerification: true)
        try app.settings.set("sms_code_ttl", to: 600)
        let user = try app.registerUser(username: "id123456", phone: Self.phone)
        let first = app.outbox.sms[0].code ?? ""
        app.clock.advance(by: 601)
        #expect(kiiFailure { try app.verifyPhone(userID: user.userID, code: first) }?.status == 410)
        try app.resendPhoneVerification(userID: user.userID)
        #expect(app.outbox.sms.count == 2)
        let second = app.outbox.sms[1].code ?? ""
        #expect(second != first)
        #expect(app.outbox.sms[1].to == Self.phone)
        #expect(kiiFailure { try app.verifyPhone(userID: user.userID, code: first) }?.code == "INVALID_VERIFICATION_CODE")
        app.clock.advance(by: 600)
        #expect(try app.verifyPhone(userID: user.userID, code: second).phoneNumberVerified)
        #expect(kiiFailure { try app.resendPhoneVerification(userID: user.userID) }?.code == "INVALID_ACCOUNT_STATUS")
    }

    @Test("resending the verification email repeats the same code")
    func resendEmail() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        try app.resendEmailVerification(userID: user.userID)
        #expect(app.outbox.emails.count == 2)
        #expect(app.outbox.emails[1].code == app.outbox.emails[0].code)
        #expect(app.outbox.emails[1].to == Self.email)
    }

    @Test("with both verifications on, each address is verified separately")
    func bothVerifications() throws {
        let app = makeKiiApp(emailVerification: true, phoneVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email, phone: Self.phone)
        _ = try app.verifyPhone(userID: user.userID, code: app.outbox.sms[0].code ?? "")
        #expect(app.loginUserID(Self.phone) == user.userID)
        #expect(app.loginUserID(Self.email) == nil)
        let verified = try app.verifyEmail(userID: user.userID, code: app.outbox.emails[0].code!)
        #expect(verified.emailAddressVerified && verified.phoneNumberVerified)
        #expect(app.loginUserID(Self.email) == user.userID)
    }

    @Test("a fault on verify_email leaves the email unverified and the code working")
    func verifyFault() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        let id = app.faults.inject(Fault(operation: "users.verify_email", code: .text("RESOURCE_TEMPORARILY_UNAVAILABLE"), status: 503))
        let arguments: [String: ArgumentValue] = ["userID": .string(user.userID), "code": .string(app.outbox.emails[0].code!)]
        #expect(kiiFailure { _ = try app.perform(.verifyEmail, arguments) }?.status == 503)
        #expect(app.loginUserID(Self.email) == nil)
        app.faults.remove(id: id)
        #expect(try app.verifyEmail(userID: user.userID, code: app.outbox.emails[0].code!).emailAddressVerified)
    }

    // MARK: Change of address

    @Test("with verification off a changed email and phone replace the old ones at once, which become free")
    func changeWithoutVerification() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "id123456", email: Self.email, phone: Self.phone)
        #expect(try app.changeEmail(userID: user.userID, email: "new@mydomain.com").emailAddress == "new@mydomain.com")
        let changed = try app.changePhone(userID: user.userID, phone: "09087654321", country: "JP")
        #expect(changed.phoneNumber == "+819087654321")
        #expect(changed.loginName == "id123456")
        #expect(app.loginUserID("new@mydomain.com") == user.userID)
        #expect(app.loginUserID("JP-09087654321") == user.userID)
        #expect(app.loginUserID(Self.email) == nil)
        #expect(app.loginUserID(Self.phone) == nil)
        #expect(app.outbox.emails.isEmpty && app.outbox.sms.isEmpty)
        #expect(try app.registerUser(username: "bond007", email: Self.email, phone: Self.phone).loginName == "bond007")
    }

    @Test("with email verification on, a changed email is pending until verified; then it replaces the old one")
    func changeEmailWithVerification() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        _ = try app.verifyEmail(userID: user.userID, code: app.outbox.emails[0].code!)
        let changed = try app.changeEmail(userID: user.userID, email: "new@mydomain.com")
        #expect(changed.emailAddress == Self.email)
        #expect(changed.pendingEmailAddress == "new@mydomain.com")
        #expect(changed.emailAddressVerified)
        #expect(app.outbox.emails.count == 2)
        #expect(app.outbox.emails[1].to == "new@mydomain.com")
        #expect(app.loginUserID(Self.email) == user.userID)
        #expect(app.loginUserID("new@mydomain.com") == nil)

        let verified = try app.verifyEmail(userID: user.userID, code: app.outbox.emails[1].code!)
        #expect(verified.emailAddress == "new@mydomain.com")
        #expect(verified.pendingEmailAddress == nil)
        #expect(app.loginUserID("new@mydomain.com") == user.userID)
        #expect(app.loginUserID(Self.email) == nil)
    }

    @Test("with phone verification on, a changed phone is pending until its SMS code is verified")
    func changePhoneWithVerification() throws {
        let app = makeKiiApp(phoneVerification: true)
        let user = try app.registerUser(username: "id123456", phone: Self.phone)
        _ = try app.verifyPhone(userID: user.userID, code: app.outbox.sms[0].code ?? "")
        let changed = try app.changePhone(userID: user.userID, phone: "+819087654321")
        #expect(changed.phoneNumber == Self.phone)
        #expect(changed.pendingPhoneNumber == "+819087654321")
        #expect(app.outbox.sms.last?.to == "+819087654321")
        #expect(app.loginUserID(Self.phone) == user.userID)
        #expect(app.loginUserID("+819087654321") == nil)
        let verified = try app.verifyPhone(userID: user.userID, code: app.outbox.sms[1].code ?? "")
        #expect(verified.phoneNumber == "+819087654321")
        #expect(verified.pendingPhoneNumber == nil)
        #expect(app.loginUserID(Self.phone) == nil)
        #expect(app.loginUserID("+819087654321") == user.userID)
    }

    @Test("a pending address is taken: nobody else may register or change to it")
    func pendingAddressIsTaken() throws {
        let app = makeKiiApp(emailVerification: true)
        let user = try app.registerUser(username: "id123456", email: Self.email)
        _ = try app.changeEmail(userID: user.userID, email: "new@mydomain.com")
        let other = try app.registerUser(username: "bond007")
        #expect(kiiFailure { try app.registerUser(username: "alice", email: "NEW@mydomain.com") }?.field == "emailAddress")
        let error = kiiFailure { try app.changeEmail(userID: other.userID, email: "new@mydomain.com") }
        #expect(error?.status == 409)
        #expect(error?.value == "new@mydomain.com")
    }

    @Test("a refused change leaves the old addresses in force")
    func refusedChange() throws {
        let app = makeKiiApp()
        let user = try app.registerUser(username: "id123456", email: Self.email, phone: Self.phone)
        try app.registerUser(username: "bond007", email: "james@mi6.co.uk", phone: "+819087654321")
        let email = kiiFailure { try app.changeEmail(userID: user.userID, email: "james@mi6.co.uk") }
        #expect(email == .userAlreadyExists(field: "emailAddress", value: "james@mi6.co.uk"))
        let phone = kiiFailure { try app.changePhone(userID: user.userID, phone: "09087654321", country: "JP") }
        #expect(phone == .userAlreadyExists(field: "phoneNumber", value: "+819087654321"))
        #expect(kiiFailure { try app.changeEmail(userID: user.userID, email: "not-an-email") }?.field == "emailAddress")
        #expect(kiiFailure { try app.changePhone(userID: user.userID, phone: "+81312345678") }?.field == "phoneNumber")
        #expect(app.loginUserID(Self.email) == user.userID)
        #expect(app.loginUserID(Self.phone) == user.userID)
    }

    @Test("a fault on change_phone keeps the old phone and sends nothing")
    func changeFault() throws {
        let app = makeKiiApp(phoneVerification: true)
        let user = try app.registerUser(username: "id123456", phone: Self.phone)
        _ = try app.verifyPhone(userID: user.userID, code: app.outbox.sms[0].code ?? "")
        app.faults.inject(Fault(operation: "users.change_phone", code: .text("RESOURCE_TEMPORARILY_UNAVAILABLE"), status: 503))
        #expect(kiiFailure { _ = try app.perform(.changePhone, ["userID": .string(user.userID), "phone": "+819087654321"]) }?.status == 503)
        #expect(app.outbox.sms.count == 1)
        #expect(app.user(userID: user.userID)?.pendingPhoneNumber == nil)
    }
}
