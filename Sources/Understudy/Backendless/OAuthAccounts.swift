/// What an OAuth provider answers for one access token, as a scenario defines it with `app.oauth.account`: the
/// provider stands in for Facebook, Google, Twitter or any provider an app's SDK names by its code.
package struct OAuthAccount: Sendable, Hashable {
    /// The provider code, lower-cased (`"googleplus"`): codes are compared without case.
    package var provider: String
    /// The access token the provider accepts.
    package var token: String
    /// The OAuth1 token secret, when the account needs one at login.
    package var secret: String?
    /// The profile the provider returns: `id` (the provider's user id) and any fields, in the order given.
    package var profile: [Property]

    /// The provider's user id (`profile.id`): with the provider, it names the provider account.
    package var profileID: String { profile[named: "id"]?.stringValue ?? "" }

    /// An account; `provider` is lower-cased here. Check it with `problem` before defining it.
    package init(provider: String, token: String, secret: String? = nil, profile: [Property]) {
        self.provider = provider.lowercasedIfNeeded()
        self.token = token
        self.secret = secret
        self.profile = profile
    }

    /// What is wrong with the account as given, in words naming the field; nil when it can be defined.
    package var problem: String? {
        if provider.isEmpty { return "provider must be a non-empty string" }
        if token.isEmpty { return "token must be a non-empty string" }
        if let secret, secret.isEmpty { return "secret must be a non-empty string when given" }
        for property in profile {
            guard case .string = property.value else {
                return "profile.\(property.name) must be a string, got \(property.value.kindName)"
            }
        }
        if profileID.isEmpty { return "profile.id is required (the provider's user id, a non-empty string)" }
        return nil
    }
}

/// How one login maps the provider's profile onto the Backendless user: profile field → user property.
package struct OAuthFieldMapping: Sendable, Hashable {
    package var profileField: String
    package var property: String

    package init(_ profileField: String, to property: String) {
        self.profileField = profileField
        self.property = property
    }
}

/// The options of `users.login_oauth`: `fields_mapping`, `guest` (a guest's objectId to convert) and `secret`
/// (the OAuth1 token secret).
package struct OAuthLoginOptions: Sendable, Hashable, TypedArgument {
    /// In the order they apply: when two map onto the same property, the first wins.
    package var fieldsMapping: [OAuthFieldMapping]
    package var guest: String?
    package var secret: String?

    package init(fieldsMapping: [OAuthFieldMapping] = [], guest: String? = nil, secret: String? = nil) {
        self.fieldsMapping = fieldsMapping
        self.guest = guest
        self.secret = secret
    }

    /// What a fault's `when(args)` sees (`faultArguments`).
    package var faultValue: Value { faultArguments }

    /// The options as a fault's `when(args)` sees them: `{ fields_mapping = { [field] = property }, guest?,
    /// secret? }` (always a table, so `args.options.fields_mapping` can be read on any call).
    var faultArguments: Value {
        var members: [String: Value] = [:]
        var mapping: [String: Value] = [:]
        for entry in fieldsMapping where mapping[entry.profileField] == nil {
            mapping[entry.profileField] = .string(entry.property)
        }
        members["fields_mapping"] = .object(mapping)
        if let guest { members["guest"] = .string(guest) }
        if let secret { members["secret"] = .string(secret) }
        return .object(members)
    }
}

/// The provider accounts a Backendless app knows and the users linked to them.
struct OAuthDirectory {
    struct TokenKey: Hashable {
        var provider: String
        var token: String
    }

    /// A provider account: the provider and the provider's user id.
    struct AccountKey: Hashable {
        var provider: String
        var profileID: String

        /// What a link from this account to its user holds (`HeldBytes`).
        var heldBytes: Int { HeldBytes.perEntry + HeldBytes.of(provider) + HeldBytes.of(profileID) }
    }

    /// Accounts by the token a login presents.
    var accounts: [TokenKey: OAuthAccount] = [:]
    /// The Backendless user each provider account registered on its first login. A deleted user's entry stays
    /// until the account logs in again (then a new user is registered).
    var links: [AccountKey: StoredUser] = [:]
    /// The browser flow's authorization requests by `state`, until a sign-in uses them up (contract version 4).
    var requests: [String: OAuthAuthorizationRequest] = [:]
    /// What `requests` hold, for the memory account.
    var requestBytes = 0

    /// Every account, by provider then token (what the dashboard lists).
    var sortedAccounts: [OAuthAccount] {
        accounts.values.sorted { ($0.provider, $0.token) < ($1.provider, $1.token) }
    }
}
