/// How much a reading may produce, so that hostile input is refused before it costs time or memory out of
/// proportion to its size.
package struct AMFLimits: Sendable {
    /// The deepest nesting of arrays, objects, vectors and dictionaries.
    package var maxDepth: Int
    /// Values (and string bytes / 16) a reading may produce per input byte, counting each reference at the full
    /// size of what it refers to: a few nested arrays of references would otherwise stand for billions of values.
    package var expansionPerByte: Int

    package init(maxDepth: Int = 64, expansionPerByte: Int = 16) {
        self.maxDepth = maxDepth
        self.expansionPerByte = expansionPerByte
    }
}

/// Reads AMF3 values with their three reference tables (strings, objects, traits). One reader is one reference
/// context: a remoting body gets a fresh one.
struct AMF3Reader {
    /// A slot of the object table: a complex value is registered before its members are read, so a reference
    /// to it from inside itself (a loop) finds it unfinished.
    private enum Slot {
        case reading
        case read(AMFValue, cost: Int)
    }

    private struct Traits {
        var className: String
        var names: [String]
        var isDynamic: Bool
        var isExternalizable: Bool
    }

    private var strings: [String] = []
    private var objects: [Slot] = []
    private var traits: [Traits] = []
    private var depth = 0
    /// What the reading has produced so far, and the most it may.
    private(set) var produced = 0
    private let budget: Int
    private let limits: AMFLimits

    init(inputSize: Int, limits: AMFLimits) {
        self.limits = limits
        budget = limits.expansionPerByte * inputSize + 4096
    }

    mutating func charge(_ units: Int, _ cursor: ByteCursor) throws(AMFError) {
        produced += units
        guard produced <= budget else {
            throw cursor.error("the references expand to more than \(budget) values, out of proportion to the input")
        }
    }

    // MARK: Numbers and strings

