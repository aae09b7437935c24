internal import HTTPTypes
internal import Understudy

/// The control routes that turn the session into something to keep: the scenario file that replays it
/// (`GET /_understudy/record`) and the session's control actions with what each changed (`GET /_understudy/session`).
extension ControlRoutes {
    /// The name of the scenario that holds the requests without an `X-Understudy-Test` header, by default.
    static let defaultRecordName = "recorded session"

    /// `GET /_understudy/record[?name=NAME]` → a Lua scenario file (`text/x-lua`) that replays the session since
    /// the last reset: one scenario per `X-Understudy-Test` name, the other requests in one named `NAME`
    /// (default `recorded session`). 400 `INVALID_INPUT` for a `name` longer than 200 characters.
    static func record(_ routes: [RouteDescription]) -> RouteHandler {
        ControlRequest.handler(query: ["name"]) { request throws(ControlRefusal) in
            let name = request.query("name") ?? defaultRecordName
            guard name.count <= 200 else { throw .invalid("query parameter name must be at most 200 characters, got \(name.count)") }
            let text = recordedScenario(request.stage, name: name, routes: routes)
            var reply = Reply.text(text, contentType: "text/x-lua; charset=utf-8")
            reply.headers = [("Cache-Control", "no-store"), ("Content-Disposition", "inline; filename=\"recorded.lua\"")]
            return reply
        }
    }

    /// The session of `stage`'s world as a scenario file.
    static func recordedScenario(_ stage: Stage, name: String, routes: [RouteDescription]) -> String {
        let world = stage.world
        let log = world.recording
        let entries = world.journal.entries(after: log.startSequence, limit: Int.max)
        let options = ScenarioRecorder.Options(
            name: name, seed: stage.options.seed,
            decodeJSON: { text in (try? JSONParser.parse(Array(text.utf8)))?.value },
            nearestRoute: { method, path in
                NearestRoute.to(method: method, path: path, among: routes).map { route in
                    "\(route.method.rawValue) \(route.path)" + (route.operation.map { " (\($0))" } ?? "")
                }
            },
            droppedEntries: world.journal.dropped
        )
        return ScenarioRecorder.write(log, entries: entries, options: options)
    }

    /// `GET /_understudy/session` → `{"start_seq","fixed_clock_start","setup","apps":[…],"controls":[…],"requests",
    /// "calls"}`: the apps as the session began (flavour, app id, settings, clock, users, registrations) and every
    /// control action since the last reset that could change the world (`after_seq`, method, path, query, status,
    /// `changed`: what it changed), in order. `requests` counts the session's journaled requests, `calls` those
    /// that reached an operation.
    static let session = ControlRequest.handler { request throws(ControlRefusal) in
        let log = request.stage.world.recording
        var controls: [JSON] = []
        var requests = 0
        var calls = 0
        for step in log.steps {
            switch step {
            case .request(let request):
                requests += 1
                if request.call != nil { calls += 1 }
            case .control(let control):
                controls.append([
                    "after_seq": .integer(Int64(control.afterSequence)), "method": .string(control.method),
                    "path": .string(control.path), "query": .string(control.query), "status": .integer(Int64(control.status)),
                    "changed": .array(changes(control).map(JSON.string)),
                ])
            }
        }
        return Reply(
            body: [
                "start_seq": .integer(Int64(log.startSequence)), "fixed_clock_start": .bool(log.fixedClockStart),
                "setup": log.setup.map { JSON.string($0.path) } ?? .null,
                "apps": .array(log.start.map(appState)), "controls": .array(controls),
                "requests": .integer(Int64(requests)), "calls": .integer(Int64(calls)),
            ]
        )
    }

    /// An app's state as the session log keeps it.
    private static func appState(_ state: AppState) -> JSON {
        .object([
            .init("flavour", .string(state.flavour.rawValue)), .init("app_id", .string(state.appID)),
            .init("settings", .object(state.settings.map { JSON.Member($0.name, JSON($0.value)) })),
            .init("now", .number(state.now)), .init("users", .integer(Int64(state.users))),
            .init("registrations", .integer(Int64(state.registrations))),
        ])
    }

    /// What a control action changed, one line per change (`APP setting registration: true → false`).
    static func changes(_ step: ControlStep) -> [String] {
        var changes: [String] = []
        for (before, after) in zip(step.before, step.after) {
            let app = after.appID
            for setting in after.settings where before.setting(setting.name) != setting.value {
                let was = before.setting(setting.name).map { JSONWriter.string(JSON($0)) } ?? "none"
                changes.append("\(app) setting \(setting.name): \(was) → \(JSONWriter.string(JSON(setting.value)))")
            }
            if before.now != after.now { changes.append("\(app) clock: \(before.now) → \(after.now)") }
            if before.users != after.users { changes.append("\(app) users: \(before.users) → \(after.users)") }
            if before.registrations != after.registrations {
                changes.append("\(app) registrations: \(before.registrations) → \(after.registrations)")
            }
            let added = after.faults.filter { !before.faults.contains($0) }
            let removed = before.faults.filter { !after.faults.contains($0) }
            if !added.isEmpty { changes.append("\(app) faults added: \(added.map(String.init).joined(separator: ", "))") }
            if !removed.isEmpty { changes.append("\(app) faults removed: \(removed.map(String.init).joined(separator: ", "))") }
            if after.outbox < before.outbox { changes.append("\(app) outbox cleared: \(before.outbox) → \(after.outbox)") }
        }
        for state in step.after.dropFirst(step.before.count) { changes.append("app added: \(state.appID) (\(state.flavour.rawValue))") }
        return changes
    }
}
