/// What `putIdentity` gives a pseudo user: at least one identifier, a password, and optionally new fields.
package struct KiiIdentity: Sendable, Hashable {
    package var username: String?
    package var email: String?
    package var phone: String?
    /// Two capital letters; reads a local phone number and is stored as the user's country.
    package var country: String?
    package var password: String?
    /// Replaces the custom fields by the update merge rule; nil keeps them.
    package var fields: [Property]?

    package init(
        username: String? = nil, email: String? = nil, phone: String? = nil, country: String? = nil,
        password: String? = nil, fields: [Property]? = nil
    ) {
        self.username = username
        self.email = email
        self.phone = phone
        self.country = country
        self.password = password
        self.fields = fields
    }

    /// The arguments a fault's `when` sees under `identity`.
    var value: Value {
        var object: [String: Value] = [:]
        if let username { object["username"] = .string(username) }
        if let email { object["email"] = .string(email) }
        if let phone { object["phone"] = .string(phone) }
        if let country { object["country"] = .string(country) }
        if let password { object["password"] = .string(password) }
        if let fields { object["fields"] = Value(properties: fields) }
        return .object(object)
    }
}

/// Pseudo (anonymous) users (`POST users` with `RegistrationAndAuthorizationRequest` and no credentials) and
/// their upgrade to normal users (`putIdentity`: `POST users/{userID}` with `UserUpdateRequest` and a password).
extension KiiApp {
    /// Names a pseudo registration's (or `putIdentity`'s) `fields` may not hold, with the reason.
    static func refusedPseudoField(_ name: String) -> String? {
        switch name {
        case "loginName", "emailAddress", "phoneNumber": return "identifiers are given by put_identity"
        case "password": return "a pseudo user has no password until put_identity"
        case "internalUserID", "userID": return "the service sets it"
        default:
            if name.hasPrefix("_") || KiiProfileChange.readOnly.contains(name) { return "the service sets it" }
            return nil
        }
    }

    /// The fields checked by the update rules, after refusing identifiers, the password and reserved names.
    private func pseudoFields(_ fields: [Property], for user: KiiUser) throws(KiiError) -> KiiProfileChange {
        for field in fields where field.value != .null && !KiiProfileChange.isEchoedRecordField(field, of: user) {
            if let reason = Self.refusedPseudoField(field.name) { throw .pseudoField(field.name, reason) }
        }
        return try KiiProfileChange(fields, for: user)
    }

    /// Registers a pseudo user: no identifier, no password (`hasPassword = false`), and a token that never
    /// expires. `fields` may hold `displayName`, `country`, `locale` and custom fields (the update rules).
    ///
    /// Errors, in this order: an injected fault; 400 `INVALID_INPUT_DATA` for `loginName`, `emailAddress`,
    /// `phoneNumber`, `password` or a reserved name in `fields`, or a field breaking its rule.
    package func registerPseudo(fields: [Property] = []) throws(KiiError) -> KiiUser {
        try checkFaults(.registerPseudo, [Value(properties: fields)])
        let placeholder = KiiUser(
            userID: "", emailAddressVerified: true, phoneNumberVerified: true, created: clock.milliseconds
        )
        let change = try pseudoFields(fields, for: placeholder)
        guard users.count < capacity.maxUsers else { throw .capacityReached(capacity.maxUsers) }
        let user = KiiStoredUser(
            id: ids.nextIdentifier(), loginName: nil, password: PasswordHash(password: "", generator: &salts),
            created: clock.milliseconds, changes: userChanges
        )
        user.profile.pseudo = true
        user.profile.displayName = change.displayName
        user.profile.locale = change.locale
        userBytes += HeldBytes.of(change.customFields) - HeldBytes.of(user.profile.customFields)
        user.profile.customFields = change.customFields
        user.country = change.country
        users[user.id] = user
        userBytes += HeldBytes.perUser
        registrationOrder.append(user)
        return user.snapshot(token: openSession(for: user))
    }

