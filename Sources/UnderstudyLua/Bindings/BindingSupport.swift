internal import CLua
internal import CLuaShim
internal import Understudy

/// Building the tables scenarios see: functions bound to one backend through its handle.
enum Binding {
    /// `table[name] = fn`, with the backend handle as the function's upvalue.
    static func function(_ L: OpaquePointer, _ table: Int32, _ name: StaticString, _ handle: Int64, _ fn: us_swift_fn) {
        lua_pushinteger(L, lua_Integer(handle))
        us_push_swift_function(L, fn, 1)
        LuaValues.setField(L, table, name)
    }

    /// Pushes a new table of functions bound to `handle`.
    static func table(_ L: OpaquePointer, _ handle: Int64, _ functions: [(StaticString, us_swift_fn)]) {
        lua_createtable(L, 0, Int32(functions.count))
        let table = lua_gettop(L)
        for (name, fn) in functions { function(L, table, name, handle, fn) }
    }
}
