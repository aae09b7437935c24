package import Understudy

/// `understudy codes check`: whether the codes met reach `--min` percent of each measured flavour's codes and
/// include every `--require`d code, and what is missing when not.
package struct CodesGate: Sendable {
    package var coverage: CodeCoverage
    /// For files from `serve`: per flavour, the codes reachable from the operations the app called (the
    /// denominator); nil for Lua runs alone (the codes reachable in Lua then).
    package var reachableFromCalls: [Flavour: Set<String>]?
    /// The flavours to measure; nil: those the files met a code of.
    package var flavours: [Flavour]?
    package var min: Double?
    package var required: [String]
    /// Count only real triggers as met.
    package var realOnly: Bool

    package init(
        coverage: CodeCoverage, reachableFromCalls: [Flavour: Set<String>]?, flavours: [Flavour]?, min: Double?,
        required: [String], realOnly: Bool
    ) {
        self.coverage = coverage
        self.reachableFromCalls = reachableFromCalls
        self.flavours = flavours
        self.min = min
        self.required = required
        self.realOnly = realOnly
    }

    /// One measured flavour.
    package struct FlavourResult: Sendable {
        package var flavour: Flavour
        package var denominator: [String]
        package var met: [String]
        package var missing: [String]
        package var percent: Double
        package var passed: Bool
    }

    /// One required code.
    package struct Requirement: Sendable {
        package var code: String
        /// The flavour whose code it is, when found.
        package var flavour: Flavour?
        package var met: Bool
    }

    /// What `evaluate` found.
    package struct Result: Sendable {
        package var minimum: Double?
        package var flavours: [FlavourResult]
        package var required: [Requirement]
        package var passed: Bool { flavours.allSatisfy(\.passed) && required.allSatisfy(\.met) }

        /// One line per shortfall, naming what is missing.
        package var failures: [String] {
            var lines: [String] = []
            for result in flavours where !result.passed {
                lines.append(
                    "\(result.flavour.rawValue): \(result.met.count) of \(result.denominator.count) codes met "
                        + "(\(CodeCoverage.format(result.percent)) %), below --min \(CodeCoverage.format(minimum ?? 0)); missing: "
                        + result.missing.joined(separator: ", ")
                )
            }
            for requirement in required where !requirement.met {
                var unknown = ""
                if requirement.flavour == nil {
                    let nearest = NearestName.to(requirement.code, among: ErrorCatalogue.all.map(\.code))
                    unknown = " (no flavour has this code" + (nearest.map { "; did you mean \($0)?" } ?? "") + ")"
                }
                lines.append("required code \(requirement.code) was never met" + unknown)
            }
            return lines
        }
    }

    private func isMet(_ row: CodeCoverage.Row) -> Bool {
        realOnly ? row.real > 0 : row.real + row.injected + row.network > 0
    }

    package func evaluate() -> Result {
        let measured = flavours ?? Flavour.allCases.filter(coverage.exercised)
        var results: [FlavourResult] = []
        if let min {
            for flavour in measured {
                let rows = coverage.rows.filter { $0.flavour == flavour }
                let denominator: [String]
                if let reachableFromCalls {
                    let reachable = reachableFromCalls[flavour] ?? []
                    denominator = rows.map(\.code).filter(reachable.contains)
                } else {
                    denominator = coverage.reachable(flavour).map(\.code)
                }
                let metCodes = Set(rows.filter(isMet).map(\.code))
                let met = denominator.filter(metCodes.contains)
                // Nothing to meet: full marks for a flavour the files met codes of, none for one only --flavour named.
                let percent = denominator.isEmpty
                    ? (coverage.exercised(flavour) ? 100 : 0) : Double(met.count) * 100 / Double(denominator.count)
                results.append(FlavourResult(
                    flavour: flavour, denominator: denominator, met: met, missing: denominator.filter { !metCodes.contains($0) },
                    percent: percent, passed: percent + 1e-9 >= min
                ))
            }
        }
        let requirements = required.map { code -> Requirement in
            let candidates = coverage.rows.filter { row in
                (flavours == nil || flavours!.contains(row.flavour))
                    && (row.flavour == .backendless ? row.code == code : row.code.lowercased() == code.lowercased())
            }
            return Requirement(code: code, flavour: candidates.first?.flavour, met: candidates.contains(where: isMet))
        }
        return Result(minimum: min, flavours: results, required: requirements)
    }
}

