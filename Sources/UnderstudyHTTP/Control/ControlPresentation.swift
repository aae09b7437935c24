internal import HTTPTypes
internal import Understudy

/// How the control API shows the world: apps, users, devices, the outbox, faults and the journal. Users and
/// devices look as the Lua bindings show them; the rest uses snake_case names.
enum ControlPresentation {
    // MARK: Apps

    /// `{"flavour","app_id"}`.
    static func identity(_ app: any EmulatedApp) -> [JSON.Member] {
        [.init("flavour", .string(app.flavourName)), .init("app_id", .string(app.servedID))]
    }

    /// `{"api_key"}` for Backendless, `{"app_key"}` for Kii.
    static func keys(_ app: any EmulatedApp) -> JSON {
        switch app {
        case let app as BackendlessApp: return ["api_key": .string(app.settings.apiKey)]
        case let app as KiiApp: return ["app_key": .string(app.settings.appKey)]
        default: return .object([])
        }
    }

    /// Where the app's REST API is served: `http://host:port/APP/KEY` or `http://host:port/api/apps/APP`.
    static func baseURL(_ app: any EmulatedApp, linkBase: String) -> String {
        switch app {
        case let app as BackendlessApp: return "\(linkBase)/\(app.settings.appID)/\(app.settings.apiKey)"
        case let app as KiiApp: return "\(linkBase)/api/apps/\(app.settings.appID)"
        default: return linkBase
        }
    }

    /// `{"flavour","app_id","keys","base_url"}`.
    static func summary(_ app: any EmulatedApp, linkBase: String) -> JSON {
        .object(
            identity(app) + [.init("keys", keys(app)), .init("base_url", .string(baseURL(app, linkBase: linkBase)))]
        )
    }

    /// Every setting by name, in the order the documentation lists them.
    static func settings(_ app: any EmulatedApp) -> JSON {
        switch app {
        case let app as BackendlessApp:
            return .object(BackendlessSettings.names.map { .init($0, app.settings.value(of: $0).map(JSON.init) ?? .null) })
        case let app as KiiApp:
            return .object(KiiSettings.names.map { .init($0, app.settings.value(of: $0).map(JSON.init) ?? .null) })
        default: return .object([])
        }
    }

    /// The whole state of one app; at most `limit` users and devices are listed (the counts are exact).
    static func state(_ app: any EmulatedApp, linkBase: String, limit: Int) -> JSON {
        var members = identity(app)
        members.append(.init("keys", keys(app)))
        members.append(.init("base_url", .string(baseURL(app, linkBase: linkBase))))
        members.append(.init("settings", settings(app)))
        members.append(.init("clock", ["now": .number(app.clock.now)]))
        switch app {
        case let app as BackendlessApp:
            let users = app.allUsers
            members.append(.init("user_count", .integer(Int64(users.count))))
            members.append(.init("users", .array(users.prefix(limit).map(user))))
            let devices = devices(of: app)
            members.append(.init("device_count", .integer(Int64(devices.count))))
            members.append(.init("devices", .array(devices.prefix(limit).map(device))))
            members.append(.init("channels", .array(app.channelNames.map(JSON.string))))
        case let app as KiiApp:
            let users = app.allUsers
            members.append(.init("user_count", .integer(Int64(users.count))))
            members.append(.init("users", .array(users.prefix(limit).map(user))))
        default: break
        }
        members.append(
            .init(
                "outbox",
                [
                    "emails": .integer(Int64(app.outbox.emails.count)), "sms": .integer(Int64(app.outbox.sms.count)),
                    "pushes": .integer(Int64(app.outbox.pushes.count)),
                ]
            )
        )
        members.append(.init("faults", .integer(Int64(app.faults.active.count))))
        return .object(members)
    }

    // MARK: Users and devices

    /// As `app.users.all()` shows it: every stored property except the password, plus `objectId`, `userStatus`,
    /// `created` and `___class`.
    static func user(_ user: BackendlessUser) -> JSON {
        var members: [JSON.Member] = []
        members.reserveCapacity(user.properties.count + 4)
        for property in user.properties { members.append(.init(property.name, JSON(property.value))) }
        members.append(.init("objectId", .string(user.objectID)))
        members.append(.init("userStatus", .string(user.status.rawValue)))
        members.append(.init("created", .integer(user.created)))
        members.append(.init("___class", "Users"))
        return .object(members)
    }

