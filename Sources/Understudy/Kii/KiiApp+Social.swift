/// The social networks `KiiSocialConnect` signs in with: the path names of Kii's API (contract v4).
package enum KiiSocialProvider: String, Sendable, Hashable, CaseIterable {
    case facebook, twitter, google, qq, renren

    /// The provider a name means, compared without case; nil for another name.
    package init?(named name: String) {
        self.init(rawValue: name.asciiLowercased())
    }

    /// The names, for messages.
    static let listed = "\"facebook\", \"twitter\", \"google\", \"qq\", \"renren\""

    /// A Lua call's misuse beyond its declared types: an unknown provider, `options.secret` for another provider
    /// than twitter, `options.open_id` for another than qq.
    static let misuse = MisuseCheck { arguments throws(CallMisuse) in
        let name = arguments.string("provider")
        guard let provider = KiiSocialProvider(named: name) else {
            throw CallMisuse("provider must be one of \(listed), got \"\(name.prefix(64))\"")
        }
        guard arguments.names.contains("options"), let options = arguments.fields("options") else { return }
        if options["secret"] != nil, provider != .twitter { throw CallMisuse("options.secret is for twitter only, not \(provider.rawValue)") }
        if options["open_id"] != nil, provider != .qq { throw CallMisuse("options.open_id is for qq only, not \(provider.rawValue)") }
    }

    /// The provider and its options as a call gave them (400 `INVALID_INPUT_DATA` naming `provider` for an
    /// unknown one: the adapters refuse it before).
    static func read(_ arguments: CallArguments) throws(KiiError) -> (provider: KiiSocialProvider, secret: String?, openID: String?) {
        let name = arguments.string("provider")
        guard let provider = KiiSocialProvider(named: name) else {
            throw .invalidInput(
                field: "provider", value: String(name.prefix(64)),
                message: "provider must be facebook, twitter, google, qq or renren, got \(name.prefix(64))"
            )
        }
        guard arguments.names.contains("options"), let options = arguments.fields("options") else { return (provider, nil, nil) }
        return (provider, options["secret"]?.stringValue, options["open_id"]?.stringValue)
    }

    /// The 409 code for a user who already has an account of this provider (contract v4's split).
    var alreadyLinkedCode: String {
        switch self {
        case .facebook: return "FACEBOOK_USER_ALREADY_LINKED"
        case .google: return "GOOGLE_USER_ALREADY_LINKED"
        case .qq: return "QQ_USER_ALREADY_LINKED"
        case .twitter, .renren: return "USER_ALREADY_LINKED"
        }
    }
}

/// A provider account a scenario defines (`app.social.account{...}`): the provider accepts `token` (with `secret`
/// for twitter, `openID` for qq, when given) and answers `profile`, whose `id` names the account.
package struct KiiSocialAccount: Sendable, Hashable {
    package var provider: KiiSocialProvider
    package var token: String
    package var secret: String?
    package var openID: String?
    /// The provider's profile: strings, `id` among them.
    package var profile: [String: String]

    package init(provider: KiiSocialProvider, token: String, secret: String? = nil, openID: String? = nil, profile: [String: String]) {
        self.provider = provider
        self.token = token
        self.secret = secret
        self.openID = openID
        self.profile = profile
    }

    package var id: String { profile["id"] ?? "" }
}

/// A provider account linked to a user: `thirdPartyAccounts[provider] = { id, type, createdAt }`.
package struct KiiThirdPartyAccount: Sendable, Hashable {
    package var provider: KiiSocialProvider
    package var id: String
    /// Milliseconds on the virtual clock of the link or of the first login.
    package var createdAt: Int64
}

/// What `users.login_social` answers: `{ user, token, new_user_created }`.
package struct KiiSocialLogin: Sendable, Hashable, Presentable {
    package var user: KiiUser
    package var token: String
    package var newUserCreated: Bool

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("user", record: user)
        writer.write("token", token)
        writer.write("new_user_created", newUserCreated)
    }
}

/// The provider accounts defined and who each belongs to.
struct KiiSocialStore {
    /// Accounts by `provider\0token`.
    var accounts: [String: KiiSocialAccount] = [:]
    /// The userID each linked account (`provider\0profile id`) belongs to.
    var owners: [String: String] = [:]

    static func key(_ provider: KiiSocialProvider, _ value: String) -> String { provider.rawValue + "\u{0}" + value }
}

/// Social login (`KiiSocialConnect`): `POST integration/{provider}`, `users/{user}/{provider}/link` and
/// `…/unlink`, with scenarios standing in for the providers.
extension KiiApp {
    /// Defines (or replaces) a provider account (a console action).
    package func defineSocialAccount(_ account: KiiSocialAccount) {
        let replaced = socialStore.accounts.updateValue(account, forKey: KiiSocialStore.key(account.provider, account.token))
        consoleBytes += Self.heldBytes(of: account) - (replaced.map(Self.heldBytes) ?? 0)
    }

    /// What a provider account holds (`HeldBytes`).
    static func heldBytes(of account: KiiSocialAccount) -> Int {
        HeldBytes.perRegistration + HeldBytes.of(account.token) + HeldBytes.of(account.secret) + HeldBytes.of(account.openID)
            + account.profile.reduce(0) { $0 + HeldBytes.perEntry + HeldBytes.of($1.key) + HeldBytes.of($1.value) }
    }

