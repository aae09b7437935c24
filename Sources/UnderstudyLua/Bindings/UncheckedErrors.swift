internal import CLua
internal import CLuaShim

/// The errors backend calls hand a scenario (`nil, err`), and which of them the scenario never looked at.
///
/// An `err` reaches Lua as an empty proxy table with the prelude's error metatable: its fields live in the
/// prelude's `error_fields` table, so every read (`err.code`, `pairs(err)`, `tostring(err)`, `"..." .. err`,
/// any `expect.*`) goes through the metatable, which removes the proxy from the prelude's `unchecked` set. What is
/// left in that set when a scenario returns failed the scenario nobody checked, the way `#[must_use]` does
/// (`understudy.ignore(err)` discards one on purpose). Costs nothing for calls that succeed.
final class UncheckedErrors {
    /// One error handed to the scenario.
    struct Returned {
        /// The operation, as scenarios call it (`users.register`).
        var call: String
        /// `file:line` of the call.
        var location: String?
        /// The line of the outermost function of the same file on the stack when the call was made in a helper
        /// (the scenario's own line).
        var outerLine: Int?
        var error: any LuaPresentable
    }

    // Registry references to the prelude's tables (`understudy._errors(meta, fields, unchecked)`).
    private var metatable: Int32 = LUA_NOREF
    private var fields: Int32 = LUA_NOREF
    private var unchecked: Int32 = LUA_NOREF
    /// True while a scenario runs: only then is an error remembered.
    private var tracking = false
    private var returned: [Returned] = []

    /// `understudy._errors(meta, fields, unchecked)`: the prelude hands over its tables, once per state.
    static let bind: us_swift_fn = { L in
        guard let L else { return US_RAISE }
        let errors = ScenarioHost.of(L).uncheckedErrors
        guard errors.metatable == LUA_NOREF, lua_type(L, 1) == LUA_TTABLE, lua_type(L, 2) == LUA_TTABLE,
            lua_type(L, 3) == LUA_TTABLE
        else { return 0 }
        lua_pushvalue(L, 1)
        errors.metatable = luaL_ref(L, us_registryindex())
        lua_pushvalue(L, 2)
        errors.fields = luaL_ref(L, us_registryindex())
        lua_pushvalue(L, 3)
        errors.unchecked = luaL_ref(L, us_registryindex())
        return 0
    }

    /// How many errors the running scenario was handed so far.
    var count: Int { returned.count }

    /// Forgets the errors handed after the first `count` (a call that raised after all: they never reached Lua).
    func forget(_ L: OpaquePointer, after count: Int) {
        guard returned.count > count, unchecked != LUA_NOREF else { return }
        lua_rawgeti(L, us_registryindex(), lua_Integer(unchecked))
        let table = lua_gettop(L)
        lua_pushnil(L)
        while lua_next(L, table) != 0 {
            let position = Int(us_tointeger(L, -1, nil))
            us_pop(L, 1)
            if position > count {
                lua_pushvalue(L, -1)
                lua_pushnil(L)
                lua_rawset(L, table)  // clearing a field during the traversal is allowed
            }
        }
        us_pop(L, 1)
        returned.removeLast(returned.count - count)
    }

    /// Starts remembering the errors of a scenario (forgetting the last one's).
    func begin(_ L: OpaquePointer) {
        if !returned.isEmpty, unchecked != LUA_NOREF {
            lua_rawgeti(L, us_registryindex(), lua_Integer(unchecked))
            let table = lua_gettop(L)
            lua_pushnil(L)
            while lua_next(L, table) != 0 {
                us_pop(L, 1)
                lua_pushvalue(L, -1)
                lua_pushnil(L)
                lua_rawset(L, table)
            }
            us_pop(L, 1)
        }
        returned.removeAll(keepingCapacity: true)
        tracking = true
    }

    /// Stops remembering (the scenario ended).
    func end() {
        tracking = false
    }

    /// Replaces the error's field table on top of the stack with its proxy, remembered as unchecked while a
    /// scenario runs. `call` names the operation.
    func wrap(_ L: OpaquePointer, _ error: some LuaPresentable, call: String) {
        guard metatable != LUA_NOREF else { return }
        let fieldTable = lua_gettop(L)
        lua_createtable(L, 0, 0)
        let proxy = lua_gettop(L)
        lua_rawgeti(L, us_registryindex(), lua_Integer(metatable))
        us_setmetatable_unarmed(L, proxy)
        lua_rawgeti(L, us_registryindex(), lua_Integer(fields))
        lua_pushvalue(L, proxy)
        lua_pushvalue(L, fieldTable)
        lua_rawset(L, -3)
        us_pop(L, 1)
        if tracking {
            let (location, outerLine) = Self.callSite(L)
            returned.append(Returned(call: call, location: location, outerLine: outerLine, error: error))
            lua_rawgeti(L, us_registryindex(), lua_Integer(unchecked))
            lua_pushvalue(L, proxy)
            lua_pushinteger(L, lua_Integer(returned.count))
            lua_rawset(L, -3)
            us_pop(L, 1)
        }
        lua_copy(L, proxy, fieldTable)
        lua_settop(L, fieldTable)
    }

