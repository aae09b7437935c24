/// Writes AMF3 values. Repeated non-empty strings and repeated traits (same class, member names and dynamic flag)
/// go by reference; objects are always written inline (a decoded value has no identity to share), which every
/// reader accepts.
struct AMF3Writer {
    var sink = ByteSink()
    private var strings: [String: Int] = [:]
    private var traits: [TraitsKey: Int] = [:]

    private struct TraitsKey: Hashable {
        var className: String
        var names: [String]
        var isDynamic: Bool
    }

    /// An unsigned 29-bit integer; refuses what does not fit.
    mutating func u29(_ value: Int) throws(AMFError) {
        guard value >= 0, value < 1 << 29 else { throw AMFError(offset: sink.bytes.count, "\(value) does not fit in 29 bits") }
        let value = UInt32(value)
        switch value {
        case 0..<0x80:
            sink.byte(UInt8(value))
        case 0x80..<0x4000:
            sink.byte(UInt8(value >> 7 | 0x80))
            sink.byte(UInt8(value & 0x7F))
        case 0x4000..<0x20_0000:
            sink.byte(UInt8(value >> 14 | 0x80))
            sink.byte(UInt8(value >> 7 & 0x7F | 0x80))
            sink.byte(UInt8(value & 0x7F))
        default:
            sink.byte(UInt8(value >> 22 | 0x80))
            sink.byte(UInt8(value >> 15 & 0x7F | 0x80))
            sink.byte(UInt8(value >> 8 & 0x7F | 0x80))
            sink.byte(UInt8(value & 0xFF))
        }
    }

    /// An inline length header: `length << 1 | 1`.
    private mutating func inline(_ length: Int) throws(AMFError) {
        guard length < 1 << 28 else { throw AMFError(offset: sink.bytes.count, "a length of \(length) does not fit AMF3") }
        try u29(length << 1 | 1)
    }

    mutating func string(_ text: String) throws(AMFError) {
        if text.isEmpty { return sink.byte(0x01) }
        if let index = strings[text] { return try u29(index << 1) }
        strings[text] = strings.count
        try inline(text.utf8.count)
        sink.bytes.append(contentsOf: text.utf8)
    }

    mutating func value(_ value: AMFValue) throws(AMFError) {
        switch value {
        case .undefined: sink.byte(AMF3.Marker.undefined.rawValue)
        case .null: sink.byte(AMF3.Marker.null.rawValue)
        case .bool(let flag): sink.byte(flag ? AMF3.Marker.true.rawValue : AMF3.Marker.false.rawValue)
        case .int(let number):
            guard number >= AMF3.minInt, number <= AMF3.maxInt else { return try self.value(.double(Double(number))) }
            sink.byte(AMF3.Marker.integer.rawValue)
            try u29(Int(UInt32(bitPattern: number) & 0x1FFF_FFFF))
        case .double(let number):
            sink.byte(AMF3.Marker.double.rawValue)
            sink.double(number)
        case .string(let text):
            sink.byte(AMF3.Marker.string.rawValue)
            try string(text)
        case .xmlDocument(let text), .xml(let text):
            sink.byte(value == .xml(text) ? AMF3.Marker.xml.rawValue : AMF3.Marker.xmlDocument.rawValue)
            try inline(text.utf8.count)
            sink.bytes.append(contentsOf: text.utf8)
        case .date(let milliseconds):
            sink.byte(AMF3.Marker.date.rawValue)
            try inline(0)
            sink.double(milliseconds)
        case .array(let array):
            sink.byte(AMF3.Marker.array.rawValue)
            try inline(array.dense.count)
            for member in array.associative where !member.name.isEmpty {
                try string(member.name)
                try self.value(member.value)
            }
            try string("")
            for item in array.dense { try self.value(item) }
        case .object(let object):
            try self.object(object)
        case .byteArray(let bytes):
            sink.byte(AMF3.Marker.byteArray.rawValue)
            try inline(bytes.count)
            sink.bytes.append(contentsOf: bytes)
        case .vectorInt(let items, let fixed):
            try vectorHeader(.vectorInt, items.count, fixed)
            for item in items { sink.uint32(UInt32(bitPattern: item)) }
        case .vectorUInt(let items, let fixed):
            try vectorHeader(.vectorUInt, items.count, fixed)
            for item in items { sink.uint32(item) }
        case .vectorDouble(let items, let fixed):
            try vectorHeader(.vectorDouble, items.count, fixed)
            for item in items { sink.double(item) }
        case .vectorObject(let typeName, let items, let fixed):
            try vectorHeader(.vectorObject, items.count, fixed)
            try string(typeName)
            for item in items { try self.value(item) }
        case .dictionary(let dictionary):
            sink.byte(AMF3.Marker.dictionary.rawValue)
            try inline(dictionary.entries.count)
            sink.byte(dictionary.weakKeys ? 1 : 0)
            for entry in dictionary.entries {
                try self.value(entry.key)
                try self.value(entry.value)
            }
        }
    }

    private mutating func vectorHeader(_ marker: AMF3.Marker, _ count: Int, _ fixed: Bool) throws(AMFError) {
        sink.byte(marker.rawValue)
        try inline(count)
        sink.byte(fixed ? 1 : 0)
    }

    private mutating func object(_ object: AMFObject) throws(AMFError) {
        sink.byte(AMF3.Marker.object.rawValue)
        let isDynamic = object.isDynamic || !object.dynamic.isEmpty
        let key = TraitsKey(className: object.className, names: object.sealed.map(\.name), isDynamic: isDynamic)
        if let index = traits[key] {
            try u29(index << 2 | 0b01)
        } else {
            traits[key] = traits.count
            guard key.names.count < 1 << 25 else { throw AMFError(offset: sink.bytes.count, "too many sealed members") }
            try u29(key.names.count << 4 | (isDynamic ? 0b1000 : 0) | 0b011)
            try string(object.className)
            for name in key.names { try string(name) }
        }
        for member in object.sealed { try value(member.value) }
        if isDynamic {
            for member in object.dynamic where !member.name.isEmpty {
                try string(member.name)
                try value(member.value)
            }
            try string("")
        }
    }
}

extension AMF3 {
    /// The AMF3 encoding of `value`. Throws only for what AMF3 cannot express (a string of 256 MiB or more).
    package static func encode(_ value: AMFValue) throws(AMFError) -> [UInt8] {
        var writer = AMF3Writer()
        try writer.value(value)
        return writer.sink.bytes
    }
}
