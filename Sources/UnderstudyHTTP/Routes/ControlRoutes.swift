package import HTTPTypes
internal import Understudy

/// The control API under `/_understudy/`: what a tester or a scenario uses to steer a running server. JSON in and
/// out; errors are `{"error": CODE, "message": "…"}` and the message names the offending field. Control requests
/// are not journaled, and need the `X-Understudy-Token` header when the server has a control token.
///
/// Error codes: `INVALID_INPUT` (400, a body field or query parameter), `INVALID_JSON` / `INVALID_INPUT_DATA`
/// (400, a body that is not JSON or not an object), `UNKNOWN_APP` (404), `FAULT_NOT_FOUND` (404),
/// `UNKNOWN_SETTING` / `INVALID_SETTING` (400), `SNAPSHOT_NOT_FOUND` (404), `MEMORY_CAP_REACHED` (507), `LUA_ERROR` (400), `SCENARIO_LOAD_ERROR` (400),
/// `UNSUPPORTED_MEDIA_TYPE` (415), `RESET_FAILED` (500), `CONTROL_TOKEN_REQUIRED` (401).
package enum ControlRoutes {
    static let prefix = "_understudy"
    /// The header that carries the control token.
    package static let tokenHeader = HTTPField.Name("X-Understudy-Token")!
    /// The health check's path: answered without a token or an Origin rule, on either request path.
    package static let healthPath = "/" + prefix + "/health"

    /// Adds the control routes. Register this area last: `GET /_understudy/routes` lists the routes the table
    /// holds at this point, plus the control routes.
    static func register(in table: inout RouteTable<RouteHandler>) {
        var control: [(description: RouteDescription, body: BodyKind, handler: RouteHandler?)] = []
        func add(_ method: HTTPRequest.Method, _ path: String, _ body: BodyKind, _ summary: String, _ handler: RouteHandler?) {
            let description = RouteDescription(method: method, path: "/" + prefix + path, area: .control, summary: summary)
            control.append((description, body, handler))
        }
        add(.get, "", .none, "Version, apps with their keys and base URLs, and the control routes", nil)
        add(.get, "/health", .none, "Health: 200 with the version and the number of apps (no token needed)", health)
        add(.get, "/routes", .none, "Every route the server answers (?area=backendless|kii|control)", nil)
        add(.post, "/reset", .none, "Fresh apps and the setup script run again (?journal=clear also empties the journal)", reset)
        add(.get, "/state", .none, "Settings, clock, users, devices, channels, outbox and fault counts (?app=, ?limit=)", state)
        add(.get, "/outbox", .none, "Sent emails, text messages and pushes (?app=, ?to=, ?kind=emails|sms|pushes)", outbox)
        add(.delete, "/outbox", .none, "Forget what was sent (?app=)", clearOutbox)
        add(.get, "/faults", .none, "Active faults with their hits (?app=)", listFaults)
        add(.post, "/faults", .json, "Inject a fault {app?, op, code?, message?, status?, times?, probability?, delay_ms?, drop?, reset?, reply?, after_commit?, from?, until?, for_seconds?}", injectFault)
        add(.delete, "/faults", .none, "Remove every fault (?app=)", clearFaults)
        add(.delete, "/faults/{app}/{id}", .none, "Remove one fault", removeFault)
        add(.get, "/clock", .none, "The apps' virtual clocks (?app=)", clock)
        add(.post, "/clock/advance", .json, "Move the clocks forward {seconds} (?app= for one app)", advanceClock)
        add(.post, "/clock/set", .json, "Set the clocks {now} (?app= for one app)", setClock)
        add(.get, "/snapshots", .none, "Snapshots of the world, with their users and memory", listSnapshots)
        add(.post, "/snapshots", .json, "Keep the world under a name {name}", takeSnapshot)
        add(.post, "/snapshots/{name}/restore", .none, "Bring the world back as the snapshot kept it", restoreSnapshot)
        add(.delete, "/snapshots/{name}", .none, "Forget a snapshot", deleteSnapshot)
        add(.get, "/export", .none, "The world as a Lua setup script: serve --setup FILE recreates it (?app=)", export)
        add(.get, "/settings", .none, "Every setting of every app (?app=)", settings)
        add(.patch, "/settings", .json, "Change settings {name: value} of one app (?app=)", patchSettings)
        add(.post, "/lua", .text, "Run a Lua chunk against the live apps; its results and output (?name=)", lua)
        add(.post, "/scenarios", .text, "Run a scenario file against the live apps; its outcomes (?name=)", scenarios)
        add(.get, "/journal", .none, "Requests answered (?method=, ?path=, ?op=, ?app=, ?status=, ?code=, ?test=, ?limit=)", journal)
        add(.delete, "/journal", .none, "Empty the journal", clearJournal)
        add(.get, "/coverage", .none, "What the app under test met: codes per app and operation, by origin, per test (?test=)", nil)
        add(.delete, "/coverage", .none, "Start counting the coverage again", clearCoverage)
        add(.get, "/record", .none, "The session since the last reset as a Lua scenario file that `understudy run` replays (?name= names the scenario of requests without X-Understudy-Test)", nil)
        add(.get, "/session", .none, "The session since the last reset: the apps as it began and every control action with what it changed", session)
        for route in dashboardRoutes { add(route.method, route.path, .none, route.summary, route.handler) }

        let listing = (table.entries.map(\.description) + control.map(\.description)).sorted { lhs, rhs in
            let areas = RouteArea.allCases
            if lhs.area != rhs.area { return areas.firstIndex(of: lhs.area)! < areas.firstIndex(of: rhs.area)! }
            if lhs.path != rhs.path { return lhs.path < rhs.path }
            return lhs.method.rawValue < rhs.method.rawValue
        }
        for route in control {
            let handler: RouteHandler
            switch route.description.path {
            case "/" + prefix: handler = index(routes: listing)
            case "/" + prefix + "/routes": handler = listRoutes(listing)
            case "/" + prefix + "/coverage" where route.description.method == .get: handler = coverage(listing)
            case "/" + prefix + "/record": handler = record(listing)
            default: handler = route.handler!
            }
            table.add(route.description, body: route.body, handler)
        }
    }
}
