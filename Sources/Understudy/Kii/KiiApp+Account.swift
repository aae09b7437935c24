/// The account after sign-up: password change (`PUT users/{id}/password`), profile update (`POST users/{id}`),
/// deletion (`DELETE users/{id}`), disabling (`PUT users/{u}/status`) and the token's user (`GET users/me`).
extension KiiApp {
    /// Changes the password; every token of the user ends (403 `WRONG_TOKEN` from then on).
    /// Errors: 404 `USER_NOT_FOUND`; 401 `WRONG_PASSWORD`; 400 `PASSWORD_TOO_SHORT` (and the sign-up password
    /// rule's `INVALID_INPUT_DATA`).
    package func changePassword(userID: String, oldPassword: String, newPassword: String) throws(KiiError) {
        let user = try storedUser(userID)
        guard user.hasPassword, user.password.matches(oldPassword) else { throw .wrongPassword }
        try KiiIdentifiers.validatePassword(newPassword)
        user.password = PasswordHash(password: newPassword, generator: &salts)
        dropResetState(of: user)
        endSessions(of: user)
    }

    /// The user a live access token belongs to; 403 `WRONG_TOKEN` for any other token.
    package func me(token: String) throws(KiiError) -> KiiUser {
        guard let user = sessions[token] else { throw .wrongToken(token) }
        return user.snapshot()
    }

    /// Disables or re-enables a user. A disabled user cannot log in (400 `invalid_grant`), reset a password or
    /// verify an address (401 `USER_DISABLED`), receives no push, and every token ends; re-enabling does not bring
    /// the old tokens back. Errors: 404 `USER_NOT_FOUND`.
    @discardableResult
    package func setDisabled(userID: String, disabled: Bool) throws(KiiError) -> KiiUser {
        let user = try storedUser(userID)
        user.profile.disabled = disabled
        if disabled {
            endSessions(of: user)
            disconnectMqtt(ofUser: user.userID)
        }
        return user.snapshot()
    }

    /// Deletes a user: their tokens end, their username, email address and phone number are free again, and
    /// their push installations are removed. Errors: 404 `USER_NOT_FOUND`.
    package func delete(userID: String) throws(KiiError) {
        let user = try storedUser(userID)
        endSessions(of: user)
        dropResetState(of: user)
        users[user.id] = nil
        userBytes -= HeldBytes.perUser + (user.extras.map { HeldBytes.of($0.customFields) } ?? 0)
        if let index = registrationOrder.firstIndex(where: { $0 === user }) { registrationOrder.remove(at: index) }
        if let name = user.loginName, loginNames[name] === user { loginNames[name] = nil }
        for email in [user.email.current, user.email.pending].compactMap({ $0?.asciiLowercased() }) where emails[email] === user {
            emails[email] = nil
        }
        for phone in [user.phone.current, user.phone.pending].compactMap({ $0 }) where phones[phone] === user {
            phones[phone] = nil
        }
        for installation in lifecycle.installations.owned(by: user.userID) { mqttInstallationRemoved(installation) }
        lifecycle.installations.removeAll(ownedBy: user.userID)
        topicStore.removeAll(of: user.userID)
        groupStore.removeMember(user.userID)
        releaseSocialAccounts(of: user)
    }

    /// Updates the user's fields with Kii's merge rule: predefined fields (`displayName`, `country`, `locale`,
    /// `emailAddress`, `phoneNumber`) not sent stay; **custom fields not sent are deleted**; sent ones replace.
    /// A new email address or phone number follows the sign-up rules and, with verification on, waits for
    /// verification as with `changeEmail` / `changePhone`. `loginName` may be sent only unchanged, and
    /// `internalUserID` only with the user's own value (the record shows it and SDKs send it back). A null value
    /// counts as not sent.
    ///
    /// Errors, in this order: 404 `USER_NOT_FOUND`; 400 `INVALID_INPUT_DATA` naming the field (`userID`,
    /// `password`, names starting with `_`, the record's read-only names, a changed `loginName`, a field breaking
    /// its rule, more than 100 custom fields or 64 KiB of them); 409 `USER_ALREADY_EXISTS`. A refused update
    /// changes nothing.
    package func update(userID: String, fields: [Property]) throws(KiiError) -> KiiUser {
        let user = try storedUser(userID)
        let change = try KiiProfileChange(fields, for: user.snapshot())
        var e164: String?
        if let phone = change.phoneNumber {
            e164 = try KiiIdentifiers.phoneNumber(phone, country: change.country ?? user.country, cache: &phoneCache).e164
        }
        let newEmail = change.emailAddress.flatMap { email in
            [user.email.current, user.email.pending].contains { $0?.asciiLowercased() == email.asciiLowercased() } ? nil : email
        }
        let newPhone = e164.flatMap { number in user.phone.current == number || user.phone.pending == number ? nil : number }
        if let newEmail { try checkEmailFree(newEmail, for: user) }
        if let newPhone { try checkPhoneFree(newPhone, for: user) }

        if let displayName = change.displayName { user.profile.displayName = displayName }
        if let locale = change.locale { user.profile.locale = locale }
        if let country = change.country { user.country = country }
        userBytes += HeldBytes.of(change.customFields) - HeldBytes.of(user.profile.customFields)
        user.profile.customFields = change.customFields
        user.profile.modified = clock.milliseconds
        if let newEmail { applyEmailChange(newEmail, to: user) }
        if let newPhone { applyPhoneChange(newPhone, to: user) }
        return user.snapshot()
    }
}

extension KiiUser {
    /// The number the HTTP record shows as `internalUserID`: the first 15 hex digits of the userID.
    package var internalUserID: Int64 {
        let hex = userID.utf8.filter { $0 != UInt8(ascii: "-") }.prefix(15)
        return Int64(String(decoding: hex, as: UTF8.self), radix: 16) ?? 0
    }
}
