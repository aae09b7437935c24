extension KiiApp: SnapshotApp {
    /// Every table that points at users, walked for a snapshot (`AppImageOf`).
    func forEachUserTheTablesReach(_ body: (KiiStoredUser) -> Void) {
        users.values.forEach(body)
        registrationOrder.forEach(body)
        loginNames.values.forEach(body)
        emails.values.forEach(body)
        phones.values.forEach(body)
        sessions.values.forEach(body)
        lifecycle.resetLinks.values.forEach(body)
    }

    /// What the app holds besides its users' own fields, as values (see `BackendlessApp.Held`).
    struct Held {
        var settings: KiiSettings
        var clock: VirtualClock
        var outbox: Outbox
        var faults: FaultInjector
        var linkBase: String
        var ids: SeededGenerator
        var tokens: SeededGenerator
        var codes: SeededGenerator
        var salts: SeededGenerator
        var lifecycleSecrets: SeededGenerator
        var lifecycle: KiiLifecycleState
        var topicStore: KiiTopicStore
        var topicSecrets: SeededGenerator
        var mqttSecrets: SeededGenerator
        var groupStore: KiiGroupStore
        var groupSecrets: SeededGenerator
        var socialStore: KiiSocialStore
        var mqttEndpoints: KiiMqttEndpointStore
        var mqttBroker: MqttBrokerAddress
        var mqttDeliveries: (any MqttDeliveries)?
        var adminTokens: Set<String>
        var users: ShardedDictionary<Identifier128, KiiStoredUser>
        var userBytes: Int
        var registrationOrder: ChunkedList<KiiStoredUser>
        var loginNames: ShardedDictionary<String, KiiStoredUser>
        var emails: ShardedDictionary<String, KiiStoredUser>
        var phones: ShardedDictionary<String, KiiStoredUser>
        var sessions: ShardedDictionary<String, KiiStoredUser>
        var phoneCache: PhoneNumberCache
        var consoleBytes: Int
        var admitsGrowth: GrowthCheck
    }

    var held: Held {
        get {
            Held(
                settings: settings, clock: clock, outbox: outbox, faults: faults, linkBase: linkBase, ids: ids,
                tokens: tokens, codes: codes, salts: salts, lifecycleSecrets: lifecycleSecrets, lifecycle: lifecycle,
                topicStore: topicStore, topicSecrets: topicSecrets, mqttSecrets: mqttSecrets, groupStore: groupStore,
                groupSecrets: groupSecrets, socialStore: socialStore, mqttEndpoints: mqttEndpoints,
                mqttBroker: mqttBroker, mqttDeliveries: mqttDeliveries, adminTokens: adminTokens, users: users,
                userBytes: userBytes, registrationOrder: registrationOrder, loginNames: loginNames, emails: emails,
                phones: phones, sessions: sessions, phoneCache: phoneCache, consoleBytes: consoleBytes,
                admitsGrowth: admitsGrowth
            )
        }
        set {
            settings = newValue.settings
            clock = newValue.clock
            outbox = newValue.outbox
            faults = newValue.faults
            linkBase = newValue.linkBase
            ids = newValue.ids
            tokens = newValue.tokens
            codes = newValue.codes
            salts = newValue.salts
            lifecycleSecrets = newValue.lifecycleSecrets
            lifecycle = newValue.lifecycle
            topicStore = newValue.topicStore
            topicSecrets = newValue.topicSecrets
            mqttSecrets = newValue.mqttSecrets
            groupStore = newValue.groupStore
            groupSecrets = newValue.groupSecrets
            socialStore = newValue.socialStore
            mqttEndpoints = newValue.mqttEndpoints
            mqttBroker = newValue.mqttBroker
            mqttDeliveries = newValue.mqttDeliveries
            adminTokens = newValue.adminTokens
            users = newValue.users
            userBytes = newValue.userBytes
            registrationOrder = newValue.registrationOrder
            loginNames = newValue.loginNames
            emails = newValue.emails
            phones = newValue.phones
            sessions = newValue.sessions
            phoneCache = newValue.phoneCache
            consoleBytes = newValue.consoleBytes
            admitsGrowth = newValue.admitsGrowth
        }
    }

    /// The stored properties an image keeps or needs not keep, by name (see `BackendlessApp.imagedProperties`).
    package static let imagedProperties: Set<String> = [
        "settings", "clock", "outbox", "faults", "linkBase", "capacity", "ids", "tokens", "codes", "salts",
        "lifecycleSecrets", "lifecycle", "topicStore", "topicSecrets", "mqttSecrets", "groupStore", "groupSecrets",
        "socialStore", "mqttEndpoints", "mqttBroker", "mqttDeliveries", "adminTokens", "users", "userBytes",
        "registrationOrder", "loginNames", "emails", "phones", "sessions", "phoneCache", "consoleBytes", "admitsGrowth",
        "userChanges",
    ]
}

