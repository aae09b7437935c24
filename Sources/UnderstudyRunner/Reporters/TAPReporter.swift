internal import UnderstudyLua
/// TAP version 13 output: one test point per scenario (and one per file that did not load).
package struct TAPReporter: Sendable {
    package init() {}

    package func render(_ result: SuiteResult) -> String {
        var lines = ["TAP version 13", "1..\(result.events.count)"]
        for (offset, event) in result.events.enumerated() {
            let number = offset + 1
            switch event {
            case .loadFailed(let error):
                lines.append("not ok \(number) - \(Self.clean(error.file)) (the file did not load)")
                lines.append(contentsOf: Self.diagnostics(["message": error.message, "file": error.file]))
            case .finished(let outcome):
                let description = "\(Self.clean(outcome.file)) :: \(Self.clean(outcome.declaration.name))"
                switch outcome.status {
                case .passed: lines.append("ok \(number) - \(description)")
                case .skipped: lines.append("ok \(number) - \(description) # SKIP \(Self.clean(outcome.message ?? ""))")
                case .failed:
                    lines.append("not ok \(number) - \(description)")
                    var fields: [String: String] = ["message": outcome.message ?? "failed"]
                    fields["at"] = outcome.location ?? "\(outcome.file):\(outcome.declaration.line)"
                    if !outcome.output.isEmpty { fields["output"] = outcome.output }
                    if let traceback = outcome.traceback, !traceback.isEmpty { fields["traceback"] = traceback }
                    lines.append(contentsOf: Self.diagnostics(fields))
                }
            }
        }
        lines.append("# \(result.passed) passed, \(result.failed) failed, \(result.skipped) skipped; seed \(result.seed)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML block as TAP 13 expects it, every value a double-quoted scalar on one line (multi-line block
    /// scalars are beyond Perl's TAP::Parser, which `prove` uses).
    static func diagnostics(_ fields: [String: String]) -> [String] {
        var lines = ["  ---"]
        for key in ["message", "at", "file", "output", "traceback"] {
            guard let value = fields[key] else { continue }
            lines.append("  \(key): \(TextEscaping.yamlQuoted(value))")
        }
        lines.append("  ...")
        return lines
    }

    /// A TAP description on one line: `\\` and `\#` escaped (so no `#` starts a directive), control characters
    /// as `\n`, `\t`, `\r` or `\u001B` (`TextEscaping.inline`, whose escapes are not escaped again).
    static func clean(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "#": escaped += "\\#"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return TextEscaping.inline(escaped)
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