extension CodesGate.Result {
    /// Lines for a terminal.
    package func text() -> String {
        var text = ""
        for result in flavours {
            text += "\(result.passed ? "ok  " : "FAIL") \(result.flavour.rawValue): \(result.met.count) of \(result.denominator.count) codes met "
                + "(\(CodeCoverage.format(result.percent)) %, --min \(CodeCoverage.format(minimum ?? 0)))"
            text += result.missing.isEmpty ? "\n" : "; missing: \(result.missing.joined(separator: ", "))\n"
        }
        for requirement in required {
            text += "\(requirement.met ? "ok  " : "FAIL") required \(requirement.code)"
                + (requirement.met ? " met\n" : " never met\n")
        }
        text += passed ? "codes check passed\n" : "codes check failed\n"
        return text
    }

    /// `{"passed", "flavours": [{flavour, met, reachable, percent, passed, missing}], "required": [{code, flavour, met}]}`.
    package func json() -> String {
        func list(_ items: [String]) -> String { "[" + items.map { "\"\(TextEscaping.jsonInner($0))\"" }.joined(separator: ", ") + "]" }
        let flavourLines = flavours.map { result in
            "    {\"flavour\": \"\(result.flavour.rawValue)\", \"met\": \(result.met.count), \"reachable\": \(result.denominator.count), "
                + "\"percent\": \(CodeCoverage.format(result.percent)), \"passed\": \(result.passed), \"missing\": \(list(result.missing))}"
        }
        let requiredLines = required.map { requirement in
            "    {\"code\": \"\(TextEscaping.jsonInner(requirement.code))\", \"flavour\": "
                + (requirement.flavour.map { "\"\($0.rawValue)\"" } ?? "null") + ", \"met\": \(requirement.met)}"
        }
        return "{\n  \"passed\": \(passed),\n  \"min\": \(minimum.map(CodeCoverage.format) ?? "null"),\n  \"flavours\": [\n"
            + flavourLines.joined(separator: ",\n") + (flavourLines.isEmpty ? "" : "\n") + "  ],\n  \"required\": [\n"
            + requiredLines.joined(separator: ",\n") + (requiredLines.isEmpty ? "" : "\n") + "  ]\n}\n"
    }

    /// A Markdown job summary: a table per check, what is missing.
    package func markdown() -> String {
        var text = "## Error-code coverage: \(passed ? "passed" : "failed")\n\n"
        if !flavours.isEmpty {
            text += "| flavour | met | reachable | % | --min | missing |\n|---|---:|---:|---:|---:|---|\n"
            for result in flavours {
                text += "| \(result.passed ? "✅" : "❌") \(result.flavour.rawValue) | \(result.met.count) | \(result.denominator.count) | "
                    + "\(CodeCoverage.format(result.percent)) | \(CodeCoverage.format(minimum ?? 0)) | "
                    + result.missing.map { "`\($0)`" }.joined(separator: " ") + " |\n"
            }
            text += "\n"
        }
        if !required.isEmpty {
            text += "| required code | met |\n|---|---|\n"
            for requirement in required {
                text += "| `\(requirement.code)` | \(requirement.met ? "✅ yes" : "❌ never") |\n"
            }
        }
        return text
    }

    /// A JUnit report: one test case per measured flavour and per required code, failed when short.
    package func junit() -> String {
        var cases: [String] = []
        for result in flavours {
            var line = "    <testcase classname=\"codes.min\" name=\(JUnitReporter.attribute("\(result.flavour.rawValue) codes met >= \(CodeCoverage.format(minimum ?? 0)) %"))"
            if result.passed {
                line += "/>"
            } else {
                line += ">\n      <failure message=\(JUnitReporter.attribute("\(CodeCoverage.format(result.percent)) % met; missing: \(result.missing.joined(separator: ", "))"))/>\n    </testcase>"
            }
            cases.append(line)
        }
        for requirement in required {
            var line = "    <testcase classname=\"codes.require\" name=\(JUnitReporter.attribute("code \(requirement.code) met"))"
            line += requirement.met ? "/>" : ">\n      <failure message=\(JUnitReporter.attribute("code \(requirement.code) was never met"))/>\n    </testcase>"
            cases.append(line)
        }
        let failures = flavours.count { !$0.passed } + required.count { !$0.met }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
            + "  <testsuite name=\"error codes\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
            + cases.joined(separator: "\n") + (cases.isEmpty ? "" : "\n") + "  </testsuite>\n</testsuites>\n"
    }
}
