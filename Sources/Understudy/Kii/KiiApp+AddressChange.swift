/// Changing a user's email address or phone number (`PUT …/email-address`, `PUT …/phone-number`). There is
/// deliberately no way to change a username.
extension KiiApp {
    /// Changes the user's email address. The new address follows the registration rules (400
    /// `INVALID_INPUT_DATA` field `emailAddress`; 409 `USER_ALREADY_EXISTS` when another user has it, current or
    /// pending). With email verification off it replaces the old one at once; with it on it becomes
    /// `pendingEmailAddress`, a verification email goes to it, and the old address stays in force until
    /// `verifyEmail`. Changing to the address in force drops a pending change. 404 `USER_NOT_FOUND` for an
    /// unknown user.
    public func changeEmail(userID: String, email: String) throws(KiiError) -> KiiUser {
        try checkFaults(.changeEmail, [.string(userID), .string(email)])
        let user = try storedUser(userID)
        _ = try KiiIdentifiers.emailAddress(email)
        try checkEmailFree(email, for: user)
        applyEmailChange(email, to: user)
        return user.snapshot()
    }

    /// Puts a checked, free email address in force (or pending, with verification on); shared with `update`.
    func applyEmailChange(_ email: String, to user: KiiStoredUser) {
        let oldEmail = user.email
        let oldPending = user.pendingEmail
        let key = email.asciiLowercased()
        if !settings.emailVerification {
            user.email = email
            user.emailVerified = true
            user.pendingEmail = nil
            user.emailCode = nil
        } else if oldEmail?.asciiLowercased() == key {
            user.email = email
            user.pendingEmail = nil
            if user.emailVerified { user.emailCode = nil } else { sendEmailVerification(to: email, for: user) }
        } else {
            user.pendingEmail = email
            sendEmailVerification(to: email, for: user)
        }
        emails[key] = user
        releaseEmail(oldEmail, of: user)
        releaseEmail(oldPending, of: user)
    }

    /// Changes the user's phone number; the same rules as `changeEmail`, with an SMS code. `phone` is
    /// `+819012345678`, `JP-09012345678`, or local digits read in `country` (else in the user's own country).
    /// 400 `INVALID_INPUT_DATA` field `phoneNumber` (or `country`) for a malformed, invalid or landline number.
    public func changePhone(userID: String, phone: String, country: String? = nil) throws(KiiError) -> KiiUser {
        try checkFaults(.changePhone, [.string(userID), .string(phone), Value(country)])
        let user = try storedUser(userID)
        if let country { _ = try KiiIdentifiers.country(country) }
        let e164 = try KiiIdentifiers.phoneNumber(phone, country: country ?? user.country, cache: &phoneCache).e164
        try checkPhoneFree(e164, for: user)
        applyPhoneChange(e164, to: user)
        return user.snapshot()
    }

    /// Puts a checked, free number (E.164) in force (or pending, with verification on); shared with `update`.
    func applyPhoneChange(_ e164: String, to user: KiiStoredUser) {
        let oldPhone = user.phone
        let oldPending = user.pendingPhone
        if !settings.phoneVerification {
            user.phone = e164
            user.phoneVerified = true
            user.pendingPhone = nil
            user.phoneCode = nil
        } else if oldPhone == e164 {
            user.pendingPhone = nil
            if user.phoneVerified { user.phoneCode = nil } else { sendPhoneVerification(to: e164, for: user) }
        } else {
            user.pendingPhone = e164
            sendPhoneVerification(to: e164, for: user)
        }
        phones[e164] = user
        releasePhone(oldPhone, of: user)
        releasePhone(oldPending, of: user)
    }
}
