/// Lua source text for values: what the recorder writes into a scenario file.
enum LuaSource {
    /// Lua's reserved words: never a bare field name.
    static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// Whether `name` can be written bare (`t.name`, `{ name = 1 }`).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !keywords.contains(name) else { return false }
        func letter(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        return letter(first) && name.utf8.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// A double-quoted Lua string: quotes, backslashes and control characters escaped, other UTF-8 as it is.
    /// A double-quoted Lua string: quotes, backslashes and control characters escaped, other UTF-8 as it is.
    static func string(_ text: String) -> String {
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes += Array("\\\"".utf8)
            case 0x5C: bytes += Array("\\\\".utf8)
            case 0x0A: bytes += Array("\\n".utf8)
            case 0x0D: bytes += Array("\\r".utf8)
            case 0x09: bytes += Array("\\t".utf8)
            case 0..<0x20, 0x7F: bytes += Array(("\\" + String(format3(byte))).utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A byte as Lua's three-digit decimal escape (so a digit after it is not read as part of it).
    private static func format3(_ byte: UInt8) -> String {
        let digits = String(byte)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// A number as Lua reads it back: whole numbers as integers.
    static func number(_ number: Double) -> String {
        if number.isNaN { return "(0/0)" }
        if number.isInfinite { return number > 0 ? "math.huge" : "-math.huge" }
        if number == number.rounded(), abs(number) < 9e15 { return String(Int64(number)) }
        return "\(number)"
    }

    /// `base.name`, or `base["name"]` when the name is not an identifier.
    static func field(_ base: String, _ name: String) -> String {
        isIdentifier(name) ? base + "." + name : base + "[" + string(name) + "]"
    }

    /// `name = `, or `["name"] = `, for a table constructor.
    static func key(_ name: String) -> String {
        isIdentifier(name) ? name : "[" + string(name) + "]"
    }

    /// A value as a Lua literal: objects with their keys sorted (nulls left out), arrays in order.
    static func literal(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return self.number(number)
        case .string(let text): return string(text)
        case .array(let items): return items.isEmpty ? "{}" : "{ " + items.map(literal).joined(separator: ", ") + " }"
        case .object(let members):
            let shown = members.filter { $0.value != .null }.sorted { $0.key < $1.key }
            if shown.isEmpty { return "{}" }
            return "{ " + shown.map { key($0.key) + " = " + literal($0.value) }.joined(separator: ", ") + " }"
        }
    }
}
