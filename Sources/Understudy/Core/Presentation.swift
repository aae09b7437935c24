/// A record shown to scenarios (as a Lua table) and to HTTP clients (as a JSON object): a user, a device, an
/// outbox item, a journal entry. Its fields are written once, here in the domain, in a fixed order; each adapter
/// brings a `RecordWriter` that builds its own kind of object, so no adapter lists a record's fields again.
package protocol Presentable {
    /// Writes the record's fields, in order, to `writer`.
    func present<Writer: RecordWriter>(to writer: inout Writer)
}

/// Where a `Presentable` writes its fields: a Lua table, a JSON object, a `Value`. Literal names
/// (`StaticString`) let a writer skip hashing or copying them; absent optional fields are skipped.
package protocol RecordWriter {
    mutating func write(_ name: StaticString, _ value: String)
    mutating func write(_ name: StaticString, _ value: Int64)
    mutating func write(_ name: StaticString, _ value: Double)
    mutating func write(_ name: StaticString, _ value: Bool)
    mutating func write(_ name: StaticString, null: Void)
    /// A list of strings.
    mutating func write(_ name: StaticString, strings: [String])
    /// A nested record.
    mutating func write<Record: Presentable>(_ name: StaticString, record: Record)
    /// A list of records.
    mutating func write<Record: Presentable>(_ name: StaticString, records: [Record])
    /// A field whose name is data (a user property): any value.
    mutating func write(dynamic name: String, _ value: Value)
    /// An object whose names are data: `{ [name] = value }` (a device's channels).
    mutating func write(_ name: StaticString, pairs: [(name: String, value: String)])
    /// An id as its text (`6EAFFE12-B424-...`); a writer may spell it without making a string.
    mutating func write(_ name: StaticString, identifier: Identifier128)
    /// A text known when the program was built (an enum's raw value); a writer may skip copying it.
    mutating func write(_ name: StaticString, literal: StaticString)
}

/// Optional fields: an absent value is written as null (JSON shows `null`; a Lua table leaves the field out).
extension RecordWriter {
    package mutating func write(_ name: StaticString, _ value: String?) {
        if let value { write(name, value) } else { write(name, null: ()) }
    }

    package mutating func write(_ name: StaticString, _ value: Int64?) {
        if let value { write(name, value) } else { write(name, null: ()) }
    }

    package mutating func write(_ name: StaticString, _ value: Double?) {
        if let value { write(name, value) } else { write(name, null: ()) }
    }

    package mutating func write(_ name: StaticString, _ value: Bool?) {
        if let value { write(name, value) } else { write(name, null: ()) }
    }

    /// A field of any value, under a literal name.
    package mutating func write(_ name: StaticString, value: Value) {
        write(dynamic: name.description, value)
    }

    package mutating func write(_ name: StaticString, identifier: Identifier128) {
        write(name, identifier.formatted())
    }

    package mutating func write(_ name: StaticString, literal: StaticString) {
        write(name, literal.description)
    }

    package mutating func write(_ name: StaticString, pairs: [(name: String, value: String)]) {
        var object: [String: Value] = [:]
        for pair in pairs where object[pair.name] == nil { object[pair.name] = .string(pair.value) }
        write(name, value: .object(object))
    }
}

/// Builds a record as a `Value` (an object; field order is not kept).
package struct ValueWriter: RecordWriter {
    package private(set) var fields: [String: Value] = [:]

    package init() {}

    package var value: Value { .object(fields) }

    package mutating func write(_ name: StaticString, _ value: String) { fields[name.description] = .string(value) }
    package mutating func write(_ name: StaticString, _ value: Int64) { fields[name.description] = .int(value) }
    package mutating func write(_ name: StaticString, _ value: Double) { fields[name.description] = .double(value) }
    package mutating func write(_ name: StaticString, _ value: Bool) { fields[name.description] = .bool(value) }
    package mutating func write(_ name: StaticString, null: Void) { fields[name.description] = .null }
    package mutating func write(_ name: StaticString, strings: [String]) {
        fields[name.description] = .array(strings.map(Value.string))
    }
    package mutating func write<Record: Presentable>(_ name: StaticString, record: Record) {
        fields[name.description] = record.value
    }
    package mutating func write<Record: Presentable>(_ name: StaticString, records: [Record]) {
        fields[name.description] = .array(records.map(\.value))
    }
    package mutating func write(dynamic name: String, _ value: Value) { fields[name] = value }
}

extension Presentable {
    /// The record as a `Value` object.
    package var value: Value {
        var writer = ValueWriter()
        present(to: &writer)
        return writer.value
    }
}

// MARK: Outbox items

/// Something the backend sent. Its fields are the contract's; when it was sent (`sentAt`) is shown by the control
/// API, not to scenarios, whose tables compare by the contract's fields.
package protocol OutboxItem: Presentable {
    /// Seconds on the virtual clock when it was sent.
    var sentAt: Double { get }
}

extension Outbox.Email: OutboxItem {
    /// `{ to, subject, kind, code?, link?, password? }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("to", to)
        writer.write("subject", subject)
        writer.write("kind", kind.rawValue)
        writer.write("code", code)
        writer.write("link", link)
        if let password { writer.write("password", password) }
        if let body { writer.write("body", body) }
        if let html { writer.write("html", html) }
        if let template { writer.write("template", template) }
        if let cc { writer.write("cc", strings: cc) }
        if let bcc { writer.write("bcc", strings: bcc) }
        if let messageID { writer.write("messageId", messageID) }
    }
}

extension Outbox.SMS: OutboxItem {
    /// `{ to, body, code?, link? }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("to", to)
        writer.write("body", body)
        writer.write("code", code)
        if let link { writer.write("link", link) }
    }
}

extension Outbox.Push: OutboxItem {
    /// Backendless `{ device_id, channel?, message, headers, messageId, template?, title?, subtitle? }`; Kii
    /// `{ installation_id, user, message }`, or for a topic message `{ installation_id, user, topic, data,
    /// pushMessageID }`.
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        if let installationID, let topicMessage {
            // A Kii topic push (contract v3): `{ installation_id, user, topic, data, pushMessageID }`.
            writer.write("installation_id", installationID)
            writer.write("user", userID)
            writer.write("topic", topicMessage.topic)
            writer.write(dynamic: "data", Value(properties: topicMessage.data))
            writer.write("pushMessageID", topicMessage.pushMessageID)
            if let payload { writer.write("payload", payload) }
            return
        }
        if let installationID {
            writer.write("installation_id", installationID)
            writer.write("user", userID)
        } else {
            writer.write("device_id", deviceID)
            writer.write("channel", channel)
        }
        writer.write("message", message)
        if let payload { writer.write("payload", payload) }
        publication?.present(to: &writer)
    }
}
