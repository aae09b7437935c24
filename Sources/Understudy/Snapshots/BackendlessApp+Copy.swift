extension BackendlessApp {
    /// An independent copy of the app as it is now: what it holds, its settings, clock, outbox, faults (their
    /// predicates shared, being functions), sessions and the state of every generator, so the copy hands out the
    /// ids, tokens and codes this app would hand out next. Changing either leaves the other as it was.
    ///
    /// Reads this app only (nothing here is changed, not even lazily), so a copy may be made on another thread
    /// while nobody changes this one. Users are copied with `Dictionary.mapValues` (no rehash) and every index
    /// that points at a user is pointed at its copy.
    package func copy() -> BackendlessApp {
        let copy = BackendlessApp(settings: settings, seed: 0, capacity: capacity)
        let copiedUsers = users.mapValues { $0.copy() }
        func copied(_ user: StoredUser) -> StoredUser { copiedUsers[user.objectID] ?? user.copy() }
        copy.clock = clock
        copy.outbox = outbox
        copy.faults = faults
        copy.linkBase = linkBase
        copy.random = random
        copy.users = copiedUsers
        copy.registrationOrder = registrationOrder.map(copied)
        copy.identityIndex = identityIndex.mapValues(copied)
        copy.sessions = sessions.mapValues(copied)
        copy.confirmationTokens = confirmationTokens
        copy.recoveryLinks = recoveryLinks
        copy.guestCount = guestCount
        copy.userBytes = userBytes
        copy.oauth = oauth
        copy.oauth.links = oauth.links.mapValues(copied)
        copy.devices = devices
        copy.schedule = schedule
        copy.pushTemplates = pushTemplates
        copy.messageIDs = messageIDs
        copy.heldColumns = heldColumns
        copy.roles = roles
        copy.emailTemplates = emailTemplates
        copy.consoleBytes = consoleBytes
        copy.admitsGrowth = admitsGrowth
        return copy
    }

    /// The stored properties `copy()` carries over, by name: `SnapshotTests` compares them with the class's own,
    /// so a property added to the app and forgotten here fails a test instead of leaking between snapshots.
    package static let copiedProperties: Set<String> = [
        "settings", "clock", "outbox", "faults", "linkBase", "capacity", "random", "users", "registrationOrder",
        "identityIndex", "sessions", "confirmationTokens", "recoveryLinks", "guestCount", "userBytes", "oauth",
        "devices", "schedule", "pushTemplates", "messageIDs", "heldColumns", "roles",
        "emailTemplates", "consoleBytes", "admitsGrowth",
    ]
}

extension StoredUser {
    /// A user with the same fields; its sessions and properties are values, shared until either changes.
    func copy() -> StoredUser {
        let copy = StoredUser(objectID: objectID, properties: properties, password: password, status: status, created: created)
        copy.updated = updated
        copy.lastLogin = lastLogin
        copy.failedLogins = failedLogins
        copy.lockedUntil = lockedUntil
        copy.sessions = sessions
        copy.socialAccount = socialAccount
        copy.isDeleted = isDeleted
        return copy
    }

    /// The stored properties `copy()` carries over (checked as `BackendlessApp.copiedProperties` is).
    static let copiedProperties: Set<String> = [
        "objectID", "properties", "password", "status", "created", "updated", "lastLogin", "failedLogins",
        "lockedUntil", "sessions", "socialAccount", "isDeleted",
    ]
}
