/// The Lua code every scenario state runs before the scenario file: the scenario environment (fresh globals per
/// scenario), the runner, the error describer and the `expect` assertion helpers. Its text is
/// `Resources/prelude.lua`, compiled into the binary (`.embedInCode`), so Lua tooling reads it as Lua; it is compiled
/// once per process (`Prelude.compiled`).
enum Prelude {
    static let chunkName = "=understudy"

    /// The prelude's text as UTF-8.
    static var text: [UInt8] { PackageResources.prelude_lua }
}
