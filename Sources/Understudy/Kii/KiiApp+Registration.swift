/// User registration (`POST /api/apps/{appID}/users`) followed by the automatic login.
extension KiiApp {
    /// Registers a user and logs them in: the returned user carries a `token`.
    ///
    /// Checks, the first that applies wins: an injected fault; the field rules (`loginName`, `emailAddress`,
    /// `country`, `phoneNumber`, then `password`: 400 `INVALID_INPUT_DATA` or `PASSWORD_TOO_SHORT`); at least one
    /// identifier; the verification combination (without a username, each address given must be able to log
    /// in at once); uniqueness of `loginName`, then `emailAddress`, then `phoneNumber` (409 `USER_ALREADY_EXISTS`,
    /// counting other users' current and pending addresses). A refused registration changes nothing.
    ///
    /// - Parameters:
    ///   - username: 3–64 of `A–Z a–z 0–9 _ - .`; stored lower-cased.
    ///   - email: `local@domain`, at most 200 characters.
    ///   - phone: `+819012345678`, local digits with `country`, or `JP-09012345678`; stored in E.164 form.
    ///   - country: two capital letters; needed to read a local phone number.
    ///   - password: 4–50 characters, each U+0020…U+007E.
    ///   - displayName: 1-50 characters (contract v4).
    ///   - locale: stored as given (1-64 bytes).
    ///   - fields: custom fields, by the update's name rules; none of the sign-up's own or reserved names.
    package func register(
        username: String? = nil, email: String? = nil, phone: String? = nil, country: String? = nil, password: String?,
        displayName: String? = nil, locale: String? = nil, fields: [Property] = []
    ) throws(KiiError) -> KiiUser {
        try checkFaults(.register, [
            .object([
                "username": Value(username), "email": Value(email), "phone": Value(phone), "country": Value(country),
                "password": Value(password), "displayName": Value(displayName), "locale": Value(locale),
                "fields": fields.isEmpty ? .null : Value(properties: fields),
            ])
        ])

        // Field rules.
        var loginName: String?
        if let username { loginName = try KiiIdentifiers.loginName(username) }
        if let email { _ = try KiiIdentifiers.emailAddress(email) }
        var storedCountry: String?
        if let country { storedCountry = try KiiIdentifiers.country(country) }
        var e164: String?
        if let phone {
            let number = try KiiIdentifiers.phoneNumber(phone, country: country, cache: &phoneCache)
            e164 = number.e164
            if storedCountry == nil { storedCountry = number.country }
        }
        guard let password else {
            throw .invalidInput(field: "password", value: nil, message: "The password is required")
        }
        try KiiIdentifiers.validatePassword(password)
        // Contract v4: the sign-up fields, after the version 1 field checks, before the combination and uniqueness.
        let profile = try KiiProfileChange.signUp(displayName: displayName, locale: locale, fields: fields)

        try checkSignUpCombination(username: loginName != nil, email: email != nil, phone: e164 != nil)

        // Uniqueness.
        if let loginName, loginNames[loginName] != nil {
            throw .userAlreadyExists(field: "loginName", value: loginName)
        }
        if let email { try checkEmailFree(email, for: nil) }
        if let e164 { try checkPhoneFree(e164, for: nil) }
        guard users.count < capacity.maxUsers else { throw .capacityReached(capacity.maxUsers) }

        let user = KiiStoredUser(
            id: ids.nextIdentifier(), loginName: loginName, password: PasswordHash(password: password, generator: &salts),
            created: clock.milliseconds, changes: userChanges
        )
        user.country = storedCountry
        users[user.id] = user
        userBytes += HeldBytes.perUser
        if profile.displayName != nil || profile.locale != nil || !profile.customFields.isEmpty {
            user.profile.displayName = profile.displayName
            user.profile.locale = profile.locale
            user.profile.customFields = profile.customFields
            userBytes += HeldBytes.of(profile.customFields)
        }
        registrationOrder.append(user)
        if let loginName { loginNames[loginName] = user }
        if let email {
            user.email.current = email
            emails[email.asciiLowercased()] = user
            if settings.emailVerification {
                user.email.verified = false
                sendEmailVerification(to: email, for: user)
            }
        }
        if let e164 {
            user.phone.current = e164
            phones[e164] = user
            if settings.phoneVerification {
                user.phone.verified = false
                sendPhoneVerification(to: e164, for: user)
            }
        }
        return user.snapshot(token: openSession(for: user))
    }
}

extension KiiApp {
    /// The sign-up combinations (contract version 1, and `put_identity` in version 3): at least one identifier,
    /// and one that can log in at once when there is no username (an address waiting for verification cannot).
    func checkSignUpCombination(username: Bool, email: Bool, phone: Bool) throws(KiiError) {
        guard username || email || phone else { throw .noIdentifier }
        guard !username else { return }
        switch (email, phone) {
        case (false, true) where settings.phoneVerification:
            throw .verificationCombination(["phone_verification"])
        case (true, false) where settings.emailVerification:
            throw .verificationCombination(["email_verification"])
        case (true, true) where settings.emailVerification && settings.phoneVerification:
            throw .verificationCombination(["email_verification", "phone_verification"])
        default: return
        }
    }
}
