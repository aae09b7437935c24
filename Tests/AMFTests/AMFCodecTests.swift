import Testing

@testable import AMF

@Suite("AMF3 values: round trips, references, what an independent encoder writes")
struct AMFCodecTests {
    @Test("every AMF3 type reads back as it was written")
    func roundTripOfEveryType() throws {
        let bytes = try AMF3.encode(everyType)
        #expect(try AMF3.decode(bytes) == everyType)
    }

    @Test("each value alone reads back as it was written", arguments: 0..<36)
    func roundTripOfEachValue(index: Int) throws {
        guard case .array(let array) = everyType, index < array.dense.count else { return }
        let value = array.dense[index]
        #expect(try AMF3.decode(try AMF3.encode(value)) == value)
    }

    @Test("integers: 1-4 byte U29, 29-bit two's complement; beyond 29 bits a double")
    func integers() throws {
        #expect(try AMF3.encode(.int(-7)) == hex("04 ff ff ff f9"))
        #expect(try AMF3.encode(.int(AMF3.maxInt)) == hex("04 bf ff ff ff"))
        #expect(try AMF3.encode(.int(127)) == hex("04 7f"))
        #expect(try AMF3.encode(.int(128)) == hex("04 81 00"))
        #expect(try AMF3.encode(.int(AMF3.maxInt + 1)) == hex("05 41 b0 00 00 00 00 00 00"))
        #expect(AMFValue.number(Int64(300_000_000)) == .double(300_000_000))
        #expect(AMFValue.number(3.0) == .int(3))
    }

    @Test("the writer sends repeated strings and repeated traits by reference, never the empty string")
    func writerReferences() throws {
        let item = { (n: Int32) in AMFValue.object(AMFObject("T", sealed: [AMFMember("x", .int(n))])) }
        let bytes = try AMF3.encode(.array(AMFArray([item(1), item(2), .string("x"), .string(""), .string("")])))
        // array of 5; object with inline traits (1 sealed), "T", "x", 1; object with traits reference 0, 2;
        // "x" by reference (string #1); "" twice inline.
        #expect(bytes == hex("09 0b 01  0a 13 03 54 03 78 04 01  0a 01 04 02  06 02  06 01 06 01"))
    }

    @Test("the Java SDK's login request reads as a RemotingMessage with its arguments and headers")
    func javaLoginRequest() throws {
        var bytes = hex("00 03 00 00 00 01 00 04") + Array("null".utf8) + hex("00 04") + Array("null".utf8) + hex("ff ff ff ff 11")
        bytes += hex("09 03 01 0a 81 33") + inlineString("flex.messaging.messages.RemotingMessage")
        for name in ["timeToLive", "headers", "clientId", "destination", "messageId", "correlationId", "source", "body", "operation", "messageRefType", "timestamp"] {
            bytes += inlineString(name)
        }
        bytes += hex("04 00 0a 23 01") + inlineString("application-type") + inlineString("api-version")
        bytes += amfString("ANDROID") + amfString("1.0")
        bytes += hex("01") + amfString("GenericDestination") + hex("01 01")
        bytes += amfString("com.backendless.services.users.UserService")
        bytes += hex("09 05 01") + amfString("probe@example.com") + amfString("pw-1")
        bytes += amfString("login") + hex("01 04 00")
        #expect(bytes.count == 333)

        let packet = try AMFPacket.decode(bytes)
        #expect(packet.version == 3)
        #expect(packet.headers.isEmpty)
        #expect(packet.bodies.count == 1)
        guard case .array(let outer) = packet.bodies[0].value, case .object(let message)? = outer.dense.first else {
            Issue.record("the body is not [RemotingMessage]: \(packet.bodies[0].value)")
            return
        }
        #expect(message.className == "flex.messaging.messages.RemotingMessage")
        #expect(message["source"] == .string("com.backendless.services.users.UserService"))
        #expect(message["operation"] == .string("login"))
        #expect(message["body"] == .array(AMFArray([.string("probe@example.com"), .string("pw-1")])))
        #expect(message["headers"]?.object?["application-type"] == .string("ANDROID"))
        #expect(message["timestamp"] == .int(0))
    }

    @Test("object references resolve whatever their marker: a repeated Date comes as 0x0A + reference")
    func objectReferenceWithObjectMarker() throws {
        // [date, <0x0A ref #1>]: the outer array is #0, the date #1.
        let value = try AMF3.decode(hex("09 05 01 08 01 42 76 f6 43 5c c8 80 00 0a 02"))
        #expect(value == .array(AMFArray([.date(1_577_934_245_000), .date(1_577_934_245_000)])))
    }

