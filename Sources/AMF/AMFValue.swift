/// One AMF3 value, as the Flash/Flex remoting format carries it (Adobe's "AMF 3 Specification", 2013).
///
/// References are resolved while reading: a value read by reference is a copy of the value it refers to, so a
/// decoded value is a plain tree. A reference to an object still being read (a loop) is refused by the reader.
package indirect enum AMFValue: Sendable, Equatable {
    case undefined
    case null
    case bool(Bool)
    /// A 29-bit signed integer (`-268435456...268435455`); the writer sends a larger `Int32` as a double.
    case int(Int32)
    case double(Double)
    case string(String)
    /// The legacy `flash.xml.XMLDocument` (marker 0x07).
    case xmlDocument(String)
    /// An E4X `XML` value (marker 0x0B).
    case xml(String)
    /// Milliseconds since 1970-01-01 UTC.
    case date(Double)
    case array(AMFArray)
    case object(AMFObject)
    case byteArray([UInt8])
    case vectorInt([Int32], fixed: Bool)
    case vectorUInt([UInt32], fixed: Bool)
    case vectorDouble([Double], fixed: Bool)
    case vectorObject(typeName: String, [AMFValue], fixed: Bool)
    case dictionary(AMFDictionary)

    /// The value's string, or nil when it is not a string.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The object's members, or nil when it is not an object.
    package var object: AMFObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// True for `null` and `undefined`.
    package var isNull: Bool {
        switch self {
        case .null, .undefined: return true
        default: return false
        }
    }

    /// A short name of the value's kind, for messages.
    package var kindName: String {
        switch self {
        case .undefined: return "undefined"
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "double"
        case .string: return "string"
        case .xmlDocument, .xml: return "XML"
        case .date: return "date"
        case .array: return "array"
        case .object(let object): return object.className.isEmpty ? "object" : "object \(object.className)"
        case .byteArray: return "byte array"
        case .vectorInt, .vectorUInt, .vectorDouble, .vectorObject: return "vector"
        case .dictionary: return "dictionary"
        }
    }

    /// An integer that fits AMF3's 29 bits as `.int`, anything else as `.double` (what the SDKs' writers do).
    package static func number(_ value: Int64) -> AMFValue {
        if value >= Int64(AMF3.minInt), value <= Int64(AMF3.maxInt) { return .int(Int32(value)) }
        return .double(Double(value))
    }

    /// A double that is integral and fits 29 bits as `.int`, anything else as `.double`.
    package static func number(_ value: Double) -> AMFValue {
        if value.rounded() == value, value >= Double(AMF3.minInt), value <= Double(AMF3.maxInt) { return .int(Int32(value)) }
        return .double(value)
    }
}

/// A named value inside an object or an array's associative part.
package struct AMFMember: Sendable, Equatable {
    package var name: String
    package var value: AMFValue

    package init(_ name: String, _ value: AMFValue) {
        self.name = name
        self.value = value
    }
}

/// An AMF3 array: its dense part (indices 0..<n) and its associative part (string keys), in the order sent.
package struct AMFArray: Sendable, Equatable {
    package var dense: [AMFValue]
    package var associative: [AMFMember]

    package init(_ dense: [AMFValue] = [], associative: [AMFMember] = []) {
        self.dense = dense
        self.associative = associative
    }
}

/// An AMF3 object: its class alias (`""` for an anonymous object), its sealed members (the traits' names, in the
/// traits' order) and, when dynamic, its dynamic members.
package struct AMFObject: Sendable, Equatable {
    package var className: String
    package var sealed: [AMFMember]
    package var isDynamic: Bool
    package var dynamic: [AMFMember]

    package init(_ className: String = "", sealed: [AMFMember] = [], isDynamic: Bool = false, dynamic: [AMFMember] = []) {
        self.className = className
        self.sealed = sealed
        self.isDynamic = isDynamic || !dynamic.isEmpty
        self.dynamic = dynamic
    }

    /// The member named `name` (sealed first, then dynamic); nil when there is none.
    package subscript(name: String) -> AMFValue? {
        if let member = sealed.first(where: { $0.name == name }) { return member.value }
        return dynamic.first { $0.name == name }?.value
    }

    /// Every member, sealed then dynamic.
    package var members: [AMFMember] { sealed + dynamic }
}

/// An AMF3 dictionary (`flash.utils.Dictionary`): keys of any type, in the order sent.
package struct AMFDictionary: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var key: AMFValue
        package var value: AMFValue

        package init(_ key: AMFValue, _ value: AMFValue) {
            self.key = key
            self.value = value
        }
    }

    package var weakKeys: Bool
    package var entries: [Entry]

    package init(weakKeys: Bool = false, _ entries: [Entry] = []) {
        self.weakKeys = weakKeys
        self.entries = entries
    }
}

/// Why bytes are not AMF the codec can read: where, and what was wrong.
package struct AMFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset where reading failed.
    package var offset: Int
    package var message: String

    package init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    package var description: String { "AMF error at byte \(offset): \(message)" }
}

/// AMF3's constants.
package enum AMF3 {
    package static let minInt: Int32 = -(1 << 28)
    package static let maxInt: Int32 = (1 << 28) - 1

    enum Marker: UInt8 {
        case undefined = 0x00, null, `false`, `true`, integer, double, string, xmlDocument, date, array, object, xml,
            byteArray, vectorInt, vectorUInt, vectorDouble, vectorObject, dictionary
    }
}
