internal import UnderstudyLua
/// Human-readable output: one line per scenario; for a failure the message, the failing statement's location,
/// the captured output and a traceback; last the summary line and the seed.
package struct PrettyReporter: Sendable {
    /// Show captured `print` output of passing scenarios too.
    package var verbose: Bool

    package init(verbose: Bool = false) {
        self.verbose = verbose
    }

    /// The lines for one event (streamed as the run goes).
    package func render(_ event: SuiteEvent, previousFile: String?) -> String {
        TextEscaping.visible(renderRaw(event, previousFile: previousFile))
    }

    private func renderRaw(_ event: SuiteEvent, previousFile: String?) -> String {
        var text = ""
        switch event {
        case .loadFailed(let error):
            text += "\(TextEscaping.inline(error.file))\n"
            text += "  ✗ the file did not load\n"
            text += Self.indent(error.message, by: 6)
            if let traceback = error.traceback, !traceback.isEmpty { text += Self.indent(traceback, by: 6) }
        case .finished(let outcome):
            if outcome.file != previousFile { text += "\(TextEscaping.inline(outcome.file))\n" }
            let name = TextEscaping.inline(outcome.declaration.name)
            switch outcome.status {
            case .passed:
                text += "  ✓ \(name)\n"
                if verbose, !outcome.output.isEmpty { text += Self.section("output", outcome.output) }
            case .skipped:
                text += "  - \(name) (skipped: \(TextEscaping.inline(outcome.message ?? "no reason given")))\n"
            case .failed:
                text += "  ✗ \(name)\n"
                text += Self.indent(outcome.message ?? "failed", by: 6)
                let location = outcome.location ?? "\(outcome.file):\(outcome.declaration.line) (the scenario's declaration)"
                text += "      at \(location)\n"
                if !outcome.output.isEmpty { text += Self.section("output", outcome.output) }
                if let traceback = outcome.traceback, !traceback.isEmpty { text += Self.section("traceback", traceback) }
            }
        }
        return text
    }

    /// The closing lines: `N passed, M failed[, K skipped]` alone on its line, then seed and time.
    package func summary(_ result: SuiteResult) -> String {
        var line = "\(result.passed) passed, \(result.failed) failed"
        if result.skipped > 0 { line += ", \(result.skipped) skipped" }
        let seconds = (result.duration * 1000).rounded() / 1000
        return "\n\(line)\nseed \(result.seed) · \(seconds) s · \(result.jobs) job\(result.jobs == 1 ? "" : "s")\n"
    }

    static func indent(_ text: String, by spaces: Int) -> String {
        let padding = String(repeating: " ", count: spaces)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { padding + $0 }.joined(separator: "\n") + "\n"
    }

    static func section(_ title: String, _ body: String) -> String {
        var body = body
        while body.hasSuffix("\n") { body.removeLast() }
        let cleaned = body.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0 != "stack traceback:" }
            .joined(separator: "\n")
        return "      \(title):\n" + indent(cleaned, by: 8)
    }
}
