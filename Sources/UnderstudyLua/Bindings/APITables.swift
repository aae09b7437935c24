internal import CLua
internal import CLuaShim
internal import Understudy

/// The tables of calls scenarios reach (`understudy`, `app`, `app.users`, `expect`, ...) answer for themselves: reading
/// a name they do not have raises a message that names the ones they have and the nearest match ("did you mean
/// register?"), instead of Lua's bare "attempt to call a nil value"; and a call made with a colon
/// (`app.users:register{...}`) is recognised and explained. Each table gets a metatable shared by every table of the
/// same name (kept in the registry), so naming costs no allocation per backend after the first. Those metatables are
/// locked (`__metatable`): a scenario can neither change them for the scenarios after it nor arm a finalizer
/// through them.
enum APITables {
    /// What the metatables' `__name` starts with.
    static let prefix = "understudy api "

    /// Names the table at `index` (`app.users`).
    static func name(_ L: OpaquePointer, _ index: Int32, _ name: String) {
        let index = lua_absindex(L, index)
        if luaL_newmetatable(L, prefix + name) != 0 {
            let metatable = lua_gettop(L)
            us_push_swift_function(L, unknownName, 0)
            LuaValues.setField(L, metatable, "__index")
            // Shared by every table of this name, in every scenario the state runs: scripts neither read nor
            // change it (`getmetatable(app)` is this text, `setmetatable(app, ...)` raises).
            LuaValues.push(L, prefix + name)
            LuaValues.setField(L, metatable, "__metatable")
        }
        us_setmetatable_unarmed(L, index)
    }

    /// Names an app table and every table of calls in it without a metatable of its own (`app.settings` has one).
    static func nameApp(_ L: OpaquePointer, _ index: Int32) {
        let index = lua_absindex(L, index)
        var fields: [String] = []
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            if lua_type(L, -1) == LUA_TTABLE, lua_type(L, -2) == LUA_TSTRING {
                if lua_getmetatable(L, -1) != 0 {
                    us_pop(L, 1)
                } else if let key = LuaValues.string(L, at: -2) {
                    fields.append(key)
                }
            }
            us_pop(L, 1)
        }
        for field in fields {
            LuaValues.getField(L, index, field)
            name(L, -1, "app." + field)
            us_pop(L, 1)
        }
        name(L, index, "app")
    }

    /// The name given to the table at `index` (`app.users`), if it is one of these tables.
    static func nameOf(_ L: OpaquePointer, _ index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TTABLE, lua_getmetatable(L, index) != 0 else { return nil }
        defer { us_pop(L, 1) }
        guard us_rawgetfield(L, -1, "__name", 6) == LUA_TSTRING, let name = LuaValues.string(L, at: -1) else {
            us_pop(L, 1)
            return nil
        }
        us_pop(L, 1)
        guard name.hasPrefix(prefix) else { return nil }
        return String(name.dropFirst(prefix.count))
    }

    /// Where a name lives on the other flavour, or what to use instead.
    static let hints: [String: String] = [
        "app.devices": "a Kii backend registers devices for push as installations: app.installations.register{...}",
        "app.channels": "a Kii backend has no push channels: app.push.send_to_user sends to a user's installations",
        "app.installations": "a Backendless backend registers devices for push with app.devices.register{...}",
    ]

    /// `__index` of the named tables: the name is not there.
    static let unknownName: us_swift_fn = { L in
        guard let L else { return US_RAISE }
        let table = nameOf(L, 1) ?? "this table"
        let key: String
        switch lua_type(L, 2) {
        case LUA_TSTRING: key = LuaValues.string(L, at: 2) ?? "?"
        default: key = "[\(LuaValues.typeName(L, at: 2))]"
        }
        var known: [String] = []
        lua_pushnil(L)
        while lua_next(L, 1) != 0 {
            if lua_type(L, -2) == LUA_TSTRING, let name = LuaValues.string(L, at: -2), !name.hasPrefix("_") {
                known.append(name)
            }
            us_pop(L, 1)
        }
        known.sort()
        var message = "\(table).\(key) does not exist"
        if let hint = hints["\(table).\(key)"] {
            message += ": \(hint)"
        } else if let nearest = NearestName.to(key, among: known) {
            message += " (did you mean \(table).\(nearest)?)"
        }
        message += "; \(table) has: " + known.joined(separator: ", ")
        LuaValues.push(L, message)
        return US_RAISE
    }

    /// The message for a call made with a colon (`app.users:register{...}`), when the first argument is the table
    /// the function was read from; nil otherwise.
    static func colonCall(_ L: OpaquePointer, function: String) -> String? {
        guard lua_type(L, 1) == LUA_TTABLE, let table = nameOf(L, 1) else { return nil }
        let call = function.split(separator: ".").last.map(String.init) ?? function
        return "called with a colon (\(table):\(call)(...)), which passes \(table) itself as the first argument; "
            + "call it with a dot: \(table).\(call)(...)"
    }
}