    /// `file:line` of the Lua function that made the call, and the line of the outermost frame of the same file
    /// when that is another line (the scenario line that called the helper).
    private static func callSite(_ L: OpaquePointer) -> (String?, Int?) {
        var record = lua_Debug()
        var location: String?
        var source: UnsafePointer<CChar>?
        var line = 0
        var outer: Int?
        var level: Int32 = 1
        while level < 64, lua_getstack(L, level, &record) != 0 {
            level += 1
            guard lua_getinfo(L, "Sl", &record) != 0, record.currentline > 0 else { continue }
            if location == nil {
                // the innermost Lua function (a `pcall(app.users.login, ...)` has pcall in between)
                let file = withUnsafeBytes(of: record.short_src) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                line = Int(record.currentline)
                location = "\(file):\(line)"
                source = record.source
            } else if record.source == source {
                // the same chunk: functions of one file share its source string
                outer = Int(record.currentline)
            }
        }
        return (location, outer == line ? nil : outer)
    }

    /// Pushes the field table behind the error proxy at `index` and returns true; false (nothing pushed) when the
    /// value there is not an error proxy.
    func pushFields(_ L: OpaquePointer, of index: Int32) -> Bool {
        guard fields != LUA_NOREF, lua_type(L, index) == LUA_TTABLE else { return false }
        let index = lua_absindex(L, index)
        guard lua_getmetatable(L, index) != 0 else { return false }
        us_pop(L, 1)
        lua_rawgeti(L, us_registryindex(), lua_Integer(fields))
        lua_pushvalue(L, index)
        if lua_rawget(L, -2) == LUA_TTABLE {
            us_remove(L, -2)
            return true
        }
        us_pop(L, 2)
        return false
    }

    /// The errors of the running scenario nobody looked at, in the order the calls returned them.
    func unlooked(_ L: OpaquePointer) -> [Returned] {
        guard tracking, !returned.isEmpty, unchecked != LUA_NOREF else { return [] }
        var positions: [Int] = []
        lua_rawgeti(L, us_registryindex(), lua_Integer(unchecked))
        let table = lua_gettop(L)
        lua_pushnil(L)
        while lua_next(L, table) != 0 {
            let position = Int(us_tointeger(L, -1, nil))
            if position >= 1, position <= returned.count { positions.append(position) }
            us_pop(L, 1)
        }
        us_pop(L, 1)
        return positions.sorted().map { returned[$0 - 1] }
    }

    /// The failure message for errors nobody checked (the first named in full).
    static func message(for errors: [Returned]) -> String {
        guard let first = errors.first else { return "" }
        var text = "\(first.description) and nothing checked it: check it (expect.error(...), err.code) or discard "
            + "it on purpose with understudy.ignore(err)"
        // the others, each line once (a loop returns the same error many times)
        var others: [(text: String, count: Int)] = []
        for error in errors.dropFirst() {
            let description = error.description
            if description == first.description { continue }
            if let index = others.firstIndex(where: { $0.text == description }) {
                others[index].count += 1
            } else {
                others.append((description, 1))
            }
        }
        if errors.count > 1 {
            let repeats = errors.count - 1 - others.reduce(0) { $0 + $1.count }
            if repeats > 0 { text += "\n  (\(repeats + 1) times from that line)" }
        }
        if !others.isEmpty {
            text += "\n  also unchecked: " + others.prefix(5).map { $0.count > 1 ? "\($0.text) (\($0.count) times)" : $0.text }
                .joined(separator: "; ")
            if others.count > 5 { text += "; and \(others.count - 5) more" }
        }
        return text
    }

    /// Adds to a failure about a nil value the error of the last call whose error nobody looked at (the nil most
    /// likely came from it).
    static func explain(_ message: String, with errors: [Returned]) -> String {
        guard let last = errors.last, message.contains("a nil value") else { return message }
        return message + "\n  (\(last.description) together with nil, and nothing checked that error)"
    }
}

extension UncheckedErrors.Returned: CustomStringConvertible {
    /// `users.register at line 12 returned 3033 "User already exists."`
    var description: String {
        var text = call
        if let location, let colon = location.lastIndex(of: ":") {
            text += " at line " + location[location.index(after: colon)...]
            if let outerLine { text += " (called from line \(outerLine))" }
        }
        return text + " returned " + error.summary
    }
}