    @Test("a packet reads back as it was written, and its body starts with the AMF3 switch")
    func packetRoundTrip() throws {
        let packet = AMFPacket(
            bodies: [AMFPacket.Body(target: "/1/onResult", response: "null", value: everyType)]
        )
        let bytes = try packet.encoded()
        #expect(Array(bytes.prefix(6)) == hex("00 03 00 00 00 01"))
        #expect(try AMFPacket.decode(bytes) == packet)
    }

    @Test("AMF0 values in an envelope: numbers, strings, objects, arrays, dates, references")
    func amf0Values() throws {
        var bytes = hex("00 00 00 00 00 01") + hex("00 01") + Array("t".utf8) + hex("00 01") + Array("r".utf8) + hex("00 00 00 00")
        bytes += hex("0a 00 00 00 05")  // strict array of 5
        bytes += hex("00 40 04 00 00 00 00 00 00")  // 2.5
        bytes += hex("02 00 02") + Array("hi".utf8)
        bytes += hex("03 00 01") + Array("a".utf8) + hex("01 01 00 00 09")  // {a: true}
        bytes += hex("0b 42 76 f6 43 5c c8 80 00 00 00")  // a date
        bytes += hex("07 00 01")  // reference to the object
        let packet = try AMFPacket.decode(bytes)
        let object = AMFValue.object(AMFObject("", isDynamic: true, dynamic: [AMFMember("a", .bool(true))]))
        #expect(packet.bodies[0].value == .array(AMFArray([.double(2.5), .string("hi"), object, .date(1_577_934_245_000), object])))
    }

    /// Samples encoded by PyPI's py3amf 0.9.1 (`scripts/amf-oracle.py` prints them).
    static let oracle: [(String, String)] = [
        ("string", "060b68656c6c6f"),
        ("repeated string", "09070104010603610600"),
        ("anonymous object", "0a0b0103610401036206037801"),
        ("date", "08014276f6435cc88000"),
        ("typed objects, traits by reference", "0905010a0b23636f6d2e6578616d706c652e54797065640378040103790604010a010204020406037a01"),
        ("negative int", "04fffffff9"),
        ("largest int", "04bfffffff"),
        ("int beyond 29 bits", "0541b0000000000000"),
        ("double", "054004000000000000"),
        ("true", "03"),
        ("null", "01"),
        ("associative array", "0901036104010362040201"),
        ("date by reference", "09050108014276f6435cc880000802"),
        ("unicode", "0617c5bcc3b3c5827720e29883"),
        ("byte array", "0c070001ff"),
    ]

    static let oracleValues: [String: AMFValue] = {
        let date = AMFValue.date(1_577_934_245_000)
        let typed = { (x: Int32, y: String) in
            AMFValue.object(AMFObject("com.example.Typed", isDynamic: true, dynamic: [AMFMember("x", .int(x)), AMFMember("y", .string(y))]))
        }
        return [
            "string": .string("hello"),
            "repeated string": .array(AMFArray([.int(1), .string("a"), .string("a")])),
            "anonymous object": .object(AMFObject("", isDynamic: true, dynamic: [AMFMember("a", .int(1)), AMFMember("b", .string("x"))])),
            "date": date,
            "typed objects, traits by reference": .array(AMFArray([typed(1, "y"), typed(2, "z")])),
            "negative int": .int(-7), "largest int": .int(AMF3.maxInt), "int beyond 29 bits": .double(268_435_456),
            "double": .double(2.5), "true": .bool(true), "null": .null,
            "associative array": .array(AMFArray(associative: [AMFMember("a", .int(1)), AMFMember("b", .int(2))])),
            "date by reference": .array(AMFArray([date, date])),
            "unicode": .string("żółw ☃"),
            "byte array": .byteArray([0, 1, 255]),
        ]
    }()

    @Test("what py3amf encodes reads as the value it encoded", arguments: oracle)
    func independentEncoder(sample: (String, String)) throws {
        let decoded = try AMF3.decode(hex(sample.1))
        #expect(decoded == Self.oracleValues[sample.0], "\(sample.0)")
        // And what this writer writes for it reads back the same.
        #expect(try AMF3.decode(try AMF3.encode(decoded)) == decoded)
    }
}
