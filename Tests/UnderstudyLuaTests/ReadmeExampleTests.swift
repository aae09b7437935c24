import Foundation
import Testing
import UnderstudyTestSupport

/// The README's "A scenario" section shows a file and what `understudy run` prints for it. A newcomer compares the
/// two byte for byte, so a record that gains a field (or a message that changes) must change the README too.
@Suite("The README's example")
struct ReadmeExampleTests {
    @Test("understudy run prints what the README shows for its example file (but the timing)")
    func exampleOutputMatches() async throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## A scenario\n\n```lua\n"), "README.md has no '## A scenario' Lua block")
        let rest = readme[section.upperBound...]
        let scenarioEnd = try #require(rest.range(of: "```\n"))
        let source = String(rest[..<scenarioEnd.lowerBound])
        let outputStart = try #require(rest.range(of: "$ understudy run example.lua\n"), "README.md shows no run of example.lua")
        let outputRest = rest[outputStart.upperBound...]
        let outputEnd = try #require(outputRest.range(of: "```"))
        let expected = String(outputRest[..<outputEnd.lowerBound])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try source.write(to: folder.appendingPathComponent("example.lua"), atomically: true, encoding: .utf8)

        let run = try await runCommand(["run", "example.lua"], in: folder.path)
        let printed = run.stdout

        /// The summary's duration differs from run to run: compare the rest.
        func withoutTiming(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("seed ") ? "seed …" : String(line)
            }
        }
        #expect(run.status == 1, "the example has one failing scenario on purpose")
        #expect(withoutTiming(printed) == withoutTiming(expected), "README.md's example output is stale:\n\(printed)")
    }
}