    /// Gives the pseudo user of `token` identifiers and a password: they become a normal user, and the same
    /// token keeps working. The sign-up rules apply: at least one identifier; an email as the only identifier
    /// needs email verification off, a phone as the only one phone verification off; with verification on, a
    /// new email or phone waits for verification as at sign-up (a code is sent). `identity.fields` replaces the
    /// custom fields by the update merge rule; without it they are kept.
    ///
    /// Errors, in this order: an injected fault; 403 `WRONG_TOKEN`; 409 `INVALID_STATUS` (the user already has a
    /// password); 400 `INVALID_INPUT_DATA` (a bad identifier or country, a refused field, no identifier, a
    /// verification combination, no password, a password breaking its rule); 400 `PASSWORD_TOO_SHORT`; 409
    /// `USER_ALREADY_EXISTS` (loginName, then emailAddress, then phoneNumber). A refused call changes nothing.
    package func putIdentity(token: String, identity: KiiIdentity) throws(KiiError) -> KiiUser {
        try checkFaults(.putIdentity, [.string(token), identity.value])
        guard let user = sessions[token] else { throw .wrongToken(token) }
        guard !user.hasPassword else { throw .identityAlreadySet(user.userID) }

        // Field rules.
        var loginName: String?
        if let username = identity.username { loginName = try KiiIdentifiers.loginName(username) }
        if let email = identity.email { _ = try KiiIdentifiers.emailAddress(email) }
        var country: String?
        if let given = identity.country { country = try KiiIdentifiers.country(given) }
        var e164: String?
        if let phone = identity.phone {
            let number = try KiiIdentifiers.phoneNumber(phone, country: country ?? user.country, cache: &phoneCache)
            e164 = number.e164
            if country == nil, let readIn = number.country { country = readIn }
        }
        let change = try identity.fields.map { fields throws(KiiError) in try pseudoFields(fields, for: user.snapshot()) }

        try checkSignUpCombination(username: loginName != nil, email: identity.email != nil, phone: e164 != nil)
        guard let password = identity.password else {
            throw .invalidInput(field: "password", value: nil, message: "The password is required")
        }
        try KiiIdentifiers.validatePassword(password)

        // Uniqueness.
        if let loginName, loginNames[loginName] != nil {
            throw .userAlreadyExists(field: "loginName", value: loginName)
        }
        if let email = identity.email { try checkEmailFree(email, for: user) }
        if let e164 { try checkPhoneFree(e164, for: user) }

        // Apply.
        if let change {
            if let displayName = change.displayName { user.profile.displayName = displayName }
            if let locale = change.locale { user.profile.locale = locale }
            if let fieldCountry = change.country { user.country = fieldCountry }
            userBytes += HeldBytes.of(change.customFields) - HeldBytes.of(user.profile.customFields)
            user.profile.customFields = change.customFields
        }
        if let country { user.country = country }
        user.password = PasswordHash(password: password, generator: &salts)
        user.profile.pseudo = false
        user.profile.modified = clock.milliseconds
        if let loginName {
            user.loginName = loginName
            loginNames[loginName] = user
        }
        if let email = identity.email {
            user.email.current = email
            emails[email.asciiLowercased()] = user
            user.email.verified = !settings.emailVerification
            if settings.emailVerification { sendEmailVerification(to: email, for: user) }
        }
        if let e164 {
            user.phone.current = e164
            phones[e164] = user
            user.phone.verified = !settings.phoneVerification
            if settings.phoneVerification { sendPhoneVerification(to: e164, for: user) }
        }
        return user.snapshot()
    }

    /// The pseudo users, in registration order (for the dashboard).
    package var pseudoUsers: [KiiUser] { registrationOrder.lazy.filter { !$0.hasPassword }.map { $0.snapshot() } }
}

extension KiiApp {
    /// True when `token` is a live access token of the user `userID` (what an SDK sends back as `_accessToken`).
    package func isLiveToken(_ token: String, of userID: String) -> Bool {
        sessions[token]?.userID == userID
    }
}
