internal import HTTPTypes
internal import Understudy
internal import UnderstudyLua

/// The routes the dashboard (`/_understudy/ui/`) needs beyond the rest of the control API: its files, a page of
/// users with search, per-user actions, the fault form's catalogue, devices, a cheap journal tail and a summary
/// to poll. Everything the page does goes through these and the other control routes, so curl can do it too.
extension ControlRoutes {
    /// The page and its files are served without the control token (they hold no data; the page asks for the
    /// token and sends it with every control request).
    static func servesWithoutToken(_ path: String) -> Bool {
        path == "/" + prefix + "/ui" || path.hasPrefix("/" + prefix + "/ui/")
    }

    /// The dashboard's routes, registered by `register(in:)` with the other control routes.
    static let dashboardRoutes: [(method: HTTPRequest.Method, path: String, summary: String, handler: RouteHandler)] = [
        (.get, "/ui", "The dashboard page (no token needed; the page asks for it)", dashboardPage),
        (.get, "/ui/{file}", "A file of the dashboard (script, style sheet)", dashboardFile),
        (.get, "/summary", "Counts to poll: journal position, users, devices, outbox, faults and clock per app", summary),
        (.get, "/users", "A page of one app's users, newest first (?app=, ?search=, ?offset=, ?limit=, ?order=)", users),
        (.post, "/users/{app}/{id}/{action}", "Carry out an action on one user (confirm_email, disable, enable, verify_email, verify_phone)", userAction),
        (.get, "/catalogue", "Per app: the operations and error codes a fault can name, and the user actions offered (?app=)", catalogue),
        (.get, "/devices", "Device registrations with their channels and expiry, scheduled messages and push templates (?app=)", devices),
        (.post, "/messages/{app}/{messageId}/cancel", "Cancel a scheduled Backendless message (the console's cancel: no fault applies)", cancelMessage),
        (.get, "/oauth", "OAuth provider accounts and the users they registered (?app=)", oauthAccounts),
        (.get, "/roles", "Backendless custom roles with the users holding them, and email templates (?app=)", rolesAndTemplates),
        (.get, "/kii", "Kii topic ACLs, groups, social accounts and connected MQTT clients (?app=)", kiiState),
        (.get, "/journal/tail", "Journal entries after a sequence number, with reply bodies and durations (?after=, ?limit=)", journalTail),
    ]

    // MARK: Files

    /// `GET /_understudy/ui` → the page.
    static let dashboardPage: RouteHandler = { _ in DashboardAssets.reply(for: "index.html")! }

    /// `GET /_understudy/ui/{file}` → one of the page's files; 404 `NOT_FOUND` for any other name.
    static let dashboardFile: RouteHandler = { exchange in
        let name = exchange.parameters["file"]
        if let reply = DashboardAssets.reply(for: name) { return reply }
        return ControlRefusal(404, "NOT_FOUND", "the dashboard has no file '\(name)'").reply
    }

    // MARK: Summary

    /// `GET /_understudy/summary` → `{"journal":{"last_seq","count","dropped"},"apps":[{flavour, app_id, now,
    /// users, devices, outbox:{emails,sms,pushes}, faults, fault_hits}]}`: cheap, for a page that polls.
    static let summary = ControlRequest.handler { request throws(ControlRefusal) in
        let journal = request.stage.world.journal
        let apps = request.stage.apps.map { app -> JSON in
            var members = ControlPresentation.identity(app)
            members.append(.init("now", .number(app.clock.now)))
            switch app.flavoured {
            case .backendless(let app):
                members.append(.init("users", .integer(Int64(app.userCount))))
                members.append(.init("devices", .integer(Int64(app.allDevices.count))))
            case .kii(let app):
                members.append(.init("users", .integer(Int64(app.userCount))))
                members.append(.init("devices", .integer(Int64(app.installationCount))))
            }
            members.append(.init("outbox", ControlPresentation.outboxCounts(app)))
            members.append(.init("faults", .integer(Int64(app.faults.active.count))))
            members.append(.init("fault_hits", .integer(Int64(app.faults.active.reduce(0) { $0 + $1.hits }))))
            return .object(members)
        }
        return Reply(
            body: [
                "journal": [
                    "last_seq": .integer(Int64(journal.lastSequence)), "count": .integer(Int64(journal.count)),
                    "dropped": .integer(Int64(journal.dropped)),
                ],
                "clock_mode": .string(request.stage.options.clockMode.rawValue),
                "apps": .array(apps),
            ]
        )
    }

