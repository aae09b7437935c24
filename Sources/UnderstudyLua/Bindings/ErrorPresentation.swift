internal import CLua
internal import CLuaShim
internal import Understudy

extension BackendlessError: LuaPresentable {
    /// `3033 "User already exists."`
    var summary: String { "\(code) \(LuaErrorText.quoted(message))" }

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
    /// `409 USER_ALREADY_EXISTS "..."`
    var summary: String { "\(status) \(code) \(LuaErrorText.quoted(message))" }

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

/// Error text as failure messages quote it.
enum LuaErrorText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for (offset, character) in text.enumerated() {
            if offset == 200 { out += "…"; break }
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
