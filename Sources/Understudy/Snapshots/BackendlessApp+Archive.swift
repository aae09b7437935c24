extension BackendlessApp {
    /// The app as an exported world keeps it (`GET /_understudy/export`): settings, clock, generators, users with
    /// their status, properties and password hashes (never passwords), pending email confirmations, device
    /// registrations and channels, push templates, and what `archiveConsole()` adds (roles, email templates, OAuth
    /// accounts and their users, the `Users` columns, scheduled pushes). Not kept: sessions (users log in again),
    /// the outbox, faults, sent messages' status, password-recovery links (see docs/decisions.md).
    package func archive() -> Value {
        var archivedUsers: [Value] = []
        archivedUsers.reserveCapacity(users.count)
        for user in registrationOrder where users[user.objectID] === user {
            archivedUsers.append(
                ArchiveValues.object([
                    "id": .string(user.objectID.formatted()), "status": .string(user.status.rawValue),
                    "created": .int(user.created), "updated": ArchiveValues.optional(user.updated),
                    "last_login": ArchiveValues.optional(user.lastLogin),
                    "failed_logins": user.failedLogins == 0 ? .null : .int(Int64(user.failedLogins)),
                    "locked_until": ArchiveValues.optional(user.lockedUntil),
                    "social": user.isSocial ? .string(user.socialAccount) : .null,
                    "password": ArchiveValues.optional(user.password?.archived),
                    "properties": ArchiveValues.properties(user.properties),
                ])
            )
        }
        let confirmations = confirmationTokens.keys.sorted().map { token in
            Value.array([.string(token), .string(confirmationTokens[token]!.formatted())])
        }
        let templates = pushTemplates.keys.sorted().map { name -> Value in
            let template = pushTemplates[name]!
            return ArchiveValues.object([
                "name": .string(template.name), "message": .string(template.message),
                "title": ArchiveValues.optional(template.title), "subtitle": ArchiveValues.optional(template.subtitle),
                "headers": template.headers.map { .array($0.map { .array([.string($0.name), .string($0.value)]) }) } ?? .null,
                "os": .string(template.os.rawValue), "channel": .string(template.channel),
            ])
        }
        return ArchiveValues.object(archiveConsole().merging([
            "flavour": .string("backendless"),
            "settings": ArchiveValues.settings(settings, defaults: BackendlessSettings(), kept: Set(["app_id"] + keys.map(\.name))),
            "clock": .double(clock.now),
            "generators": .object(["ids": .string(random.archived), "message_ids": .string(messageIDs.archived)]),
            "users": .array(archivedUsers),
            "confirmations": .array(confirmations),
            "devices": devices.archive(now: clock.now),
            "push_templates": .array(templates),
        ]) { $1 })
    }

    /// Restores what `archive()` kept into this app, which must be fresh (created with the archive's settings).
    package func restore(_ archive: ArchiveReader) throws(ArchiveError) {
        guard users.isEmpty else { throw ArchiveError("\(archive.path): the app already has users") }
        if let generators = try archive.table("generators") {
            random = try generators.generator("ids")
            messageIDs = try generators.generator("message_ids")
        }
        for reader in try archive.tables("users") {
            let id = try reader.identifier("id")
            let statusText = try reader.string("status")
            guard let status = UserStatus(rawValue: statusText) else {
                throw ArchiveError("\(reader.field("status")) must be one of \(UserStatus.allNames), got '\(statusText)'")
            }
            guard users[id] == nil else { throw ArchiveError("\(reader.field("id")): '\(id.formatted())' is given twice") }
            let user = StoredUser(
                objectID: id, properties: try reader.properties("properties"), password: try reader.passwordHash("password"),
                status: status, created: try reader.int("created"), changes: userChanges
            )
            user.updated = try reader.optionalInt("updated")
            user.lastLogin = try reader.optionalInt("last_login")
            user.failedLogins = Int(try reader.optionalInt("failed_logins") ?? 0)
            user.lockedUntil = try reader.optionalDouble("locked_until")
            if let social = try reader.optionalString("social") { user.socialAccount = social }
            users[id] = user
            registrationOrder.append(user)
            userBytes += HeldBytes.perUser + HeldBytes.of(user.properties)
            if status == .guest { guestCount += 1 }
        }
        rebuildIdentityIndex()
        for (index, item) in try archive.list("confirmations").enumerated() {
            guard case .array(let pair) = item, pair.count == 2, case .string(let token) = pair[0], case .string(let idText) = pair[1],
                let id = Identifier128(parsing: idText)
            else { throw ArchiveError("\(archive.field("confirmations"))[\(index + 1)] must be a {token, objectId} pair") }
            confirmationTokens[token] = id
        }
        if let devicesArchive = try archive.table("devices") {
            try devices.restore(devicesArchive)
        }
        for reader in try archive.tables("push_templates") {
            let osText = try reader.string("os")
            guard let os = PushTemplate.Audience(name: osText) else { throw ArchiveError("\(reader.field("os")) must be ALL, IOS or ANDROID, got '\(osText)'") }
            var headers: [PushTemplate.Pair]?
            if reader.optional("headers") != nil {
                headers = []
                for item in try reader.list("headers") {
                    guard case .array(let pair) = item, pair.count == 2, case .string(let name) = pair[0], case .string(let value) = pair[1] else {
                        throw ArchiveError("\(reader.field("headers")) must hold {name, value} pairs of strings")
                    }
                    headers!.append(PushTemplate.Pair(name, value))
                }
            }
            let template = PushTemplate(
                name: try reader.string("name"), message: try reader.string("message"), title: try reader.optionalString("title"),
                subtitle: try reader.optionalString("subtitle"), headers: headers, os: os, channel: try reader.string("channel")
            )
            pushTemplates[template.name] = template
        }
        try restoreConsole(archive)
        consoleBytes = recountedConsoleBytes
        if let now = try archive.optionalDouble("clock") { clock.set(to: now) }
    }
}

extension UserStatus {
    static var allNames: String { [UserStatus.enabled, .disabled, .emailConfirmationPending, .guest].map(\.rawValue).joined(separator: ", ") }
}
