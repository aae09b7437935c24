internal import Understudy
internal import UnderstudyLua

/// The control routes that read and change the served world: the index, the route listing, reset, state, the
/// outbox, the clocks and the settings.
extension ControlRoutes {
    // MARK: Index and routes

    /// `GET /_understudy` → `{"name","version","apps":[{flavour,app_id,keys,base_url}],"control":[routes]}`.
    static func index(routes: [RouteDescription]) -> RouteHandler {
        let control = JSON.array(routes.filter { $0.area == .control }.map(ControlPresentation.route))
        return ControlRequest.handler { request throws(ControlRefusal) in
            let linkBase = request.stage.options.linkBase
            return Reply(
                body: [
                    "name": "understudy", "version": .string(LiveSession.understudyVersion),
                    "apps": .array(request.stage.apps.map { ControlPresentation.summary($0, linkBase: linkBase) }),
                    "control": control,
                ]
            )
        }
    }

    /// `GET /_understudy/health`, as the route table lists it. The server answers it before routing
    /// (`UnderstudyServer.healthReply`), without the lock; this handler gives the same answer from the stage.
    static let health: RouteHandler = ControlRequest.handler { request throws(ControlRefusal) in
        Reply(body: [
            "status": "ok", "version": .string(UnderstudyVersion.current), "apps": .number(Double(request.stage.apps.count)),
        ])
    }

    /// `GET /_understudy/routes[?area=backendless|kii|control]` → `{"routes":[{method,path,area,summary}]}`.
    static func listRoutes(_ routes: [RouteDescription]) -> RouteHandler {
        ControlRequest.handler(query: ["area"]) { request throws(ControlRefusal) in
            var selected = routes
            if let area = request.query("area") {
                guard let wanted = RouteArea(rawValue: area) else {
                    let known = RouteArea.allCases.map(\.rawValue).joined(separator: ", ")
                    let nearest = NearestName.suggestion(for: area, among: RouteArea.allCases.map(\.rawValue), quote: "'")
                    throw .invalid("query parameter area must be one of \(known), got '\(area)'\(nearest)")
                }
                selected = routes.filter { $0.area == wanted }
            }
            return Reply(body: ["routes": .array(selected.map(ControlPresentation.route))])
        }
    }

    // MARK: Reset and state

    /// `POST /_understudy/reset[?journal=clear]` → `{"reset": true, "journal_cleared", "apps":[…]}`: fresh apps
    /// and the setup script run again. 500 `RESET_FAILED` when the script now fails (the old state stays).
    static let reset = ControlRequest.handler(query: ["journal"]) { request throws(ControlRefusal) in
        let clear: Bool
        switch request.query("journal") {
        case nil, "keep"?: clear = false
        case "clear"?: clear = true
        case let other?: throw .invalid("query parameter journal must be 'clear' or 'keep', got '\(other)'")
        }
        do throws(StageError) {
            try request.stage.reset(clearJournal: clear)
        } catch {
            throw ControlRefusal(500, "RESET_FAILED", error.message)
        }
        let linkBase = request.stage.options.linkBase
        return Reply(
            body: [
                "reset": true, "journal_cleared": .bool(clear),
                "apps": .array(request.stage.apps.map { ControlPresentation.summary($0, linkBase: linkBase) }),
            ]
        )
    }

    /// `GET /_understudy/state[?app=ID&limit=N]` → `{"apps":[…]}`: settings, clock, users, devices and channels,
    /// outbox and fault counts of every (or one) app. At most `limit` (default 1000) users and devices are listed
    /// per app; `user_count` and `device_count` are exact.
    static let state = ControlRequest.handler(query: ["app", "limit"]) { request throws(ControlRefusal) in
        let limit = try request.count("limit") ?? 1000
        let linkBase = request.stage.options.linkBase
        let apps = try request.selectedApps().map { ControlPresentation.state($0, linkBase: linkBase, limit: limit) }
        return Reply(body: ["apps": .array(apps)])
    }

    // MARK: Outbox

    static let outboxKinds = ["emails", "sms", "pushes"]

