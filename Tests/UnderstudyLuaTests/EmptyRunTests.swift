import Foundation
import Testing
import UnderstudyLua
import UnderstudyRunner
import Understudy
import UnderstudyAuthoring
import UnderstudyTestSupport

/// Runs the built `understudy` with `arguments` in `directory` (the repository by default).
private func understudy(_ arguments: [String], in directory: URL? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
    let result = try await runCommand(arguments, in: directory?.path)
    return (result.status, result.stdout, result.stderr)
}

/// A fresh folder with `files` (path → text) written into it.
private func folder(_ files: [String: String]) throws -> URL {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    for (path, text) in files {
        let url = base.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return base
}

@Suite("An empty run is not green")
struct EmptyRunTests {
    @Test("an empty folder, a file without scenarios and a tag or filter that selects nothing exit 5 in every format, saying why")
    func emptyRunsFail() async throws {
        let dir = try folder([
            "empty/.keep": "",
            "none/helpers.lua": "local x = 1\n",
            "suite/a.lua": #"scenario("signs up", { tags = { "smoke" } }, function() end)"# + "\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["pretty", "tap", "junit"] {
            let empty = try await understudy(["run", "empty", "--format", format], in: dir)
            #expect(empty.status == 5, "\(format): \(empty)")
            #expect(empty.stderr.contains("no scenario ran: no scenario files (.lua) under empty"), "\(empty.stderr)")
            let none = try await understudy(["run", "none", "--format", format], in: dir)
            #expect(none.status == 5)
            #expect(none.stderr.contains("none/helpers.lua declares a scenario"), "\(none.stderr)")
            let tag = try await understudy(["run", "suite", "--tag", "smokey", "--format", format], in: dir)
            #expect(tag.status == 5)
            #expect(tag.stderr.contains("--tag smokey selects none of the 1 scenarios under suite (tags in use: smoke)"), "\(tag.stderr)")
            let filter = try await understudy(["run", "suite", "--filter", "nothing like it", "--format", format], in: dir)
            #expect(filter.status == 5)
            if format == "tap" {
                #expect(tag.stdout.contains("1..1\nnot ok 1 - no scenario ran"), "\(tag.stdout)")
            }
            if format == "junit" {
                #expect(tag.stdout.contains(#"<error message="--tag smokey selects none"#), "\(tag.stdout)")
                #expect(tag.stdout.contains(#"errors="1""#))
            }
            let fine = try await understudy(["run", "suite", "--tag", "smoke", "--format", format], in: dir)
            #expect(fine.status == 0, "\(fine)")
        }
    }

    @Test("understudy run on the folder understudy init wrote passes: the editor types file is not run")
    func initKitRuns() async throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let kit = dir.appendingPathComponent("kit").path
        let made = try await understudy(["init", kit])
        #expect(made.status == 0, "\(made)")
        let run = try await understudy(["run", kit])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("6 passed, 0 failed"), "\(run.stdout)")
        #expect(ScenarioDiscovery.isDefinitionFile(Array("\n---@meta understudy\n".utf8)))
        #expect(!ScenarioDiscovery.isDefinitionFile(Array("-- ---@meta\nscenario('x', function() end)".utf8)))
    }
}

@Suite("--codes across shards")
struct CodesMergeTests {
    @Test("each shard writes --codes-json; codes merge adds them up to the whole suite's table and applies --min")
    func shardsMerge() async throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for shard in 1...3 {
            let path = dir.appendingPathComponent("codes-\(shard).json").path
            let run = try await understudy(["run", "scenarios/", "--shard", "\(shard)/3", "--codes-json", path])
            #expect(run.status == 0, "\(run.stderr)")
            files.append(path)
        }
        let whole = try await understudy(["run", "scenarios/", "--codes"])
        let merged = try await understudy(["codes", "merge"] + files + ["--min", "90"])
        #expect(merged.status == 0, "\(merged)")
        let summary = { (text: String) in text.split(separator: "\n").filter { $0.contains("produced by their real trigger") } }
        #expect(!summary(merged.stdout).isEmpty)
        #expect(summary(merged.stdout) == summary(whole.stdout), "\(merged.stdout)")
        let one = try await understudy(["codes", "merge", files[0], "--min", "90"])
        #expect(one.status == 1, "one shard alone is below 90 %")
        #expect(one.stderr.contains("below 90.0"))
    }
}

@Suite("explain says what it has for every code")
struct ExplainEveryCodeTests {
    @Test("every code has an HTTP example or says plainly it has none, and the reset line is announced")
    func everyCodeSaysSomething() {
        for entry in ErrorCatalogue.all {
            let text = CodeExplanation.render(entry)
            #expect(!text.contains("no example written"), "\(entry.code)")
            let hasCurl = text.contains("curl -s -X POST 'http://127.0.0.1:8080/_understudy/reset'")
            #expect(hasCurl != text.contains("No HTTP example"), "\(entry.code): \(text)")
            if hasCurl {
                #expect(text.contains(CodeExplanation.resetWarning + "curl -s -X POST 'http://127.0.0.1:8080/_understudy/reset'"), "\(entry.code)")
            }
        }
    }
}
