/// A dynamic value as scenarios and HTTP bodies carry it: what a user property, a fault argument or a JSON
/// field can hold.
package enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([Value])
    case object([String: Value])

    /// The string inside, if this is a string.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number inside as a Double, if this is a number.
    package var numberValue: Double? {
        switch self {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }

    /// True for `null` and for the empty string: what Backendless treats as "no value".
    package var isEmpty: Bool {
        switch self {
        case .null: return true
        case .string(let text): return text.isEmpty
        default: return false
        }
    }

    /// An empty list read as an empty object: a script's `{}` is both.
    package var emptyListAsObject: Value {
        if case .array(let items) = self, items.isEmpty { return .object([:]) }
        return self
    }

    /// The value's kind, for error messages.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "list"
        case .object: return "object"
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value {
    /// The string, or `null` when there is none.
    package init(_ text: String?) {
        self = text.map(Value.string) ?? .null
    }

    /// An object holding these properties (the first wins where a name repeats).
    package init(properties: [Property]) {
        var object: [String: Value] = [:]
        object.reserveCapacity(properties.count)
        for property in properties where object[property.name] == nil { object[property.name] = property.value }
        self = .object(object)
    }
}

/// One named property, in the order a request listed it.
package struct Property: Sendable, Hashable {
    package var name: String
    package var value: Value

    package init(_ name: String, _ value: Value) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == Property {
    /// The value of the first property with this exact name.
    package subscript(named name: String) -> Value? {
        for property in self where property.name == name { return property.value }
        return nil
    }
}
