/// An AMF0 remoting envelope ("packet"): version, headers and bodies, each body a target, a response URI and a
/// value. Flex and the Backendless SDKs send version 3 with AMF3 values (an AMF0 `0x11` marker, then AMF3).
package struct AMFPacket: Sendable, Equatable {
    package struct Header: Sendable, Equatable {
        package var name: String
        package var mustUnderstand: Bool
        package var value: AMFValue

        package init(name: String, mustUnderstand: Bool = false, value: AMFValue) {
            self.name = name
            self.mustUnderstand = mustUnderstand
            self.value = value
        }
    }

    package struct Body: Sendable, Equatable {
        package var target: String
        package var response: String
        package var value: AMFValue

        package init(target: String, response: String, value: AMFValue) {
            self.target = target
            self.response = response
            self.value = value
        }
    }

    package var version: UInt16
    package var headers: [Header]
    package var bodies: [Body]

    package init(version: UInt16 = 3, headers: [Header] = [], bodies: [Body]) {
        self.version = version
        self.headers = headers
        self.bodies = bodies
    }

    /// Reads a packet. Every value, AMF0 or AMF3, is read within `limits`; each header and body is one reference
    /// context.
    package static func decode(_ bytes: [UInt8], limits: AMFLimits = AMFLimits()) throws(AMFError) -> AMFPacket {
        var cursor = ByteCursor(bytes)
        let version = try cursor.uint16()
        let headerCount = Int(try cursor.uint16())
        // A header takes at least 8 bytes (name length, flag, length, marker); a body at least 9.
        guard headerCount <= cursor.remaining / 8 else { throw cursor.error("the packet claims \(headerCount) headers in \(cursor.remaining) bytes") }
        var headers: [Header] = []
        for _ in 0..<headerCount {
            let name = try AMF0Reader.utf8(&cursor)
            let mustUnderstand = try cursor.byte() != 0
            _ = try cursor.uint32()
            var reader = AMF0Reader(inputSize: bytes.count, limits: limits)
            headers.append(Header(name: name, mustUnderstand: mustUnderstand, value: try reader.value(&cursor)))
        }
        let bodyCount = Int(try cursor.uint16())
        guard bodyCount <= cursor.remaining / 9 else { throw cursor.error("the packet claims \(bodyCount) bodies in \(cursor.remaining) bytes") }
        var bodies: [Body] = []
        for _ in 0..<bodyCount {
            let target = try AMF0Reader.utf8(&cursor)
            let response = try AMF0Reader.utf8(&cursor)
            _ = try cursor.uint32()  // the body's length: -1 from the Backendless SDKs, and never needed
            var reader = AMF0Reader(inputSize: bytes.count, limits: limits)
            bodies.append(Body(target: target, response: response, value: try reader.value(&cursor)))
        }
        guard cursor.isAtEnd else { throw cursor.error("\(cursor.remaining) bytes follow the last body") }
        return AMFPacket(version: version, headers: headers, bodies: bodies)
    }

    /// The packet's bytes: each value as AMF0's `0x11` marker followed by its AMF3 encoding.
    package func encoded() throws(AMFError) -> [UInt8] {
        var sink = ByteSink()
        sink.uint16(version)
        sink.uint16(UInt16(clamping: headers.count))
        for header in headers.prefix(Int(UInt16.max)) {
            try AMF0Reader.write(header.name, &sink)
            sink.byte(header.mustUnderstand ? 1 : 0)
            let value = try AMF3.encode(header.value)
            sink.uint32(UInt32(value.count + 1))
            sink.byte(AMF0Reader.amf3Switch)
            sink.bytes.append(contentsOf: value)
        }
        sink.uint16(UInt16(clamping: bodies.count))
        for body in bodies.prefix(Int(UInt16.max)) {
            try AMF0Reader.write(body.target, &sink)
            try AMF0Reader.write(body.response, &sink)
            let value = try AMF3.encode(body.value)
            sink.uint32(UInt32(value.count + 1))
            sink.byte(AMF0Reader.amf3Switch)
            sink.bytes.append(contentsOf: value)
        }
        return sink.bytes
    }
}

/// Reads AMF0 values (the envelope's own format), switching to AMF3 at marker `0x11`. AMF0 objects become
/// anonymous dynamic `AMFObject`s, ECMA arrays associative `AMFArray`s, typed objects dynamic objects with their
/// class name.
struct AMF0Reader {
    static let amf3Switch: UInt8 = 0x11

