package import Understudy

/// Values written as Lua source: what an exported world is made of. Keys are sorted, so the same values always
/// give the same text; a table that fits a line is written on one.
enum LuaLiteral {
    static let lineWidth = 110

    static func text(_ value: Value, indent: Int = 0) -> String {
        // Only a value that may fit is written inline first: writing a whole world on one line to measure it,
        // at every level, made a 10,000-user export take seconds.
        if fitsInline(value, budget: lineWidth - indent) {
            let inline = self.inline(value)
            if inline.utf8.count + indent <= lineWidth { return inline }
        }
        let pad = String(repeating: "  ", count: indent + 1)
        let close = String(repeating: "  ", count: indent) + "}"
        switch value {
        case .array(let items):
            return "{\n" + items.map { pad + text($0, indent: indent + 1) + ",\n" }.joined() + close
        case .object(let fields):
            return "{\n" + fields.keys.sorted().map { key in pad + self.key(key) + " = " + text(fields[key]!, indent: indent + 1) + ",\n" }.joined() + close
        default:
            return self.inline(value)
        }
    }

    /// False when `value` written inline surely takes more than `budget` bytes (it counts a table's items until
    /// the budget is spent, never the whole table).
    static func fitsInline(_ value: Value, budget: Int) -> Bool {
        var remaining = budget
        func spend(_ value: Value) -> Bool {
            switch value {
            case .array(let items):
                remaining -= 4
                for item in items {
                    guard remaining >= 0, spend(item) else { return false }
                    remaining -= 2
                }
            case .object(let fields):
                remaining -= 4
                for (key, field) in fields {
                    remaining -= key.utf8.count + 3
                    guard remaining >= 0, spend(field) else { return false }
                    remaining -= 2
                }
            case .string(let text): remaining -= text.utf8.count + 2
            default: remaining -= 1
            }
            return remaining >= 0
        }
        return spend(value)
    }

    static func inline(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return number == .min ? "math.mininteger" : String(number)
        case .double(let number):
            if number.isNaN { return "(0/0)" }
            if number.isInfinite { return number > 0 ? "(1/0)" : "(-1/0)" }
            let shown = "\(number)"
            return shown.contains(".") || shown.contains("e") ? shown : shown + ".0"
        case .string(let text): return quoted(text)
        case .array(let items): return items.isEmpty ? "{}" : "{ " + items.map(inline).joined(separator: ", ") + " }"
        case .object(let fields):
            return fields.isEmpty ? "{}" : "{ " + fields.keys.sorted().map { key($0) + " = " + inline(fields[$0]!) }.joined(separator: ", ") + " }"
        }
    }

    static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    static func key(_ name: String) -> String {
        let bytes = Array(name.utf8)
        let isName = !bytes.isEmpty && !(bytes[0] >= 0x30 && bytes[0] <= 0x39) && bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        return isName && !keywords.contains(name) ? name : "[" + quoted(name) + "]"
    }

    /// A double-quoted Lua string: backslash, quote and control bytes escaped (`\ddd`), other bytes as they are.
    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x22: bytes += [0x5C, 0x22]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x09: bytes += [0x5C, 0x74]
            case 0..<0x20, 0x7F:
                let digits = Array(String(byte).utf8)
                bytes += [0x5C] + Array(repeating: 0x30, count: 3 - digits.count) + digits
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// `GET /_understudy/export`'s text: a setup script that recreates the world.
package enum WorldExport {
    /// The media type the export route answers with.
    package static let contentType = "text/x-lua; charset=utf-8"

    package static func script(_ apps: [any EmulatedApp]) -> String {
        """
        -- The world of `understudy serve`, exported (GET /_understudy/export). `understudy serve --setup THIS_FILE`
        -- serves it again: apps with their settings and clocks, users with their status, properties and password
        -- hashes (salted SHA-256, never the passwords), pending confirmations and verification codes, devices,
        -- installations, topics, groups, templates, roles, OAuth and social accounts, scheduled pushes. Not kept:
        -- sessions and tokens (users log in again), outboxes, faults, the journal, password resets in progress.
        -- The generators' state is, so the ids, tokens and codes handed out next never collide with these.
        understudy.import\(LuaLiteral.text(WorldArchive.archive(apps)))

        """
    }
}

