/// Sign-up and login through an OAuth provider (contract version 3, the seed's "external registration"). A
/// scenario stands in for the provider (`defineOAuthAccount`); the first login with a provider account registers
/// a social user linked to it, later logins log that user in. Social users have no password: the rules that
/// keep it so live in `update`, `restorePassword` and `login`.
extension BackendlessApp {
    /// Defines (or replaces: same provider and token) what the provider answers for a token (`app.oauth.account`).
    /// Throws the account's `problem` as text when it cannot be defined.
    package func defineOAuthAccount(_ account: OAuthAccount) throws(OAuthAccountProblem) {
        if let problem = account.problem { throw OAuthAccountProblem(message: problem) }
        let replaced = oauth.accounts.updateValue(account, forKey: OAuthDirectory.TokenKey(provider: account.provider, token: account.token))
        consoleBytes += HeldBytes.of(account) - (replaced.map(HeldBytes.of) ?? 0)
    }

    /// Every provider account defined, by provider then token.
    package var oauthAccounts: [OAuthAccount] { oauth.sortedAccounts }

    /// How many provider accounts are defined.
    package var oauthAccountCount: Int { oauth.accounts.count }

    /// The user a provider account registered, while that user exists.
    package func oauthUser(of account: OAuthAccount) -> BackendlessUser? {
        linkedUser(OAuthDirectory.AccountKey(provider: account.provider, profileID: account.profileID))?.snapshot
    }

    /// Logs in through a provider (`users.login_oauth`); the first login of a provider account registers its user.
    /// Errors, in order: a fault; 3034 logins off; 3052 no account of `provider` has `token` (or its secret
    /// differs); on a first login 3009 registration off, 3039 `guest` not a guest's objectId, 3014 the mapped
    /// properties break a registration rule (3012, 8000, 3033 in registration's order), 3021 the emulator is
    /// full; on later logins 3090 disabled, 3036 locked out.
    /// - Parameter options: nil when a Lua call passed none (a fault's `when(args)` then sees `args.options` as
    ///   nil); over HTTP always given.
    package func loginOAuth(provider: String, token: String, options: OAuthLoginOptions? = nil)
        throws(BackendlessError) -> BackendlessSession
    {
        try checkFaults(.loginOAuth, [.string(provider), .string(token), options?.faultArguments ?? .null])
        return try logInThroughProvider(provider: provider, token: token, options: options ?? OAuthLoginOptions())
    }

    /// `loginOAuth` after its fault: what a sign-in on the browser flow's provider page does too.
    func logInThroughProvider(provider: String, token: String, options: OAuthLoginOptions) throws(BackendlessError)
        -> BackendlessSession
    {
        guard settings.logins else { throw .loginsDisabled }
        let provider = provider.lowercasedIfNeeded()
        guard let account = oauth.accounts[OAuthDirectory.TokenKey(provider: provider, token: token)],
            account.secret == nil || account.secret == options.secret
        else { throw .externalAuthenticationFailed }

        let key = OAuthDirectory.AccountKey(provider: provider, profileID: account.profileID)
        if let user = linkedUser(key) { return try logInLinked(user) }
        return try registerSocialUser(key, profile: account.profile, options: options)
    }

    /// The user a provider account registered, unless it was deleted since.
    private func linkedUser(_ key: OAuthDirectory.AccountKey) -> StoredUser? {
        guard let user = oauth.links[key] else { return nil }
        return users[user.objectID] === user ? user : nil
    }

    /// A later login: 3090, then 3036. Logins counted and policies as `login`'s do not apply (the contract lists
    /// neither 3002 nor 3044 for OAuth logins); a success clears the failed password logins.
    private func logInLinked(_ user: StoredUser) throws(BackendlessError) -> BackendlessSession {
        if user.status == .disabled { throw .accountDisabled }
        if let lockedUntil = user.lockedUntil {
            if clock.now < lockedUntil { throw .lockedOut }
            user.lockedUntil = nil
        }
        user.failedLogins = 0
        user.lastLogin = clock.milliseconds
        return openSession(for: user)
    }

