/// Understudy's version and where it is published, written once: `understudy --version`, `understudy.version` in
/// Lua, the server, the workflow `understudy init` writes and scripts/package read them.
package enum UnderstudyVersion {
    package static let current = "0.1.0"

    /// The GitHub repository that publishes the release archives and holds the setup action (action.yml).
    /// scripts/install-release and docs/ci.md name it too (a test keeps them the same).
    package static let repository = "understudy-emulator/understudy"
}
