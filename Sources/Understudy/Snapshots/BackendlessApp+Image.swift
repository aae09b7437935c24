extension BackendlessApp: SnapshotApp {
    /// Every table that points at users, walked for a snapshot (`AppImageOf`).
    func forEachUserTheTablesReach(_ body: (StoredUser) -> Void) {
        // A deleted user stays in `registrationOrder` until a page drops it.
        users.values.forEach(body)
        registrationOrder.forEach(body)
        identityIndex.values.forEach(body)
        sessions.values.forEach(body)
        oauth.links.values.forEach(body)
    }

    /// What the app holds besides its users' own fields, as values: settings, clock, outbox, faults (their
    /// predicates shared, being functions), the tables of users (pointing at the same users), sessions, devices,
    /// the console's definitions and the state of every generator, so the app hands out the ids, tokens and codes
    /// it handed out next then.
    struct Held {
        var settings: BackendlessSettings
        var clock: VirtualClock
        var outbox: Outbox
        var faults: FaultInjector
        var linkBase: String
        var random: SeededGenerator
        var users: ShardedDictionary<Identifier128, StoredUser>
        var registrationOrder: ChunkedList<StoredUser>
        var identityIndex: ShardedDictionary<IndexKey, StoredUser>
        var sessions: ShardedDictionary<Identifier128, StoredUser>
        var confirmationTokens: ShardedDictionary<String, Identifier128>
        var recoveryLinks: [String: RecoveryLink]
        var guestCount: Int
        var userBytes: Int
        var oauth: OAuthDirectory
        var devices: DeviceRegistry
        var schedule: MessageSchedule
        var pushTemplates: [String: PushTemplate]
        var messageIDs: SeededGenerator
        var heldColumns: [String: UsersColumn.ColumnType?]
        var roles: RoleDirectory
        var emailTemplates: [String: EmailTemplate]
        var consoleBytes: Int
        var admitsGrowth: GrowthCheck
    }

    var held: Held {
        get {
            Held(
                settings: settings, clock: clock, outbox: outbox, faults: faults, linkBase: linkBase, random: random,
                users: users, registrationOrder: registrationOrder, identityIndex: identityIndex, sessions: sessions,
                confirmationTokens: confirmationTokens, recoveryLinks: recoveryLinks, guestCount: guestCount,
                userBytes: userBytes, oauth: oauth, devices: devices, schedule: schedule, pushTemplates: pushTemplates,
                messageIDs: messageIDs, heldColumns: heldColumns, roles: roles, emailTemplates: emailTemplates,
                consoleBytes: consoleBytes, admitsGrowth: admitsGrowth
            )
        }
        set {
            // Settings first: a changed identity rebuilds the index, which the image's replaces next.
            settings = newValue.settings
            clock = newValue.clock
            outbox = newValue.outbox
            faults = newValue.faults
            linkBase = newValue.linkBase
            random = newValue.random
            users = newValue.users
            registrationOrder = newValue.registrationOrder
            identityIndex = newValue.identityIndex
            sessions = newValue.sessions
            confirmationTokens = newValue.confirmationTokens
            recoveryLinks = newValue.recoveryLinks
            guestCount = newValue.guestCount
            userBytes = newValue.userBytes
            oauth = newValue.oauth
            devices = newValue.devices
            schedule = newValue.schedule
            pushTemplates = newValue.pushTemplates
            messageIDs = newValue.messageIDs
            heldColumns = newValue.heldColumns
            roles = newValue.roles
            emailTemplates = newValue.emailTemplates
            consoleBytes = newValue.consoleBytes
            admitsGrowth = newValue.admitsGrowth
        }
    }

    /// The stored properties an image keeps or needs not keep, by name: `SnapshotRouteTests` compares them with
    /// the class's own (by `Mirror`), so a property added to the app and forgotten in `Held` fails a test instead
    /// of leaking between snapshots. `capacity` never changes; `userChanges` is the image's own bookkeeping.
    package static let imagedProperties: Set<String> = [
        "settings", "clock", "outbox", "faults", "linkBase", "capacity", "random", "users", "registrationOrder",
        "identityIndex", "sessions", "confirmationTokens", "recoveryLinks", "guestCount", "userBytes", "oauth",
        "devices", "schedule", "pushTemplates", "messageIDs", "heldColumns", "roles",
        "emailTemplates", "consoleBytes", "admitsGrowth", "userChanges",
    ]
}

extension StoredUser: SnapshotUser {
    /// A user's changing fields as values.
    struct State {
        var properties: [Property]
        var password: PasswordHash?
        var status: UserStatus
        var updated: Int64?
        var lastLogin: Int64?
        var failedLogins: Int
        var lockedUntil: Double?
        var sessions: [Identifier128]
        var isDeleted: Bool
        var socialAccount: String
    }

    var state: State {
        State(
            properties: properties, password: password, status: status, updated: updated, lastLogin: lastLogin,
            failedLogins: failedLogins, lockedUntil: lockedUntil, sessions: sessions, isDeleted: isDeleted,
            socialAccount: socialAccount
        )
    }

    func reset(to state: State) {
        properties = state.properties
        password = state.password
        status = state.status
        updated = state.updated
        lastLogin = state.lastLogin
        failedLogins = state.failedLogins
        lockedUntil = state.lockedUntil
        sessions = state.sessions
        isDeleted = state.isDeleted
        socialAccount = state.socialAccount
    }

    /// The stored properties `State` keeps or need not be kept (checked as `BackendlessApp.imagedProperties` is):
    /// `objectID` and `created` never change; `changes` and `isNoted` are the image's bookkeeping.
    static let imagedProperties: Set<String> = [
        "objectID", "properties", "password", "status", "created", "updated", "lastLogin", "failedLogins",
        "lockedUntil", "sessions", "socialAccount", "isDeleted", "changes", "isNoted",
    ]
}
