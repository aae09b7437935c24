internal import CLua
internal import CLuaShim
internal import Understudy

/// Moving values between the Lua stack and Swift. Every function here uses only API calls that cannot raise
/// (`-`) or only allocate (`m`, safe while the memory limit is lifted inside a Swift callback).
enum LuaValues {
    /// The string at `index` (nil when it is not a string; numbers are not converted), with bytes that are not
    /// UTF-8 shown as U+FFFD: for text that is only shown (error objects, names in messages). API arguments go
    /// through `utf8String`.
    static func string(_ L: OpaquePointer, at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = us_tostring(L, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    /// A Lua string whose bytes are not valid UTF-8.
    struct NotUTF8: Error {}

    /// The string at `index` exactly as Lua holds it (nil when it is not a string). Bytes that are not valid
    /// UTF-8 throw rather than being rewritten: both services take JSON, so such an argument is API misuse.
    /// Validating costs no more than the lossy decoding, which validates too.
    static func utf8String(_ L: OpaquePointer, at index: Int32) throws(NotUTF8) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = us_tostring(L, index, &length) else { return nil }
        // Lua ends every string with a NUL; the C-string initialiser is the stdlib's non-generic fast path. It
        // stops at an embedded NUL, which the count comparison catches (then the generic path reads every byte).
        if let text = String(validatingCString: pointer), text.utf8.count == length { return text }
        guard let text = String(validating: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self) else {
            throw NotUTF8()
        }
        return text
    }

    /// The raw bytes of the string at `index`, as Lua holds them (may contain NUL or invalid UTF-8).
    static func bytes(_ L: OpaquePointer, at index: Int32) -> [UInt8]? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = us_tostring(L, index, &length) else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    static func push(_ L: OpaquePointer, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes UTF-8 bytes as a string.
    static func push(_ L: OpaquePointer, utf8: UnsafeBufferPointer<UInt8>) {
        utf8.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
    }

    /// Pushes a literal. Lua's API caches strings by the address of the C string they were made from, so a
    /// literal (NUL-terminated at a fixed address) is found there again without hashing and interning it anew.
    static func push(_ L: OpaquePointer, _ text: StaticString) {
        if let literal = cString(text) {
            _ = lua_pushstring(L, literal)
            return
        }
        text.withUTF8Buffer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// The literal as a C string Lua can read as it is: nil for a single-scalar literal (no storage of its own)
    /// and for one with a NUL inside (a C string would end there).
    private static func cString(_ text: StaticString) -> UnsafePointer<CChar>? {
        guard text.hasPointerRepresentation else { return nil }
        let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard !bytes.contains(0) else { return nil }
        return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Pushes a number, as an integer when it is whole.
    static func push(_ L: OpaquePointer, number: Double) {
        if number == number.rounded(), abs(number) < 9.0e15 {
            lua_pushinteger(L, lua_Integer(number))
        } else {
            lua_pushnumber(L, number)
        }
    }

    /// `table[key] = value on top`, popping the value. `table` must be an absolute index.
    static func setField(_ L: OpaquePointer, _ table: Int32, _ key: StaticString) {
        if let literal = cString(key) {
            _ = lua_pushstring(L, literal)
            us_insert(L, -2)
            lua_rawset(L, table)
            return
        }
        key.withUTF8Buffer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { us_rawsetfield(L, table, $0.baseAddress, $0.count) }
        }
    }

    static func setField(_ L: OpaquePointer, _ table: Int32, _ key: String) {
        var key = key
        key.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { us_rawsetfield(L, table, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes `table[key]` (raw) and returns its type.
    @discardableResult
    static func getField(_ L: OpaquePointer, _ table: Int32, _ key: StaticString) -> Int32 {
        key.withUTF8Buffer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { us_rawgetfield(L, table, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes `table[key]` (raw) for a key known only at run time, and returns its type.
    @discardableResult
    static func getField(_ L: OpaquePointer, _ table: Int32, _ key: String) -> Int32 {
        var key = key
        return key.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { us_rawgetfield(L, table, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes a dynamic value: objects become tables, arrays sequences, null nil.
    static func push(_ L: OpaquePointer, _ value: Value) {
        switch value {
        case .null: lua_pushnil(L)
        case .bool(let flag): lua_pushboolean(L, flag ? 1 : 0)
        case .int(let number): lua_pushinteger(L, lua_Integer(number))
        case .double(let number): lua_pushnumber(L, number)
        case .string(let text): push(L, text)
        case .array(let items):
            _ = lua_checkstack(L, 4)
            lua_createtable(L, Int32(clamping: items.count), 0)
            for (offset, item) in items.enumerated() {
                push(L, item)
                lua_rawseti(L, -2, lua_Integer(offset + 1))
            }
        case .object(let fields):
            _ = lua_checkstack(L, 4)
            lua_createtable(L, 0, Int32(clamping: fields.count))
            let table = lua_gettop(L)
            for (key, item) in fields {
                push(L, item)
                setField(L, table, key)
            }
        }
    }

    /// Pushes a list of strings.
    static func push(_ L: OpaquePointer, strings: [String]) {
        lua_createtable(L, Int32(clamping: strings.count), 0)
        for (offset, text) in strings.enumerated() {
            push(L, text)
            lua_rawseti(L, -2, lua_Integer(offset + 1))
        }
    }

    /// Reads the value at `index` as a dynamic value. Tables become objects or arrays (sequences); functions,
    /// userdata, threads and strings that are not UTF-8 are refused with a description of what was found, or,
    /// when `lenient`, read as a string such as `"<function>"` (for showing a result, not for passing it to a
    /// backend).
    ///
    /// What it builds is bounded by what the state's memory cap leaves room for: a table Lua holds once may be
    /// reached many times (`t = {t, t}` thirty times over is a few hundred bytes in Lua and 2^30 values read), so
    /// each value read counts its size (`ValueSizes`), and a read that passes the room left is refused (when
    /// `lenient`, the rest reads as `"<more than the memory cap leaves room for>"`), in time linear in that room.
    static func value(_ L: OpaquePointer, at index: Int32, depth: Int = 0, lenient: Bool = false) -> Result<Value, ValueError> {
        var room = roomUnderCap(L)
        return value(L, at: index, depth: depth, lenient: lenient, room: &room)
    }

    /// The bytes the state's memory cap leaves room for now (all when it has none).
    static func roomUnderCap(_ L: OpaquePointer) -> Int {
        let info = us_info_of(L).pointee
        guard info.memory_limit != 0 else { return Int.max }
        return info.memory_limit > info.memory_used ? Int(clamping: info.memory_limit - info.memory_used) : 0
    }

    /// What reading one value counts against the room (beyond a string's bytes): a Swift value's own size.
    private static let valueOverhead = 32
    /// What a table read counts beyond its entries (a Swift array or dictionary's own storage).
    private static let tableOverhead = 96
    static let pastRoom = "more than the memory cap leaves room for"
    private static let pastRoomFound = "read: memory cap exceeded (the value holds \(pastRoom); raise it with --max-memory)"

    private static func value(
        _ L: OpaquePointer, at index: Int32, depth: Int, lenient: Bool, room: inout Int
    ) -> Result<Value, ValueError> {
        room -= valueOverhead
        guard room >= 0 else {
            if lenient { return .success(.string("<\(pastRoom)>")) }
            return .failure(ValueError(path: "", found: pastRoomFound))
        }
        let index = lua_absindex(L, index)
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE: return .success(.null)
        case LUA_TBOOLEAN: return .success(.bool(lua_toboolean(L, index) != 0))
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .success(.int(Int64(us_tointeger(L, index, nil)))) }
            return .success(.double(us_tonumber(L, index, nil)))
        case LUA_TSTRING:
            room -= Int(lua_rawlen(L, index))
            guard room >= 0 else {
                if lenient { return .success(.string("<\(pastRoom)>")) }
                return .failure(ValueError(path: "", found: pastRoomFound))
            }
            if lenient { return .success(.string(string(L, at: index) ?? "")) }
            guard let text = try? utf8String(L, at: index) else {
                return .failure(ValueError(path: "", found: "a string that is not valid UTF-8"))
            }
            return .success(.string(text))
        case LUA_TTABLE:
            if lua_getmetatable(L, index) != 0 {
                us_pop(L, 1)
                // an error a call returned: its fields
                if let host = ScenarioHost.ifAny(L), host.uncheckedErrors.pushFields(L, of: index) {
                    defer { us_pop(L, 1) }
                    return value(L, at: -1, depth: depth, lenient: lenient, room: &room)
                }
            }
            room -= tableOverhead
            guard depth < 32 else {
                if lenient { return .success(.string("<table nested too deeply>")) }
                return .failure(ValueError(path: "", found: "a table nested too deeply"))
            }
            guard lua_checkstack(L, 3) != 0 else { return .failure(ValueError(path: "", found: "a table nested too deeply")) }
            let length = Int(lua_rawlen(L, index))
            var object: [String: Value] = [:]
            var array: [Value] = []
            var arrayOnly = true
            lua_pushnil(L)
            while lua_next(L, index) != 0 {
                let keyType = lua_type(L, -2)
                let item: Value
                switch value(L, at: -1, depth: depth + 1, lenient: lenient, room: &room) {
                case .success(let found): item = found
                case .failure(var error):
                    let key = keyType == LUA_TSTRING ? (string(L, at: -2) ?? "?") : "[\(us_tointeger(L, -2, nil))]"
                    error.path = error.path.isEmpty ? key : key + "." + error.path
                    us_pop(L, 2)
                    return .failure(error)
                }
                if keyType == LUA_TNUMBER, lua_isinteger(L, -2) != 0 {
                    let position = Int(us_tointeger(L, -2, nil))
                    if position >= 1, position <= length {
                        if array.isEmpty { array = Array(repeating: .null, count: length) }
                        array[position - 1] = item
                    } else {
                        arrayOnly = false
                        object[String(position)] = item
                    }
                } else if keyType == LUA_TSTRING {
                    arrayOnly = false
                    guard let key = lenient ? string(L, at: -2) : try? utf8String(L, at: -2) else {
                        us_pop(L, 2)
                        return .failure(ValueError(path: "", found: "a table with a key that is not valid UTF-8"))
                    }
                    object[key] = item
                } else if lenient {
                    arrayOnly = false
                    object["<\(typeName(L, keyType)) key>"] = item
                } else {
                    us_pop(L, 2)
                    return .failure(ValueError(path: "", found: "a table with a \(typeName(L, keyType)) key"))
                }
                us_pop(L, 1)
            }
            if arrayOnly { return .success(.array(array)) }
            for (offset, item) in array.enumerated() { object[String(offset + 1)] = item }
            return .success(.object(object))
        default:
            if lenient { return .success(.string("<\(typeName(L, lua_type(L, index)))>")) }
            return .failure(ValueError(path: "", found: "a \(typeName(L, lua_type(L, index))) value"))
        }
    }

    static func typeName(_ L: OpaquePointer, _ type: Int32) -> String {
        String(cString: lua_typename(L, type))
    }

    static func typeName(_ L: OpaquePointer, at index: Int32) -> String {
        typeName(L, lua_type(L, index))
    }
}

/// A Lua value that has no dynamic-value form (a function, a userdata, a table with odd keys).
struct ValueError: Error {
    var path: String
    var found: String
}
