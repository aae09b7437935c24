/// Secrets never leave the request journal (over HTTP, on the dashboard, in Lua): the values of fields whose
/// name, once decoded (JSON escapes, percent-encoding), holds "password", "passwd" or "secret", names an OAuth
/// token (`accessToken`, `access_token`, `refresh_token`, `id_token`), or confirms a password (the recovery page's
/// `confirm`), are replaced by `[redacted]` in JSON bodies, forms, queries and replies. A body that cannot be
/// parsed is read leniently (a UTF-8 BOM, a trailing comma: the JSON scan still finds its keys); one where a
/// secret's word appears but no field could be found to redact is replaced whole.
package enum JournalRedaction {
    package static let placeholder = "[redacted]"

    /// Whether a field of this name (decoded) holds a secret.
    package static func isSecret(_ name: String) -> Bool {
        // Byte searches: String.contains compares Characters, tens of thousands of instructions a call, and
        // every journaled request asks several times. Only ASCII letters lower-case to these words' letters.
        if contains(name, "password", ignoringCase: true) || contains(name, "passwd", ignoringCase: true)
            || contains(name, "secret", ignoringCase: true)
        {
            return true
        }
        if name.utf8.count == 7 && contains(name, "confirm", ignoringCase: true) { return true }
        guard contains(name, "token", ignoringCase: true) else { return false }
        let letters = squeezed(name)
        return contains(letters, "accesstoken", ignoringCase: false) || contains(letters, "refreshtoken", ignoringCase: false)
            || letters == "idtoken" || letters == "oauthtoken"
    }

    /// The name's ASCII letters and digits, lower-cased (`access_token`, `Access-Token` → `accesstoken`).
    private static func squeezed(_ name: String) -> String {
        String(decoding: name.utf8.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte | 0x20
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
            default: nil
            }
        }, as: UTF8.self)
    }

    /// Whether `text` may hold a secret at all (the fast path: most requests carry none). Text with an escape (`\`
    /// in JSON, `%` in a form) may spell a name in a way the words below do not match: it takes the slow path.
    static func mayHoldSecret(_ text: String) -> Bool {
        guard text.utf8.count >= 6 else { return false }
        return text.utf8.contains { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "%") }
            || hasSecretWord(text) || contains(text, "confirm", ignoringCase: true)
    }

    /// Whether decoded text holds one of the secrets' words anywhere.
    private static func hasSecretWord(_ text: String) -> Bool {
        contains(text, "password", ignoringCase: true) || contains(text, "passwd", ignoringCase: true)
            || contains(text, "secret", ignoringCase: true)
            || (contains(text, "token", ignoringCase: true) && {
                let letters = squeezed(text)
                return contains(letters, "accesstoken", ignoringCase: false) || contains(letters, "refreshtoken", ignoringCase: false)
                    || contains(letters, "idtoken", ignoringCase: false) || contains(letters, "oauthtoken", ignoringCase: false)
            }())
    }

    /// Whether `text` holds `word` (lower-case ASCII), byte by byte; `ignoringCase` also matches its capitals.
    static func contains(_ text: String, _ word: StaticString, ignoringCase: Bool) -> Bool {
        let pattern = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        let utf8 = text.utf8
        guard utf8.count >= pattern.count, let first = pattern.first else { return pattern.isEmpty }
        func same(_ byte: UInt8, _ wanted: UInt8) -> Bool {
            byte == wanted || (ignoringCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == wanted)
        }
        var start = utf8.startIndex
        var remaining = utf8.count
        while remaining >= pattern.count {
            if same(utf8[start], first) {
                var index = utf8.index(after: start)
                var matched = 1
                while matched < pattern.count, same(utf8[index], pattern[matched]) {
                    matched += 1
                    index = utf8.index(after: index)
                }
                if matched == pattern.count { return true }
            }
            start = utf8.index(after: start)
            remaining -= 1
        }
        return false
    }

    /// The entry with its secrets replaced.
    package static func redact(_ entry: JournalEntry) -> JournalEntry {
        var entry = entry
        if mayHoldSecret(entry.query) { entry.query = redactForm(entry.query).text }
        if mayHoldSecret(entry.body) { entry.body = redactBody(entry.body, parsed: entry.json != nil) }
        if let json = entry.json { entry.json = redact(json) }
        if mayHoldSecret(entry.reply), looksLikeJSON(entry.reply) { entry.reply = redactJSON(entry.reply).text }
        return entry
    }

    /// A body's text with its secrets replaced: as JSON when it looks like JSON (even one that did not parse), else
    /// as a form. A body that did not parse as JSON and still shows a secret's word with no field redacted (a
    /// multipart body, XML, `{password: x}`) is replaced whole.
    package static func redactBody(_ text: String, parsed: Bool) -> String {
        let (redacted, found) = looksLikeJSON(text) ? redactJSON(text) : redactForm(text)
        if parsed || found > 0 { return redacted }
        return hasSecretWord(decodedForSearch(text)) ? placeholder : redacted
    }

    /// Whether the text starts (after a UTF-8 byte order mark and white space) with `{` or `[`.
    static func looksLikeJSON(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The text with JSON's `\uXXXX` and percent escapes decoded, for looking for words (not for showing).
    private static func decodedForSearch(_ text: String) -> String {
        var decoded = Substring(text).replacingPercentEscapesForComparison()
        if decoded.utf8.contains(UInt8(ascii: "\\")) { decoded = unescapedJSONString(Array(decoded.utf8)[...]) }
        return decoded
    }

    /// A JSON value with its secret fields replaced.
    package static func redact(_ value: Value) -> Value {
        switch value {
        case .object(let members):
            var redacted: [String: Value] = [:]
            redacted.reserveCapacity(members.count)
            for (key, member) in members {
                redacted[key] = isSecret(key) && member != .null ? .string(placeholder) : redact(member)
            }
            return .object(redacted)
        case .array(let items): return .array(items.map(redact))
        default: return value
        }
    }

    /// `a=1&password=x` → `a=1&password=[redacted]` (a key compared once decoded: `pass%77ord`; pairs split at `&`
    /// and at `;`, which some servers also read as a separator), with the number of values replaced.
    package static func redactForm(_ text: String) -> (text: String, redacted: Int) {
        var redacted = 0
        var out = ""
        var rest = Substring(text)
        while true {
            let end = rest.firstIndex { $0 == "&" || $0 == ";" } ?? rest.endIndex
            let pair = rest[..<end]
            if let equals = pair.firstIndex(of: "="), isSecret(pair[..<equals].replacingPercentEscapesForComparison()) {
                redacted += 1
                out += pair[..<equals] + "=" + placeholder
            } else {
                out += pair
            }
            guard end < rest.endIndex else { break }
            out.append(rest[end])
            rest = rest[rest.index(after: end)...]
        }
        return (out, redacted)
    }

    /// A JSON string's content (between its quotes) with its escapes decoded; invalid escapes are kept as written.
    static func unescapedJSONString(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var units: [UInt8] = []
        func flush() {
            if !units.isEmpty { scalars.append(contentsOf: String(decoding: units, as: UTF8.self).unicodeScalars); units.removeAll() }
        }
        var index = bytes.startIndex
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= bytes.endIndex else { return nil }
            return UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16)
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.endIndex else {
                units.append(byte)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            let simple: UInt8? = switch escaped {
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "t"): 0x09
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "u"): nil
            default: escaped
            }
            if let simple {
                units.append(simple)
                index += 2
                continue
            }
            guard var code = hex4(index + 2) else {
                units.append(byte)
                index += 1
                continue
            }
            index += 6
            if (0xD800..<0xDC00).contains(code), index + 1 < bytes.endIndex, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u"), let low = hex4(index + 2), (0xDC00..<0xE000).contains(low)
            {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                index += 6
            }
            flush()
            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        }
        flush()
        return String(scalars)
    }

    /// JSON text with the value of every secret key replaced by `"[redacted]"` (the rest as it was, byte for byte),
    /// with the number of values replaced. Read as tokens, so text that is not quite JSON (a byte order mark, a
    /// trailing comma, a body cut at the journal's limit) is redacted too; a key is compared once its escapes are
    /// decoded (`"pass\u0077ord"`), and a secret's value is replaced whatever it is (a string, a number, an object).
    package static func redactJSON(_ text: String) -> (text: String, redacted: Int) {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var redacted = 0
        /// The end (exclusive) of the string token starting at `start` (a quote).
        func stringEnd(_ start: Int) -> Int {
            var position = start + 1
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "\\") { position += 2; continue }
                if bytes[position] == UInt8(ascii: "\"") { return position + 1 }
                position += 1
            }
            return bytes.count
        }
        func skipSpace(_ start: Int) -> Int {
            var position = start
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
            return position
        }
        /// The end of the value starting at `start`: a string, an object or array up to its closing bracket, or
        /// a scalar up to `,` `}` `]`.
        func valueEnd(_ start: Int) -> Int {
            guard start < bytes.count else { return start }
            if bytes[start] == UInt8(ascii: "\"") { return stringEnd(start) }
            var depth = 0
            var position = start
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") { position = stringEnd(position); continue }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if depth == 0 { return position }
                    depth -= 1
                    if depth == 0 { return position + 1 }
                }
                if byte == UInt8(ascii: ","), depth == 0 { return position }
                position += 1
            }
            return position
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let end = stringEnd(index)
            out.append(contentsOf: bytes[index..<end])
            let colon = skipSpace(end)
            if colon < bytes.count, bytes[colon] == UInt8(ascii: ":"),
                isSecret(unescapedJSONString(bytes[(index + 1)..<max(index + 1, end - 1)]))
            {
                let valueStart = skipSpace(colon + 1)
                let valueEnd = valueEnd(valueStart)
                if valueStart < valueEnd, !bytes[valueStart..<valueEnd].elementsEqual("null".utf8) {
                    out.append(contentsOf: bytes[end..<valueStart])
                    out.append(contentsOf: Array("\"\(placeholder)\"".utf8))
                    redacted += 1
                    index = valueEnd
                    continue
                }
            }
            index = end
        }
        return (String(decoding: out, as: UTF8.self), redacted)
    }
}

extension Substring {
    /// The key with `+` and `%XX` decoded, for comparing names (not for showing).
    fileprivate func replacingPercentEscapesForComparison() -> String {
        var bytes: [UInt8] = []
        var iterator = Array(utf8)
        var position = 0
        while position < iterator.count {
            let byte = iterator[position]
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), position + 2 < iterator.count,
                let value = UInt8(String(decoding: iterator[(position + 1)...(position + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                position += 2
            } else {
                bytes.append(byte)
            }
            position += 1
        }
        iterator.removeAll()
        return String(decoding: bytes, as: UTF8.self)
    }
}
