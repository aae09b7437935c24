import Foundation
import Testing
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

/// A scenario whose name, failure message and `print` output carry line breaks, quotes, backslashes and raw
/// control characters (NUL, \x01, ESC), next to a skipped scenario with a `#` in its reason.
private let hostileSource = #"""
    scenario("multi\nline # name\1with\27[2Jesc", function()
      print("out\0put\1 with \27[31mred\27[0m\nsecond line\ttab \\ \"q\"")
      error("line one\nline two\0nul\1ctl\27[2J \"quoted\" \\ back ü", 0)
    end)
    scenario("skipped one", function() skip("why # not\nnow\1") end)
    scenario("fine", function() end)
    """#

/// Control characters other than line feed and tab.
private func hasRawControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }
}

@Suite("Runner robustness: reports, discovery and loading")
struct RunnerRobustnessTests {
    @Test("TAP diagnostics are one-line double-quoted YAML scalars, and names carry no raw controls or directives")
    func tapIsReadableByCommonConsumers() {
        let tap = TAPReporter().render(runScenarios(hostileSource, file: "s/hostile.lua"))
        #expect(!hasRawControl(tap))
        let lines = tap.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var inBlock = false
        var blockLines: [String] = []
        for line in lines {
            if line == "  ---" { inBlock = true; continue }
            if line == "  ..." { inBlock = false; continue }
            if inBlock { blockLines.append(line) }
        }
        #expect(blockLines.count >= 4)
        for line in blockLines {
            // `  key: "..."` with every inner quote escaped: what Perl's YAMLish reader and YAML parsers accept.
            let isQuotedPair = line.wholeMatch(of: #/  [a-z]+: "(?:[^"\\]|\\.)*"/#) != nil
            #expect(isQuotedPair, "not a one-line quoted pair: \(line)")
        }
        #expect(blockLines.contains(##"  message: "line one\nline two\x00nul\x01ctl\x1B[2J \"quoted\" \\ back ü""##))
        #expect(blockLines.contains(##"  output: "out\x00put\x01 with \x1B[31mred\x1B[0m\nsecond line\ttab \\ \"q\"\n""##))
        #expect(lines.contains(##"not ok 1 - s/hostile.lua :: multi\nline \# name\u0001with\u001B[2Jesc"##))
        #expect(lines.contains(##"ok 2 - s/hostile.lua :: skipped one # SKIP why \# not\nnow\u0001"##))
        #expect(lines.contains("ok 3 - s/hostile.lua :: fine"))
    }

    @Test("JUnit times are plain decimals and XML-forbidden characters show as \\u escapes")
    func junitIsValid() {
        let xml = JUnitReporter().render(runScenarios(hostileSource, file: "s/hostile.lua"))
        let times = xml.matches(of: /time="([^"]*)"/).map { String($0.output.1) }
        #expect(times.count >= 5)
        for time in times { #expect(time.wholeMatch(of: /[0-9]+\.[0-9]{6}/) != nil, "time=\"\(time)\"") }
        #expect(!hasRawControl(xml))
        #expect(xml.contains(##"line two\u0000nul\u0001ctl\u001B[2J &quot;quoted&quot;"##))
        #expect(xml.contains(##"<system-out>out\u0000put\u0001 with \u001B[31mred\u001B[0m"##))
        #expect(xml.contains(##"name="multi&#10;line # name\u0001with\u001B[2Jesc""##))
        #expect(!xml.contains("nul?ctl"))
    }

    @Test("a JUnit report of several files names the seed once (xunitparser refuses a property seen twice)")
    func junitSeedOnce() {
        let result = runFiles(
            [("s/a.lua", #"scenario("a", function() end)"#), ("s/b.lua", #"scenario("b", function() end)"#),
             ("s/c.lua", #"scenario("c", function() error("no") end)"#)],
            seed: 42
        )
        let xml = JUnitReporter().render(result)
        #expect(xml.components(separatedBy: "<testsuite ").count - 1 == 3)
        #expect(xml.components(separatedBy: #"<property name="seed""#).count - 1 == 1)
        #expect(xml.contains(#"<property name="seed" value="42"/>"#))
    }

    @Test("the pretty report shows control characters escaped, keeping line breaks and tabs")
    func prettyEscapesControls() {
        let result = runScenarios(hostileSource, file: "s/hostile.lua")
        let reporter = PrettyReporter()
        var previous: String?
        var text = ""
        for event in result.events {
            text += reporter.render(event, previousFile: previous)
            if case .finished(let outcome) = event { previous = outcome.file }
        }
        #expect(!hasRawControl(text))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains(##"  ✗ multi\nline # name\u0001with\u001B[2Jesc"##))
        #expect(lines.contains(##"      line two\u0000nul\u0001ctl\u001B[2J "quoted" \ back ü"##))
        #expect(lines.contains("        second line\ttab \\ \"q\""))
        #expect(lines.contains(##"  - skipped one (skipped: why # not\nnow\u0001)"##))
    }

    @Test("a symlink loop is walked once, a linked folder adds no second run, a broken link is a load error")
    func symlinksAreFollowedOnce() throws {
        let fileManager = FileManager.default
        let root = fileManager.temporaryDirectory.appendingPathComponent("understudy-links-\(UUID().uuidString)").path
        defer { try? fileManager.removeItem(atPath: root) }
        try fileManager.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try ##"scenario("only", function() end)"##.write(toFile: root + "/real/a.lua", atomically: true, encoding: .utf8)
        try fileManager.createSymbolicLink(atPath: root + "/real/self", withDestinationPath: ".")
        try fileManager.createSymbolicLink(atPath: root + "/0alias", withDestinationPath: "real")
        try fileManager.createSymbolicLink(atPath: root + "/real/b.lua", withDestinationPath: "a.lua")
        try fileManager.createSymbolicLink(atPath: root + "/gone.lua", withDestinationPath: "nowhere.lua")

        let files = try ScenarioDiscovery.files(at: [root, root + "/real/a.lua"])
        #expect(files.map(\.path) == [root + "/gone.lua", root + "/real/a.lua"])
        let result = SuiteRunner(configuration: RunConfiguration()).run(files)
        #expect(result.outcomes.map(\.declaration.name) == ["only"])
        #expect(result.loadErrors.map(\.message) == ["the file is a broken symbolic link (to nowhere.lua)"])

        #expect(throws: DiscoveryError.self) { try ScenarioDiscovery.files(at: [root + "/gone.lua"]) }
    }

    @Test("a UTF-8 BOM and a #! first line load as with stock Lua, and line numbers stay right")
    func bomAndShebangLoad() {
        let result = runFiles([
            ("s/bom.lua", "\u{FEFF}scenario(\"bom\", function() end)\n"),
            ("s/shebang.lua", "#!/usr/bin/env understudy run\nscenario(\"shebang\", function() end)\nscenario(\"line 3\", function() error(\"boom\") end)\n"),
            ("s/both.lua", "\u{FEFF}# a comment line\n\nscenario(\"both\", function() end)\n"),
        ])
        #expect(result.loadErrors.isEmpty, "\(result.loadErrors.map(\.message))")
        #expect(result.outcome("bom")?.status == .passed)
        #expect(result.outcome("shebang")?.status == .passed)
        #expect(result.outcome("both")?.declaration.line == 3)
        #expect(result.outcome("line 3")?.message == "s/shebang.lua:3: boom")
    }
}
