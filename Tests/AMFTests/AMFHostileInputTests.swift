import Testing

@testable import AMF

/// Input an attacker or a broken client sends: each must end in an `AMFError`, quickly and without allocating
/// out of proportion to its size.
@Suite("AMF hostile input")
struct AMFHostileInputTests {
    func refused(_ bytes: [UInt8], _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let value = try AMF3.decode(bytes)
            Issue.record("read as \(value), wanted an error saying '\(fragment)'", sourceLocation: sourceLocation)
        } catch {
            #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("every truncation of a valid encoding is an error")
    func truncated() throws {
        let bytes = try AMF3.encode(everyType)
        for length in 0..<bytes.count {
            #expect(throws: AMFError.self) { try AMF3.decode(Array(bytes.prefix(length))) }
        }
        let packet = try AMFPacket(bodies: [AMFPacket.Body(target: "t", response: "r", value: everyType)]).encoded()
        for length in 0..<packet.count {
            #expect(throws: AMFError.self) { try AMFPacket.decode(Array(packet.prefix(length))) }
        }
    }

    @Test("trailing bytes after the value are an error")
    func trailing() {
        refused(hex("01 01"), "1 bytes follow the value")
    }

    @Test("deep nesting is refused at 64 levels, whatever the container")
    func deepNesting() {
        refused(Array(repeating: 0x09, count: 100_000).flatMap { _ in [0x09, 0x03, 0x01] } + [0x01], "nest deeper than 64")
        refused(Array(repeating: [0x0A, 0x0B, 0x01, 0x03, 0x61], count: 100).flatMap { $0 }, "nest deeper than 64")
        refused(Array(repeating: [0x11, 0x03, 0x00, 0x01], count: 100).flatMap { $0 }, "nest deeper than 64")
        var amf0 = hex("00 03 00 00 00 01 00 00 00 00 ff ff ff ff")
        amf0 += Array(repeating: [0x0A, 0, 0, 0, 1], count: 1000).flatMap { $0 } + [0x05]
        #expect(throws: AMFError.self) { try AMFPacket.decode(amf0) }
    }

    @Test("counts larger than the input are refused before anything is reserved")
    func hugeCounts() {
        refused(hex("09 ff ff ff ff 01"), "claims 268435455 elements")  // array
        refused(hex("06 ff ff ff ff"), "needs 268435455 bytes")  // string
        refused(hex("0c ff ff ff ff"), "needs 268435455 bytes")  // byte array
        refused(hex("0d ff ff ff ff 00"), "claims 268435455 elements")  // vector of ints
        refused(hex("10 ff ff ff ff 00 01"), "claims 268435455 elements")  // vector of objects
        refused(hex("11 ff ff ff ff 00"), "claims 268435455 elements")  // dictionary
        refused(hex("0a ff ff ff f3 01"), "claims")  // 16 million sealed members
        #expect(throws: AMFError.self) { try AMFPacket.decode(hex("00 03 ff ff")) }
        #expect(throws: AMFError.self) { try AMFPacket.decode(hex("00 03 00 00 ff ff")) }
        #expect(throws: AMFError.self) {
            try AMFPacket.decode(hex("00 03 00 00 00 01 00 00 00 00 ff ff ff ff 0a ff ff ff ff"))
        }
    }

    @Test("a reference to an object that contains it is a loop, and refused")
    func referenceLoops() {
        refused(hex("09 03 01 09 00"), "reference loop")  // an array holding itself
        refused(hex("0a 0b 01 03 61 0a 00 01"), "reference loop")  // an object whose member is itself
        refused(hex("11 03 00 11 00 01"), "reference loop")  // a dictionary whose key is itself
        refused(hex("09 03 01 0a 04"), "names no object")  // a reference past the table
        refused(hex("06 04"), "names no string")
        refused(hex("0a 02"), "names no object")
        refused(hex("0a 01"), "names no traits")
        refused(hex("0a 09"), "names no traits")
        var amf0 = hex("00 03 00 00 00 01 00 00 00 00 ff ff ff ff")
        amf0 += hex("0a 00 00 00 01 07 00 00")  // a strict array holding itself
        #expect(throws: AMFError.self) { try AMFPacket.decode(amf0) }
    }

    @Test("references that expand out of proportion to the input are refused (a billion laughs)")
    func expansion() {
        // a0 = [1, 1, ..., 1]; a(n+1) = [ref an, ref an, ... ×8]: 30 levels stand for 8^30 values.
        var bytes: [UInt8] = [0x09, 0x0F, 0x01] + Array(repeating: [0x04, 0x01], count: 7).flatMap { $0 }
        var previous = 1
        for level in 0..<30 {
            bytes += [0x09, 0x11, 0x01]  // 8 elements, each a reference to the level below
            for _ in 0..<8 { bytes += [0x09, UInt8(previous << 1)] }
            previous = level + 2
            if previous >= 63 { break }
        }
        let outer = [UInt8(0x09), UInt8(31 << 1 | 1), 0x01] + bytes
        refused(outer, "expand to more than")
    }

    @Test("unknown markers and externalizable classes are errors")
    func unknownTypes() throws {
        refused(hex("12"), "not an AMF3 type marker")
        refused(hex("0a 07 07 44 53 4b 01"), "externalizable class 'DSK'")
        // Flex's ArrayCollection wraps one value: read as that value.
        let collection = hex("0a 07") + inlineString("flex.messaging.io.ArrayCollection") + hex("09 03 01 04 05")
        #expect(try AMF3.decode(collection) == .array(AMFArray([.int(5)])))
        #expect(throws: AMFError.self) { try AMFPacket.decode(hex("00 03 00 00 00 01 00 00 00 00 ff ff ff ff 0d")) }
    }
}
