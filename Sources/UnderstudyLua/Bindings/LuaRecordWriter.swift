internal import CLua
internal import CLuaShim
internal import Understudy

/// Writes a domain record into a new Lua table: how every record reaches a scenario.
struct LuaRecordWriter: RecordWriter {
    let L: OpaquePointer
    /// The absolute index of the table being filled.
    let table: Int32

    /// Pushes a new table holding `record`'s fields.
    static func push(_ L: OpaquePointer, _ record: some Presentable, capacity: Int32 = 6) {
        lua_createtable(L, 0, capacity)
        var writer = LuaRecordWriter(L: L, table: lua_gettop(L))
        record.present(to: &writer)
    }

    mutating func write(_ name: StaticString, _ value: String) {
        LuaValues.push(L, value)
        LuaValues.setField(L, table, name)
    }

    mutating func write(_ name: StaticString, _ value: Int64) {
        lua_pushinteger(L, lua_Integer(value))
        LuaValues.setField(L, table, name)
    }

    mutating func write(_ name: StaticString, _ value: Double) {
        LuaValues.push(L, number: value)
        LuaValues.setField(L, table, name)
    }

    mutating func write(_ name: StaticString, _ value: Bool) {
        lua_pushboolean(L, value ? 1 : 0)
        LuaValues.setField(L, table, name)
    }

    /// Lua has no null in a table: the field stays absent.
    mutating func write(_ name: StaticString, null: Void) {}

    mutating func write(_ name: StaticString, strings: [String]) {
        LuaValues.push(L, strings: strings)
        LuaValues.setField(L, table, name)
    }

    mutating func write<Record: Presentable>(_ name: StaticString, record: Record) {
        Self.push(L, record)
        LuaValues.setField(L, table, name)
    }

    mutating func write<Record: Presentable>(_ name: StaticString, records: [Record]) {
        SharedBindings.pushList(L, records) { L, record in Self.push(L, record) }
        LuaValues.setField(L, table, name)
    }

    mutating func write(dynamic name: String, _ value: Value) {
        LuaValues.push(L, value)
        LuaValues.setField(L, table, name)
    }

    mutating func write(_ name: StaticString, pairs: [(name: String, value: String)]) {
        lua_createtable(L, 0, Int32(clamping: pairs.count))
        let object = lua_gettop(L)
        for pair in pairs {
            LuaValues.push(L, pair.value)
            LuaValues.setField(L, object, pair.name)
        }
        LuaValues.setField(L, table, name)
    }

    /// The id's text goes to Lua from the stack, with no string made for it.
    mutating func write(_ name: StaticString, identifier: Identifier128) {
        identifier.withFormattedUTF8 { LuaValues.push(L, utf8: $0) }
        LuaValues.setField(L, table, name)
    }

    /// Literal texts are found in Lua's string cache by address rather than hashed anew.
    mutating func write(_ name: StaticString, literal: StaticString) {
        LuaValues.push(L, literal)
        LuaValues.setField(L, table, name)
    }
}