    /// The first login of a provider account: registers its user (or converts the guest) and logs it in.
    private func registerSocialUser(
        _ key: OAuthDirectory.AccountKey, profile: [Property], options: OAuthLoginOptions
    ) throws(BackendlessError) -> BackendlessSession {
        guard settings.registration else { throw .registrationDisabled }
        var guest: StoredUser?
        if let guestID = options.guest {
            guard let id = Identifier128(parsing: guestID), let user = users[id], user.status == .guest else {
                throw .reservedObjectID
            }
            guest = user
        }
        let properties = mappedProperties(profile, options.fieldsMapping)
        let identityKey: IndexKey?
        do throws(BackendlessError) {
            identityKey = try checkExternalRegistration(properties)
        } catch {
            throw .externalRegistrationFailed(error)
        }
        guard guest != nil || users.count < capacity.maxUsers else { throw .full(capacity.maxUsers) }

        let user: StoredUser
        if let guest {
            user = guest
            userBytes += HeldBytes.of(properties) - HeldBytes.of(user.properties)
            user.properties = properties
            user.status = .enabled
            user.updated = clock.milliseconds
            guestCount -= 1
        } else {
            user = StoredUser(
                objectID: random.nextIdentifier(), properties: properties, password: nil, status: .enabled,
                created: clock.milliseconds, changes: userChanges
            )
            users[user.objectID] = user
            registrationOrder.append(user)
            userBytes += HeldBytes.perUser + HeldBytes.of(properties)
        }
        noteColumns(properties)
        user.socialAccount = key.provider
        if let identityKey { identityIndex[identityKey] = user }
        if oauth.links.updateValue(user, forKey: key) == nil { consoleBytes += key.heldBytes }
        user.lastLogin = clock.milliseconds
        return openSession(for: user)
    }

    /// The user properties a first login stores: each mapped profile field that the profile has, in the mapping's
    /// order (the first mapping onto a property wins, names compared without case). The system properties
    /// (`objectId`, `password`, `socialAccount`, ...) are never set this way; with `dynamic_properties` off,
    /// properties outside the schema are dropped, as `update` drops them.
    func mappedProperties(_ profile: [Property], _ mapping: [OAuthFieldMapping]) -> [Property] {
        var properties: [Property] = []
        for entry in mapping {
            let name = entry.property
            guard let value = profile[named: entry.profileField], !name.isEmpty,
                name != "password", !Self.systemProperties.contains(name),
                !properties.contains(where: { $0.name.equalsIgnoringCase(name) })
            else { continue }
            if !settings.dynamicProperties, !Self.builtInProperties.contains(name), name != settings.identity,
                settings.properties[name] == nil
            {
                continue
            }
            properties.append(Property(name, value))
        }
        return properties
    }

    /// The registration rules a social user's properties must pass, in `register`'s order: 3012 a required
    /// property absent or empty, 8000 a value over its `max_length`, 3033 the identity value taken. The identity
    /// may be absent and no password rule applies. Returns the identity's index key, when there is a value.
    private func checkExternalRegistration(_ properties: [Property]) throws(BackendlessError) -> IndexKey? {
        for (name, rule) in settings.properties.sorted(by: { $0.key < $1.key })
        where rule.required && (properties[named: name]?.isEmpty ?? true) {
            throw .requiredProperty(name)
        }
        let rules = settings.properties
        for property in properties {
            guard case .string(let text) = property.value else { continue }
            let limit = rules[property.name]?.maxLength ?? BackendlessSettings.defaultMaxLength
            if text.utf8.count > limit, text.unicodeScalars.count > limit { throw .valueTooLong(property.name, limit: limit) }
        }
        guard let value = properties[named: settings.identity], let key = identityKey(value) else { return nil }
        if identityIndex[key] != nil { throw .userAlreadyExists }
        return key
    }
}

/// Why an OAuth provider account cannot be defined (a scenario's misuse, raised in Lua).
package struct OAuthAccountProblem: Error, Sendable {
    package var message: String
}

extension BackendlessError {
    /// 3052: no account of the provider has the token, or its secret differs.
    static let externalAuthenticationFailed = BackendlessError(
        code: 3052, message: "External authentication failed with message 'Invalid access token'"
    )

    /// 3014 wrapping the registration rule a first OAuth login broke: `%s` is that rule's full message.
    static func externalRegistrationFailed(_ rule: BackendlessError) -> BackendlessError {
        BackendlessError(
            code: 3014, message: "Unable to register user. External registration failed with message: \(rule.message)"
        )
    }

    /// 3072: `users.update` of a social user with a `password`.
    static let socialUserPassword = catalogue(3072)
    /// 3075: `users.restore_password` of a social user.
    static let socialUserRecovery = catalogue(3075)
    /// 3096: `users.update` changing a social user's identity property.
    static let socialUserIdentity = catalogue(3096)
}
