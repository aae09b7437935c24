import Testing
import Understudy
import UnderstudyHTTP

/// The error parsing `text` raises, or nil when it parses.
private func parseError(_ text: String) -> JSONError? {
    parseError(Array(text.utf8))
}

/// The error parsing `bytes` raises, or nil when they parse.
private func parseError(_ bytes: [UInt8]) -> JSONError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

/// `levels` arrays, one inside the other, around `inner`.
private func nestedArrays(_ levels: Int, around inner: String = "") -> String {
    String(repeating: "[", count: levels) + inner + String(repeating: "]", count: levels)
}

/// `levels` objects `{"a":...}`, one inside the other, around `inner`.
private func nestedObjects(_ levels: Int, around inner: String = "1") -> String {
    String(repeating: #"{"a":"#, count: levels) + inner + String(repeating: "}", count: levels)
}

@Suite("JSON parser: what it refuses, and where it says so")
struct JSONParserStrictnessTests {
    /// Each body a lenient parser might take, with the exact message the client gets (the byte offset included).
    static let refusals: [(body: String, message: String)] = [
        // Trailing commas.
        ("[1,2,]", "malformed JSON at byte 5: unexpected character ']'"),
        (#"{"a":1,}"#, "malformed JSON at byte 7: expected a quoted member name"),
        // Single quotes.
        ("'text'", "malformed JSON at byte 0: unexpected character '''"),
        ("{'a':1}", "malformed JSON at byte 1: expected a quoted member name"),
        // Comments.
        ("// note\n{}", "malformed JSON at byte 0: unexpected character '/'"),
        ("[1 /* note */]", "malformed JSON at byte 3: expected ',' or ']' in an array"),
        (#"{"a":1} // note"#, "malformed JSON at byte 8: unexpected text after the value"),
        // Leading zeros, and numbers JSON has no spelling for.
        ("01", "malformed JSON at byte 1: a number with a leading zero"),
        ("[-012]", "malformed JSON at byte 3: a number with a leading zero"),
        ("+1", "malformed JSON at byte 0: unexpected character '+'"),
        (".5", "malformed JSON at byte 0: unexpected character '.'"),
        ("1.", "malformed JSON at byte 2: a '.' without digits after it"),
        ("1e", "malformed JSON at byte 2: an exponent without digits"),
        ("1e+", "malformed JSON at byte 3: an exponent without digits"),
        ("NaN", "malformed JSON at byte 0: unexpected character 'N'"),
        ("Infinity", "malformed JSON at byte 0: unexpected character 'I'"),
        ("-Infinity", "malformed JSON at byte 1: a '-' without digits"),
        (#"{"n":NaN}"#, "malformed JSON at byte 5: unexpected character 'N'"),
        ("nan", "malformed JSON at byte 1: unexpected character 'a'"),
        ("[trux]", "malformed JSON at byte 4: unexpected character 'x'"),
        ("nul", "malformed JSON at byte 3: unexpected end of the body"),
        // Unescaped control characters inside strings (fast path, then after an escape).
        ("\"a\tb\"", "malformed JSON at byte 2: a control character inside a string"),
        ("\"x\\\"y\n\"", "malformed JSON at byte 5: a control character inside a string"),
        ("\"\u{0}\"", "malformed JSON at byte 1: a control character inside a string"),
        // Bad escapes.
        (#""\x""#, "malformed JSON at byte 3: an unknown escape '\\x'"),
        (#""\u12G4""#, #"malformed JSON at byte 5: a bad hex digit in a \u escape"#),
        (#""\u12""#, #"malformed JSON at byte 3: a short \u escape"#),
        // Lone surrogates.
        (#""\ud800""#, #"the body is not valid UTF-8 at byte 7: a lone surrogate in a \u escape"#),
        (#""\udc00""#, #"the body is not valid UTF-8 at byte 7: a lone surrogate in a \u escape"#),
        (#""\ud800\u0041""#, #"the body is not valid UTF-8 at byte 13: a lone surrogate in a \u escape"#),
        (#""\ud800\ud800""#, #"the body is not valid UTF-8 at byte 13: a lone surrogate in a \u escape"#),
        (#""\ud800\n""#, #"the body is not valid UTF-8 at byte 7: a lone surrogate in a \u escape"#),
        // Trailing garbage.
        ("{} x", "malformed JSON at byte 3: unexpected text after the value"),
        ("1 2", "malformed JSON at byte 2: unexpected text after the value"),
        ("truex", "malformed JSON at byte 4: unexpected text after the value"),
        ("[]]", "malformed JSON at byte 2: unexpected text after the value"),
        // Empty and cut-short bodies.
        ("", "malformed JSON at byte 0: the body ends where a value should start"),
        (" \n\t\r", "malformed JSON at byte 4: the body ends where a value should start"),
        ("[", "malformed JSON at byte 1: the body ends where a value should start"),
        ("[1", "malformed JSON at byte 2: expected ',' or ']' in an array"),
        ("{", "malformed JSON at byte 1: expected a quoted member name"),
        (#"{"a" 1}"#, "malformed JSON at byte 5: expected ':' after the member name \"a\""),
        (#"{"a":1 "b":2}"#, "malformed JSON at byte 7: expected ',' or '}' in an object"),
        (#""abc"#, "malformed JSON at byte 4: the body ends inside a string"),
        (#""ab\"#, "malformed JSON at byte 4: the body ends inside a string"),
        ("[fals", "malformed JSON at byte 5: unexpected end of the body"),
        ("-", "malformed JSON at byte 1: a '-' without digits"),
    ]

    @Test("lenient JSON is refused with a message that says where", arguments: refusals)
    func refused(body: String, message: String) {
        #expect(parseError(body)?.description == message)
    }

    /// Bytes that are not UTF-8, inside a string or elsewhere, with the message.
    static let invalidUTF8: [(bytes: [UInt8], message: String)] = [
        // A broken two-byte sequence, a byte UTF-8 never uses, an overlong '/', an encoded surrogate, a cut sequence.
        ([0x22, 0xC3, 0x28, 0x22], "the body is not valid UTF-8 at byte 1: a string holds bytes that are not UTF-8"),
        ([0x22, 0xFF, 0x22], "the body is not valid UTF-8 at byte 1: a string holds bytes that are not UTF-8"),
        ([0x22, 0xC0, 0xAF, 0x22], "the body is not valid UTF-8 at byte 1: a string holds bytes that are not UTF-8"),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "the body is not valid UTF-8 at byte 1: a string holds bytes that are not UTF-8"),
        ([0x22, 0x61, 0xE2, 0x82, 0x22], "the body is not valid UTF-8 at byte 1: a string holds bytes that are not UTF-8"),
        // After an escape (the slow path), and in a member name.
        ([0x22, 0x5C, 0x6E, 0xFF, 0x22], "the body is not valid UTF-8 at byte 1: a string holds bytes that are not UTF-8"),
        (Array(#"{"x":1,""#.utf8) + [0xFE] + Array(#"":2}"#.utf8),
         "the body is not valid UTF-8 at byte 8: a string holds bytes that are not UTF-8"),
        // Outside a string it is simply not JSON.
        ([0xFF], "malformed JSON at byte 0: unexpected character '\\xff'"),
        ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], "malformed JSON at byte 0: unexpected character '\\xef'"),
    ]

    @Test("bytes that are not UTF-8 are refused, and the message says where", arguments: invalidUTF8)
    func notUTF8(bytes: [UInt8], message: String) {
        let error = parseError(bytes)
        #expect(error?.description == message)
    }

    @Test("an error carries its kind and offset, not only a message")
    func errorFields() {
        let error = parseError("[1,]")
        #expect(error?.kind == .syntax)
        #expect(error?.reason == "unexpected character ']'")
        #expect(error?.offset == 3)
        #expect(parseError([0x22, 0xFF, 0x22])?.kind == .invalidUTF8)
        #expect(parseError(#""\udc00""#)?.kind == .invalidUTF8)
        #expect(parseError("1e400")?.kind == .numberOutOfRange)
        #expect(parseError(nestedArrays(65))?.kind == .tooDeep)
    }

    @Test("whitespace around the value, and only JSON's four kinds of it, is allowed")
    func whitespace() throws {
        #expect(try JSONParser.parse(" \t\r\n[ 1 , { \"a\" : true } ]\n ") == [1, ["a": true]])
        // A form feed or a non-breaking space is not JSON whitespace.
        #expect(parseError("\u{C}1")?.description == "malformed JSON at byte 0: unexpected character '\\xc'")
        #expect(parseError("\u{A0}1")?.description == "malformed JSON at byte 0: unexpected character '\\xc2'")
    }
}

@Suite("JSON parser: duplicate keys")
struct JSONDuplicateKeyTests {
    @Test("a member sent twice is kept twice, in order (Backendless answers 3043 for it)")
    func keptInOrder() throws {
        let json = try JSONParser.parse(#"{"email":"a@x.io","name":"Ann","email":"b@x.io"}"#)
        #expect(
            json
                == .object([
                    JSON.Member("email", "a@x.io"), JSON.Member("name", "Ann"), JSON.Member("email", "b@x.io"),
                ]))
        #expect(
            json.properties == [
                Property("email", .string("a@x.io")), Property("name", .string("Ann")),
                Property("email", .string("b@x.io")),
            ])
    }

    @Test("lookups see the first of the repeats; the dynamic value keeps the first")
    func firstWins() throws {
        let json = try JSONParser.parse(#"{"k":1,"k":2,"k":3}"#)
        #expect(json["k"] == 1)
        #expect(json.value == .object(["k": .int(1)]))
    }

    @Test("the writer writes every repeat back, in order")
    func writtenBack() throws {
        let text = #"{"k":1,"j":null,"k":"two"}"#
        #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
    }
}

@Suite("JSON parser: the depth limit")
struct JSONDepthTests {
    @Test("arrays nested to the limit parse; one more is refused at the bracket that goes over")
    func arrays() throws {
        var expected: JSON = []
        for _ in 1..<JSONParser.maxDepth { expected = [expected] }
        #expect(try JSONParser.parse(nestedArrays(JSONParser.maxDepth)) == expected)
        #expect(
            parseError(nestedArrays(JSONParser.maxDepth + 1))?.description
                == "JSON nested deeper than 64 levels at byte 64")
    }

    @Test("objects count toward the same limit")
    func objects() throws {
        #expect(throws: Never.self) { try JSONParser.parse(nestedObjects(JSONParser.maxDepth)) }
        #expect(
            parseError(nestedObjects(JSONParser.maxDepth + 1))?.description
                == "JSON nested deeper than 64 levels at byte 320")
        #expect(
            parseError(nestedObjects(32, around: nestedArrays(33)))?.description
                == "JSON nested deeper than 64 levels at byte 192")
    }

    @Test("depth is nesting, not a count of brackets: siblings each at the limit parse")
    func siblings() throws {
        let deep = nestedArrays(JSONParser.maxDepth - 1)
        let body = "[" + deep + "," + deep + "," + nestedObjects(JSONParser.maxDepth - 1) + "]"
        #expect(throws: Never.self) { try JSONParser.parse(body) }
    }

    @Test("100,000 nested arrays or objects are refused without a crash")
    func hostile() {
        let tooDeep = "JSON nested deeper than 64 levels at byte"
        #expect(parseError(nestedArrays(100_000))?.description == "\(tooDeep) 64")
        #expect(parseError(String(repeating: "[", count: 100_000))?.description == "\(tooDeep) 64")
        #expect(parseError(nestedObjects(100_000))?.description == "\(tooDeep) 320")
    }
}

@Suite("JSON parser: numbers")
struct JSONNumberTests {
    /// Each number and what it parses to: integers stay exact Int64s; a fraction or an exponent makes a Double.
    static let numbers: [(text: String, value: JSON)] = [
        ("0", .integer(0)),
        ("-0", .integer(0)),
        ("42", .integer(42)),
        ("-42", .integer(-42)),
        ("1700000000000", .integer(1_700_000_000_000)),
        ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)),
        ("1.0", .number(1)),
        ("1.5", .number(1.5)),
        ("-0.25", .number(-0.25)),
        ("1e3", .number(1000)),
        ("1E+3", .number(1000)),
        ("25e-1", .number(2.5)),
        ("0.1e1", .number(1)),
        ("1e-400", .number(0)),
        ("1.7976931348623157e308", .number(.greatestFiniteMagnitude)),
        // Integers beyond Int64 become (rounded) Doubles rather than errors.
        ("9223372036854775808", .number(9.223372036854775808e18)),
        ("-9223372036854775809", .number(-9.223372036854775808e18)),
        ("123456789012345678901234567890", .number(1.2345678901234568e29)),
    ]

    @Test("integers stay integers, fractions and exponents become doubles", arguments: numbers)
    func parses(text: String, value: JSON) throws {
        #expect(try JSONParser.parse(text) == value)
    }

    @Test("-0.0 keeps its sign (-0, an integer, is plain 0)")
    func negativeZero() throws {
        guard case .number(let double) = try JSONParser.parse("-0.0") else {
            Issue.record("-0.0 is not a double")
            return
        }
        #expect(double.sign == .minus)
    }

    @Test("a number no Double can hold is refused, quoted (cut at 40 characters) with its offset")
    func outOfRange() {
        #expect(parseError("1e400")?.description == "a number out of range at byte 0: 1e400")
        #expect(parseError(#"{"n":[1,-1e999]}"#)?.description == "a number out of range at byte 8: -1e999")
        let huge = "1" + String(repeating: "0", count: 400)
        #expect(
            parseError(huge)?.description
                == "a number out of range at byte 0: 1" + String(repeating: "0", count: 39) + "…")
    }
}

@Suite("JSON parser: strings and escapes")
struct JSONStringTests {
    static let strings: [(text: String, value: String)] = [
        (#""""#, ""),
        (#""\u0000""#, "\u{0}"),
        (#""a\u0000b""#, "a\u{0}b"),
        (#""\u00e9""#, "é"),
        (#""\u00E9t\u00C9""#, "étÉ"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\uD83D\uDE00!""#, "😀!"),
        (#""\/""#, "/"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u0025""#, "%"),
        ("\"é😀\\n日本\"", "é😀\n日本"),
        ("\"\u{7F}\u{2028}\u{FEFF}\"", "\u{7F}\u{2028}\u{FEFF}"),
    ]

    @Test("escapes and raw UTF-8 decode to the exact text", arguments: strings)
    func decodes(text: String, value: String) throws {
        #expect(try JSONParser.parse(text) == .string(value))
    }

    @Test("member names are decoded the same way")
    func keys() throws {
        #expect(try JSONParser.parse(#"{"caf\u00e9":1,"\ud83d\ude00":2}"#) == ["café": 1, "😀": 2])
    }
}

@Suite("JSON writer")
struct JSONWriterTests {
    /// Each string and how the writer spells it.
    static let strings: [(value: String, written: String)] = [
        ("plain", #""plain""#),
        ("a\"b\\c", #""a\"b\\c""#),
        ("\n\r\t", #""\n\r\t""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}", #""\u0000\u0001\u0008\u000c\u001b\u001f""#),
        // The Kii JS SDK runs decodeURIComponent on every success body: a bare % would break it.
        ("100%", #""100\u0025""#),
        ("%41%%", #""\u002541\u0025\u0025""#),
        // '/', DEL and non-ASCII are written as they are (UTF-8).
        ("a/b", #""a/b""#),
        ("\u{7F}", "\"\u{7F}\""),
        ("é日😀", "\"é日😀\""),
    ]

    @Test("strings are escaped as RFC 8259 requires, and % as \\u0025", arguments: strings)
    func escapes(value: String, written: String) {
        #expect(JSONWriter.string(.string(value)) == written)
    }

    @Test("non-ASCII is written as raw UTF-8 bytes, not escapes")
    func rawUTF8() {
        #expect(JSONWriter.encode("é😀") == [0x22, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0x22])
    }

    @Test("member names are escaped too, and no written body holds a bare %")
    func keysAndPercent() {
        let value: JSON = ["50%": ["q\"%": "x%y", "list": ["%", 1]]]
        let written = JSONWriter.string(value)
        #expect(written == #"{"50\u0025":{"q\"\u0025":"x\u0025y","list":["\u0025",1]}}"#)
        #expect(!JSONWriter.encode(value).contains(UInt8(ascii: "%")))
    }

    @Test("the output is compact and keeps members in the order given")
    func compactInOrder() {
        let value: JSON = ["zeta": [1, nil, true, false], "alpha": [:], "mid": []]
        #expect(JSONWriter.string(value) == #"{"zeta":[1,null,true,false],"alpha":{},"mid":[]}"#)
    }

    /// Each number and how the writer spells it.
    static let numbers: [(value: JSON, written: String)] = [
        (.integer(0), "0"),
        (.integer(-5), "-5"),
        (.integer(.max), "9223372036854775807"),
        (.integer(.min), "-9223372036854775808"),
        (.number(0.5), "0.5"),
        (.number(0.1), "0.1"),
        (.number(-1.25), "-1.25"),
        // Integral doubles below 2^53 are written without a fraction, like a timestamp in milliseconds.
        (.number(1_700_000_000_000), "1700000000000"),
        (.number(3), "3"),
        (.number(-0.0), "0"),
        (.number(9_007_199_254_740_991), "9007199254740991"),
        // From 2^53 on, Swift's shortest spelling (still JSON).
        (.number(9_007_199_254_740_992), "9007199254740992.0"),
        (.number(1e16), "1e+16"),
        (.number(1e300), "1e+300"),
        (.number(1e-7), "1e-07"),
        // JSON cannot spell these: null.
        (.number(.nan), "null"),
        (.number(.infinity), "null"),
        (.number(-.infinity), "null"),
    ]

    @Test("numbers are written as documented", arguments: numbers)
    func writesNumbers(value: JSON, written: String) throws {
        #expect(JSONWriter.string(value) == written)
        #expect(throws: Never.self) { try JSONParser.parse(written) }
    }

    @Test("keys of a dynamic value are written sorted, at every level, whatever the dictionary's order")
    func deterministicKeyOrder() {
        var inner: [String: Understudy.Value] = [:]
        var outer: [String: Understudy.Value] = [:]
        for letter in "qwertyuiopasdfghjklzxcvbnm" {
            inner[String(letter)] = .int(1)
            outer[String(letter) + "_"] = .null
        }
        outer["~nested"] = .object(inner)
        let written = JSONWriter.string(JSON(.object(outer)))
        let innerText = "abcdefghijklmnopqrstuvwxyz".map { #""\#($0)":1"# }.joined(separator: ",")
        let outerText = "abcdefghijklmnopqrstuvwxyz".map { #""\#($0)_":null"# }.joined(separator: ",")
        #expect(written == "{\(outerText),\"~nested\":{\(innerText)}}")
    }
}

@Suite("JSON round trip")
struct JSONRoundTripTests {
    static let allControlCharacters = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })

    static let values: [JSON] = [
        nil, true, false, 0, -1, .integer(.max), .integer(.min),
        .number(0.5), .number(-1.25), .number(0.1), .number(1e300), .number(-2.5e-300), .number(5e-324),
        .number(.greatestFiniteMagnitude), .number(1e20),
        "", "plain", .string(allControlCharacters), "\"\\/", "100% sure", "é日😀\u{7F}\u{2028}\u{FEFF}",
        [], [:], [[[]]], [1, "two", nil, .number(3.5), ["k": false]],
        .object([JSON.Member("a", 1), JSON.Member("a", 2), JSON.Member("%", ["\u{0}": "\n"]), JSON.Member("", [:])]),
        ["user": ["email": "a@x.io", "tags": ["x", "y"], "age": 30, "score": .number(99.5), "gone": nil]],
    ]

    @Test("parse(write(x)) == x", arguments: values)
    func roundTrip(value: JSON) throws {
        #expect(try JSONParser.parse(JSONWriter.encode(value)) == value)
    }

    @Test("scalars at the edges of UTF-8's byte lengths and of the surrogate range survive the trip")
    func scalars() throws {
        let scalars: [UInt32] = [0x1, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF]
        let text = String(String.UnicodeScalarView(scalars.compactMap { Unicode.Scalar($0) }))
        #expect(try JSONParser.parse(JSONWriter.encode(.string(text))) == .string(text))
    }

    @Test("an integral double comes back as an integer (the writer drops the fraction)")
    func integralDouble() throws {
        #expect(try JSONParser.parse(JSONWriter.encode(.number(3))) == .integer(3))
        #expect(try JSONParser.parse(JSONWriter.encode(.number(-0.0))) == .integer(0))
    }

    @Test("text the parser accepts is written back byte for byte when it is already compact and %-free")
    func textRoundTrip() throws {
        let text = #"{"email":"a@x.io","n":[1,-2,0.5,true,null,{}],"s":"é\"\\\n","email":"b"}"#
        #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
    }
}

@Suite("JSON writer: escapes")
struct JSONWriterEscapeTests {
    @Test("quotes, backslashes, control characters and % are escaped wherever they stand; the rest is copied as is")
    func escapes() {
        let cases: [(String, String)] = [
            ("", #""""#),
            ("plain", #""plain""#),
            ("\"", #""\"""#),
            ("a\\b", #""a\\b""#),
            ("line\nnext\r\tend", #""line\nnext\r\tend""#),
            ("100%", #""100\u0025""#),
            ("%start", #""\u0025start""#),
            ("\u{01}x\u{1F}", #""\u0001x\u001f""#),
            ("héllo ✓ 😀", "\"héllo ✓ 😀\""),
            ("mixed \"é\"%\n", #""mixed \"é\"\u0025\n""#),
        ]
        for (text, json) in cases {
            #expect(JSONWriter.string(.string(text)) == json, "\(text)")
            #expect(JSONWriter.string(.object([.init(text, .string(text))])) == "{\(json):\(json)}")
        }
    }
}