    /// `GET /_understudy/outbox[?app=ID&to=ADDR&kind=emails|sms|pushes]` → `{"emails":[…],"sms":[…],"pushes":[…]}`,
    /// oldest first, each item with its `flavour` and `app_id`. `to` matches an email address (any case), a phone
    /// number, or a push's device id, installation id or user (the outbox's one recipient filter).
    static let outbox = ControlRequest.handler(query: ["app", "to", "kind"]) { request throws(ControlRefusal) in
        var kinds = outboxKinds
        if let kind = request.query("kind") {
            guard outboxKinds.contains(kind) else {
                let nearest = NearestName.suggestion(for: kind, among: outboxKinds, quote: "'")
                throw .invalid("query parameter kind must be one of \(outboxKinds.joined(separator: ", ")), got '\(kind)'\(nearest)")
            }
            kinds = [kind]
        }
        let to = request.query("to")
        var emails: [JSON] = []
        var sms: [JSON] = []
        var pushes: [JSON] = []
        for app in try request.selectedApps() {
            for email in app.outbox.emails where to == nil || email.isFor(to!) {
                emails.append(ControlPresentation.outboxItem(email, app: app))
            }
            for message in app.outbox.sms where to == nil || message.isFor(to!) {
                sms.append(ControlPresentation.outboxSMS(message, app: app))
            }
            for push in app.outbox.pushes where to == nil || push.isFor(to!) {
                pushes.append(ControlPresentation.outboxItem(push, app: app))
            }
        }
        let all: [String: JSON] = ["emails": .array(emails), "sms": .array(sms), "pushes": .array(pushes)]
        return Reply(body: .object(kinds.map { JSON.Member($0, all[$0]!) }))
    }

