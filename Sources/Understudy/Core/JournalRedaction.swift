/// Passwords never leave the request journal (over HTTP, on the dashboard, in Lua): the values of fields whose
/// name holds "password" (`password`, `newPassword`, `new_password`) or that confirm one (the recovery page's
/// `confirm`) are replaced by `[redacted]` in JSON bodies, forms, queries and replies.
package enum JournalRedaction {
    package static let placeholder = "[redacted]"

    /// Whether a field of this name holds a password.
    package static func isSecret(_ name: String) -> Bool {
        // Byte searches: String.contains compares Characters, tens of thousands of instructions a call, and
        // every journaled request asks several times. Only ASCII letters lower-case to these words' letters.
        contains(name, "password", ignoringCase: true) || (name.utf8.count == 7 && contains(name, "confirm", ignoringCase: true))
    }

    /// Whether `text` may hold a secret at all (the fast path: most requests carry none).
    static func mayHoldSecret(_ text: String) -> Bool {
        text.utf8.count >= 7 && (contains(text, "password", ignoringCase: true) || contains(text, "confirm", ignoringCase: false))
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
        if mayHoldSecret(entry.query) { entry.query = redactForm(entry.query) }
        if mayHoldSecret(entry.body) {
            entry.body = entry.json != nil || entry.body.first == "{" || entry.body.first == "["
                ? redactJSON(entry.body) : redactForm(entry.body)
        }
        if let json = entry.json { entry.json = redact(json) }
        if mayHoldSecret(entry.reply), entry.reply.first == "{" || entry.reply.first == "[" {
            entry.reply = redactJSON(entry.reply)
        }
        return entry
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

    /// `a=1&password=x` → `a=1&password=[redacted]`.
    package static func redactForm(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let key = pair[..<equals].replacingPercentEscapesForComparison()
            return isSecret(key) ? pair[..<equals] + "=" + placeholder : String(pair)
        }.joined(separator: "&")
    }

    /// JSON text with the value of every secret key replaced by `"[redacted]"` (the rest as it was, byte for byte).
    package static func redactJSON(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
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
        /// The end of the value starting at `start`: a string, or a scalar up to `,` `}` `]`; nested values are
        /// left alone (their own keys are redacted as the scan reaches them).
        func scalarEnd(_ start: Int) -> Int? {
            guard start < bytes.count else { return nil }
            if bytes[start] == UInt8(ascii: "\"") { return stringEnd(start) }
            if bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") { return nil }
            var position = start
            while position < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[position]) {
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
                isSecret(String(decoding: bytes[(index + 1)..<max(index + 1, end - 1)], as: UTF8.self))
            {
                let valueStart = skipSpace(colon + 1)
                if let valueEnd = scalarEnd(valueStart), valueStart < bytes.count,
                    !bytes[valueStart...].starts(with: Array("null".utf8))
                {
                    out.append(contentsOf: bytes[end..<valueStart])
                    out.append(contentsOf: Array("\"\(placeholder)\"".utf8))
                    index = valueEnd
                    continue
                }
            }
            index = end
        }
        return String(decoding: out, as: UTF8.self)
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
