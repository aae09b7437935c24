/// Password reset (`POST users/{u}/password/request-reset`, `…/complete-reset`) and the reset link the email or
/// SMS carries, which resets the password the way Kii's default "auto-generate" does.
extension KiiApp {
    /// Sends a password reset to the user `identifier` names (a userID, `EMAIL:address`, `PHONE:+number` or
    /// `LOGIN_NAME:name`; an address names the user who registered it, verified or not). `.email` emails a
    /// link (kind `password_reset`), `.sms` texts one, `.smsPIN` texts a PIN for `completePasswordReset`. A new
    /// request replaces the user's earlier PIN and link.
    ///
    /// Errors, in this order: 404 `USER_NOT_FOUND`; 401 `USER_DISABLED`; 409 `INVALID_STATUS` when the address
    /// the method needs is missing or not verified.
    package func requestPasswordReset(identifier: String, method: KiiResetMethod = .email) throws(KiiError) {
        let user = try resetTarget(identifier)
        if user.isDisabled { throw .userDisabled(user.userID) }
        let address: String
        switch method {
        case .email:
            guard let email = user.email.current, user.email.verified else { throw .invalidStatus("email address", method: "EMAIL") }
            address = email
        case .sms, .smsPIN:
            guard let phone = user.phone.current, user.phone.verified else {
                throw .invalidStatus("phone number", method: method.rawValue)
            }
            address = phone
        }
        dropResetState(of: user)
        switch method {
        case .email, .sms:
            let code = newResetLinkCode()
            user.profile.resetLinkCode = code
            user.profile.resetLinkBySMS = method == .sms
            lifecycle.resetLinks[code] = user
            let link = resetLink(code)
            if method == .email {
                outbox.send(
                    Outbox.Email(to: address, subject: "Reset your password", kind: .passwordReset, link: link, sentAt: clock.now)
                )
            } else {
                outbox.send(Outbox.SMS(to: address, body: "Reset your password: \(link)", link: link, sentAt: clock.now))
            }
        case .smsPIN:
            let pin = settings.testPhoneNumbers[address] ?? codes.nextDigits(6)
            user.profile.resetPIN = pin
            user.profile.resetPINSentAt = clock.now
            outbox.send(Outbox.SMS(to: address, body: "Your password reset PIN code is \(pin)", code: pin, sentAt: clock.now, codePurpose: .passwordResetPIN))
        }
    }

    /// Completes a reset by PIN: sets `newPassword`, uses the PIN up and ends every token of the user. A wrong
    /// PIN does not use the PIN up; a PIN exactly `sms_reset_pin_ttl` seconds old still works.
    ///
    /// Errors, in this order: 404 `USER_NOT_FOUND`; 401 `USER_DISABLED`; 400 `INVALID_INPUT_DATA` (an empty PIN, or
    /// the new password equals the old); 400 `PASSWORD_TOO_SHORT` (and the sign-up password rule's
    /// `INVALID_INPUT_DATA`); 403 `INVALID_VERIFICATION_CODE` (wrong PIN, or none requested); 410
    /// `PIN_CODE_EXPIRED`.
    package func completePasswordReset(identifier: String, pin: String, newPassword: String) throws(KiiError) {
        let user = try resetTarget(identifier)
        if user.isDisabled { throw .userDisabled(user.userID) }
        if pin.isEmpty { throw .invalidReset(field: "pinCode", "The PIN code is required") }
        if user.password.matches(newPassword) {
            throw .invalidReset(field: "newPassword", "The new password must differ from the current one")
        }
        try KiiIdentifiers.validatePassword(newPassword)
        guard let expected = user.profile.resetPIN, pin == expected else { throw .invalidResetPIN(pin) }
        guard clock.now - user.profile.resetPINSentAt <= settings.smsResetPINTTL else {
            throw .pinCodeExpired(ttl: settings.smsResetPINTTL)
        }
        user.password = PasswordHash(password: newPassword, generator: &salts)
        user.extras?.pseudo = false  // a pseudo user who reached a reset (through an address set by update) has one now
        dropResetState(of: user)
        endSessions(of: user)
    }

