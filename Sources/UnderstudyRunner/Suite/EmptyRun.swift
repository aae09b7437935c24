package import UnderstudyLua

/// Why a run ran no scenario: an empty run is not a green one (as pytest exits 5), so a CI job with a misspelt tag or
/// an empty folder fails, saying why, in every report format.
package enum EmptyRun {
    /// The exit status of a run that selected no scenario (pytest's "no tests collected").
    package static let exitStatus: Int32 = 5

    /// Why `result` ran nothing, or nil when it ran (or failed to load) something. `paths` are the paths the user
    /// named; `configuration` the run's (its selection is what selected nothing). An empty shard of a suite whose
    /// other shards have scenarios is not a reason: small suites leave some shards empty.
    package static func reason(
        of result: SuiteResult, files: [ScenarioFile], paths: [String], configuration: RunConfiguration, skippedFiles: [String] = []
    ) -> String? {
        guard result.events.isEmpty else { return nil }
        let named = paths.joined(separator: " ")
        if files.isEmpty {
            var text = "no scenario files (.lua) under \(named)"
            if !skippedFiles.isEmpty {
                text += " (skipped, as they are not scenario files: \(skippedFiles.joined(separator: ", ")))"
            }
            return text
        }
        var everything = configuration
        everything.selection = ScenarioSelection()
        everything.workers = nil
        let declared = SuiteRunner(configuration: everything).list(files).flatMap { (try? $0.get())?.declarations ?? [] }
        if declared.isEmpty {
            let which = files.count == 1 ? "\(files[0].path) declares" : "none of the \(files.count) files under \(named) declares"
            return "\(which) a scenario (scenario(\"name\", function() ... end))"
        }
        let selection = configuration.selection
        var criteria: [String] = []
        if let filter = selection.filter, !filter.isEmpty { criteria.append("--filter \(filter)") }
        for tag in selection.tags { criteria.append("--tag \(tag)") }
        if criteria.isEmpty { return nil }  // only the shard left it empty
        var text = "\(criteria.joined(separator: " ")) selects none of the \(declared.count) scenarios under \(named)"
        let tagsInUse = Set(declared.flatMap(\.tags)).sorted()
        if !selection.tags.isEmpty {
            text += tagsInUse.isEmpty ? " (no scenario has a tag)" : " (tags in use: \(tagsInUse.joined(separator: ", ")))"
        }
        return text
    }
}

extension TAPReporter {
    /// The report of a run that ran nothing: one failing test point saying why.
    package func renderEmpty(_ reason: String, seed: UInt64) -> String {
        (["TAP version 13", "1..1", "not ok 1 - no scenario ran"] + Self.diagnostics(["message": reason])
            + ["# 0 passed, 0 failed, 0 skipped; no scenario ran; seed \(seed)"]).joined(separator: "\n") + "\n"
    }
}

extension JUnitReporter {
    /// The report of a run that ran nothing: one errored test case saying why, so CI shows the job red.
    package func renderEmpty(_ reason: String, seed: UInt64) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"understudy\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000000\">\n"
        xml += "  <testsuite name=\"understudy\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000000\">\n"
        xml += "    <properties><property name=\"seed\" value=\"\(seed)\"/></properties>\n"
        xml += "    <testcase classname=\"understudy\" name=\"no scenario ran\" time=\"0.000000\">\n"
        xml += "      <error message=\(Self.attribute(reason)) type=\"NoScenarios\">\(Self.text(reason))</error>\n"
        xml += "    </testcase>\n  </testsuite>\n</testsuites>\n"
        return xml
    }
}