    /// The account of `provider` that accepts `token` with this secret / openID: a missing or different one
    /// fails when the account was defined with one; one sent for an account defined without is ignored.
    private func socialAccount(
        _ provider: KiiSocialProvider, token: String, secret: String?, openID: String?
    ) -> KiiSocialAccount? {
        guard let account = socialStore.accounts[KiiSocialStore.key(provider, token)] else { return nil }
        if let expected = account.secret, provider == .twitter, secret != expected { return nil }
        if let expected = account.openID, provider == .qq, openID != expected { return nil }
        return account
    }

    /// Signs in with a provider's token: the first login of a provider account registers a user with no
    /// identifier and no password, linked to it (no profile field is copied); later logins log that user in.
    /// Errors, in this order: 400 `invalid_grant` (no account of the provider has the token, or its secret / open
    /// id differs); 400 `invalid_grant` for a disabled user.
    package func loginSocial(
        provider: KiiSocialProvider, token: String, secret: String? = nil, openID: String? = nil
    ) throws(KiiError) -> KiiSocialLogin {
        guard let account = socialAccount(provider, token: token, secret: secret, openID: openID) else {
            throw .socialTokenRefused(provider.rawValue)
        }
        let ownerKey = KiiSocialStore.key(provider, account.id)
        if let ownerID = socialStore.owners[ownerKey], let owner = try? storedUser(ownerID) {
            guard !owner.isDisabled else { throw .invalidGrant }
            let token = openSession(for: owner)
            return KiiSocialLogin(user: owner.snapshot(token: token), token: token, newUserCreated: false)
        }
        guard users.count < capacity.maxUsers else { throw .capacityReached(capacity.maxUsers) }
        let user = KiiStoredUser(
            id: ids.nextIdentifier(), loginName: nil, password: PasswordHash(password: "", generator: &salts),
            created: clock.milliseconds, changes: userChanges
        )
        user.profile.pseudo = true
        user.profile.thirdParty.append(KiiThirdPartyAccount(provider: provider, id: account.id, createdAt: clock.milliseconds))
        users[user.id] = user
        userBytes += HeldBytes.perUser
        registrationOrder.append(user)
        socialStore.owners[ownerKey] = user.userID
        let session = openSession(for: user)
        return KiiSocialLogin(user: user.snapshot(token: session), token: session, newUserCreated: true)
    }

    /// The user of a live token: 401 `UNAUTHORIZED` for a token never issued, 403 `WRONG_TOKEN` for one that
    /// stopped working.
    private func sessionUser(_ token: String) throws(KiiError) -> KiiStoredUser {
        if let user = sessions[token] { return user }
        if lifecycle.endedTokens.contains(token) { throw .wrongToken(token) }
        throw .unknownToken(token)
    }

    /// Links the token's user to the provider account that accepts `providerToken`.
    /// Errors, in this order: 401 `UNAUTHORIZED`; 403 `WRONG_TOKEN`; 400 `INVALID_INPUT_DATA` (`accessToken`) when
    /// no account of the provider has the token (or its secret / open id differs); 409
    /// `FACEBOOK_USER_ALREADY_LINKED` / `GOOGLE_USER_ALREADY_LINKED` / `QQ_USER_ALREADY_LINKED` (twitter and
    /// renren: `USER_ALREADY_LINKED`) when the user already has an account of the provider; 409
    /// `USER_ALREADY_LINKED` when the account belongs to another user.
    package func linkSocial(
        token: String, provider: KiiSocialProvider, providerToken: String, secret: String? = nil, openID: String? = nil
    ) throws(KiiError) -> KiiUser {
        let user = try sessionUser(token)
        guard let account = socialAccount(provider, token: providerToken, secret: secret, openID: openID) else {
            throw .invalidInput(
                field: "accessToken", value: nil,
                message: "The \(provider.rawValue) access token is not valid: no \(provider.rawValue) account accepts it"
            )
        }
        if user.extras?.thirdParty.contains(where: { $0.provider == provider }) == true {
            throw KiiError(
                status: 409, code: provider.alreadyLinkedCode,
                message: "The user was already linked with a \(provider.rawValue) account", field: "provider", value: provider.rawValue
            )
        }
        let ownerKey = KiiSocialStore.key(provider, account.id)
        if let owner = socialStore.owners[ownerKey], owner != user.userID, (try? storedUser(owner)) != nil {
            throw KiiError(
                status: 409, code: "USER_ALREADY_LINKED", message: "The user to link is already linked",
                field: "provider", value: provider.rawValue
            )
        }
        socialStore.owners[ownerKey] = user.userID
        user.profile.thirdParty.append(KiiThirdPartyAccount(provider: provider, id: account.id, createdAt: clock.milliseconds))
        return user.snapshot()
    }

    /// Unlinks the token's user from their account of `provider`; the account is free again (its next login
    /// registers a new user). Errors, in this order: 401 `UNAUTHORIZED`; 403 `WRONG_TOKEN`; 409 `USER_NOT_LINKED`.
    package func unlinkSocial(token: String, provider: KiiSocialProvider) throws(KiiError) -> KiiUser {
        let user = try sessionUser(token)
        guard let index = user.extras?.thirdParty.firstIndex(where: { $0.provider == provider }) else {
            throw KiiError(
                status: 409, code: "USER_NOT_LINKED", message: "The user to unlink is not linked",
                field: "provider", value: provider.rawValue
            )
        }
        let account = user.profile.thirdParty.remove(at: index)
        socialStore.owners[KiiSocialStore.key(provider, account.id)] = nil
        return user.snapshot()
    }

    /// Frees a deleted user's provider accounts.
    func releaseSocialAccounts(of user: KiiStoredUser) {
        for account in user.extras?.thirdParty ?? [] {
            let key = KiiSocialStore.key(account.provider, account.id)
            if socialStore.owners[key] == user.userID { socialStore.owners[key] = nil }
        }
    }
}
