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

    /// Printed above the curl commands: their first line resets the whole server.
    public static let resetWarning =
        "# The first command RESETS THE WHOLE SERVER (POST /_understudy/reset): every app, user, fault and outbox of\n"
        + "# the running `understudy serve` starts afresh. Run it against a server you can throw away.\n"

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
        let example = CodeExample.example(for: entry)
        if let scenario = example?.scenario {
            text += "\nA scenario that produces it (understudy run FILE):\n\n" + scenario
        } else {
            text += "\nNo scenario example: " + (entry.reach == .httpOnly
                ? "only HTTP answers this code, a Lua scenario cannot produce it.\n"
                : "none is written for this code.\n")
        }
        if let requests = example?.requests, !requests.isEmpty {
            text += "\nOver HTTP, against `understudy serve` (default apps):\n\n"
            text += Self.resetWarning
            text += "curl -s -X POST 'http://127.0.0.1:8080/_understudy/reset' -o /dev/null\n"
            for request in requests { text += request.curl() + "\n" }
        } else if entry.operations.isEmpty {
            text += "\nNo HTTP example: none is written for this code; docs/http.md says when the server answers it.\n"
        } else {
            text += "\nNo HTTP example: none is written for this code. To see it over HTTP, inject it on one of its "
                + "operations (POST /_understudy/faults {\"op\": \"\(entry.operations.first ?? "users.register")\", "
                + "\"code\": \(entry.flavour == .backendless ? entry.code : "\"\(entry.code)\", \"status\": \(entry.status)")}) "
                + "and call that operation's route (docs/http.md).\n"
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
