/// Email and SMS verification: sending codes, checking them, and re-sending them.
extension KiiApp {
    /// Verifies the email address waiting for it (a changed address, or the registration's own) with the code
    /// from the verification email. A changed address then replaces the old one, which no longer logs in.
    /// Email codes never expire.
    ///
    /// Errors: 404 `USER_NOT_FOUND`; 401 `USER_DISABLED`; 400 `INVALID_ACCOUNT_STATUS` when nothing waits for
    /// verification; 403 `INVALID_VERIFICATION_CODE` for a wrong code (the right one keeps working).
    package func verifyEmail(userID: String, code: String) throws(KiiError) -> KiiUser {
        let code = Self.verificationCode(in: code)
        let user = try storedUser(userID)
        if user.isDisabled { throw .userDisabled(user.userID) }
        let replaced = try user.email.verify(code, accountType: "email address", expiresAfter: nil, now: clock.now)
        releaseEmail(replaced, of: user)
        return user.snapshot()
    }

    /// Verifies the phone number waiting for it with the texted code; a changed number then replaces the old one.
    ///
    /// Errors: 404 `USER_NOT_FOUND`; 400 `INVALID_ACCOUNT_STATUS` when nothing waits for verification;
    /// 403 `INVALID_VERIFICATION_CODE` for a wrong code; 410 `PHONE_NUMBER_VERIFICATION_CODE_EXPIRED` for the
    /// right code more than `sms_code_ttl` seconds after it was sent (exactly at the limit it still works).
    package func verifyPhone(userID: String, code: String) throws(KiiError) -> KiiUser {
        let code = Self.verificationCode(in: code)
        let user = try storedUser(userID)
        if user.isDisabled { throw .userDisabled(user.userID) }
        let replaced = try user.phone.verify(code, accountType: "phone number", expiresAfter: settings.smsCodeTTL, now: clock.now)
        releasePhone(replaced, of: user)
        return user.snapshot()
    }

    /// Sends the verification email again, with the same code, to the address waiting for verification.
    /// Errors: 404 `USER_NOT_FOUND`; 400 `INVALID_ACCOUNT_STATUS` when nothing waits.
    package func resendEmailVerification(userID: String) throws(KiiError) {
        let user = try storedUser(userID)
        guard let address = user.email.awaitingVerification else {
            throw .invalidAccountStatus(accountType: "email address")
        }
        sendEmailVerification(to: address, for: user, code: user.email.code)
    }

    /// Texts a new verification code (valid for `sms_code_ttl` from now) to the number waiting for verification;
    /// the previous code stops working. Errors: 404 `USER_NOT_FOUND`; 400 `INVALID_ACCOUNT_STATUS` when nothing
    /// waits.
    package func resendPhoneVerification(userID: String) throws(KiiError) {
        let user = try storedUser(userID)
        guard let number = user.phone.awaitingVerification else {
            throw .invalidAccountStatus(accountType: "phone number")
        }
        sendPhoneVerification(to: number, for: user)
    }

    /// The code in what a verification message carried: the `code` query parameter of the emailed link, the
    /// number at the end of the texted sentence ("Your verification code is 123456"), or the code as given.
    static func verificationCode(in text: String) -> String {
        if let query = text.firstIndex(of: "?") {
            for pair in text[text.index(after: query)...].split(separator: "&") where pair.hasPrefix("code=") {
                return String(pair.dropFirst(5).prefix { $0 != "#" })
            }
        }
        if text.hasPrefix("Your verification code is "), let last = text.split(separator: " ").last,
            last.allSatisfy(\.isNumber)
        {
            return String(last)
        }
        return text
    }

    /// Emails `code` (a new 6-digit one when nil) and a link carrying it to `address`.
    func sendEmailVerification(to address: String, for user: KiiStoredUser, code: String? = nil) {
        let code = code ?? codes.nextDigits(6)
        user.email.code = code
        outbox.send(
            Outbox.Email(
                to: address, subject: "Please verify your email address", kind: .verification, code: code,
                link: "\(linkBase)/api/apps/\(settings.appID)/users/\(user.userID)/email-address/verify?code=\(code)",
                sentAt: clock.now
            )
        )
    }

    /// Texts a new 6-digit code to `number` (E.164) and starts its lifetime.
    func sendPhoneVerification(to number: String, for user: KiiStoredUser) {
        let code = settings.testPhoneNumbers[number] ?? codes.nextDigits(6)
        user.phone.code = code
        user.phone.codeSentAt = clock.now
        outbox.send(Outbox.SMS(to: number, body: "Your verification code is \(code)", code: code, sentAt: clock.now, codePurpose: .phoneVerification))
    }
}

extension KiiApp {
    /// The last moment (seconds since the epoch, virtual time) an SMS's code is accepted, under the settings as
    /// they are now (its lifetime, `sms_code_ttl` or `sms_reset_pin_ttl`, is read when the code is used); nil for
    /// a message without a code.
    package func expiry(of sms: Outbox.SMS) -> Double? {
        switch sms.codePurpose {
        case .phoneVerification?: return sms.sentAt + settings.smsCodeTTL
        case .passwordResetPIN?: return sms.sentAt + settings.smsResetPINTTL
        case nil: return nil
        }
    }
}
