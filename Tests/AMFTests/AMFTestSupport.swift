@testable import AMF

/// Bytes from a hex string (spaces allowed).
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// An AMF3 string's inline form: `06`, the length header, the UTF-8.
func amfString(_ text: String) -> [UInt8] {
    [0x06] + inlineString(text)
}

/// A string-table entry's inline form (member and class names): the length header, the UTF-8.
func inlineString(_ text: String) -> [UInt8] {
    var writer = AMF3Writer()
    try! writer.u29(text.utf8.count << 1 | 1)
    return writer.sink.bytes + Array(text.utf8)
}

/// SplitMix64: a seeded generator, so a fuzz failure is reproducible from its seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One value of every AMF3 type, nested: the round-trip and fuzz tests start from it.
let everyType: AMFValue = .array(AMFArray(
    [
        .undefined, .null, .bool(true), .bool(false), .int(0), .int(-7), .int(AMF3.minInt), .int(AMF3.maxInt), .int(127),
        .int(128), .int(16383), .int(16384), .int(2_097_151), .int(2_097_152), .double(2.5), .double(-0.0),
        .double(.infinity), .string(""), .string("hello"), .string("hello"), .string("żółw ☃"),
        .xmlDocument("<a/>"), .xml("<b>x</b>"), .date(1_577_934_245_000),
        .object(AMFObject("flex.messaging.messages.RemotingMessage", sealed: [
            AMFMember("operation", .string("login")), AMFMember("body", .array(AMFArray([.string("a@b.c"), .string("pw")]))),
        ])),
        .object(AMFObject("flex.messaging.messages.RemotingMessage", sealed: [
            AMFMember("operation", .string("logout")), AMFMember("body", .array(AMFArray())),
        ])),
        .object(AMFObject("", sealed: [AMFMember("a", .int(1))], dynamic: [AMFMember("extra", .string("x"))])),
        .object(AMFObject("Users", isDynamic: true)),
        .array(AMFArray([.int(1)], associative: [AMFMember("key", .string("value"))])),
        .byteArray([0, 1, 255]),
        .vectorInt([-1, 0, 5], fixed: true), .vectorUInt([0, 4_000_000_000], fixed: false),
        .vectorDouble([1.5, -2], fixed: false), .vectorObject(typeName: "com.example.T", [.int(1), .string("s")], fixed: false),
        .dictionary(AMFDictionary(weakKeys: true, [.init(.string("k"), .int(1)), .init(.int(2), .null)])),
    ],
    associative: [AMFMember("name", .string("every type"))]
))
