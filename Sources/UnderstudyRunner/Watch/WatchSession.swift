internal import UnderstudyLua
/// `understudy run --watch`: runs the suite, then, after each change, re-runs only the files whose text changed
/// (or that appeared) and reports only what changed since the last run: new, fixed and newly failing scenarios,
/// files that stopped or started loading, files removed. A file that does not load is reported and watched on.
package final class WatchSession {
    private let paths: [String]
    private let runner: SuiteRunner
    private let pretty: PrettyReporter
    /// The text of each file at its last run.
    private var contents: [String: [UInt8]] = [:]
    /// The last outcome of each scenario, by file and then by name and occurrence.
    private var outcomes: [String: [String: ScenarioOutcome]] = [:]
    /// The files that did not load at their last run, with the message.
    private var loadErrors: [String: String] = [:]

    package init(paths: [String], runner: SuiteRunner, verbose: Bool = false) {
        self.paths = paths
        self.runner = runner
        self.pretty = PrettyReporter(verbose: verbose)
    }

    /// One cycle: finds the files, runs those that changed, and returns what to show (empty when nothing changed).
    package func cycle() -> String {
        let files: [ScenarioFile]
        do {
            files = try ScenarioDiscovery.files(at: paths)
        } catch {
            return "understudy: \(error.description)\n"
        }
        var text = ""
        let present = Set(files.map(\.path))
        for removed in contents.keys.sorted() where !present.contains(removed) {
            text += "\(TextEscaping.inline(removed)): removed\n"
            contents[removed] = nil
            outcomes[removed] = nil
            loadErrors[removed] = nil
        }
        let changed = files.filter { contents[$0.path] != $0.contents || ($0.problem != nil && loadErrors[$0.path] == nil) }
        guard !changed.isEmpty || !text.isEmpty else { return "" }
        let result = runner.run(changed)
        var ran: [String: [(key: String, outcome: ScenarioOutcome)]] = [:]
        var occurrences: [String: [String: Int]] = [:]
        for event in result.events {
            switch event {
            case .loadFailed(let error):
                if loadErrors[error.file] != error.message { text += pretty.render(event, previousFile: nil) }
                loadErrors[error.file] = error.message
                outcomes[error.file] = nil
            case .finished(let outcome):
                let occurrence = occurrences[outcome.file, default: [:]][outcome.declaration.name, default: 0]
                occurrences[outcome.file, default: [:]][outcome.declaration.name] = occurrence + 1
                ran[outcome.file, default: []].append(("\(outcome.declaration.name)#\(occurrence)", outcome))
            }
        }
        for file in changed {
            contents[file.path] = file.contents
            guard let now = ran[file.path] else {
                if loadErrors[file.path] == nil { outcomes[file.path] = [:] }  // a file without scenarios
                continue
            }
            if loadErrors.removeValue(forKey: file.path) != nil { text += "\(TextEscaping.inline(file.path)): loads again\n" }
            let before = outcomes[file.path] ?? [:]
            var lines = ""
            for (key, outcome) in now {
                if let earlier = before[key], earlier.status == outcome.status, earlier.message == outcome.message { continue }
                var line = pretty.render(.finished(outcome), previousFile: file.path)
                if before[key]?.status == .failed, outcome.status == .passed { line = line.replacingFirst("✓", with: "✓ (fixed)") }
                lines += line
            }
            let keys = Set(now.map(\.key))
            for key in before.keys.sorted() where !keys.contains(key) {
                lines += "  - \(TextEscaping.inline(String(key.prefix { $0 != "#" }))) (no longer declared)\n"
            }
            if !lines.isEmpty { text += TextEscaping.inline(file.path) + "\n" + lines }
            outcomes[file.path] = Dictionary(now.map { ($0.key, $0.outcome) }, uniquingKeysWith: { first, _ in first })
        }
        if text.isEmpty { text = "no change in outcomes\n" }
        let all = outcomes.values.flatMap(\.values)
        let failed = all.count { $0.status == .failed } + loadErrors.count
        text += "\(all.count { $0.status == .passed }) passed, \(failed) failed"
        text += loadErrors.isEmpty ? "" : " (\(loadErrors.count) file\(loadErrors.count == 1 ? "" : "s") not loading)"
        text += " · re-ran \(changed.count) file\(changed.count == 1 ? "" : "s")"
        return text + "\n"
    }

    /// Runs a cycle, then a cycle after every change, writing each report through `output`, until `keepGoing`
    /// says stop (it is asked after each wait of up to `pollMilliseconds`).
    package func watch(
        with watcher: FileWatcher, pollMilliseconds: Int32 = 1000, output: (String) -> Void, keepGoing: () -> Bool = { true }
    ) {
        output(cycle())
        output("watching \(paths.joined(separator: " ")) for changes (Ctrl-C stops)\n")
        while keepGoing() {
            guard watcher.wait(milliseconds: pollMilliseconds) else { continue }
            watcher.refresh()
            let report = cycle()
            if !report.isEmpty { output(report) }
        }
    }
}

extension String {
    /// The text with the first `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) {
                return String(self[..<index]) + replacement + String(self[self.index(index, offsetBy: target.count)...])
            }
            index = self.index(after: index)
        }
        return self
    }
}
