/// The parts of a Backendless app's archive beyond its users and devices: what the console defined (roles and who
/// holds them, email templates, OAuth provider accounts and the users they registered, the `Users` columns) and
/// the scheduled pushes still to fire.
extension BackendlessApp {
    /// `{ roles, email_templates, oauth, columns, scheduled }`, each sorted so the same app gives the same text.
    func archiveConsole() -> [String: Value] {
        let assigned = roles.assignments.keys.filter { users[$0] != nil }.sorted { $0.formatted() < $1.formatted() }
        let roleArchive = ArchiveValues.object([
            "defined": .array(roles.customRoles.map(Value.string)),
            "assigned": .array(assigned.compactMap { id in
                let held = roles.custom(of: id)
                return held.isEmpty ? nil : .array([.string(id.formatted()), .array(held.map(Value.string))])
            }),
        ])
        let emailTemplates = allEmailTemplates.sorted { $0.name < $1.name }.map { template in
            ArchiveValues.object([
                "name": .string(template.name), "subject": .string(template.subject), "body": .string(template.body),
                "html": ArchiveValues.optional(template.html),
            ])
        }
        let accounts = oauth.sortedAccounts.map { account in
            ArchiveValues.object([
                "provider": .string(account.provider), "token": .string(account.token),
                "secret": ArchiveValues.optional(account.secret), "profile": ArchiveValues.properties(account.profile),
            ])
        }
        let links = oauth.links.filter { users[$0.value.objectID] === $0.value }
            .sorted { ($0.key.provider, $0.key.profileID) < ($1.key.provider, $1.key.profileID) }
            .map { Value.array([.string($0.key.provider), .string($0.key.profileID), .string($0.value.objectID.formatted())]) }
        let columns = heldColumns.keys.sorted().map { name -> Value in
            heldColumns[name]!.map { .array([.string(name), .string($0.rawValue)]) } ?? .array([.string(name)])
        }
        return [
            "roles": roleArchive.isEmptyObject ? .null : roleArchive,
            "email_templates": emailTemplates.isEmpty ? .null : .array(emailTemplates),
            "oauth": accounts.isEmpty && links.isEmpty ? .null : ArchiveValues.object(["accounts": .array(accounts), "links": .array(links)]),
            "columns": columns.isEmpty ? .null : .array(columns),
            "scheduled": schedule.archive(),
        ]
    }

    /// What the console's definitions and settings hold, counted from what the app holds now: what the calls
    /// that defined them would have charged `consoleBytes` (settings' text, push and email templates, custom roles
    /// and their assignments, OAuth accounts and their links, the `Users` columns). An import sets `consoleBytes`
    /// to it, so an imported app is charged as the same app built by calls is.
    package var recountedConsoleBytes: Int {
        settings.heldBytes + pushTemplates.values.reduce(0) { $0 + HeldBytes.of($1) }
            + emailTemplates.values.reduce(0) { $0 + HeldBytes.of($1) } + roles.heldBytes
            + oauth.accounts.values.reduce(0) { $0 + HeldBytes.of($1) } + oauth.links.keys.reduce(0) { $0 + $1.heldBytes }
            + heldColumns.keys.reduce(0) { $0 + Self.heldBytes(ofColumn: $1) }
    }

    /// Restores what `archiveConsole()` kept; the users are restored already.
    func restoreConsole(_ archive: ArchiveReader) throws(ArchiveError) {
        if let reader = try archive.table("roles") {
            for (index, item) in try reader.list("defined").enumerated() {
                guard case .string(let name) = item else { throw ArchiveError("\(reader.field("defined"))[\(index + 1)] must be a role name") }
                do throws(RoleProblem) { try defineRole(name) } catch { throw ArchiveError("\(reader.field("defined"))[\(index + 1)]: \(error.message)") }
            }
            for (index, item) in try reader.list("assigned").enumerated() {
                let field = "\(reader.field("assigned"))[\(index + 1)]"
                guard case .array(let pair) = item, pair.count == 2, case .string(let idText) = pair[0], case .array(let names) = pair[1],
                    let id = Identifier128(parsing: idText)
                else { throw ArchiveError("\(field) must be an {objectId, {role, ...}} pair") }
                guard users[id] != nil else { throw ArchiveError("\(field): no user has the objectId '\(idText)'") }
                var held: [String] = []
                for name in names {
                    guard case .string(let role) = name, roles.isCustom(role) else {
                        throw ArchiveError("\(field) names a role that is not defined: \(name)")
                    }
                    held.append(role)
                }
                roles.assignments[id] = held
            }
        }
        for reader in try archive.tables("email_templates") {
            defineEmailTemplate(
                EmailTemplate(
                    name: try reader.string("name"), subject: try reader.string("subject"), body: try reader.optionalString("body") ?? "",
                    html: try reader.optionalString("html")
                )
            )
        }
        if let reader = try archive.table("oauth") {
            for account in try reader.tables("accounts") {
                let defined = OAuthAccount(
                    provider: try account.string("provider"), token: try account.string("token"), secret: try account.optionalString("secret"),
                    profile: try account.properties("profile")
                )
                do throws(OAuthAccountProblem) { try defineOAuthAccount(defined) } catch { throw ArchiveError("\(account.path): \(error.message)") }
            }
            for (index, item) in try reader.list("links").enumerated() {
                let field = "\(reader.field("links"))[\(index + 1)]"
                guard case .array(let triple) = item, triple.count == 3, case .string(let provider) = triple[0],
                    case .string(let profileID) = triple[1], case .string(let idText) = triple[2], let id = Identifier128(parsing: idText)
                else { throw ArchiveError("\(field) must be a {provider, profile id, objectId} triple") }
                guard let user = users[id] else { throw ArchiveError("\(field): no user has the objectId '\(idText)'") }
                oauth.links[OAuthDirectory.AccountKey(provider: provider, profileID: profileID)] = user
            }
        }
        if archive.optional("columns") != nil {
            heldColumns = [:]
            for (index, item) in try archive.list("columns").enumerated() {
                guard case .array(let pair) = item, (1...2).contains(pair.count), case .string(let name) = pair[0] else {
                    throw ArchiveError("\(archive.field("columns"))[\(index + 1)] must be a {name, type} pair")
                }
                var type: UsersColumn.ColumnType?
                if pair.count == 2 {
                    guard case .string(let text) = pair[1], let known = UsersColumn.ColumnType(rawValue: text) else {
                        throw ArchiveError("\(archive.field("columns"))[\(index + 1)] has an unknown column type: \(pair[1])")
                    }
                    type = known
                }
                heldColumns[name] = .some(type)
            }
        }
        for reader in try archive.tables("scheduled") { schedule.add(try MessageSchedule.Message(archived: reader)) }
    }
}

