package import Understudy

/// JSON as a request body carries it. Objects keep their members in order, repeats included: Backendless answers
/// 3043 for a property sent twice, so a dictionary would lose what the emulator must see.
package enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([Member])

    /// One `"key": value` pair of an object.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSON

        package init(_ key: String, _ value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// The first member named `key`, if this is an object that has one.
    package subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string inside, if this is a string.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value's kind, for error messages.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The same data as the emulator's dynamic value (objects lose repeated keys: the first wins).
    package var value: Understudy.Value {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .int(number)
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(\.value))
        case .object(let members):
            var object: [String: Understudy.Value] = [:]
            object.reserveCapacity(members.count)
            for member in members where object[member.key] == nil { object[member.key] = member.value.value }
            return .object(object)
        }
    }

    /// An object's members as the emulator's properties, in order and with repeats.
    package var properties: [Property]? {
        guard case .object(let members) = self else { return nil }
        return members.map { Property($0.key, $0.value.value) }
    }
}

extension JSON {
    /// The dynamic value as JSON (object keys sorted, so replies are stable).
    package init(_ value: Understudy.Value) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .integer(number)
        case .double(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(JSON.init))
        case .object(let fields):
            self = .object(fields.sorted { $0.key < $1.key }.map { Member($0.key, JSON($0.value)) })
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSON...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements.map { Member($0.0, $0.1) }) }
    package init(nilLiteral: ()) { self = .null }
}