    /// `DELETE /_understudy/outbox[?app=ID]` → `{"cleared":{"emails","sms","pushes"}}`, the numbers forgotten.
    static let clearOutbox = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var counts = (emails: 0, sms: 0, pushes: 0)
        for app in try request.selectedApps() {
            counts.emails += app.outbox.emails.count
            counts.sms += app.outbox.sms.count
            counts.pushes += app.outbox.pushes.count
            app.outbox.clear()
        }
        return Reply(
            body: [
                "cleared": [
                    "emails": .integer(Int64(counts.emails)), "sms": .integer(Int64(counts.sms)),
                    "pushes": .integer(Int64(counts.pushes)),
                ]
            ]
        )
    }

    // MARK: Clock

    /// `{"now": shared time or null, "apps":[{flavour, app_id, now}]}`.
    static func clocks(_ apps: [any EmulatedApp], mode: ClockMode) -> Reply {
        let times = apps.map(\.clock.now)
        let shared: JSON = times.first.map { first in times.allSatisfy { $0 == first } ? .number(first) : .null } ?? .null
        let listed = apps.map { app in JSON.object(ControlPresentation.identity(app) + [.init("now", .number(app.clock.now))]) }
        return Reply(body: ["now": shared, "mode": .string(mode.rawValue), "apps": .array(listed)])
    }

    /// `GET /_understudy/clock[?app=ID]` → `{"now", "mode", "apps":[…]}`; `now` is null when the apps' clocks
    /// differ; `mode` is `virtual` or `real` (`serve --clock`).
    static let clock = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        clocks(try request.selectedApps(), mode: request.stage.options.clockMode)
    }

    /// A finite number field of the body.
    static func numberField(_ request: ControlRequest, field: String, example: String) throws(ControlRefusal) -> Double {
        let members = try request.object(example: example)
        try ControlRequest.rejectUnknownFields(members, known: [field], in: "the body")
        let value = JSON.lookup(members)[field]
        switch value {
        case .integer(let number)?: return Double(number)
        case .number(let number)? where number.isFinite: return number
        case nil: throw .invalid("\(field) is required: send \(example)")
        case let other?: throw .invalid("\(field) must be a finite number of seconds, got \(other.kindName)")
        }
    }

    /// `POST /_understudy/clock/advance[?app=ID] {"seconds": N}`: moves every app's clock (or one) forward (or
    /// back, for a negative N). Answers as `GET /_understudy/clock`.
    static let advanceClock = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        let seconds = try numberField(request, field: "seconds", example: #"{"seconds": 3600}"#)
        let apps = try request.selectedApps()
        for app in apps { try checkClockRange(app.clock.now + seconds, of: app, field: "seconds") }
        try moveClocks(apps.map { ($0, $0.clock.now + seconds) }, limits: request.stage.options.limits, worldBytes: request.stage.heldBytes)
        return clocks(apps, mode: request.stage.options.clockMode)
    }

    /// `POST /_understudy/clock/set[?app=ID] {"now": N}`: sets every app's clock (or one) to N seconds since the
    /// epoch. Answers as `GET /_understudy/clock`.
    static let setClock = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        let now = try numberField(request, field: "now", example: #"{"now": 1893456000}"#)
        let apps = try request.selectedApps()
        for app in apps { try checkClockRange(now, of: app, field: "now") }
        try moveClocks(apps.map { ($0, now) }, limits: request.stage.options.limits, worldBytes: request.stage.heldBytes)
        return clocks(apps, mode: request.stage.options.clockMode)
    }

    /// Moves apps' clocks, delivering the pushes due on the way, within the server's limits: what the served apps
    /// hold (`worldBytes` before the move) with the pushes every clock delivers must fit `--max-memory`, and the
    /// firings of the whole move `--max-instructions` (as a scenario's would). All or nothing: every clock's firings
    /// are counted first, and at a limit no clock moves: 409 `LIMIT_REACHED`.
    static func moveClocks(_ moves: [(app: any EmulatedApp, time: Double)], limits: ScenarioLimits, worldBytes: Int) throws(ControlRefusal) {
        var bytes = worldBytes
        var instructions: Int64 = 0
        var reason = ""
        for (app, time) in moves {
            let fits = app.canMoveClock(to: time) { count in
                bytes += count * BackendMemory.perPush
                instructions += BackendMemory.instructionsPerFiring + Int64(count) * BackendMemory.instructionsPerPush
                if bytes > limits.maxMemory {
                    reason = "memory cap reached: the served apps would hold more than --max-memory \(limits.maxMemory / (1024 * 1024)) MiB (clear the outbox with DELETE /_understudy/outbox)"
                    return false
                }
                if instructions > limits.maxInstructions {
                    reason = "the firings would pass --max-instructions \(limits.maxInstructions)"
                    return false
                }
                return true
            }
            guard fits else {
                throw ControlRefusal(
                    409, "LIMIT_REACHED",
                    "no clock moved: moving the clock of '\(app.appID)' to \(time) would deliver scheduled pushes past a limit: \(reason)"
                )
            }
        }
        for (app, time) in moves { app.moveClock(to: time) }
    }

    /// 400 `INVALID_INPUT` when the clock cannot show `time` (`VirtualClock.limit`); checked for every app before
    /// any clock moves, so a refused request moves none.
    static func checkClockRange(_ time: Double, of app: any EmulatedApp, field: String) throws(ControlRefusal) {
        guard VirtualClock.accepts(time) else {
            throw .invalid(
                "\(field) would put the clock of '\(app.appID)' at \(time) seconds, beyond ±10^15 seconds from the epoch"
            )
        }
    }

    // MARK: Settings

    /// `{"flavour","app_id","settings":{…}}`.
    static func settingsJSON(_ app: any EmulatedApp) -> JSON {
        .object(ControlPresentation.identity(app) + [.init("settings", ControlPresentation.settings(app))])
    }

    /// `GET /_understudy/settings[?app=ID]` → `{"apps":[{flavour, app_id, settings}]}`.
    static let settings = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        Reply(body: ["apps": .array(try request.selectedApps().map(settingsJSON))])
    }

    /// `PATCH /_understudy/settings?app=ID {"name": value, …}` → `{flavour, app_id, settings}`. All or nothing:
    /// an unknown name (400 `UNKNOWN_SETTING`) or a wrong value (400 `INVALID_SETTING`) changes nothing. `app` may
    /// be left out when the server has one app.
    static let patchSettings = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        let app = try request.requiredApp()
        let members = try request.object(example: #"{"registration": false}"#)
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw ControlRefusal(400, "INVALID_SETTING", "setting '\(member.key)' is given twice")
        }
        if let newID = members.last(where: { $0.key == "app_id" })?.value.stringValue, newID != app.appID,
            let other = request.stage.world.app(app.flavour, id: newID), other !== app
        {
            throw ControlRefusal(
                400, "INVALID_SETTING",
                "setting 'app_id': another \(app.flavour.displayName) app is served under '\(newID)'"
            )
        }
        do throws(SettingError) {
            try app.changeSettings(members.map { ($0.key, $0.value.value) })
        } catch {
            throw ControlRefusal(400, error.isUnknown ? "UNKNOWN_SETTING" : "INVALID_SETTING", error.description)
        }
        return Reply(body: settingsJSON(app))
    }
}
