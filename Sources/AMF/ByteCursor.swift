/// Reads big-endian numbers and byte runs from a buffer, refusing to read past its end.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    func error(_ message: String) -> AMFError { AMFError(offset: offset, message) }

    /// Fails unless `count` more bytes are there; `what` names them in the message.
    func require(_ count: Int, _ what: String) throws(AMFError) {
        guard count >= 0, count <= remaining else {
            throw error("\(what) needs \(count) bytes, only \(remaining) left")
        }
    }

    mutating func byte() throws(AMFError) -> UInt8 {
        guard offset < bytes.count else { throw error("the input ends too early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func take(_ count: Int, _ what: String) throws(AMFError) -> ArraySlice<UInt8> {
        try require(count, what)
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint16() throws(AMFError) -> UInt16 {
        let run = try take(2, "a 16-bit number")
        return UInt16(run[run.startIndex]) << 8 | UInt16(run[run.startIndex + 1])
    }

    mutating func uint32() throws(AMFError) -> UInt32 {
        let run = try take(4, "a 32-bit number")
        return run.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func double() throws(AMFError) -> Double {
        let run = try take(8, "a double")
        return Double(bitPattern: run.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// UTF-8 text of `count` bytes (invalid sequences repaired, as a lenient client reader would).
    mutating func text(_ count: Int) throws(AMFError) -> String {
        String(decoding: try take(count, "a string"), as: UTF8.self)
    }
}

/// Appends big-endian numbers to a buffer.
struct ByteSink {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    mutating func double(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((bits >> UInt64(shift)) & 0xFF)) }
    }
}
