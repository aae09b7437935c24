package import UnderstudyLua
package import Understudy

/// Which catalogued error codes a run produced: by their real trigger, only by an injected fault, or not at all
/// (`understudy run --codes`). The catalogue is the domain's own (`ErrorCatalogue`), so the table cannot drift
/// from the code; a produced code that is not catalogued is listed too, so a missing entry shows.
package struct CodeCoverage: Sendable {
    /// How a code was produced.
    package enum State: String, Sendable {
        case real = "real trigger"
        case injectedOnly = "injection only"
        /// Over HTTP only: a network or reply fault the app met (`connection dropped`, `empty body`, ...).
        case networkOnly = "network fault"
        case never = "not produced"
    }

    /// One code of one flavour.
    package struct Row: Sendable {
        package var flavour: Flavour
        package var code: String
        /// Nil for a produced code the catalogue does not list.
        package var entry: ErrorCatalogue.Entry?
        /// Calls that answered it by its real trigger.
        package var real: Int
        /// Calls that answered it because a fault was injected.
        package var injected: Int
        /// Requests that met it as a network or reply fault (over HTTP).
        package var network: Int = 0

        package var state: State { real > 0 ? .real : injected > 0 ? .injectedOnly : network > 0 ? .networkOnly : .never }
        /// True when the app (or scenario) met it at all: by its real trigger, an injection or a network fault.
        package var met: Bool { real + injected + network > 0 }
    }

    package private(set) var rows: [Row] = []

    /// Tallies the codes of every scenario of `result` against the catalogue.
    package init(result: SuiteResult) {
        var counts: [ProducedCode: Int] = [:]
        for outcome in result.outcomes {
            for (code, count) in outcome.codes { counts[code, default: 0] += count }
        }
        self.init(counts: counts)
    }

    package init(counts: [ProducedCode: Int]) {
        var byFlavour: [Flavour: [String: [CodeOrigin: Int]]] = [:]
        for (produced, count) in counts { byFlavour[produced.flavour, default: [:]][produced.code, default: [:]][produced.origin, default: 0] += count }
        for flavour in Flavour.allCases {
            for row in ErrorCatalogue.rows(of: flavour, counts: byFlavour[flavour] ?? [:]) {
                rows.append(Row(
                    flavour: flavour, code: row.code, entry: row.entry, real: row.counts[.real] ?? 0,
                    injected: row.counts[.injected] ?? 0, network: row.counts[.network] ?? 0
                ))
            }
        }
    }

    /// True when the run met some code of `flavour` (by any origin): a suite that never used a flavour is not
    /// measured against it.
    package func exercised(_ flavour: Flavour) -> Bool {
        rows.contains { $0.flavour == flavour && $0.met }
    }

    /// The rows a scenario can produce by a real trigger in Lua: what the percentage counts.
    package func reachable(_ flavour: Flavour? = nil) -> [Row] {
        rows.filter { $0.entry?.reach == .lua && (flavour == nil || $0.flavour == flavour) }
    }

    /// Percent of the codes reachable in Lua that the run produced by their real trigger.
    package func percent(_ flavour: Flavour? = nil) -> Double {
        let reachable = reachable(flavour)
        guard !reachable.isEmpty else { return 100 }
        return Double(reachable.count { $0.state == .real }) * 100 / Double(reachable.count)
    }

    /// `57.1`: one decimal.
    package static func format(_ percent: Double) -> String {
        let tenths = Int((percent * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// One line per flavour: `backendless: 30 of 41 codes reachable in Lua produced by their real trigger (73.2 %)`.
    package func summaryLines() -> [String] {
        Flavour.allCases.map { flavour in
            let reachable = reachable(flavour)
            let real = reachable.count { $0.state == .real }
            let injected = rows.count { $0.flavour == flavour && $0.state == .injectedOnly }
            return "\(flavour.rawValue): \(real) of \(reachable.count) codes reachable in Lua produced by their real trigger "
                + "(\(Self.format(percent(flavour))) %), \(injected) only by injection"
        }
    }

    /// The table the pretty report ends with.
    package func renderTable() -> String {
        var text = "\nError codes produced (--codes)\n"
        for flavour in Flavour.allCases {
            let flavourRows = rows.filter { $0.flavour == flavour }
            let width = max(6, flavourRows.map(\.code.count).max() ?? 0)
            text += "\n  \(flavour == .backendless ? "Backendless" : "Kii")\n"
            text += "  " + pad("code", width) + "  " + pad("produced", 16) + "  real  injected  note\n"
            for row in flavourRows {
                var notes: [String] = []
                if let entry = row.entry {
                    if entry.reach != .lua { notes.append(entry.reach.rawValue) }
                    if entry.version > 1 { notes.append("contract v\(entry.version)") }
                } else if NetworkOutcome(rawValue: row.code) != nil {
                    notes.append("network fault (over HTTP)")
                } else {
                    notes.append("not in the catalogue")
                }
                text += "  " + pad(row.code, width) + "  " + pad(row.state.rawValue, 16) + "  "
                    + pad(String(row.real), 4, right: true) + "  " + pad(String(row.injected), 8, right: true) + "  "
                    + notes.joined(separator: ", ") + "\n"
            }
        }
        text += "\n" + summaryLines().map { "  " + $0 }.joined(separator: "\n") + "\n"
        return text
    }

    /// A `testsuite` of properties, one per code (`backendless.3033` = `real 4, injected 0`), put before the
    /// closing `</testsuites>` of a JUnit report.
    package func addingProperties(toJUnit xml: String) -> String {
        var suite = "  <testsuite name=\"error codes\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
        suite += "    <properties>\n"
        for flavour in Flavour.allCases {
            suite += "      <property name=\"codes.\(flavour.rawValue).percent\" value=\"\(Self.format(percent(flavour)))\"/>\n"
        }
        for row in rows {
            suite += "      <property name=\(JUnitReporter.attribute("codes.\(row.flavour.rawValue).\(row.code)")) "
                + "value=\"\(row.state.rawValue): real \(row.real), injected \(row.injected)\"/>\n"
        }
        suite += "    </properties>\n  </testsuite>\n"
        let closing = "</testsuites>\n"
        guard xml.hasSuffix(closing) else { return xml + suite }
        return String(xml.dropLast(closing.count)) + suite + closing
    }

    /// Trailing TAP comment lines: `# codes backendless 3033: real trigger (real 4, injected 0)`.
    package func tapComment() -> String {
        var text = ""
        for row in rows {
            text += "# codes \(row.flavour.rawValue) \(TAPReporter.clean(row.code)): \(row.state.rawValue) (real \(row.real), injected \(row.injected))\n"
        }
        for line in summaryLines() { text += "# codes " + line + "\n" }
        return text
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}

extension CodeCoverage {
    /// The tally as JSON (`understudy run --codes-json FILE`), for combining the shards of a suite with
    /// `understudy codes merge`: `{"understudy_codes": 1, "codes": [{"flavour", "code", "real", "injected"}, ...]}`,
    /// every catalogued code listed, in the catalogue's order.
    package func json() -> String {
        var lines: [String] = []
        for row in rows {
            lines.append(
                "    {\"flavour\": \"\(row.flavour.rawValue)\", \"code\": \"\(TextEscaping.jsonInner(row.code))\", "
                    + "\"real\": \(row.real), \"injected\": \(row.injected), \"network\": \(row.network)}"
            )
        }
        return "{\n  \"understudy_codes\": 1,\n  \"codes\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// Sums the tallies of several shards.
    package static func merging(_ counts: [[ProducedCode: Int]]) -> CodeCoverage {
        var total: [ProducedCode: Int] = [:]
        for shard in counts {
            for (code, count) in shard { total[code, default: 0] += count }
        }
        return CodeCoverage(counts: total)
    }

    /// The flavours whose share of codes produced by their real trigger is below `minimum` percent, each with a
    /// line saying so. A flavour the run never met a code of is not measured (a Backendless-only suite is not
    /// failed for Kii's 0 %), unless `flavours` names it.
    package func shortfalls(below minimum: Double, flavours: [Flavour]? = nil) -> [String] {
        (flavours ?? Flavour.allCases.filter(exercised)).compactMap { flavour in
            let percent = percent(flavour)
            guard percent + 1e-9 < minimum else { return nil }
            return "\(flavour.rawValue) error codes produced by their real trigger: \(Self.format(percent)) %, below \(Self.format(minimum))"
        }
    }
}

extension TextEscaping {
    /// Text inside a JSON string (quotes, backslashes and control characters escaped).
    static func jsonInner(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
