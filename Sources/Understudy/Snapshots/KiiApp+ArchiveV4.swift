/// The parts of a Kii app's archive that contract v4 added: groups, topic ACLs, social provider accounts and the
/// users they belong to, MQTT installations' broker credentials, and the generators behind them.
extension KiiApp {
    /// `{ groups, acls, social, mqtt }` and the v4 generators, each sorted so the same app gives the same text.
    func archiveV4() -> (fields: [String: Value], generators: [String: Value]) {
        let groups = groupStore.groups.map { group in
            ArchiveValues.object([
                "id": .string(group.groupID), "name": .string(group.name), "owner": .string(group.owner),
                "members": .array(group.members.map(Value.string)),
            ])
        }
        let acls = topicStore.acls.keys.sorted { ($0.owner, $0.topicID) < ($1.owner, $1.topicID) }.map { key -> Value in
            let acl = topicStore.acls[key] ?? [:]
            func subjects(_ action: KiiTopicAction) -> Value { .array((acl[action] ?? []).sorted().map(Value.string)) }
            return ArchiveValues.object([
                "owner": key.owner.isEmpty ? .null : .string(key.owner), "topic": .string(key.topicID),
                "subscribe": subjects(.subscribe), "send": subjects(.send),
            ])
        }
        let accounts = socialStore.accounts.keys.sorted().map { key -> Value in
            let account = socialStore.accounts[key]!
            return ArchiveValues.object([
                "provider": .string(account.provider.rawValue), "token": .string(account.token),
                "secret": ArchiveValues.optional(account.secret), "open_id": ArchiveValues.optional(account.openID),
                "profile": .object(account.profile.mapValues(Value.string)),
            ])
        }
        let owners = socialStore.owners.keys.sorted().map { key -> Value in
            let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            return .array([.string(parts[0]), .string(parts.count > 1 ? parts[1] : ""), .string(socialStore.owners[key]!)])
        }
        let mqtt = mqttEndpoints.keys.sorted().map { id -> Value in
            let credentials = mqttEndpoints[id]!
            return ArchiveValues.object([
                "installation": .string(id), "password": .string(credentials.password), "topic": .string(credentials.topic),
                "user_id": .string(credentials.userID), "removed": credentials.removed ? .bool(true) : .null,
            ])
        }
        return (
            [
                "groups": .array(groups), "acls": .array(acls),
                "social": accounts.isEmpty && owners.isEmpty ? .null : ArchiveValues.object(["accounts": .array(accounts), "owners": .array(owners)]),
                "mqtt": .array(mqtt),
            ],
            ["mqtt": .string(mqttSecrets.archived), "groups": .string(groupSecrets.archived)]
        )
    }

    /// What the console's definitions and settings hold, counted from what the app holds now: what the calls
    /// that defined them would have charged `consoleBytes` (settings' text, social provider accounts, groups). An
    /// import sets `consoleBytes` to it, so an imported app is charged as the same app built by calls is.
    package var recountedConsoleBytes: Int {
        settings.heldBytes + socialStore.accounts.values.reduce(0) { $0 + Self.heldBytes(of: $1) }
            + groupStore.groups.reduce(0) { $0 + $1.heldBytes }
    }

    /// Restores what `archiveV4()` kept; users, installations and topics are restored already.
    func restoreV4(_ archive: ArchiveReader) throws(ArchiveError) {
        if let generators = try archive.table("generators") {
            if generators.optional("mqtt") != nil { mqttSecrets = try generators.generator("mqtt") }
            if generators.optional("groups") != nil { groupSecrets = try generators.generator("groups") }
        }
        for reader in try archive.tables("groups") {
            var members: [String] = []
            for item in try reader.list("members") {
                guard case .string(let member) = item else { throw ArchiveError("\(reader.field("members")) must be a list of userIDs") }
                members.append(member)
            }
            groupStore.groups.append(
                KiiGroup(groupID: try reader.string("id"), name: try reader.string("name"), owner: try reader.string("owner"), members: members)
            )
        }
        for reader in try archive.tables("acls") {
            let key = KiiTopicStore.Key(owner: try reader.optionalString("owner") ?? "", topicID: try reader.string("topic"))
            guard topicStore.topics[key] != nil else { throw ArchiveError("\(reader.field("topic")): no topic '\(key.topicID)' is exported") }
            var acl: [KiiTopicAction: Set<String>] = [:]
            for (action, field) in [(KiiTopicAction.subscribe, "subscribe"), (.send, "send")] {
                var subjects: Set<String> = []
                for item in try reader.list(field) {
                    guard case .string(let subject) = item else { throw ArchiveError("\(reader.field(field)) must be a list of subjects") }
                    subjects.insert(subject)
                }
                acl[action] = subjects
            }
            topicStore.replaceACL(key, acl)
        }
        if let social = try archive.table("social") {
            for reader in try social.tables("accounts") {
                let providerText = try reader.string("provider")
                guard let provider = KiiSocialProvider(named: providerText) else {
                    throw ArchiveError("\(reader.field("provider")) must be one of \(KiiSocialProvider.allCases.map(\.rawValue).joined(separator: ", ")), got '\(providerText)'")
                }
                var profile: [String: String] = [:]
                for (name, value) in try reader.table("profile")?.fields ?? [:] {
                    guard case .string(let text) = value else { throw ArchiveError("\(reader.field("profile")).\(name) must be a string") }
                    profile[name] = text
                }
                defineSocialAccount(
                    KiiSocialAccount(
                        provider: provider, token: try reader.string("token"), secret: try reader.optionalString("secret"),
                        openID: try reader.optionalString("open_id"), profile: profile
                    )
                )
            }
            for (index, item) in try social.list("owners").enumerated() {
                guard case .array(let triple) = item, triple.count == 3, case .string(let provider) = triple[0],
                    case .string(let id) = triple[1], case .string(let owner) = triple[2]
                else { throw ArchiveError("\(social.field("owners"))[\(index + 1)] must be a {provider, profile id, userID} triple") }
                socialStore.owners[provider + "\u{0}" + id] = owner
            }
        }
        for reader in try archive.tables("mqtt") {
            let credentials = KiiMqttCredentials(
                password: try reader.string("password"), topic: try reader.string("topic"), userID: try reader.string("user_id"),
                removed: try reader.bool("removed")
            )
            mqttEndpoints.add(try reader.string("installation"), credentials)
        }
    }
}
