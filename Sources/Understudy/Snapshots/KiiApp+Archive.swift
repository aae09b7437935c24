extension KiiApp {
    /// The app as an exported world keeps it: settings, clock, generators, users (pseudo users too) with their
    /// addresses, verification state, profile and password hashes (never passwords), push installations, topics
    /// and subscriptions. Not kept: access tokens (users log in again), the outbox, faults, reset links.
    package func archive() -> Value {
        func address(_ address: VerifiableAddress) -> Value {
            guard address.current != nil || address.pending != nil || address.code != nil else { return .null }
            return ArchiveValues.object([
                "current": ArchiveValues.optional(address.current), "verified": address.verified ? .null : .bool(false),
                "pending": ArchiveValues.optional(address.pending), "code": ArchiveValues.optional(address.code),
                "code_sent_at": address.code == nil ? .null : .double(address.codeSentAt),
            ])
        }
        var archivedUsers: [Value] = []
        archivedUsers.reserveCapacity(users.count)
        for user in registrationOrder where users[user.id] === user {
            var fields: [String: Value] = [
                "id": .string(user.userID), "login_name": ArchiveValues.optional(user.loginName),
                "password": user.hasPassword ? .string(user.password.archived) : .null, "created": .int(user.created),
                "country": ArchiveValues.optional(user.country), "email": address(user.email), "phone": address(user.phone),
            ]
            if let profile = user.extras {
                fields["profile"] = ArchiveValues.object([
                    "display_name": ArchiveValues.optional(profile.displayName), "locale": ArchiveValues.optional(profile.locale),
                    "disabled": profile.disabled ? .bool(true) : .null, "pseudo": profile.pseudo ? .bool(true) : .null,
                    "custom_fields": profile.customFields.isEmpty ? .null : ArchiveValues.properties(profile.customFields),
                    "modified": ArchiveValues.optional(profile.modified),
                    "third_party": .array(profile.thirdParty.map { account in
                        .array([.string(account.provider.rawValue), .string(account.id), .int(account.createdAt)])
                    }),
                ])
            }
            archivedUsers.append(ArchiveValues.object(fields))
        }
        let installations = lifecycle.installations.byID.values.sorted { $0.installationID < $1.installationID }.map { installation in
            ArchiveValues.object([
                "id": .string(installation.installationID), "registration_id": .string(installation.installationRegistrationID),
                "device_type": .string(installation.deviceType.rawValue), "user_id": .string(installation.userID),
                "development": installation.development ? .bool(true) : .null,
            ])
        }
        let topics = topicStore.topics.keys.sorted { ($0.owner, $0.topicID) < ($1.owner, $1.topicID) }.map { key in
            ArchiveValues.object([
                "owner": key.owner.isEmpty ? .null : .string(key.owner), "id": .string(key.topicID),
                "subscribers": .array((topicStore.topics[key] ?? []).sorted().map(Value.string)),
            ])
        }
        // The password hash of a pseudo user is a placeholder nobody can match; it is not kept.
        let v4 = archiveV4()
        return ArchiveValues.object(v4.fields.merging([
            "flavour": .string("kii"),
            "settings": ArchiveValues.settings(settings, defaults: KiiSettings(), kept: Set(["app_id"] + keys.map(\.name))),
            "clock": .double(clock.now),
            "generators": .object([
                "ids": .string(ids.archived), "tokens": .string(tokens.archived), "codes": .string(codes.archived),
                "salts": .string(salts.archived), "lifecycle": .string(lifecycleSecrets.archived),
                "topics": .string(topicSecrets.archived),
            ].merging(v4.generators) { $1 }),
            "users": .array(archivedUsers),
            "installations": .array(installations),
            "topics": .array(topics),
        ]) { $1 })
    }

    /// Restores what `archive()` kept into this app, which must be fresh (created with the archive's settings).
    package func restore(_ archive: ArchiveReader) throws(ArchiveError) {
        guard users.isEmpty else { throw ArchiveError("\(archive.path): the app already has users") }
        if let generators = try archive.table("generators") {
            ids = try generators.generator("ids")
            tokens = try generators.generator("tokens")
            codes = try generators.generator("codes")
            salts = try generators.generator("salts")
            lifecycleSecrets = try generators.generator("lifecycle")
            topicSecrets = try generators.generator("topics")
        }
        func address(_ reader: ArchiveReader?) throws(ArchiveError) -> VerifiableAddress {
            var address = VerifiableAddress()
            guard let reader else { return address }
            address.current = try reader.optionalString("current")
            address.verified = reader.optional("verified") == nil ? true : try reader.bool("verified")
            address.pending = try reader.optionalString("pending")
            address.code = try reader.optionalString("code")
            address.codeSentAt = try reader.optionalDouble("code_sent_at") ?? 0
            return address
        }
        var placeholder = SeededGenerator(seed: 0)
        for reader in try archive.tables("users") {
            let id = try reader.identifier("id")
            guard users[id] == nil else { throw ArchiveError("\(reader.field("id")): '\(id.formatted(uppercase: false))' is given twice") }
            let profileReader = try reader.table("profile")
            let pseudo = try profileReader?.bool("pseudo") ?? false
            let hash: PasswordHash
            if let archived = try reader.passwordHash("password") {
                hash = archived
            } else if pseudo {
                hash = PasswordHash(password: "", generator: &placeholder)
            } else {
                throw ArchiveError("\(reader.field("password")) is required for a user who is not pseudo")
            }
            let user = KiiStoredUser(id: id, loginName: try reader.optionalString("login_name"), password: hash, created: try reader.int("created"), changes: userChanges)
            user.country = try reader.optionalString("country")
            user.email = try address(try reader.table("email"))
            user.phone = try address(try reader.table("phone"))
            if let profileReader {
                let profile = user.profile
                profile.displayName = try profileReader.optionalString("display_name")
                profile.locale = try profileReader.optionalString("locale")
                profile.disabled = try profileReader.bool("disabled")
                profile.pseudo = pseudo
                profile.customFields = try profileReader.properties("custom_fields")
                profile.modified = try profileReader.optionalInt("modified")
                for (index, item) in try profileReader.list("third_party").enumerated() {
                    guard case .array(let triple) = item, triple.count == 3, case .string(let name) = triple[0],
                        let provider = KiiSocialProvider(named: name), case .string(let accountID) = triple[1], case .int(let createdAt) = triple[2]
                    else { throw ArchiveError("\(profileReader.field("third_party"))[\(index + 1)] must be a {provider, id, createdAt} triple") }
                    profile.thirdParty.append(KiiThirdPartyAccount(provider: provider, id: accountID, createdAt: createdAt))
                }
            }
            users[id] = user
            registrationOrder.append(user)
            userBytes += HeldBytes.perUser + (user.extras.map { HeldBytes.of($0.customFields) } ?? 0)
            if let loginName = user.loginName { loginNames[loginName] = user }
            for email in [user.email.current, user.email.pending] { if let email { emails[email.asciiLowercased()] = user } }
            for phone in [user.phone.current, user.phone.pending] { if let phone { phones[phone] = user } }
        }
        for reader in try archive.tables("installations") {
            let typeText = try reader.string("device_type")
            guard let type = KiiDeviceType(rawValue: typeText) else {
                throw ArchiveError("\(reader.field("device_type")) must be one of \(KiiDeviceType.allCases.map(\.rawValue).joined(separator: ", ")), got '\(typeText)'")
            }
            lifecycle.installations.store(
                KiiInstallation(
                    installationID: try reader.string("id"), installationRegistrationID: try reader.string("registration_id"),
                    deviceType: type, userID: try reader.string("user_id"), development: try reader.bool("development")
                )
            )
        }
        for reader in try archive.tables("topics") {
            let key = KiiTopicStore.Key(owner: try reader.optionalString("owner") ?? "", topicID: try reader.string("id"))
            topicStore.create(key)
            for (index, subscriber) in try reader.list("subscribers").enumerated() {
                guard case .string(let userID) = subscriber else {
                    throw ArchiveError("\(reader.field("subscribers"))[\(index + 1)] must be a userID")
                }
                _ = topicStore.subscribe(key, userID)
            }
        }
        try restoreV4(archive)
        consoleBytes = recountedConsoleBytes
        if let now = try archive.optionalDouble("clock") { clock.set(to: now) }
    }
}
