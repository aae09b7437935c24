package import Understudy

/// One HTTP request of an example, to send to `understudy serve` (as curl shows it).
package struct ExampleRequest: Sendable {
    package var method: String
    /// The path from the server's root, `/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY/users/register`.
    package var path: String
    package var headers: [(name: String, value: String)]
    package var body: String?

    package init(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: String? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The curl command against a server at `base` (`http://127.0.0.1:8080`), printing the body and the status.
    package func curl(base: String = "http://127.0.0.1:8080") -> String {
        var command = "curl -s -w ' %{http_code}\\n' -X \(method) '\(base)\(path)'"
        for header in headers { command += " -H '\(header.name): \(header.value)'" }
        if let body { command += " -d '\(body)'" }
        return command
    }
}

/// How to produce a catalogued code: a minimal scenario by its real trigger (or by injection when that is the
/// only way in Lua) and HTTP requests whose last one answers it from `understudy serve` (started with no script,
/// after `POST /_understudy/reset`). `understudy explain` prints them; a test runs both.
package struct CodeExample: Sendable {
    /// A scenario file with one scenario that passes only when the code is produced.
    package var scenario: String?
    /// Requests in order; the last answers the code.
    package var requests: [ExampleRequest]

    static let bl = "/\("UNDERSTUDY-APP")/\("UNDERSTUDY-REST-KEY")"
    static let kii = "/api/apps/understudy-kii-app"
    static let json = [(name: "Content-Type", value: "application/json")]
    static let kiiApp = json + [(name: "Authorization", value: "Basic dW5kZXJzdHVkeS1raWktYXBwOnVuZGVyc3R1ZHkta2lpLWtleQ==")]

    /// The example for a catalogued code; nil when none is written yet.
    package static func example(for entry: ErrorCatalogue.Entry) -> CodeExample? {
        let scenario = scenarios[entry.flavour.rawValue + ":" + entry.code] ?? injectionScenario(entry)
        let requests = http[entry.flavour.rawValue + ":" + entry.code] ?? injectionRequests(entry) ?? []
        if scenario == nil && requests.isEmpty { return nil }
        return CodeExample(scenario: scenario.map { wrap(entry, $0) }, requests: requests)
    }

    private static func wrap(_ entry: ErrorCatalogue.Entry, _ body: String) -> String {
        let check = entry.flavour == .backendless ? entry.code : "{ status = \(entry.status), code = \"\(entry.code)\" }"
        let indented = body.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        return """
            scenario("\(entry.flavour.rawValue) \(entry.code)", function()
              local app = understudy.\(entry.flavour.rawValue)(\(settings[entry.flavour.rawValue + ":" + entry.code] ?? ""))
            \(indented.split(separator: "¤", omittingEmptySubsequences: false).joined(separator: "expect.error(\(check), "))
            end)

            """
    }

    /// Codes reachable only by injection: a fault on the first operation that answers them.
    private static func injectionScenario(_ entry: ErrorCatalogue.Entry) -> String? {
        guard entry.reach == .injectionOnly else { return nil }
        let code = entry.flavour == .backendless ? entry.code : "\"\(entry.code)\", status = \(entry.status)"
        let call = entry.flavour == .backendless
            ? "app.users.register{ email = \"q@mi6.co.uk\", password = \"gadgets4U\" }"
            : "app.users.register{ username = \"bond007\", password = \"123ABC\" }"
        return "app.faults.inject{ op = \"users.register\", code = \(code), times = 1 }\n¤\(call))"
    }

    private static func injectionRequests(_ entry: ErrorCatalogue.Entry) -> [ExampleRequest]? {
        guard entry.reach == .injectionOnly else { return nil }
        if entry.flavour == .backendless {
            return [
                ExampleRequest("POST", "/_understudy/faults", body: #"{"app":"backendless","op":"users.register","code":\#(entry.code),"times":1}"#),
                ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"q@mi6.co.uk","password":"gadgets4U"}"#),
            ]
        }
        return [
            ExampleRequest("POST", "/_understudy/faults", body: #"{"app":"kii","op":"users.register","code":"\#(entry.code)","status":\#(entry.status),"times":1}"#),
            ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"loginName":"bond007","password":"123ABC"}"#),
        ]
    }

    /// Settings given to the backend of the scenario, by `flavour:code`.
    static var settings: [String: String] { ExampleText.scenarios.settings }

    /// The scenario bodies by `flavour:code`; `¤` stands for `expect.error(CODE, ` (closed by the line's `)`).
    static var scenarios: [String: String] { ExampleText.scenarios.bodies }

    /// The HTTP requests by `flavour:code`.
    static var http: [String: [ExampleRequest]] { ExampleText.requests }
}