    // MARK: Users

    /// `GET /_understudy/users?app=ID[&search=TEXT&offset=N&limit=N&order=newest|oldest]` → `{"flavour","app_id",
    /// "total","offset","limit","more","actions":[…],"users":[…]}`. `total` is null when a search stopped early
    /// (it stops once it has the page and one more match). `limit` defaults to 50, at most 1000.
    static let users = ControlRequest.handler(query: ["app", "search", "offset", "limit", "order"]) { request throws(ControlRefusal) in
        let app = try request.requiredApp()
        let offset = try request.count("offset") ?? 0
        let limit = try request.count("limit") ?? 50
        guard limit <= 1000 else { throw .invalid("query parameter limit must be at most 1000, got \(limit)") }
        let newestFirst: Bool
        switch request.query("order") {
        case nil, "newest"?: newestFirst = true
        case "oldest"?: newestFirst = false
        case let other?: throw .invalid("query parameter order must be 'newest' or 'oldest', got '\(other)'")
        }
        let query = UserQuery(offset: offset, limit: limit, search: request.query("search"), newestFirst: newestFirst)
        var listed: [JSON] = []
        var total: Int?
        var more = false
        switch app.flavoured {
        case .backendless(let app):
            let page = app.userPage(query)
            listed = page.entries.map { DashboardUserPresentation.user($0.user, sessions: $0.openSessions) }
            (total, more) = (page.total, page.hasMore)
        case .kii(let app):
            let page = app.userPage(query)
            listed = page.entries.map { DashboardUserPresentation.user($0.user, in: app, sessions: $0.openSessions) }
            (total, more) = (page.total, page.hasMore)
        }
        return Reply(
            body: .object(
                ControlPresentation.identity(app) + [
                    .init("total", total.map { .integer(Int64($0)) } ?? .null), .init("offset", .integer(Int64(offset))),
                    .init("limit", .integer(Int64(limit))), .init("more", .bool(more)),
                    .init("actions", .array(DashboardUserActions.names(for: app).map(JSON.string))),
                    .init("users", .array(listed)),
                ]
            )
        )
    }

    /// `POST /_understudy/users/{app}/{id}/{action}` → the user as `GET /_understudy/users` shows it. 404
    /// `USER_NOT_FOUND`; 400 `INVALID_INPUT` for an action the flavour lacks; `ACTION_FAILED` (with the app's
    /// status) when the app refuses, e.g. an injected fault.
    static let userAction = ControlRequest.handler { request throws(ControlRefusal) in
        let app = try request.app(named: request.exchange.parameters["app"], field: "the path's app")
        let user = try DashboardUserActions.perform(
            request.exchange.parameters["action"], on: request.exchange.parameters["id"], in: app
        )
        return Reply(body: user)
    }

    // MARK: Catalogue and devices

