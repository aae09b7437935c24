extension KiiApp {
    /// An independent copy of the app as it is now (as `BackendlessApp.copy()` makes one): users and their
    /// profiles copied, every index pointed at the copies, generators, clock, outbox, faults, installations and
    /// topics carried over. Reads this app only, so it may run on another thread while nobody changes this one.
    package func copy() -> KiiApp {
        let copy = KiiApp(settings: settings, seed: 0, capacity: capacity)
        let copiedUsers = users.mapValues { $0.copy() }
        func copied(_ user: KiiStoredUser) -> KiiStoredUser { copiedUsers[user.id] ?? user.copy() }
        copy.clock = clock
        copy.outbox = outbox
        copy.faults = faults
        copy.linkBase = linkBase
        copy.ids = ids
        copy.tokens = tokens
        copy.codes = codes
        copy.salts = salts
        copy.lifecycleSecrets = lifecycleSecrets
        copy.lifecycle = lifecycle
        copy.lifecycle.resetLinks = lifecycle.resetLinks.mapValues(copied)
        copy.topicStore = topicStore
        copy.topicSecrets = topicSecrets
        copy.mqttSecrets = mqttSecrets
        copy.groupStore = groupStore
        copy.groupSecrets = groupSecrets
        copy.socialStore = socialStore
        copy.mqttEndpoints = mqttEndpoints
        copy.mqttBroker = mqttBroker
        copy.mqttDeliveries = mqttDeliveries
        copy.adminTokens = adminTokens
        copy.users = copiedUsers
        copy.userBytes = userBytes
        copy.registrationOrder = registrationOrder.map(copied)
        copy.loginNames = loginNames.mapValues(copied)
        copy.emails = emails.mapValues(copied)
        copy.phones = phones.mapValues(copied)
        copy.sessions = sessions.mapValues(copied)
        copy.phoneCache = phoneCache
        return copy
    }

    /// The stored properties `copy()` carries over, by name (see `BackendlessApp.copiedProperties`).
    package static let copiedProperties: Set<String> = [
        "settings", "clock", "outbox", "faults", "linkBase", "capacity", "ids", "tokens", "codes", "salts",
        "lifecycleSecrets", "lifecycle", "topicStore", "topicSecrets", "mqttSecrets", "groupStore", "groupSecrets",
        "socialStore", "mqttEndpoints", "mqttBroker", "mqttDeliveries", "adminTokens", "users", "userBytes",
        "registrationOrder", "loginNames", "emails", "phones", "sessions", "phoneCache",
    ]
}

extension KiiStoredUser {
    /// A user with the same fields and a copy of its profile.
    func copy() -> KiiStoredUser {
        let copy = KiiStoredUser(id: id, loginName: loginName, password: password, created: created)
        copy.country = country
        copy.extras = extras?.copy()
        copy.email = email
        copy.phone = phone
        return copy
    }

    static let copiedProperties: Set<String> = [
        "id", "userID", "loginName", "password", "created", "country", "extras", "email", "phone",
    ]
}

extension KiiProfile {
    func copy() -> KiiProfile {
        let copy = KiiProfile()
        copy.displayName = displayName
        copy.locale = locale
        copy.disabled = disabled
        copy.pseudo = pseudo
        copy.customFields = customFields
        copy.thirdParty = thirdParty
        copy.modified = modified
        copy.tokens = tokens
        copy.resetPIN = resetPIN
        copy.resetPINSentAt = resetPINSentAt
        copy.resetLinkCode = resetLinkCode
        copy.resetLinkBySMS = resetLinkBySMS
        return copy
    }

    static let copiedProperties: Set<String> = [
        "displayName", "locale", "disabled", "pseudo", "customFields", "thirdParty", "modified", "tokens", "resetPIN",
        "resetPINSentAt", "resetLinkCode", "resetLinkBySMS",
    ]
}

/// What the snapshot tests read to check that every class a copy goes through copies each stored property.
package enum CopiedProperties {
    /// Each copied class's name, a sample instance's stored property names (by `Mirror`) and the names its copy
    /// carries over.
    package static func check() -> [(type: String, stored: Set<String>, copied: Set<String>)] {
        func stored(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        var generator = SeededGenerator(seed: 1)
        let hash = PasswordHash(password: "sample", generator: &generator)
        return [
            ("BackendlessApp", stored(BackendlessApp(seed: 1)), BackendlessApp.copiedProperties),
            ("StoredUser", stored(StoredUser(objectID: Identifier128(high: 1, low: 1), properties: [], password: nil, status: .enabled, created: 0)), StoredUser.copiedProperties),
            ("KiiApp", stored(KiiApp(seed: 1)), KiiApp.copiedProperties),
            ("KiiStoredUser", stored(KiiStoredUser(id: Identifier128(high: 1, low: 1), loginName: nil, password: hash, created: 0)), KiiStoredUser.copiedProperties),
            ("KiiProfile", stored(KiiProfile()), KiiProfile.copiedProperties),
        ]
    }
}
