public import Understudy

/// What `understudy explain CODE` prints, from the catalogue and the examples.
public enum CodeExplanation {
    /// The full explanation of one code.
    public static func render(_ entry: ErrorCatalogue.Entry) -> String {
        let name = entry.flavour == .backendless ? "Backendless" : "Kii"
        var text = "\(name) \(entry.code) — HTTP \(entry.status)\(entry.version > 1 ? " (contract version 2: lifecycle.md)" : "")\n\n"
        text += "message:    \(entry.message)\n"
        text += "when:       \(entry.when)\n"
        text += "reach:      \(entry.reach == .lua ? "a real trigger in Lua" : entry.reach.rawValue)\n"
        if !entry.operations.isEmpty { text += "operations: \(entry.operations.joined(separator: ", "))\n" }
        if !entry.settings.isEmpty { text += "settings:   \(entry.settings.joined(separator: ", "))\n" }
        let orders = ErrorCatalogue.checkOrder(of: entry.flavour)
        let placed = orders.keys.sorted().filter { orders[$0]!.contains(entry.code) }
        if !placed.isEmpty {
            text += "\ncheck order (the first check that applies decides the answer):\n"
            for operation in placed {
                let steps = orders[operation]!.map { $0 == entry.code ? "[\($0)]" : $0 }
                text += "  \(operation): \(steps.joined(separator: " → "))\n"
            }
        }
        guard let example = CodeExample.example(for: entry) else {
            return text + "\n(no example written for this code yet)\n"
        }
        if let scenario = example.scenario {
            text += "\nA scenario that produces it (understudy run FILE):\n\n" + scenario
        }
        if !example.requests.isEmpty {
            text += "\nOver HTTP, against `understudy serve` (default apps):\n\n"
            text += "curl -s -X POST 'http://127.0.0.1:8080/_understudy/reset' -o /dev/null\n"
            for request in example.requests { text += request.curl() + "\n" }
        }
        return text
    }

    /// The catalogue, one line per code: flavour, code, status, version and when.
    public static func list() -> String {
        var text = ""
        for flavour in Flavour.allCases {
            text += flavour == .backendless ? "Backendless\n" : "\nKii\n"
            let entries = ErrorCatalogue.entries(of: flavour)
            let width = entries.map(\.code.count).max() ?? 0
            for entry in entries {
                let padding = String(repeating: " ", count: width - entry.code.count)
                let notes = (entry.reach == .lua ? "" : " [\(entry.reach.rawValue)]") + (entry.version > 1 ? " [v2]" : "")
                text += "  \(entry.code)\(padding)  \(entry.status)  \(entry.when)\(notes)\n"
            }
        }
        return text + "\nunderstudy explain CODE shows one in full.\n"
    }
}
