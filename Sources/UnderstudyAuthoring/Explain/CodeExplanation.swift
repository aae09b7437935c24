public import Understudy

/// What `understudy explain CODE` prints, from the catalogue and the examples.
public enum CodeExplanation {
    /// Which version of the contract added the code, for codes after the first.
    static func contractNote(_ version: Int) -> String {
        switch version {
        case 2: return " (contract version 2: lifecycle.md)"
        case 3...: return " (contract version \(version): v\(version).md)"
        default: return ""
        }
    }

    /// The full explanation of one code.
    public static func render(_ entry: ErrorCatalogue.Entry) -> String {
        let name = entry.flavour == .backendless ? "Backendless" : "Kii"
        var text = "\(name) \(entry.code) — HTTP \(entry.status)\(Self.contractNote(entry.version))\n\n"
        text += "message:    \(entry.message)\n"
        text += "when:       \(entry.when)\n"
        text += "reach:      \(entry.reach == .lua ? "a real trigger in Lua" : entry.reach.rawValue)\n"
        if !entry.operations.isEmpty { text += "operations: \(entry.operations.joined(separator: ", "))\n" }
        if !entry.settings.isEmpty { text += "settings:   \(entry.settings.joined(separator: ", "))\n" }
        // The check order is the operations' declarations' (OperationDeclaration.checks).
        let placed = ErrorCatalogue.declarations(of: entry.flavour).filter { $0.checkNames.contains(entry.code) }
            .sorted { $0.name < $1.name }
        if !placed.isEmpty {
            text += "\ncheck order (the first check that applies decides the answer):\n"
            for declaration in placed {
                let steps = declaration.checkNames.map { $0 == entry.code ? "[\($0)]" : $0 }
                text += "  \(declaration.name): \(steps.joined(separator: " → "))\n"
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
                let notes = (entry.reach == .lua ? "" : " [\(entry.reach.rawValue)]") + (entry.version > 1 ? " [v\(entry.version)]" : "")
                text += "  \(entry.code)\(padding)  \(entry.status)  \(entry.when)\(notes)\n"
            }
        }
        return text + "\nunderstudy explain CODE shows one in full.\n"
    }
}