    /// Opens a reset link from the outbox (the whole link, or just its `code`): a new password is generated, set,
    /// and emailed (kind `password_reset_done`, with `password`) or texted, the way the link was sent; every token
    /// of the user ends and the link is used up.
    ///
    /// Errors: 404 `USER_NOT_FOUND` for an unknown, used or replaced link; 401 `USER_DISABLED` while the user is
    /// disabled (the link keeps working once re-enabled).
    /// - Returns: the new password.
    @discardableResult
    package func openResetLink(_ link: String) throws(KiiError) -> String {
        let code = Self.resetCode(in: link)
        guard let user = lifecycle.resetLinks[code] else { throw .resetLinkUnknown }
        if user.isDisabled { throw .userDisabled(user.userID) }
        let bySMS = user.profile.resetLinkBySMS
        let password = newGeneratedPassword()
        user.password = PasswordHash(password: password, generator: &salts)
        user.extras?.pseudo = false
        dropResetState(of: user)
        endSessions(of: user)
        if bySMS, let phone = user.phone.current {
            outbox.send(Outbox.SMS(to: phone, body: "Your new password is \(password)", sentAt: clock.now))
        } else if let email = user.email.current {
            outbox.send(
                Outbox.Email(
                    to: email, subject: "Your password was reset", kind: .passwordResetDone, password: password,
                    sentAt: clock.now
                )
            )
        }
        return password
    }

    /// The link a reset email or SMS carries: `{linkBase}/api/apps/{appID}/password-reset?code=…`.
    func resetLink(_ code: String) -> String {
        "\(linkBase)/api/apps/\(settings.appID)/password-reset?code=\(code)"
    }

    /// The code of a reset link: what follows its last `code=`, else the whole text.
    static func resetCode(in link: String) -> String {
        let bytes = Array(link.utf8)
        let marker = Array("code=".utf8)
        guard bytes.count >= marker.count else { return link }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1)
        where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            let rest = bytes[(start + marker.count)...].prefix { $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "#") }
            return String(decoding: rest, as: UTF8.self)
        }
        return link
    }

    /// A fresh 20-digit link code no open link uses.
    private func newResetLinkCode() -> String {
        while true {
            let code = lifecycleSecrets.nextDigits(20)
            if lifecycle.resetLinks[code] == nil { return code }
        }
    }

    private static let passwordAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".utf8)

    /// A generated password: 10 letters and digits from the seeded generator.
    private func newGeneratedPassword() -> String {
        var bytes: [UInt8] = []
        for _ in 0..<10 {
            bytes.append(Self.passwordAlphabet[Int(lifecycleSecrets.next() % UInt64(Self.passwordAlphabet.count))])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Forgets the user's reset PIN and link.
    func dropResetState(of user: KiiStoredUser) {
        guard user.extras != nil else { return }
        if let code = user.profile.resetLinkCode, lifecycle.resetLinks[code] === user { lifecycle.resetLinks[code] = nil }
        user.profile.resetLinkCode = nil
        user.profile.resetPIN = nil
    }

    /// Ends every access token of the user: each answers 403 `WRONG_TOKEN` from now on.
    func endSessions(of user: KiiStoredUser) {
        guard user.extras != nil else { return }
        for token in user.profile.tokens where sessions[token] === user {
            sessions[token] = nil
            lifecycle.endedTokens.insert(token)
        }
        user.profile.tokens.removeAll()
    }

    /// The user a reset names: a userID, or `EMAIL:`, `PHONE:`, `LOGIN_NAME:` plus the value (an address counts
    /// verified or not). 404 `USER_NOT_FOUND` naming the field otherwise.
    func resetTarget(_ identifier: String) throws(KiiError) -> KiiStoredUser {
        if let email = identifier.dropPrefix("EMAIL:") {
            let key = email.asciiLowercased()
            guard let user = emails[key], user.email.current?.asciiLowercased() == key else {
                throw .userNotFound(field: "emailAddress", value: email)
            }
            return user
        }
        if let phone = identifier.dropPrefix("PHONE:") {
            guard let input = try? KiiIdentifiers.phoneInput(phone, country: nil),
                let e164 = try? KiiIdentifiers.e164(input, written: phone, cache: &phoneCache),
                let user = phones[e164], user.phone.current == e164
            else { throw .userNotFound(field: "phoneNumber", value: phone) }
            return user
        }
        if let name = identifier.dropPrefix("LOGIN_NAME:") {
            guard let user = userByLoginName(name) else { throw .userNotFound(field: "loginName", value: name) }
            return user
        }
        return try storedUser(identifier)
    }
}
