internal import Understudy

/// The files `understudy init` creates: one commented example per flavour, the editor files and a CI job.
package enum StarterKit {
    /// Each file's path (relative to the project folder) and text, in the order they are written.
    package static var files: [(path: String, text: String)] {
        [
            ("scenarios/backendless/first.lua", backendlessExample),
            ("scenarios/kii/first.lua", kiiExample),
            (EditorTypes.annotationPath, EditorTypes.annotations),
            (".luarc.json", EditorTypes.luarc),
            (".github/workflows/scenarios.yml", ciWorkflow),
        ]
    }

    /// Resources/first_backendless.lua.
    package static let backendlessExample = String(decoding: PackageResources.first_backendless_lua, as: UTF8.self)

    /// Resources/first_kii.lua.
    package static let kiiExample = String(decoding: PackageResources.first_kii_lua, as: UTF8.self)

    /// The GitHub Actions workflow, Resources/scenarios_workflow.yml: it installs this version of understudy with
    /// the setup action of the repository that publishes it (action.yml).
    package static let ciWorkflow = String(decoding: PackageResources.scenarios_workflow_yml, as: UTF8.self)
        .replacing("{{understudy.repository}}", with: UnderstudyVersion.repository)
        .replacing("{{understudy.version}}", with: UnderstudyVersion.current)
}
