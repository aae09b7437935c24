/// The editor files `understudy types` and `understudy init` write: LuaLS annotations (`---@meta`) for the whole
/// scenario API, and a `.luarc.json` that points the Lua language server at them. A test walks the tables a Lua
/// state exposes and keeps the annotations and the bindings the same.
package enum EditorTypes {
    /// Where the annotation file goes, relative to the folder holding `.luarc.json`. Outside the scenario folders,
    /// so `understudy run scenarios/` never loads it.
    package static let annotationPath = "types/understudy.lua"

    /// The `.luarc.json`: Lua 5.4, the sandbox's globals and libraries, the annotation folder
    /// (Resources/luarc.json).
    package static let luarc = String(decoding: PackageResources.luarc_json, as: UTF8.self)

    /// The annotation file (LuaLS `---@meta`), Resources/understudy_types.lua.
    package static let annotations = String(decoding: PackageResources.understudy_types_lua, as: UTF8.self)
}