    /// `GET /_understudy/catalogue[?app=ID]` → `{"apps":[{flavour, app_id, operations, codes, user_actions}]}`.
    static let catalogue = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        Reply(body: ["apps": .array(try request.selectedApps().map(DashboardCatalogue.json))])
    }

    /// `GET /_understudy/devices[?app=ID]` → `{"devices":[{flavour, app_id, …registration}], "installations":
    /// [{flavour, app_id, …installation}], "topics": [{flavour, app_id, topicID, scope, owner?, subscribers}]}`:
    /// every live Backendless device registration (channels, expiry in virtual seconds or null), by device id,
    /// every Kii push installation, by installation id, and every Kii topic with its subscribers (userIDs).
    static let devices = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var devices: [JSON] = []
        var installations: [JSON] = []
        var messages: [JSON] = []
        var templates: [JSON] = []
        var topics: [JSON] = []
        for app in try request.selectedApps() {
            let identity = ControlPresentation.identity(app)
            switch app.flavoured {
            case .backendless(let app):
                devices += app.allDevices.map { JSONRecordWriter.json($0, leading: identity) }
                messages += app.scheduledMessages.map { message in
                    .object(identity + [
                        .init("messageId", .string(message.messageID)),
                        .init("channel", message.channel.map(JSON.string) ?? .null),
                        .init("message", .string(message.message)), .init("next_firing", .number(message.nextFiring)),
                        .init("repeat_every", message.repeatEvery.map(JSON.number) ?? .null),
                    ])
                }
                templates += app.allPushTemplates.map { JSONRecordWriter.json($0, leading: identity) }
            case .kii(let app):
                installations += app.allInstallations.map { JSONRecordWriter.json($0, leading: identity) }
                for (topic, subscribers) in app.allTopics {
                    guard case .object(let members) = JSONRecordWriter.json(topic, leading: identity) else { continue }
                    topics.append(.object(members + [.init("subscribers", .array(subscribers.map(JSON.string)))]))
                }
            }
        }
        return Reply(
            body: [
                "devices": .array(devices), "installations": .array(installations), "scheduled_messages": .array(messages),
                "push_templates": .array(templates), "topics": .array(topics),
            ]
        )
    }

    /// `POST /_understudy/messages/{app}/{messageId}/cancel` → `{"cancelled": true, "messageId"}`: drops a scheduled
    /// message's remaining firings. 409 `NOT_SCHEDULED` when it has none left (or was never issued).
    static let cancelMessage = ControlRequest.handler { request throws(ControlRefusal) in
        let app = try request.app(named: request.exchange.parameters["app"], field: "path segment {app}")
        let id = request.exchange.parameters["messageId"]
        guard case .backendless(let backendless) = app.flavoured else {
            throw ControlRefusal(409, "NOT_SCHEDULED", "'\(app.appID)' is a Kii app: only Backendless apps schedule messages")
        }
        guard backendless.cancelFromConsole(id) else {
            throw ControlRefusal(409, "NOT_SCHEDULED", "'\(id)' is not a scheduled message of '\(app.appID)' (unknown, cancelled, or every firing delivered)")
        }
        return Reply(body: ["cancelled": true, "messageId": .string(id)])
    }

    // MARK: Journal tail

    /// `GET /_understudy/journal/tail[?after=SEQ&limit=N]` → `{"last_seq","dropped","entries":[…]}`: the entries
    /// recorded after `after` (default 0), oldest first, at most the newest `limit` (default 200, at most 1000),
    /// each as `GET /_understudy/journal` shows it plus `reply` (the reply body) and `duration_ms`.
    static let journalTail = ControlRequest.handler(query: ["after", "limit"]) { request throws(ControlRefusal) in
        let after = try request.count("after") ?? 0
        let limit = try request.count("limit") ?? 200
        guard limit <= 1000 else { throw .invalid("query parameter limit must be at most 1000, got \(limit)") }
        let journal = request.stage.world.journal
        let entries = journal.entries(after: after, limit: limit).map { entry -> JSON in
            JSONRecordWriter.json(entry, trailing: [
                .init("reply", .string(entry.reply)), .init("duration_ms", .number(entry.durationMilliseconds)),
            ])
        }
        return Reply(
            body: [
                "last_seq": .integer(Int64(journal.lastSequence)), "dropped": .integer(Int64(journal.dropped)),
                "entries": .array(entries),
            ]
        )
    }
}
