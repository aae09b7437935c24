/// Login (`POST /oauth2/token`) and lookup by identifier.
extension KiiApp {
    /// Logs in and opens a new session; earlier tokens stay valid.
    ///
    /// `identifier` may be the username (any case), the email address (any case), the phone number as
    /// `+819012345678` or `JP-09012345678`, or a REST prefixed form: `EMAIL:…`, `PHONE:+…`, `PHONE:JP-…`,
    /// `LOGIN_NAME:…`. An email address or phone number logs in only once verified. Any failure is the same
    /// 400 `invalid_grant`, never saying which part was wrong.
    package func login(identifier: String, password: String) throws(KiiError) -> KiiSession {
        guard let user = resolve(identifier), !user.isDisabled, user.hasPassword, user.password.matches(password) else {
            throw .invalidGrant
        }
        let token = openSession(for: user)
        return KiiSession(user: user.snapshot(token: token), token: token)
    }

    /// The user that `identifier` would log in as (the same forms as `login`), or nil.
    package func find(identifier: String) -> KiiUser? {
        resolve(identifier)?.snapshot()
    }

    /// The user an identifier names, under the login rules.
    func resolve(_ identifier: String) -> KiiStoredUser? {
        if let rest = identifier.dropPrefix("EMAIL:") { return userByVerifiedEmail(rest) }
        if let rest = identifier.dropPrefix("PHONE:") { return userByVerifiedPhone(rest) }
        if let rest = identifier.dropPrefix("LOGIN_NAME:") { return userByLoginName(rest) }
        if identifier.utf8.contains(UInt8(ascii: "@")) { return userByVerifiedEmail(identifier) }
        if identifier.utf8.first == UInt8(ascii: "+") { return userByVerifiedPhone(identifier) }
        // `JP-09012345678` is also a well-formed username: the phone reading comes first.
        return userByVerifiedPhone(identifier, localFormOnly: true) ?? userByLoginName(identifier)
    }

    func userByLoginName(_ name: String) -> KiiStoredUser? {
        guard KiiIdentifiers.isUsername(name) else { return nil }
        return loginNames[name.asciiLowercased()]
    }

    func userByVerifiedEmail(_ email: String) -> KiiStoredUser? {
        let key = email.asciiLowercased()
        guard let user = emails[key], user.email.verified, user.email.current?.asciiLowercased() == key else { return nil }
        return user
    }

    /// `+819012345678` or `JP-09012345678` (only the latter when `localFormOnly`); never bare local digits, which
    /// have no country to be read in.
    func userByVerifiedPhone(_ phone: String, localFormOnly: Bool = false) -> KiiStoredUser? {
        guard let input = try? KiiIdentifiers.phoneInput(phone, country: nil) else { return nil }
        if localFormOnly, case .international = input { return nil }
        guard let e164 = try? KiiIdentifiers.e164(input, written: phone, cache: &phoneCache),
            let user = phones[e164], user.phone.verified, user.phone.current == e164
        else { return nil }
        return user
    }
}

extension String {
    /// The rest after `prefix`, or nil when the string does not start with it.
    func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