    private var amf3: AMF3Reader
    /// AMF0's own object table (objects, ECMA and strict arrays, typed objects) with what each cost to read
    /// (a reference is charged that much again); nil while one is being read.
    private var objects: [(value: AMFValue, cost: Int)?] = []
    private var depth = 0
    private let limits: AMFLimits

    init(inputSize: Int, limits: AMFLimits) {
        amf3 = AMF3Reader(inputSize: inputSize, limits: limits)
        self.limits = limits
    }

    static func utf8(_ cursor: inout ByteCursor) throws(AMFError) -> String {
        try cursor.text(Int(try cursor.uint16()))
    }

    static func write(_ text: String, _ sink: inout ByteSink) throws(AMFError) {
        guard text.utf8.count <= Int(UInt16.max) else { throw AMFError(offset: sink.bytes.count, "a name longer than 65535 bytes") }
        sink.uint16(UInt16(text.utf8.count))
        sink.bytes.append(contentsOf: text.utf8)
    }

    mutating func value(_ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let markerOffset = cursor.offset
        let marker = try cursor.byte()
        if marker != Self.amf3Switch { try amf3.charge(1, cursor) }
        switch marker {
        case 0x00: return .double(try cursor.double())
        case 0x01: return .bool(try cursor.byte() != 0)
        case 0x02: return .string(try Self.utf8(&cursor))
        case 0x03: return try members(className: "", &cursor)
        case 0x05: return .null
        case 0x06: return .undefined
        case 0x07:
            let index = Int(try cursor.uint16())
            guard index < objects.count else { throw cursor.error("AMF0 reference \(index) names no object (\(objects.count) read)") }
            guard let (value, cost) = objects[index] else {
                throw cursor.error("AMF0 reference \(index) refers to an object that contains it (a reference loop)")
            }
            try amf3.charge(cost, cursor)
            return value
        case 0x08:
            _ = try cursor.uint32()  // the count is a hint; the members end with the end marker
            return try members(className: nil, &cursor)
        case 0x0A:
            let count = Int(try cursor.uint32())
            guard count <= cursor.remaining else { throw cursor.error("a strict array claims \(count) elements, but only \(cursor.remaining) bytes remain") }
            let slot = try begin(cursor)
            defer { depth -= 1 }
            var items: [AMFValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try value(&cursor)) }
            return finish(slot, .array(AMFArray(items)))
        case 0x0B:
            let milliseconds = try cursor.double()
            _ = try cursor.uint16()  // the time zone: reserved, always 0
            return .date(milliseconds)
        case 0x0C: return .string(try cursor.text(Int(try cursor.uint32())))
        case 0x0F: return .xmlDocument(try cursor.text(Int(try cursor.uint32())))
        case 0x10: return try members(className: try Self.utf8(&cursor), &cursor)
        case Self.amf3Switch: return try amf3.value(&cursor)
        default:
            throw AMFError(offset: markerOffset, "0x\(String(marker, radix: 16)) is not an AMF0 type marker this reader knows")
        }
    }

    private mutating func begin(_ cursor: ByteCursor) throws(AMFError) -> (slot: Int, producedBefore: Int) {
        depth += 1
        guard depth <= limits.maxDepth else { throw cursor.error("values nest deeper than \(limits.maxDepth) levels") }
        objects.append(nil)
        return (objects.count - 1, amf3.produced)
    }

    private mutating func finish(_ slot: (slot: Int, producedBefore: Int), _ value: AMFValue) -> AMFValue {
        objects[slot.slot] = (value, amf3.produced - slot.producedBefore + 1)
        return value
    }

    /// An object's (or ECMA array's, when `className` is nil) name/value pairs up to the end marker.
    private mutating func members(className: String?, _ cursor: inout ByteCursor) throws(AMFError) -> AMFValue {
        let slot = try begin(cursor)
        defer { depth -= 1 }
        var members: [AMFMember] = []
        while true {
            let name = try Self.utf8(&cursor)
            if name.isEmpty {
                guard try cursor.byte() == 0x09 else { throw cursor.error("an empty member name not followed by the object-end marker") }
                break
            }
            members.append(AMFMember(name, try value(&cursor)))
        }
        let value: AMFValue = className.map { .object(AMFObject($0, isDynamic: true, dynamic: members)) }
            ?? .array(AMFArray(associative: members))
        return finish(slot, value)
    }
}