extension KiiStoredUser: SnapshotUser {
    /// A user's changing fields as values, its profile's included.
    struct State {
        var loginName: String?
        var password: PasswordHash
        var country: String?
        var profile: KiiProfile.State?
        var email: VerifiableAddress
        var phone: VerifiableAddress
    }

    var state: State {
        State(loginName: loginName, password: password, country: country, profile: extras?.state, email: email, phone: phone)
    }

    func reset(to state: State) {
        loginName = state.loginName
        password = state.password
        country = state.country
        if let kept = state.profile {
            profile.reset(to: kept)
        } else if extras != nil {
            extras = nil
        }
        email = state.email
        phone = state.phone
    }

    /// The stored properties `State` keeps or need not be kept (see `StoredUser.imagedProperties`).
    static let imagedProperties: Set<String> = [
        "id", "userID", "loginName", "password", "created", "country", "extras", "email", "phone", "changes", "isNoted",
    ]
}

extension KiiProfile {
    /// A profile's fields as values.
    struct State {
        var displayName: String?
        var locale: String?
        var disabled: Bool
        var pseudo: Bool
        var customFields: [Property]
        var thirdParty: [KiiThirdPartyAccount]
        var modified: Int64?
        var tokens: [String]
        var resetPIN: String?
        var resetPINSentAt: Double
        var resetLinkCode: String?
        var resetLinkBySMS: Bool
    }

    var state: State {
        State(
            displayName: displayName, locale: locale, disabled: disabled, pseudo: pseudo, customFields: customFields,
            thirdParty: thirdParty, modified: modified, tokens: tokens, resetPIN: resetPIN, resetPINSentAt: resetPINSentAt,
            resetLinkCode: resetLinkCode, resetLinkBySMS: resetLinkBySMS
        )
    }

    func reset(to state: State) {
        displayName = state.displayName
        locale = state.locale
        disabled = state.disabled
        pseudo = state.pseudo
        customFields = state.customFields
        thirdParty = state.thirdParty
        modified = state.modified
        tokens = state.tokens
        resetPIN = state.resetPIN
        resetPINSentAt = state.resetPINSentAt
        resetLinkCode = state.resetLinkCode
        resetLinkBySMS = state.resetLinkBySMS
    }

    static let imagedProperties: Set<String> = [
        "displayName", "locale", "disabled", "pseudo", "customFields", "thirdParty", "modified", "tokens", "resetPIN",
        "resetPINSentAt", "resetLinkCode", "resetLinkBySMS", "owner",
    ]
}

/// What the snapshot tests read to check that every class an image goes through keeps each stored property.
package enum ImagedProperties {
    /// Each class's name, a sample instance's stored property names (by `Mirror`) and the names its image keeps or
    /// needs not keep.
    package static func check() -> [(type: String, stored: Set<String>, imaged: Set<String>)] {
        func stored(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        var generator = SeededGenerator(seed: 1)
        let hash = PasswordHash(password: "sample", generator: &generator)
        let id = Identifier128(high: 1, low: 1)
        let backendless = BackendlessApp(seed: 1)
        let kii = KiiApp(seed: 1)
        let kiiUser = KiiStoredUser(id: id, loginName: nil, password: hash, created: 0, changes: kii.userChanges)
        return [
            ("BackendlessApp", stored(backendless), BackendlessApp.imagedProperties),
            (
                "StoredUser",
                stored(StoredUser(objectID: id, properties: [], password: nil, status: .enabled, created: 0, changes: backendless.userChanges)),
                StoredUser.imagedProperties
            ),
            ("KiiApp", stored(kii), KiiApp.imagedProperties),
            ("KiiStoredUser", stored(kiiUser), KiiStoredUser.imagedProperties),
            ("KiiProfile", stored(KiiProfile(owner: kiiUser)), KiiProfile.imagedProperties),
        ]
    }
}