    /// As `app.users.all()` shows it for Kii.
    static func user(_ user: KiiUser) -> JSON {
        var members: [JSON.Member] = [.init("userID", .string(user.userID))]
        let optional: [(String, String?)] = [
            ("loginName", user.loginName), ("emailAddress", user.emailAddress), ("phoneNumber", user.phoneNumber),
            ("country", user.country), ("pendingEmailAddress", user.pendingEmailAddress),
            ("pendingPhoneNumber", user.pendingPhoneNumber), ("token", user.token),
        ]
        for (key, value) in optional {
            if let value { members.append(.init(key, .string(value))) }
        }
        members.append(.init("emailAddressVerified", .bool(user.emailAddressVerified)))
        members.append(.init("phoneNumberVerified", .bool(user.phoneNumberVerified)))
        return .object(members)
    }

    /// Every live device registration, by device id.
    static func devices(of app: BackendlessApp) -> [DeviceRegistration] {
        var ids = Set<String>()
        for channel in app.channelNames { ids.formUnion(app.devices(onChannel: channel)) }
        return ids.sorted().compactMap { app.device($0) }
    }

    /// As `app.devices.get(id)` shows it: `registrationId`, `channels` (name → registration id), `device_id`,
    /// `token`, `os`, plus `os_version` and `expiration` (seconds; null when it never expires).
    static func device(_ registration: DeviceRegistration) -> JSON {
        [
            "registrationId": .string(registration.registrationID),
            "channels": .object(registration.channels.map { .init($0.name, .string($0.registrationID)) }),
            "device_id": .string(registration.deviceID), "token": .string(registration.token),
            "os": .string(registration.os.rawValue), "os_version": registration.osVersion.map(JSON.string) ?? .null,
            "expiration": registration.expiration.map(JSON.number) ?? .null,
        ]
    }

    // MARK: Outbox

    /// An outbox item with the app it belongs to and when it was sent: `{"flavour","app_id", ...the item's
    /// fields, "sent_at"}`.
    static func outboxItem(_ item: some OutboxItem, app: any EmulatedApp) -> JSON {
        guard case .object(var members) = JSONRecordWriter.json(item, leading: identity(app)) else { return .null }
        members.append(.init("sent_at", .number(item.sentAt)))
        return .object(members)
    }

    // MARK: Faults

    /// `{"app","flavour","id","op","code","message","status","hits","remaining","probability","delay_ms","drop",
    /// "conditional"}`; `conditional` is true for a fault with a Lua `when` predicate.
    static func fault(_ fault: Fault, app: any EmulatedApp) -> JSON {
        let code: JSON
        switch fault.code {
        case .number(let number)?: code = .integer(Int64(number))
        case .text(let text)?: code = .string(text)
        case nil: code = .null
        }
        return [
            "app": .string(app.servedID), "flavour": .string(app.flavourName), "id": .integer(Int64(fault.id)),
            "op": .string(fault.operation), "code": code, "message": fault.message.map(JSON.string) ?? .null,
            "status": fault.status.map { .integer(Int64($0)) } ?? .null, "hits": .integer(Int64(fault.hits)),
            "remaining": fault.remaining.map { .integer(Int64($0)) } ?? .null, "probability": .number(fault.probability),
            "delay_ms": .integer(Int64(fault.delayMilliseconds)), "drop": .bool(fault.dropConnection),
            "conditional": .bool(fault.condition != nil),
        ]
    }

    // MARK: Journal

    /// `{"seq","method","path","query","flavour","app_id","op","body","json","status","code","time","delay_ms",
    /// "connection_dropped"}`; absent values are null.
    static func entry(_ entry: JournalEntry) -> JSON {
        [
            "seq": .integer(Int64(entry.sequence)), "method": .string(entry.method), "path": .string(entry.path),
            "query": .string(entry.query), "flavour": entry.flavour.map(JSON.string) ?? .null,
            "app_id": entry.appID.map(JSON.string) ?? .null, "op": entry.operation.map(JSON.string) ?? .null,
            "body": .string(entry.body), "json": entry.json.map(JSON.init) ?? .null, "status": .integer(Int64(entry.status)),
            "code": entry.code.map(JSON.init) ?? .null, "time": .number(entry.time),
            "delay_ms": .integer(Int64(entry.delayMilliseconds)), "connection_dropped": .bool(entry.connectionDropped),
        ]
    }

    // MARK: Routes

    static func route(_ route: RouteDescription) -> JSON {
        [
            "method": .string(route.method.rawValue), "path": .string(route.path), "area": .string(route.area.rawValue),
            "summary": .string(route.summary),
        ]
    }
}
