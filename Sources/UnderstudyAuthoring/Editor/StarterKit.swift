internal import Understudy

/// The files `understudy init` creates: one commented example per flavour, the editor files and a CI job.
package enum StarterKit {
    /// Each file's path (relative to the project folder) and text, in the order they are written, for a project
    /// that is its repository's root (the workflow in the project's `.github/workflows`).
    package static var files: [(path: String, text: String)] {
        projectFiles + [(workflowPath, ciWorkflow())]
    }

    /// The files that go into the project folder itself: the examples and the editor files.
    package static var projectFiles: [(path: String, text: String)] {
        [
            ("scenarios/backendless/first.lua", backendlessExample),
            ("scenarios/kii/first.lua", kiiExample),
            (EditorTypes.annotationPath, EditorTypes.annotations),
            (".luarc.json", EditorTypes.luarc),
        ]
    }

    /// Where the workflow goes, relative to the repository's root: the only folder GitHub reads workflows from.
    package static let workflowPath = ".github/workflows/scenarios.yml"

    /// Resources/first_backendless.lua.
    package static let backendlessExample = String(decoding: PackageResources.first_backendless_lua, as: UTF8.self)

    /// Resources/first_kii.lua.
    package static let kiiExample = String(decoding: PackageResources.first_kii_lua, as: UTF8.self)

    /// The setup action this version of understudy is installed with, as a workflow's `uses:` names it
    /// (`understudy-emulator/understudy@v0.1.0`): the version is written there once, the action reads it from its tag.
    package static let setupAction = "\(UnderstudyVersion.repository)@v\(UnderstudyVersion.current)"

    /// The GitHub Actions workflow, Resources/scenarios_workflow.yml, for a project in `folder` of its repository
    /// ("" for the repository's root): its commands run there (`defaults.run.working-directory`) and its reports
    /// are read from there.
    package static func ciWorkflow(folder: String = "") -> String {
        let folder = folder.split(separator: "/").filter { $0 != "." && !$0.isEmpty }.joined(separator: "/")
        let quoted = "'" + folder.replacing("'", with: "''") + "'"
        return String(decoding: PackageResources.scenarios_workflow_yml, as: UTF8.self)
            .replacing("{{understudy.action}}", with: setupAction)
            .replacing("{{defaults}}", with: folder.isEmpty ? "" : "defaults:\n  run:\n    working-directory: \(quoted)\n")
            .replacing("{{folder}}", with: folder.isEmpty ? "" : folder + "/")
            .replacing("{{download}}", with: folder.isEmpty ? "." : quoted)
    }
}
