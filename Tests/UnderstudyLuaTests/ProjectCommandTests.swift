import Foundation
import Testing
import UnderstudyTestSupport

/// `understudy init` and `understudy types` in the folders people run them in: a subfolder of a git repository,
/// a project that already has a `.luarc.json`.
@Suite("init and types: where files go, and what they keep")
struct ProjectCommandTests {
    private func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test("init in a git repository's subfolder puts the workflow at the repository's root, running in the subfolder")
    func initInSubfolder() async throws {
        let repository = try makeTemporaryFolder()
        defer { removeFolder(repository) }
        try FileManager.default.createDirectory(atPath: repository + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repository + "/apps/qa", withIntermediateDirectories: true)
        let made = try await runCommand(["init", "qa"], in: repository + "/apps")
        #expect(made.status == 0, "\(made.stderr)")
        let workflow = repository + "/.github/workflows/scenarios.yml"
        #expect(FileManager.default.fileExists(atPath: workflow), "\(made.stdout)")
        #expect(!FileManager.default.fileExists(atPath: repository + "/apps/qa/.github"))
        #expect(FileManager.default.fileExists(atPath: repository + "/apps/qa/scenarios/backendless/first.lua"))
        #expect(made.stdout.contains("its jobs run in apps/qa/"), "\(made.stdout)")
        let text = read(workflow)
        #expect(text.contains("defaults:\n  run:\n    working-directory: 'apps/qa'\n"))
        #expect(text.contains("apps/qa/scenarios-${{ matrix.shard }}.junit.xml"))
        #expect(text.contains("path: 'apps/qa'"))
        // A second init refuses: the workflow at the root exists.
        let again = try await runCommand(["init", "qa"], in: repository + "/apps")
        #expect(again.status == 2)
        #expect(again.stderr.contains(".github/workflows/scenarios.yml"), "\(again.stderr)")
    }

    @Test("init at a repository's root writes the workflow there with no working directory, and says nothing more")
    func initAtRoot() async throws {
        let repository = try makeTemporaryFolder()
        defer { removeFolder(repository) }
        try FileManager.default.createDirectory(atPath: repository + "/.git", withIntermediateDirectories: true)
        let made = try await runCommand(["init"], in: repository)
        #expect(made.status == 0, "\(made.stderr)")
        let text = read(repository + "/.github/workflows/scenarios.yml")
        #expect(!text.contains("working-directory"))
        #expect(!made.stdout.contains("note:"), "\(made.stdout)")
    }

    @Test("init outside a git repository says where GitHub reads workflows")
    func initOutsideRepository() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let made = try await runCommand(["init", "suite"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/suite/.github/workflows/scenarios.yml"))
        #expect(made.stdout.contains("note: suite is not in a git repository"), "\(made.stdout)")
    }

    @Test("the workflow names the version once, sizes its shards to the suite and merges the shards' codes")
    func workflowShape() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        _ = try await runCommand(["init"], in: folder)
        let text = read(folder + "/.github/workflows/scenarios.yml")
        let version = try await runCommand(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.components(separatedBy: version).count - 1 == 1, "the version once")
        #expect(text.contains("- &understudy\n        uses: understudy-emulator/understudy@v\(version)\n"))
        #expect(text.components(separatedBy: "- *understudy\n").count - 1 == 2)
        #expect(!text.contains("version:"))
        #expect(!text.contains("shard: [1, 2, 3, 4]"))
        #expect(text.contains("fromJSON(needs.plan.outputs.shards)"))
        #expect(text.contains("understudy codes merge codes-*.json"))
        #expect(text.contains("--codes-json codes-${{ matrix.shard }}.json"))
    }

    @Test("types merges into an existing .luarc.json, keeping its settings and adding the sandbox's")
    func typesMerges() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let mine = #"{"runtime": {"version": "Lua 5.1", "path": ["?.lua"]}, "diagnostics.globals": ["vim"], "hint.enable": true}"#
        try mine.write(toFile: folder + "/.luarc.json", atomically: true, encoding: .utf8)
        let made = try await runCommand(["types"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("merged into .luarc.json"), "\(made.stdout)")
        let merged = try JSONSerialization.jsonObject(with: Data(read(folder + "/.luarc.json").utf8)) as? [String: Any] ?? [:]
        let runtime = merged["runtime"] as? [String: Any] ?? [:]
        #expect(runtime["version"] as? String == "Lua 5.4")
        #expect(runtime["path"] as? [String] == ["?.lua"])
        #expect(merged["hint.enable"] as? Bool == true)
        #expect(merged["diagnostics.globals"] as? [String] == ["vim", "scenario", "skip", "fail", "expect", "understudy"])
        #expect(merged["workspace.library"] as? [String] == ["types"])
        // A second run changes nothing.
        let before = read(folder + "/.luarc.json")
        let again = try await runCommand(["types"], in: folder)
        #expect(again.stdout.contains("kept .luarc.json"), "\(again.stdout)")
        #expect(read(folder + "/.luarc.json") == before)
    }

    @Test("types refuses to touch a .luarc.json it cannot read as JSON, and prints what to add")
    func typesRefuses() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let mine = "// my settings\n{\"runtime.version\": \"Lua 5.1\"}\n"
        try mine.write(toFile: folder + "/.luarc.json", atomically: true, encoding: .utf8)
        let made = try await runCommand(["types"], in: folder)
        #expect(made.status == 2)
        #expect(made.stderr.contains("leaves .luarc.json as it is"), "\(made.stderr)")
        #expect(made.stderr.contains("\"runtime.version\": \"Lua 5.4\""))
        #expect(read(folder + "/.luarc.json") == mine)
    }
}
