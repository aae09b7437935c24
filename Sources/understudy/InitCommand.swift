import ArgumentParser
import UnderstudyAuthoring

/// `understudy init [DIR]`: a starter kit for a new scenario suite.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a scenarios folder with one passing example per flavour, the editor files and a CI job.",
        discussion: """
            Writes scenarios/backendless/first.lua, scenarios/kii/first.lua, types/understudy.lua and .luarc.json \
            (as `understudy types` does) into DIR, and the GitHub Actions workflow .github/workflows/scenarios.yml \
            (the suite in shards sized to it, JUnit reports, the shards' error-code coverage added up) at the root \
            of the git repository holding DIR, where GitHub reads workflows; its jobs then run in DIR. Outside a \
            git repository the workflow goes into DIR. Refuses, and writes nothing, when any of these files exists. \
            Then: understudy run scenarios/
            """
    )

    @Argument(help: "The project folder (default: the current folder).")
    var directory = "."

    func run() throws {
        let project = ProjectFiles.absolute(directory)
        let repository = ProjectFiles.repositoryRoot(of: project)
        var files = StarterKit.projectFiles.map { (path: ProjectFiles.join(directory, $0.path), text: $0.text) }
        var placement: String?
        if let repository, repository != project {
            // GitHub reads workflows only at the repository's root: the workflow goes there and runs in DIR.
            let folder = String(project.dropFirst(repository == "/" ? 1 : repository.count + 1))
            let path = (repository == "/" ? "" : repository) + "/" + StarterKit.workflowPath
            files.append((path: path, text: StarterKit.ciWorkflow(folder: folder)))
            placement = "the workflow is at the root of the git repository \(repository) (GitHub reads workflows only there); its jobs run in \(folder)/"
        } else {
            files.append((path: ProjectFiles.join(directory, StarterKit.workflowPath), text: StarterKit.ciWorkflow()))
            if repository == nil {
                placement = "\(directory == "." ? "this folder" : directory) is not in a git repository: GitHub reads .github/workflows only at a repository's root, so make it the root (git init) or move the workflow there"
            }
        }
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
        if let placement { FileOutput.standardOutput.write("note: \(placement)\n") }
        let scenarios = ProjectFiles.join(directory, "scenarios/")
        FileOutput.standardOutput.write("next: understudy run \(scenarios)   (and open \(directory) in an editor with the Lua language server)\n")
    }
}
