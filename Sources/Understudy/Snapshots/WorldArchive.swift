/// An exported world (`GET /_understudy/export`, loaded by `understudy.import{...}`): every app's settings,
/// clock, generators and records, as plain values. Each flavour says what it keeps (`BackendlessApp.archive()`,
/// `KiiApp.archive()`); restoring one into a fresh app gives the same export again.
package enum WorldArchive {
    /// The version of the form; `understudy.import` refuses another.
    package static let format: Int64 = 1

    /// The apps' archives, in order.
    package static func archive(_ apps: [any EmulatedApp]) -> Value {
        .object(["format": .int(format), "apps": .array(apps.map(archive))])
    }

    static func archive(_ app: any EmulatedApp) -> Value {
        switch app.flavoured {
        case .backendless(let app): return app.archive()
        case .kii(let app): return app.archive()
        }
    }

    /// The apps of an archive, its format checked.
    package static func apps(in value: Value, path: String) throws(ArchiveError) -> [ArchiveReader] {
        let world = try ArchiveReader(value, path: path)
        let format = try world.int("format")
        guard format == Self.format else {
            throw ArchiveError("\(world.field("format")) must be \(Self.format) (this understudy reads exports of that form), got \(format)")
        }
        return try world.tables("apps")
    }

    /// A fresh app of the archive's flavour with its settings (its records come with `restore(_:into:)`, once
    /// the app has joined its world).
    package static func makeApp(_ archive: ArchiveReader, seed: UInt64) throws(ArchiveError) -> any EmulatedApp {
        let flavour = try archive.string("flavour")
        switch Flavour(rawValue: flavour) {
        case .backendless?:
            let app = BackendlessApp(seed: seed)
            try ArchiveValues.apply(try archive.table("settings"), to: &app.settings)
            return app
        case .kii?:
            let app = KiiApp(seed: seed)
            try ArchiveValues.apply(try archive.table("settings"), to: &app.settings)
            return app
        case nil:
            throw ArchiveError("\(archive.field("flavour")) must be 'backendless' or 'kii', got '\(flavour)'")
        }
    }

    /// Restores the archive's records (users, registrations, clock, generators) into `app`, made by `makeApp`.
    package static func restore(_ archive: ArchiveReader, into app: any EmulatedApp) throws(ArchiveError) {
        switch app.flavoured {
        case .backendless(let app): try app.restore(archive)
        case .kii(let app): try app.restore(archive)
        }
    }
}

/// What an export keeps of each class a world is made of, and what it leaves out on purpose: `ExportRouteTests`
/// compares them with the classes' stored properties (`ImagedProperties.check()`), so a property added later is
/// either exported or named here as left out, never forgotten.
package enum ArchivedProperties {
    /// Per class: the stored properties the archive writes (or rebuilds from what it writes), and those it leaves
    /// out (see docs/decisions.md, "Export and import"). `consoleBytes` and `admitsGrowth` are the memory account's
    /// (a running total and the world's check, set when the app joins), not the world's state.
    package static let byType: [String: (kept: Set<String>, leftOut: Set<String>)] = [
        "BackendlessApp": (
            [
                "settings", "clock", "random", "users", "registrationOrder", "identityIndex", "confirmationTokens", "guestCount",
                "userBytes", "heldColumns", "roles", "emailTemplates", "oauth", "devices", "schedule", "pushTemplates", "messageIDs",
            ],
            ["outbox", "faults", "linkBase", "capacity", "sessions", "recoveryLinks", "consoleBytes", "admitsGrowth", "userChanges"]
        ),
        "StoredUser": (
            ["objectID", "properties", "password", "status", "created", "updated", "lastLogin", "failedLogins", "lockedUntil", "socialAccount", "isDeleted"],
            ["sessions", "changes", "isNoted"]
        ),
        "KiiApp": (
            [
                "settings", "clock", "ids", "tokens", "codes", "salts", "lifecycleSecrets", "lifecycle", "topicStore", "topicSecrets",
                "users", "userBytes", "registrationOrder", "loginNames", "emails", "phones", "mqttSecrets", "groupStore",
                "groupSecrets", "socialStore", "mqttEndpoints",
            ],
            ["outbox", "faults", "linkBase", "capacity", "adminTokens", "sessions", "phoneCache", "mqttBroker", "mqttDeliveries", "consoleBytes", "admitsGrowth", "userChanges"]
        ),
        "KiiStoredUser": (["id", "userID", "loginName", "password", "created", "country", "extras", "email", "phone"], ["changes", "isNoted"]),
        "KiiProfile": (
            ["displayName", "locale", "disabled", "pseudo", "customFields", "modified", "thirdParty"],
            ["tokens", "resetPIN", "resetPINSentAt", "resetLinkCode", "resetLinkBySMS", "owner"]
        ),
    ]
}