    /// An unsigned 29-bit integer: 1-4 bytes, 7 bits each with a continuation bit, 8 bits in the fourth.
    mutating func u29(_ cursor: inout ByteCursor) throws(AMFError) -> UInt32 {
        var result: UInt32 = 0
        for index in 0..<4 {
            let byte = try cursor.byte()
            if index == 3 { return result << 8 | UInt32(byte) }
            result = result << 7 | UInt32(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return result
    }

    /// A count or length from an inline header, refused when more elements than bytes remain (every element takes
    /// at least `bytesEach` bytes), so a forged count never reserves memory or loops for long.
    private func count(_ header: UInt32, bytesEach: Int, _ what: String, _ cursor: ByteCursor) throws(AMFError) -> Int {
        let count = Int(header >> 1)
        guard count <= cursor.remaining / max(bytesEach, 1) else {
            throw cursor.error("\(what) claims \(count) elements, but only \(cursor.remaining) bytes remain")
        }
        return count
    }

    /// A string of the string table (values, member names and class names share it; `""` is never added).
    mutating func string(_ cursor: inout ByteCursor) throws(AMFError) -> String {
        let header = try u29(&cursor)
        if header & 1 == 0 {
            let index = Int(header >> 1)
            guard index < strings.count else { throw cursor.error("string reference \(index) names no string (\(strings.count) read)") }
            let text = strings[index]
            try charge(1 + text.utf8.count / 16, cursor)
            return text
        }
        let length = Int(header >> 1)
        let text = try cursor.text(length)
        if length > 0 { strings.append(text) }
        try charge(1 + length / 16, cursor)
        return text
    }

    // MARK: Values

    mutating func value(_ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let markerOffset = cursor.offset
        let byte = try cursor.byte()
        guard let marker = AMF3.Marker(rawValue: byte) else {
            throw AMFError(offset: markerOffset, "0x\(String(byte, radix: 16)) is not an AMF3 type marker")
        }
        try charge(1, cursor)
        switch marker {
        case .undefined: return .undefined
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .integer:
            let raw = try u29(&cursor)
            return .int(raw & 0x1000_0000 != 0 ? Int32(bitPattern: raw | 0xE000_0000) : Int32(raw))
        case .double: return .double(try cursor.double())
        case .string: return .string(try string(&cursor))
        case .xmlDocument, .xml, .byteArray, .date:
            return try simpleObject(marker, &cursor)
        case .array: return try array(&cursor)
        case .object: return try object(&cursor)
        case .vectorInt, .vectorUInt, .vectorDouble, .vectorObject: return try vector(marker, &cursor)
        case .dictionary: return try dictionary(&cursor)
        }
    }

    /// Reads the header of a value of the object table: the referenced value, or the inline header.
    private mutating func header(_ cursor: inout ByteCursor) throws(AMFError) -> Header {
        let header = try u29(&cursor)
        if header & 1 == 1 { return .inline(header) }
        return .reference(try reference(Int(header >> 1), cursor))
    }

    /// The header of a value of the object table.
    private enum Header {
        /// The inline header: the value follows.
        case inline(UInt32)
        /// The value a reference refers to.
        case reference(AMFValue)
    }

    private mutating func reference(_ index: Int, _ cursor: ByteCursor) throws(AMFError) -> AMFValue {
        guard index < objects.count else { throw cursor.error("object reference \(index) names no object (\(objects.count) read)") }
        switch objects[index] {
        case .reading: throw cursor.error("object reference \(index) refers to an object that contains it (a reference loop)")
        case .read(let value, let cost):
            try charge(cost, cursor)
            return value
        }
    }

    /// Registers a complex value before its contents are read; `finish` stores it once read.
    private mutating func reserve() -> (slot: Int, producedBefore: Int) {
        objects.append(.reading)
        return (objects.count - 1, produced)
    }

    private mutating func finish(_ reservation: (slot: Int, producedBefore: Int), _ value: AMFValue) -> AMFValue {
        objects[reservation.slot] = .read(value, cost: produced - reservation.producedBefore + 1)
        return value
    }

    private mutating func nest(_ cursor: ByteCursor) throws(AMFError) {
        depth += 1
        guard depth <= limits.maxDepth else { throw cursor.error("values nest deeper than \(limits.maxDepth) levels") }
    }

    private mutating func simpleObject(_ marker: AMF3.Marker, _ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let header: UInt32
        switch try self.header(&cursor) {
        case .reference(let value): return value
        case .inline(let inline): header = inline
        }
        let value: AMFValue
        switch marker {
        case .date: value = .date(try cursor.double())
        case .xmlDocument: value = .xmlDocument(try cursor.text(Int(header >> 1)))
        case .xml: value = .xml(try cursor.text(Int(header >> 1)))
        default: value = .byteArray(Array(try cursor.take(Int(header >> 1), "a byte array")))
        }
        try charge(Int(header >> 1) / 16, cursor)
        objects.append(.read(value, cost: 1 + Int(header >> 1) / 16))
        return value
    }

    private mutating func array(_ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let header: UInt32
        switch try self.header(&cursor) {
        case .reference(let value): return value
        case .inline(let inline): header = inline
        }
        try nest(cursor)
        defer { depth -= 1 }
        let count = try count(header, bytesEach: 1, "an array", cursor)
        let reservation = reserve()
        var associative: [AMFMember] = []
        while true {
            let name = try string(&cursor)
            if name.isEmpty { break }
            associative.append(AMFMember(name, try value(&cursor)))
        }
        var dense: [AMFValue] = []
        dense.reserveCapacity(min(count, cursor.remaining))
        for _ in 0..<count { dense.append(try value(&cursor)) }
        return finish(reservation, .array(AMFArray(dense, associative: associative)))
    }

    private mutating func object(_ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let header: UInt32
        switch try self.header(&cursor) {
        case .reference(let value): return value
        case .inline(let inline): header = inline
        }
        try nest(cursor)
        defer { depth -= 1 }
        let traits: Traits
        if header & 2 == 0 {
            let index = Int(header >> 2)
            guard index < self.traits.count else { throw cursor.error("traits reference \(index) names no traits (\(self.traits.count) read)") }
            traits = self.traits[index]
        } else if header & 4 != 0 {
            traits = Traits(className: try string(&cursor), names: [], isDynamic: false, isExternalizable: true)
            self.traits.append(traits)
        } else {
            // U29 = count << 4 | dynamic << 3 | 0b011: `count(_:)` shifts by one more.
            let count = try self.count(header >> 3, bytesEach: 1, "an object's traits", cursor)
            let className = try string(&cursor)
            var names: [String] = []
            names.reserveCapacity(count)
            for _ in 0..<count { names.append(try string(&cursor)) }
            traits = Traits(className: className, names: names, isDynamic: header & 8 != 0, isExternalizable: false)
            self.traits.append(traits)
        }
        let reservation = reserve()
        if traits.isExternalizable {
            // Flex's two externalizable wrappers hold one value each; nothing else can be read without its class.
            guard AMF3.transparentWrappers.contains(traits.className) else {
                throw cursor.error("externalizable class '\(traits.className)' cannot be read")
            }
            return finish(reservation, try value(&cursor))
        }
        var sealed: [AMFMember] = []
        sealed.reserveCapacity(traits.names.count)
        for name in traits.names { sealed.append(AMFMember(name, try value(&cursor))) }
        var dynamic: [AMFMember] = []
        if traits.isDynamic {
            while true {
                let name = try string(&cursor)
                if name.isEmpty { break }
                dynamic.append(AMFMember(name, try value(&cursor)))
            }
        }
        return finish(reservation, .object(AMFObject(traits.className, sealed: sealed, isDynamic: traits.isDynamic, dynamic: dynamic)))
    }

    private mutating func vector(_ marker: AMF3.Marker, _ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let header: UInt32
        switch try self.header(&cursor) {
        case .reference(let value): return value
        case .inline(let inline): header = inline
        }
        let width = marker == .vectorDouble ? 8 : marker == .vectorObject ? 1 : 4
        let count = try count(header, bytesEach: width, "a vector", cursor)
        let fixed = try cursor.byte() != 0
        let value: AMFValue
        switch marker {
        case .vectorInt, .vectorUInt:
            var items: [UInt32] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try cursor.uint32()) }
            try charge(count / 4, cursor)
            value = marker == .vectorInt ? .vectorInt(items.map { Int32(bitPattern: $0) }, fixed: fixed) : .vectorUInt(items, fixed: fixed)
        case .vectorDouble:
            var items: [Double] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try cursor.double()) }
            try charge(count / 2, cursor)
            value = .vectorDouble(items, fixed: fixed)
        default:
            try nest(cursor)
            defer { depth -= 1 }
            let typeName = try string(&cursor)
            let reservation = reserve()
            var items: [AMFValue] = []
            items.reserveCapacity(min(count, cursor.remaining))
            for _ in 0..<count { items.append(try self.value(&cursor)) }
            return finish(reservation, .vectorObject(typeName: typeName, items, fixed: fixed))
        }
        objects.append(.read(value, cost: 1 + count / 4))
        return value
    }

    private mutating func dictionary(_ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let header: UInt32
        switch try self.header(&cursor) {
        case .reference(let value): return value
        case .inline(let inline): header = inline
        }
        try nest(cursor)
        defer { depth -= 1 }
        let count = try count(header, bytesEach: 2, "a dictionary", cursor)
        let weakKeys = try cursor.byte() != 0
        let reservation = reserve()
        var entries: [AMFDictionary.Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count { entries.append(AMFDictionary.Entry(try value(&cursor), try value(&cursor))) }
        return finish(reservation, .dictionary(AMFDictionary(weakKeys: weakKeys, entries)))
    }
}

extension AMF3 {
    /// Externalizable classes whose content is one AMF3 value: read as that value.
    static let transparentWrappers: Set<String> = ["flex.messaging.io.ArrayCollection", "flex.messaging.io.ObjectProxy"]

    /// Reads one AMF3 value that fills `bytes`; trailing bytes are an error.
    package static func decode(_ bytes: [UInt8], limits: AMFLimits = AMFLimits()) throws(AMFError) -> AMFValue {
        var cursor = ByteCursor(bytes)
        var reader = AMF3Reader(inputSize: bytes.count, limits: limits)
        let value = try reader.value(&cursor)
        guard cursor.isAtEnd else { throw cursor.error("\(cursor.remaining) bytes follow the value") }
        return value
    }
}