extension MessageSchedule {
    /// The messages still to fire, in the order they fire (time, then publish order); nil when there are none.
    func archive() -> Value {
        let waiting = messages.values.filter { $0.status == .scheduled && $0.nextFiring != nil }
            .sorted { ($0.nextFiring!, $0.ticket) < ($1.nextFiring!, $1.ticket) }
        guard !waiting.isEmpty else { return .null }
        return .array(waiting.map { message in
            let publication = message.publication
            return ArchiveValues.object([
                "id": .string(publication.messageID), "message": .string(message.message),
                "channel": ArchiveValues.optional(message.channel),
                "headers": publication.headers.isEmpty ? .null : .array(publication.headers.map { .array([.string($0.name), .string($0.value)]) }),
                "template": ArchiveValues.optional(publication.template), "title": ArchiveValues.optional(publication.title),
                "subtitle": ArchiveValues.optional(publication.subtitle),
                "broadcast": message.broadcast.map { .int(Int64($0.rawValue)) } ?? .null,
                "singlecast": message.singlecast.map { .array($0.sorted().map(Value.string)) } ?? .null,
                "devices": message.deviceIDs.map { .array($0.map(Value.string)) } ?? .null,
                "policy": .string(message.policy.rawValue), "next_firing": .double(message.nextFiring!),
                "repeat_every": ArchiveValues.optional(message.repeatEvery),
                "repeat_expires_at": ArchiveValues.optional(message.repeatExpiresAt),
            ])
        })
    }
}

extension MessageSchedule.Message {
    /// A scheduled message as `MessageSchedule.archive()` wrote it.
    init(archived reader: ArchiveReader) throws(ArchiveError) {
        func strings(_ key: String) throws(ArchiveError) -> [String]? {
            guard reader.optional(key) != nil else { return nil }
            var items: [String] = []
            for item in try reader.list(key) {
                guard case .string(let text) = item else { throw ArchiveError("\(reader.field(key)) must be a list of strings") }
                items.append(text)
            }
            return items
        }
        var headers: [(name: String, value: String)] = []
        for item in try reader.list("headers") {
            guard case .array(let pair) = item, pair.count == 2, case .string(let name) = pair[0], case .string(let value) = pair[1] else {
                throw ArchiveError("\(reader.field("headers")) must hold {name, value} pairs of strings")
            }
            headers.append((name, value))
        }
        let policyText = try reader.optionalString("policy") ?? PushPolicy.both.rawValue
        guard let policy = PushPolicy(rawValue: policyText) else {
            throw ArchiveError("\(reader.field("policy")) must be PUSH, PUBSUB or BOTH, got '\(policyText)'")
        }
        guard let nextFiring = try reader.optionalDouble("next_firing") else { throw ArchiveError("\(reader.field("next_firing")) is required") }
        self.init(
            channel: try reader.optionalString("channel"), message: try reader.string("message"),
            publication: PushPublication(
                messageID: try reader.string("id"), headers: headers, template: try reader.optionalString("template"),
                title: try reader.optionalString("title"), subtitle: try reader.optionalString("subtitle")
            ),
            broadcast: try reader.optionalInt("broadcast").map { PushBroadcast(rawValue: Int($0)) },
            singlecast: try strings("singlecast").map(Set.init), deviceIDs: try strings("devices"), policy: policy,
            status: .scheduled, nextFiring: nextFiring, repeatEvery: try reader.optionalDouble("repeat_every"),
            repeatExpiresAt: try reader.optionalDouble("repeat_expires_at")
        )
    }
}

extension Value {
    /// True for an object whose fields are all empty lists or null (nothing worth writing).
    var isEmptyObject: Bool {
        guard case .object(let fields) = self else { return false }
        return fields.values.allSatisfy { value in
            switch value {
            case .null: return true
            case .array(let items): return items.isEmpty
            default: return false
            }
        }
    }
}
