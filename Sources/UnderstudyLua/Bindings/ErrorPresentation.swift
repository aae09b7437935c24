internal import CLua
internal import CLuaShim
internal import Understudy

extension BackendlessError: LuaPresentable {
    /// `{ code = 3033, message = "..." }`
    func push(to L: OpaquePointer) {
        lua_createtable(L, 0, 2)
        let table = lua_gettop(L)
        lua_pushinteger(L, lua_Integer(code))
        LuaValues.setField(L, table, "code")
        LuaValues.push(L, message)
        LuaValues.setField(L, table, "message")
    }
}
