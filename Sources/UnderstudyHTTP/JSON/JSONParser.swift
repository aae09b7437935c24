/// Why a body is not acceptable JSON, and where.
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case syntax
        case tooDeep
        case invalidUTF8
        case numberOutOfRange
    }

    package var kind: Kind
    package var reason: String
    /// Byte offset in the body.
    package var offset: Int

    package var description: String {
        switch kind {
        case .syntax: return "malformed JSON at byte \(offset): \(reason)"
        case .tooDeep: return "JSON nested deeper than \(JSONParser.maxDepth) levels at byte \(offset)"
        case .invalidUTF8: return "the body is not valid UTF-8 at byte \(offset): \(reason)"
        case .numberOutOfRange: return "a number out of range at byte \(offset): \(reason)"
        }
    }
}

/// A strict RFC 8259 parser over raw bytes: no trailing commas, no comments, one value per body, UTF-8 checked,
/// nesting limited, numbers that do not fit a Double refused.
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    package static let maxDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Parses one JSON value that fills the whole of `bytes` (surrounding whitespace allowed).
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSON {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// Parses one JSON value from an array of bytes.
    package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
        let result = bytes.withUnsafeBytes { buffer -> Result<JSON, JSONError> in
            do throws(JSONError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses one JSON value from text.
    package static func parse(_ text: String) throws(JSONError) -> JSON {
        try parse(Array(text.utf8))
    }

    private func error(_ reason: String, kind: JSONError.Kind = .syntax) -> JSONError {
        JSONError(kind: kind, reason: reason, offset: position)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONError) -> JSON {
        guard let byte = current else { throw error("the body ends where a value should start") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Self.show(byte))'")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONError) {
        // Byte by byte, so that an error names the byte that differs, or the end of a body cut short.
        for offset in 0..<word.utf8CodeUnitCount {
            guard let byte = current else { throw error("unexpected end of the body") }
            guard byte == word.utf8Start[offset] else { throw error("unexpected character '\(Self.show(byte))'") }
            position += 1
        }
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        if depth > Self.maxDepth { throw error("too deep", kind: .tooDeep) }
    }

    private mutating func parseObject() throws(JSONError) -> JSON {
        try enter()
        position += 1
        var members: [JSON.Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted member name") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the member name \"\(key)\"") }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSON.Member(key, value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(members)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(JSONError) -> JSON {
        try enter()
        position += 1
        var items: [JSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(items)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseString() throws(JSONError) -> String {
        position += 1  // the opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return try Self.decodeUTF8(slice, offset: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character inside a string") }
            position += 1
        }
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                let decoded = utf8.withUnsafeBytes { buffer -> Result<String, JSONError> in
                    do throws(JSONError) { return .success(try Self.decodeUTF8(buffer, offset: start)) } catch {
                        return .failure(error)
                    }
                }
                return try decoded.get()
            case UInt8(ascii: "\\"):
                position += 1
                guard let escaped = current else { throw error("the body ends inside a string") }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &utf8)
                default: throw error("an unknown escape '\\\(Self.show(escaped))'")
                }
            default:
                if byte < 0x20 { throw error("a control character inside a string") }
                utf8.append(byte)
                position += 1
            }
        }
        throw error("the body ends inside a string")
    }

    private mutating func readHex4() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a bad hex digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func appendUnicodeEscape(to utf8: inout [UInt8]) throws(JSONError) {
        var scalar = try readHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw error("a lone surrogate in a \\u escape", kind: .invalidUTF8) }
            position += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in a \\u escape", kind: .invalidUTF8) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("a lone surrogate in a \\u escape", kind: .invalidUTF8)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape", kind: .invalidUTF8) }
        utf8.append(contentsOf: String(Character(unicode)).utf8)
    }

    private static func decodeUTF8(_ buffer: UnsafeRawBufferPointer, offset: Int) throws(JSONError) -> String {
        var isASCII = true
        for byte in buffer where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return String(decoding: buffer, as: UTF8.self) }
        guard let text = String(validating: buffer, as: UTF8.self) else {
            throw JSONError(kind: .invalidUTF8, reason: "a string holds bytes that are not UTF-8", offset: offset)
        }
        return text
    }

    private mutating func parseNumber() throws(JSONError) -> JSON {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw error("a '-' without digits")
        }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = current, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
                throw error("a number with a leading zero")
            }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard skipDigits() > 0 else { throw error("a '.' without digits after it") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw error("an exponent without digits") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else {
            throw JSONError(kind: .numberOutOfRange, reason: text.count > 40 ? String(text.prefix(40)) + "…" : text, offset: start)
        }
        return .number(number)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
