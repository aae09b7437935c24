import ArgumentParser
import UnderstudyAuthoring

/// `understudy init [DIR]`: a starter kit for a new scenario suite.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a scenarios folder with one passing example per flavour, the editor files and a CI job.",
        discussion: """
            Writes scenarios/backendless/first.lua, scenarios/kii/first.lua, types/understudy.lua and .luarc.json \
            (as `understudy types` does) and .github/workflows/scenarios.yml (the suite in 4 shards with JUnit \
            reports). Refuses, and writes nothing, when any of these files exists. Then: understudy run scenarios/
            """
    )

    @Argument(help: "The project folder (default: the current folder).")
    var directory = "."

    func run() throws {
        let files = StarterKit.files.map { (path: ProjectFiles.join(directory, $0.path), text: $0.text) }
        let existing = files.map(\.path).filter(ProjectFiles.exists)
        guard existing.isEmpty else {
            throw ValidationError("understudy init writes nothing: these files exist already: \(existing.joined(separator: ", "))")
        }
        for file in files {
            do throws(FileProblem) {
                try ProjectFiles.write(file.text, to: file.path)
            } catch {
                throw ValidationError(error.message)
            }
            FileOutput.standardOutput.write("created \(file.path)\n")
        }
        let scenarios = ProjectFiles.join(directory, "scenarios/")
        FileOutput.standardOutput.write("next: understudy run \(scenarios)   (and open \(directory) in an editor with the Lua language server)\n")
    }
}
