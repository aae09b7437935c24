internal import CLua
internal import CLuaShim
internal import Understudy

/// The `understudy` global: the factories of fresh backends.
enum UnderstudyModule {
    static let version = UnderstudyVersion.current

    static func install(in L: OpaquePointer) {
        us_pushglobaltable(L)
        let globals = lua_gettop(L)
        lua_createtable(L, 0, 8)
        let module = lua_gettop(L)
        lua_pushinteger(L, 0)
        us_push_swift_function(L, BackendlessBindings.create, 1)
        LuaValues.setField(L, module, "backendless")
        lua_pushinteger(L, 0)
        us_push_swift_function(L, KiiBindings.create, 1)
        LuaValues.setField(L, module, "kii")
        us_push_swift_function(L, ImportBindings.importWorld, 0)
        LuaValues.setField(L, module, "import")
        LuaValues.push(L, version)
        LuaValues.setField(L, module, "version")
        ServedBindings.install(L, module: module)
        // taken (and removed) by the prelude
        us_push_swift_function(L, UncheckedErrors.bind, 0)
        LuaValues.setField(L, module, "_errors")
        us_push_swift_function(L, KnownCodes.check, 0)
        LuaValues.setField(L, module, "_known_code")
        APITables.name(L, module, "understudy")
        LuaValues.setField(L, globals, "understudy")
        us_pop(L, 1)
    }
}
