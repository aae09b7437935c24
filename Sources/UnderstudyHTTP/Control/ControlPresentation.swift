internal import HTTPTypes
internal import Understudy

/// How the control API shows the world: apps, users, devices, the outbox, faults and the journal. Users and
/// devices look as the Lua bindings show them; the rest uses snake_case names.
enum ControlPresentation {
    // MARK: Apps

    /// `{"flavour","app_id"}`.
    static func identity(_ app: any EmulatedApp) -> [JSON.Member] {
        [.init("flavour", .string(app.flavour.rawValue)), .init("app_id", .string(app.appID))]
    }

    /// `{"api_key"}` for Backendless, `{"app_key"}` for Kii.
    static func keys(_ app: any EmulatedApp) -> JSON {
        .object(app.keys.map { .init($0.name, .string($0.value)) })
    }

    /// Where the app's REST API is served: `http://host:port/APP/KEY` or `http://host:port/api/apps/APP`.
    static func baseURL(_ app: any EmulatedApp, linkBase: String) -> String {
        linkBase + app.restPath
    }

    /// `{"flavour","app_id","keys","base_url"}`.
    static func summary(_ app: any EmulatedApp, linkBase: String) -> JSON {
        .object(
            identity(app) + [.init("keys", keys(app)), .init("base_url", .string(baseURL(app, linkBase: linkBase)))]
        )
    }

    /// Every setting by name, in the order the documentation lists them.
    static func settings(_ app: any EmulatedApp) -> JSON {
        .object(type(of: app).settingNames.map { .init($0, app.setting($0).map(JSON.init) ?? .null) })
    }

    /// The whole state of one app; at most `limit` users and devices are listed (the counts are exact).
    static func state(_ app: any EmulatedApp, linkBase: String, limit: Int) -> JSON {
        var members = identity(app)
        members.append(.init("keys", keys(app)))
        members.append(.init("base_url", .string(baseURL(app, linkBase: linkBase))))
        members.append(.init("settings", settings(app)))
        members.append(.init("clock", ["now": .number(app.clock.now)]))
        switch app.flavoured {
        case .backendless(let app):
            let users = app.firstUsers(limit)
            members += list("user", users.first, count: users.total, limit: limit)
            members += list("device", app.allDevices, limit: limit)
            members.append(.init("channels", .array(app.channelNames.map(JSON.string))))
        case .kii(let app):
            let users = app.firstUsers(limit)
            members += list("user", users.first, count: users.total, limit: limit)
        }
        members.append(.init("outbox", outboxCounts(app)))
        members.append(.init("faults", .integer(Int64(app.faults.active.count))))
        return .object(members)
    }

    /// `{"emails","sms","pushes"}`: how many of each the app sent.
    static func outboxCounts(_ app: any EmulatedApp) -> JSON {
        [
            "emails": .integer(Int64(app.outbox.emails.count)), "sms": .integer(Int64(app.outbox.sms.count)),
            "pushes": .integer(Int64(app.outbox.pushes.count)),
        ]
    }

    /// `{"<name>_count": N, "<name>s": [the first `limit` records]}`.
    private static func list(_ name: String, _ records: [some Presentable], count: Int? = nil, limit: Int) -> [JSON.Member] {
        [
            .init(name + "_count", .integer(Int64(count ?? records.count))),
            .init(name + "s", .array(records.prefix(limit).map { JSONRecordWriter.json($0) })),
        ]
    }

    // MARK: Outbox

    /// An outbox item with the app it belongs to and when it was sent: `{"flavour","app_id", ...the item's
    /// fields, "sent_at"}`.
    static func outboxItem(_ item: some OutboxItem, app: any EmulatedApp) -> JSON {
        JSONRecordWriter.json(item, leading: identity(app), trailing: [.init("sent_at", .number(item.sentAt))])
    }

    /// A text message as `outboxItem` shows it, and `"expires_at"`: the last moment its code is accepted under the
    /// app's settings now (null for a message without a code).
    static func outboxSMS(_ message: Outbox.SMS, app: any EmulatedApp) -> JSON {
        var expiry: Double?
        if case .kii(let kii) = app.flavoured { expiry = kii.expiry(of: message) }
        return JSONRecordWriter.json(
            message, leading: identity(app),
            trailing: [.init("sent_at", .number(message.sentAt)), .init("expires_at", expiry.map(JSON.number) ?? .null)]
        )
    }

    // MARK: Faults and the journal

    /// `{"app","flavour", ...the fault's fields}`.
    static func fault(_ fault: Fault, app: any EmulatedApp) -> JSON {
        JSONRecordWriter.json(fault, leading: [.init("app", .string(app.appID)), .init("flavour", .string(app.flavour.rawValue))])
    }

    /// A journal entry as the domain presents it (absent values are null).
    static func entry(_ entry: JournalEntry) -> JSON {
        JSONRecordWriter.json(entry)
    }

    // MARK: Routes

    /// `{"method","path","area","summary"}`, and `"operation"` for a vendor route.
    static func route(_ route: RouteDescription) -> JSON {
        var members: [JSON.Member] = [
            .init("method", .string(route.method.rawValue)), .init("path", .string(route.path)),
            .init("area", .string(route.area.rawValue)), .init("summary", .string(route.summary)),
        ]
        if let operation = route.operation { members.append(.init("operation", .string(operation))) }
        return .object(members)
    }
}
