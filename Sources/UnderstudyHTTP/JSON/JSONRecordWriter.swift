internal import Understudy

/// Writes a domain record as a JSON object, fields in the record's order: how every record reaches an HTTP client.
struct JSONRecordWriter: RecordWriter {
    private(set) var members: [JSON.Member] = []

    init(capacity: Int = 8) {
        members.reserveCapacity(capacity)
    }

    /// The record as a JSON object, after `leading` members (the app it belongs to, say) and before `trailing`
    /// ones (what only the control API adds).
    static func json(_ record: some Presentable, leading: [JSON.Member] = [], trailing: [JSON.Member] = []) -> JSON {
        var writer = JSONRecordWriter(capacity: leading.count + trailing.count + 8)
        writer.members.append(contentsOf: leading)
        record.present(to: &writer)
        writer.members.append(contentsOf: trailing)
        return .object(writer.members)
    }

    mutating func write(_ name: StaticString, _ value: String) { members.append(.init(name.description, .string(value))) }
    mutating func write(_ name: StaticString, _ value: Int64) { members.append(.init(name.description, .integer(value))) }
    mutating func write(_ name: StaticString, _ value: Double) { members.append(.init(name.description, .number(value))) }
    mutating func write(_ name: StaticString, _ value: Bool) { members.append(.init(name.description, .bool(value))) }
    mutating func write(_ name: StaticString, null: Void) { members.append(.init(name.description, .null)) }
    mutating func write(_ name: StaticString, strings: [String]) {
        members.append(.init(name.description, .array(strings.map(JSON.string))))
    }
    mutating func write<Record: Presentable>(_ name: StaticString, record: Record) {
        members.append(.init(name.description, Self.json(record)))
    }
    mutating func write<Record: Presentable>(_ name: StaticString, records: [Record]) {
        members.append(.init(name.description, .array(records.map { Self.json($0) })))
    }
    mutating func write(dynamic name: String, _ value: Value) { members.append(.init(name, JSON(value))) }
}
