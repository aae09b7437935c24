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

extension KiiError: LuaPresentable {
    /// `{ status = 409, code = "USER_ALREADY_EXISTS", message = "...", field = "loginName", value = "..." }`
    func push(to L: OpaquePointer) {
        lua_createtable(L, 0, 5)
        let table = lua_gettop(L)
        lua_pushinteger(L, lua_Integer(status))
        LuaValues.setField(L, table, "status")
        LuaValues.push(L, code)
        LuaValues.setField(L, table, "code")
        LuaValues.push(L, message)
        LuaValues.setField(L, table, "message")
        if let field {
            LuaValues.push(L, field)
            LuaValues.setField(L, table, "field")
        }
        if let value {
            LuaValues.push(L, value)
            LuaValues.setField(L, table, "value")
        }
    }
}
