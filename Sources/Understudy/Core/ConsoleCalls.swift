/// The calls a scenario makes besides its flavour's operations: the console of an app table (`clock.*`,
/// `outbox.*`, `faults.*`, `users.find/count/all/seed`, Backendless `channels.*`, `oauth.account` and
/// `push.templates.define`) and the `understudy` module's own (`understudy.app`, `understudy.journal.*`). They are
/// declared as operations are (their Lua path, arguments and result), so misuse messages, the editor types' drift
/// test and `explain` read one place; those that are the domain's alone name their method, and the Lua adapter
/// (`OperationAdapter`) serves them. They are not operations: `faults.inject` does not take their names, the
/// journal never records them, and no vendor route runs them.
package enum ConsoleCall: String, CaseIterable, Sendable {
    case clockNow = "clock.now"
    case clockAdvance = "clock.advance"
    case clockSet = "clock.set"
    case outboxEmails = "outbox.emails"
    case outboxLastEmail = "outbox.last_email"
    case outboxSMS = "outbox.sms"
    case outboxLastSMS = "outbox.last_sms"
    case outboxPushes = "outbox.pushes"
    case outboxClear = "outbox.clear"
    case faultsInject = "faults.inject"
    case faultsClear = "faults.clear"
    case faultsList = "faults.list"
    case usersFind = "users.find"
    case usersCount = "users.count"
    case usersAll = "users.all"
    case usersSeed = "users.seed"
    case channelsList = "channels.list"
    case channelsDevices = "channels.devices"
    case oauthAccount = "oauth.account"
    case pushTemplatesDefine = "push.templates.define"
    case rolesDefine = "roles.define"
    case rolesList = "roles.list"
    case emailTemplatesDefine = "email.templates.define"
    case emailTemplatesList = "email.templates.list"
    // Kii, contract v4.
    case groupsCreate = "groups.create"
    case socialAccount = "social.account"
    case adminToken = "admin.token"
    // The `understudy` module's calls (`app` here is `understudy`).
    case moduleBackendless = "understudy.backendless"
    case moduleKii = "understudy.kii"
    case moduleApp = "understudy.app"
    case moduleApps = "understudy.apps"
    case moduleImport = "understudy.import"
    case moduleSnapshot = "understudy.snapshot"
    case moduleRestore = "understudy.restore"
    case journalEntries = "understudy.journal.entries"
    case journalLast = "understudy.journal.last"
    case journalCount = "understudy.journal.count"
    case journalClear = "understudy.journal.clear"

    /// True for the calls of the `understudy` module rather than of an app table.
    package var isModuleCall: Bool { rawValue.hasPrefix("understudy.") }

    /// The flavours whose app tables have it (both for a module call).
    package var flavours: [Flavour] {
        switch self {
        case .channelsList, .channelsDevices, .oauthAccount, .pushTemplatesDefine, .rolesDefine, .rolesList, .emailTemplatesDefine,
            .emailTemplatesList:
            return [.backendless]
        case .groupsCreate, .socialAccount, .adminToken: return [.kii]
        default: return Flavour.allCases
        }
    }

    /// Every console call's declaration for the app tables of `flavour` (module calls excluded).
    package static func declarations(of flavour: Flavour) -> [OperationDeclaration] {
        allCases.filter { !$0.isModuleCall && $0.flavours.contains(flavour) }.map { $0.declaration(for: flavour) }
    }

    /// The module's calls (`understudy.app`, ...), declared under the Backendless flavour (they have none).
    package static var moduleDeclarations: [OperationDeclaration] {
        allCases.filter(\.isModuleCall).map { $0.declaration(for: .backendless) }
    }

    /// Its declaration on an app table of `flavour`.
    package func declaration(for flavour: Flavour) -> OperationDeclaration {
        Self.declared[flavour]![self]!
    }

    private static let declared: [Flavour: [ConsoleCall: OperationDeclaration]] = Dictionary(
        uniqueKeysWithValues: Flavour.allCases.map { flavour in
            (flavour, Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.declare(for: flavour)) }))
        }
    )

    private func declare(for flavour: Flavour) -> OperationDeclaration {
        func declare(_ arguments: [ArgumentDeclaration] = [], result: ResultKind, performs method: ConsoleMethod? = nil) -> OperationDeclaration {
            OperationDeclaration(
                rawValue, flavour, lua: isModuleCall ? String(rawValue.dropFirst("understudy.".count)) : rawValue,
                arguments: arguments, checks: [], result: result, perform: method.map { Performer($0) }
            )
        }
        func declare(_ arguments: [ArgumentDeclaration] = [], result: ResultKind, onWorld method: @escaping WorldMethod) -> OperationDeclaration {
            var declaration = declare(arguments, result: result)
            declaration.perform = Performer(world: method)
            return declaration
        }
        let filter = { (name: String, summary: String) in ArgumentDeclaration.string(name, optional: true, from: .none, summary) }
        let journalFilter = ArgumentDeclaration("filter", .any, optional: true, from: .none, "method, path, op, app_id, status, code, test, limit")
            .readInLua(by: .journalFilter)
        switch self {
        case .clockNow:
            return declare(result: .value("number", "now")) { app, _, _ in .value(.double(app.clock.now)) }
        case .clockAdvance:
            return declare([ArgumentDeclaration("seconds", .number, from: .none)], result: .value("number", "now")) { app, a, limits in
                let seconds = a.optionalNumber("seconds") ?? 0
                return try Self.move(app, to: app.clock.now + seconds, limits) {
                    "seconds (argument 1) would put the clock at \(app.clock.now) + \(seconds) seconds; "
                }
            }
        case .clockSet:
            return declare([ArgumentDeclaration("seconds", .number, from: .none)], result: .value("number", "now")) { app, a, limits in
                let seconds = a.optionalNumber("seconds") ?? 0
                return try Self.move(app, to: seconds, limits) { "seconds (argument 1) would put the clock at \(seconds) seconds; " }
            }
        case .outboxEmails:
            return declare([filter("to", "only those sent to this address")], result: .value("Email[]", "emails")) { app, a, _ in
                Self.list(app.outbox.emails, a.optionalString("to")) { $0.isFor($1) }
            }
        case .outboxLastEmail:
            return declare([filter("to", "only those sent to this address")], result: .optionalRecord("Email")) { app, a, _ in
                Self.last(app.outbox.emails, a.optionalString("to")) { $0.isFor($1) }
            }
        case .outboxSMS:
            return declare([filter("to", "only those sent to this number")], result: .value("SMS[]", "sms")) { app, a, _ in
                Self.list(app.outbox.sms, a.optionalString("to")) { $0.isFor($1) }
            }
        case .outboxLastSMS:
            return declare([filter("to", "only those sent to this number")], result: .optionalRecord("SMS")) { app, a, _ in
                Self.last(app.outbox.sms, a.optionalString("to")) { $0.isFor($1) }
            }
        case .outboxPushes:
            return declare(
                [filter("recipient", "only the pushes delivered to it: a Backendless device_id, a Kii installation_id or user")],
                result: .value("Push[]", "pushes")
            ) { app, a, _ in Self.list(app.outbox.pushes, a.optionalString("recipient")) { $0.isFor($1) } }
        case .outboxClear:
            return declare(result: .true) { app, _, _ in
                app.outbox.clear()
                return .done
            }
        case .faultsInject:
            // Hand-written in the bridge: `when` is a Lua function kept in the registry.
            return declare([ArgumentDeclaration("fault", .any, from: .none, "op, code, message, status, times, probability, when, ...")],
                           result: .record("Fault", "fault"))
        case .faultsClear:
            return declare(result: .true) { app, _, _ in
                app.faults.clear()
                return .done
            }
        case .faultsList:
            // Hand-written in the bridge: each fault is a table with live `hits` and a `remove` function.
            return declare(result: .value("Fault[]", "faults"))
        case .usersFind:
            let name = flavour == .backendless ? "identity_value" : "identifier"
            return declare([.string(name, from: .none)], result: .optionalRecord(flavour == .backendless ? "BackendlessUser" : "KiiUser")) { app, a, _ in
                switch app.flavoured {
                case .backendless(let app): return .optional(app.find(identity: a.string(name)))
                case .kii(let app): return .optional(app.find(identifier: a.string(name)))
                }
            }
        case .usersCount:
            return declare(result: .value("integer", "count")) { app, _, _ in .value(.int(Int64(app.userCount))) }
        case .usersAll:
            return declare(result: .value(flavour == .backendless ? "BackendlessUser[]" : "KiiUser[]", "users")) { app, _, _ in
                .records(app.allUsers.map { $0 as any Presentable })
            }
        case .usersSeed:
            return declare([.properties("template", from: .none, "count, start, status and the properties, %d for the number")],
                           result: .value("integer", "count")) { app, a, limits in
                try Self.seed(app, a.properties("template"), limits)
            }
        case .channelsList:
            return declare(result: .value("string[]", "channels")) { app, _, _ in
                guard case .backendless(let app) = app.flavoured else { return .value(.array([])) }
                return .value(.array(app.channelNames.map(Value.string)))
            }
        case .channelsDevices:
            return declare([.string("name", from: .none, "the channel")], result: .value("string[]", "device_ids")) { app, a, _ in
                guard case .backendless(let app) = app.flavoured else { return .value(.array([])) }
                return .value(.array(app.devices(onChannel: a.string("name")).map(Value.string)))
            }
        case .oauthAccount:
            // The bridge reads the account (its profile a table of strings); it counts in the backend's footprint
            // (`consoleBytes`), charged when the call returns.
            let fields: [ArgumentDeclaration] = [
                .string("provider", from: .none, "the provider code the app's SDK sends, e.g. \"facebook\""),
                .string("token", from: .none, "the access token the provider accepts"),
                .string("secret", optional: true, from: .none, "the OAuth1 token secret, when a login needs one"),
                ArgumentDeclaration("profile", .stringMap, from: .none, "strings, id required"),
            ]
            return declare(
                [
                    .table("account", "OAuthAccountDefinition", fields: fields, from: .none, "provider, token, secret?, profile")
                        .readInLua(by: .backendlessOAuthAccount)
                ],
                result: .true
            ) { app, a, _ in
                guard case .backendless(let app) = app.flavoured, let account = a.typed("account", as: OAuthAccount.self) else { return .done }
                do throws(OAuthAccountProblem) {
                    try app.defineOAuthAccount(account)
                } catch {
                    throw CallMisuse("account.\(error.message)")
                }
                return .done
            }
        case .pushTemplatesDefine:
            let fields: [ArgumentDeclaration] = [
                .string("name", from: .none, "a non-empty string"), .string("message", from: .none, "a string"),
                .string("title", optional: true, from: .none), .string("subtitle", optional: true, from: .none),
                ArgumentDeclaration("headers", .stringMap, optional: true, from: .none, "kept on each push"),
                .oneOf("os", ["ALL", "IOS", "ANDROID"], optional: true, from: .none, "default \"ALL\""),
                .string("channel", optional: true, from: .none, "default \"default\""),
            ]
            return declare(
                [
                    .table("template", "PushTemplateDefinition", fields: fields, from: .none, "name, and what the push carries")
                        .readInLua(by: .backendlessPushTemplate)
                ],
                result: .true
            ) { app, a, _ in
                guard case .backendless(let app) = app.flavoured, let template = a.typed("template", as: PushTemplate.self) else { return .done }
                app.definePushTemplate(template)
                return .done
            }
        case .groupsCreate:
            let fields: [ArgumentDeclaration] = [
                .string("name", from: .none), .string("owner", from: .none, "a userID"),
                ArgumentDeclaration("members", .strings, optional: true, from: .none, "userIDs"),
            ]
            return declare([.table("group", "KiiGroupDefinition", fields: fields, from: .none, "name, owner, members?")],
                           result: .record("KiiGroup", "group")) { app, a, _ in
                guard case .kii(let app) = app.flavoured, let fields = a.fields("group") else { return .nothing }
                return .record(try Self.createGroup(app, fields))
            }
        case .socialAccount:
            let fields: [ArgumentDeclaration] = [
                .string("provider", from: .none, "facebook, twitter, google, qq or renren (without case)"),
                .string("token", from: .none, "the provider's access token"),
                .string("secret", optional: true, from: .none, "twitter only"), .string("open_id", optional: true, from: .none, "qq only"),
                ArgumentDeclaration("profile", .any, from: .none, "strings, id required"),
            ]
            return declare([.table("account", "KiiSocialAccountDefinition", fields: fields, from: .none, "provider, token, secret?, open_id?, profile")],
                           result: .true) { app, a, _ in
                guard case .kii(let app) = app.flavoured, let fields = a.fields("account") else { return .done }
                app.defineSocialAccount(try Self.socialAccount(fields))
                return .done
            }
        case .adminToken:
            return declare(result: .value("string", "token")) { app, _, _ in
                guard case .kii(let app) = app.flavoured else { return .done }
                do throws(KiiError) {
                    return .value(.string(try app.adminToken(clientID: app.settings.appID, clientSecret: app.settings.appKey)))
                } catch {
                    throw CallMisuse(error.message)
                }
            }
        case .rolesDefine:
            return declare([.string("name", from: .none, "the custom role's name")], result: .true) { app, a, _ in
                guard case .backendless(let app) = app.flavoured else { return .done }
                do throws(RoleProblem) {
                    try app.defineRole(a.string("name"))
                } catch {
                    throw CallMisuse(error.message)
                }
                return .done
            }
        case .rolesList:
            return declare(result: .value("string[]", "roles")) { app, _, _ in
                guard case .backendless(let app) = app.flavoured else { return .value(.array([])) }
                return .value(.array(app.roleNames.map(Value.string)))
            }
        case .emailTemplatesDefine:
            let fields: [ArgumentDeclaration] = [
                .string("name", from: .none), .string("subject", from: .none), .string("body", optional: true, from: .none),
                .string("html", optional: true, from: .none),
            ]
            return declare([.table("template", "EmailTemplateDefinition", fields: fields, from: .none, "name, subject, body?, html?")], result: .true) { app, a, _ in
                guard case .backendless(let app) = app.flavoured, let fields = a.fields("template") else { return .done }
                app.defineEmailTemplate(
                    EmailTemplate(
                        name: fields["name"]?.stringValue ?? "", subject: fields["subject"]?.stringValue ?? "",
                        body: fields["body"]?.stringValue ?? "", html: fields["html"]?.stringValue
                    )
                )
                return .done
            }
        case .emailTemplatesList:
            return declare(result: .value("table<string, EmailTemplate>", "templates")) { app, _, _ in
                guard case .backendless(let app) = app.flavoured else { return .value(.object([:])) }
                var templates: [String: Value] = [:]
                for template in app.allEmailTemplates { templates[template.name] = template.value }
                return .value(.object(templates))
            }
        case .moduleBackendless, .moduleKii:
            return declare([ArgumentDeclaration("settings", .any, optional: true, from: .none)],
                           result: .record(self == .moduleKii ? "KiiApp" : "BackendlessApp", "app"))
        case .moduleApp:
            return declare([.string("name", from: .none, "an app_id, or \"backendless\" / \"kii\" for the first of a flavour")],
                           result: .value("BackendlessApp|KiiApp|nil", "app")) { module, a in
                let name = a.string("name")
                return .optionalApp(module.apps.first { $0.appID == name } ?? Flavour(rawValue: name).flatMap { flavour in module.apps.first { $0.flavour == flavour } })
            }
        case .moduleApps:
            return declare(result: .value("(BackendlessApp|KiiApp)[]", "apps")) { module, _ in .apps(module.apps) }
        case .moduleImport:
            // Hand-written in the bridge: it creates apps, as `understudy.backendless` does.
            return declare([ArgumentDeclaration("world", .any, from: .none, "an exported world: { format, apps }")],
                           result: .value("(BackendlessApp|KiiApp)[]", "apps"))
        case .moduleSnapshot:
            return declare([.string("name", from: .none, "the name understudy.restore brings it back by")], result: .true) { module, a in
                try Self.snapshots(module).take(a.string("name"), of: module.apps)
                return .done
            }
        case .moduleRestore:
            return declare([.string("name", from: .none, "a name understudy.snapshot kept")], result: .true) { module, a in
                try Self.snapshots(module).restore(a.string("name"))
                return .done
            }
        case .journalEntries:
            return declare([journalFilter], result: .value("JournalEntry[]", "entries")) { module, a in
                .records(try Self.journal(module.world).entries(matching: a.typed("filter", as: JournalFilter.self) ?? JournalFilter()).map { $0 as any Presentable })
            }
        case .journalLast:
            return declare([journalFilter], result: .optionalRecord("JournalEntry")) { module, a in
                var wanted = a.typed("filter", as: JournalFilter.self) ?? JournalFilter()
                wanted.limit = 1
                return .optional(try Self.journal(module.world).entries(matching: wanted).last)
            }
        case .journalCount:
            return declare([journalFilter], result: .value("integer", "count")) { module, a in
                .value(.int(Int64(try Self.journal(module.world).count(matching: a.typed("filter", as: JournalFilter.self) ?? JournalFilter()))))
            }
        case .journalClear:
            return declare(result: .true) { module, _ in
                guard let world = module.world else { throw CallMisuse(Self.journalOnlyServed) }
                world.journal.clear()
                return .done
            }
        }
    }

    /// A console call's method: any app, the arguments as read, what the adapter lets it spend.
    package typealias ConsoleMethod = @Sendable (any EmulatedApp, CallArguments, any CallLimits) throws -> Outcome
    /// A module call's method: the served world (nil outside `understudy serve`), the arguments as read.
    package typealias WorldMethod = @Sendable (ModuleContext, CallArguments) throws -> Outcome

    /// What the journal's calls raise outside `understudy serve`.
    package static let journalOnlyServed = "the journal records requests served over HTTP; it exists only under `understudy serve`"

    package static let snapshotsOnlyInScenarios = "under `understudy serve` snapshots are the control API's: POST /_understudy/snapshots {\"name\"} and POST /_understudy/snapshots/NAME/restore"

    /// The running scenario's snapshots; misuse under `understudy serve`.
    private static func snapshots(_ module: ModuleContext) throws(CallMisuse) -> ScenarioSnapshots {
        guard module.world == nil, let snapshots = module.snapshots else { throw CallMisuse(snapshotsOnlyInScenarios) }
        return snapshots
    }

    /// The served world's journal; misuse outside `understudy serve`.
    private static func journal(_ world: ServedWorld?) throws(CallMisuse) -> RequestJournal {
        guard let world else { throw CallMisuse(journalOnlyServed) }
        return world.journal
    }

    private static func list<Item: Presentable>(_ items: [Item], _ filter: String?, _ matches: (Item, String) -> Bool) -> Outcome {
        .records((filter.map { wanted in items.filter { matches($0, wanted) } } ?? items).map { $0 as any Presentable })
    }

    private static func last<Item: Presentable>(_ items: [Item], _ filter: String?, _ matches: (Item, String) -> Bool) -> Outcome {
        .optional(items.last { filter == nil || matches($0, filter!) })
    }

    /// Moves the clock, delivering what comes due on the way, each firing allowed by `limits` first.
    private static func move(
        _ app: any EmulatedApp, to target: Double, _ limits: any CallLimits, outOfRange: () -> String
    ) throws -> Outcome {
        let moved: Double?
        do {
            moved = try app.moveClock(to: target) { limits.allowFiring(pushes: $0) }
        } catch {
            throw CallMisuse("a limit was reached while delivering the pushes due by \(error.time)")
        }
        guard let now = moved else {
            throw CallMisuse(outOfRange() + "the clock stays finite and within ±10^15 seconds of the epoch")
        }
        return .value(.double(now))
    }

    /// `groups.create{ name, owner, members? }`: an owner or member naming no user is misuse.
    private static func createGroup(_ app: KiiApp, _ fields: [String: Value]) throws(CallMisuse) -> KiiGroup {
        let owner = fields["owner"]?.stringValue ?? ""
        var members: [String] = []
        if case .array(let items)? = fields["members"] { members = items.compactMap(\.stringValue) }
        guard app.user(userID: owner) != nil else { throw CallMisuse("group.owner names no user: \(owner.prefix(64))") }
        for member in members where app.user(userID: member) == nil {
            throw CallMisuse("group.members holds \(member.prefix(64)), which names no user")
        }
        do throws(KiiError) {
            return try app.createGroup(name: fields["name"]?.stringValue ?? "", owner: owner, members: members)
        } catch {
            throw CallMisuse(error.message)
        }
    }

    /// `social.account{ provider, token, secret?, open_id?, profile }`: the provider in any case; `secret` only
    /// for twitter, `open_id` only for qq; `profile` a table of strings with `id`.
    private static func socialAccount(_ fields: [String: Value]) throws(CallMisuse) -> KiiSocialAccount {
        let name = fields["provider"]?.stringValue ?? ""
        guard let provider = KiiSocialProvider(named: name) else {
            throw CallMisuse("account.provider must be one of \(KiiSocialProvider.listed), got \"\(name.prefix(64))\"")
        }
        let secret = fields["secret"]?.stringValue, openID = fields["open_id"]?.stringValue
        if secret != nil, provider != .twitter { throw CallMisuse("account.secret is for twitter only, not \(provider.rawValue)") }
        if openID != nil, provider != .qq { throw CallMisuse("account.open_id is for qq only, not \(provider.rawValue)") }
        guard case .object(let members)? = fields["profile"]?.emptyListAsObject else {
            throw CallMisuse("account.profile must be a table of strings with id, got \(fields["profile"]?.kindName ?? "nil")")
        }
        var profile: [String: String] = [:]
        for (key, value) in members {
            guard case .string(let text) = value else { throw CallMisuse("account.profile.\(key) must be a string, got \(value.kindName)") }
            profile[key] = text
        }
        guard let id = profile["id"], !id.isEmpty else { throw CallMisuse("account.profile.id is required (a string)") }
        return KiiSocialAccount(provider: provider, token: fields["token"]?.stringValue ?? "", secret: secret, openID: openID, profile: profile)
    }

    /// `users.seed(template)`: `count` (required), `start` (default 1), `status` (Backendless), and the template's
    /// properties; charged to `limits` before any user is made.
    private static func seed(_ app: any EmulatedApp, _ properties: [Property], _ limits: any CallLimits) throws -> Outcome {
        var template: [Property] = []
        var count: Int?
        var start = 1
        var status: String?
        for property in properties {
            switch property.name {
            case "count":
                guard case .int(let number) = property.value, number >= 0, number <= 50_000_000 else {
                    throw CallMisuse("template.count must be a whole number from 0 to 50000000")
                }
                count = Int(number)
            case "start":
                guard case .int(let number) = property.value, number >= 0, number <= Int64(Int32.max) else {
                    throw CallMisuse("template.start must be a whole number of at least 0")
                }
                start = Int(number)
            case "status":
                guard case .string(let text) = property.value else { throw CallMisuse("template.status must be a string") }
                status = text
            default: template.append(property)
            }
        }
        guard let count else { throw CallMisuse("template.count is required (how many users to seed)") }
        switch app.flavoured {
        case .backendless(let app):
            let userStatus: UserStatus
            switch status {
            case nil, "ENABLED"?: userStatus = .enabled
            case "DISABLED"?: userStatus = .disabled
            case "EMAIL_CONFIRMATION_PENDING"?: userStatus = .emailConfirmationPending
            case let other?:
                throw CallMisuse("template.status must be ENABLED, DISABLED or EMAIL_CONFIRMATION_PENDING, got \"\(other)\"")
            }
            try limits.charge(instructions: Int64(count) * 20, users: count, bytesPerUser: HeldBytes.perUser + HeldBytes.of(template))
            return .value(.int(Int64(try app.seedUsers(count: count, template: template, start: start, status: userStatus))))
        case .kii(let app):
            if status != nil { throw CallMisuse("template.status is not a Kii setting (seeded Kii users are verified)") }
            let fields = KiiApp.registrationFields
            for property in template where !fields.contains(property.name) {
                throw CallMisuse(
                    "unknown field '\(property.name)' in the template\(NearestName.suggestion(for: property.name, among: ["count", "start"] + fields, quote: "'")) (known: count, start, \(fields.joined(separator: ", ")))"
                )
            }
            try limits.charge(instructions: Int64(count) * 20, users: count, bytesPerUser: HeldBytes.perUser + HeldBytes.of(template))
            return .value(.int(Int64(try app.seedUsers(count: count, template: template, start: start))))
        }
    }
}

extension KiiApp {
    /// The fields of a registration table, as `users.register` declares them (a seeding template takes them too).
    package static let registrationFields: [String] = {
        guard case .table(_, let fields)? = KiiOperation.register.declaration.arguments.first?.type else { return [] }
        return fields.map(\.name)
    }()
}
