/// Changing a user's email address or phone number (`PUT …/email-address`, `PUT …/phone-number`). There is
/// deliberately no way to change a username.
extension KiiApp {
    /// Changes the user's email address. The new address follows the registration rules (400
    /// `INVALID_INPUT_DATA` field `emailAddress`; 409 `USER_ALREADY_EXISTS` when another user has it, current or
    /// pending). With email verification off it replaces the old one at once; with it on it becomes
    /// `pendingEmailAddress`, a verification email goes to it, and the old address stays in force until
    /// `verifyEmail`. Changing to the address in force drops a pending change. 404 `USER_NOT_FOUND` for an
    /// unknown user.
    package func changeEmail(userID: String, email: String) throws(KiiError) -> KiiUser {
        let user = try storedUser(userID)
        _ = try KiiIdentifiers.emailAddress(email)
        try checkEmailFree(email, for: user)
        applyEmailChange(email, to: user)
        return user.snapshot()
    }

    /// Puts a checked, free email address in force (or pending, with verification on); shared with `update`.
    func applyEmailChange(_ email: String, to user: KiiStoredUser) {
        let old = user.email
        let key = email.asciiLowercased()
        let sameAsCurrent = old.current?.asciiLowercased() == key
        if user.email.change(to: email, verifying: settings.emailVerification, sameAsCurrent: sameAsCurrent) {
            sendEmailVerification(to: email, for: user)
        }
        emails[key] = user
        releaseEmail(old.current, of: user)
        releaseEmail(old.pending, of: user)
    }

    /// Changes the user's phone number; the same rules as `changeEmail`, with an SMS code. `phone` is
    /// `+819012345678`, `JP-09012345678`, or local digits read in `country` (else in the user's own country).
    /// 400 `INVALID_INPUT_DATA` field `phoneNumber` (or `country`) for a malformed, invalid or landline number.
    package func changePhone(userID: String, phone: String, country: String? = nil) throws(KiiError) -> KiiUser {
        let user = try storedUser(userID)
        if let country { _ = try KiiIdentifiers.country(country) }
        let e164 = try KiiIdentifiers.phoneNumber(phone, country: country ?? user.country, cache: &phoneCache).e164
        try checkPhoneFree(e164, for: user)
        applyPhoneChange(e164, to: user)
        return user.snapshot()
    }

    /// Puts a checked, free number (E.164) in force (or pending, with verification on); shared with `update`.
    func applyPhoneChange(_ e164: String, to user: KiiStoredUser) {
        let old = user.phone
        if user.phone.change(to: e164, verifying: settings.phoneVerification, sameAsCurrent: old.current == e164) {
            sendPhoneVerification(to: e164, for: user)
        }
        phones[e164] = user
        releasePhone(old.current, of: user)
        releasePhone(old.pending, of: user)
    }
}
