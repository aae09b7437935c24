/// The examples' text, compiled into the binary from Resources/explain_scenarios.lua and
/// Resources/explain_requests.http (each file's header says its format), read once.
enum ExampleText {
    /// Scenario bodies and backend settings by `flavour:code`.
    static let scenarios: (bodies: [String: String], settings: [String: String]) = readScenarios(
        String(decoding: PackageResources.explain_scenarios_lua, as: UTF8.self)
    )

    /// HTTP requests by `flavour:code`.
    static let requests: [String: [ExampleRequest]] = readRequests(
        String(decoding: PackageResources.explain_requests_http, as: UTF8.self)
    )

    /// Entries start with `--- flavour:code [settings]`; the lines up to the next entry are the body.
    static func readScenarios(_ text: String) -> (bodies: [String: String], settings: [String: String]) {
        var bodies: [String: String] = [:]
        var settings: [String: String] = [:]
        var key: String?
        var lines: [Substring] = []
        func finish() {
            guard let key else { return }
            while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
            bodies[key] = lines.joined(separator: "\n")
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("--- ") {
                finish()
                let head = line.dropFirst(4)
                let name = head.prefix { $0 != " " }
                let rest = head.dropFirst(name.count).drop { $0 == " " }
                key = String(name)
                if !rest.isEmpty { settings[String(name)] = String(rest) }
                lines = []
            } else if key != nil {
                lines.append(line)
            }
        }
        finish()
        return (bodies, settings)
    }

    /// Entries start with `### flavour:code`; a request is `METHOD path` and indented `Name: value` headers and a
    /// `body: text` line. `$BL` and `$KII` in paths stand for the default apps' prefixes.
    static func readRequests(_ text: String) -> [String: [ExampleRequest]] {
        var requests: [String: [ExampleRequest]] = [:]
        var key: String?
        for line in text.split(separator: "\n") where !line.hasPrefix("# ") && line != "#" {
            if line.hasPrefix("### ") {
                key = String(line.dropFirst(4))
                requests[key!] = []
            } else if let key, line.hasPrefix("  ") {
                let field = line.dropFirst(2)
                guard !requests[key]!.isEmpty else { continue }
                let last = requests[key]!.count - 1
                if field.hasPrefix("body: ") {
                    requests[key]![last].body = String(field.dropFirst(6))
                } else if let colon = field.firstIndex(of: ":") {
                    let value = field[field.index(after: colon)...].drop { $0 == " " }
                    requests[key]![last].headers.append((name: String(field[..<colon]), value: String(value)))
                }
            } else if let key {
                let method = line.prefix { $0 != " " }
                var path = String(line.dropFirst(method.count + 1))
                if path.hasPrefix("$BL") { path = CodeExample.bl + path.dropFirst(3) }
                if path.hasPrefix("$KII") { path = CodeExample.kii + path.dropFirst(4) }
                requests[key]!.append(ExampleRequest(String(method), path))
            }
        }
        return requests
    }
}
