/// Why an exported world cannot be read back: the field at fault, by its path (`apps[1].users[3].password`).
package struct ArchiveError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Reads one table of an archive (`understudy.import{...}`), naming the field at fault in every error.
package struct ArchiveReader {
    let fields: [String: Value]
    let path: String

    package init(_ value: Value, path: String) throws(ArchiveError) {
        switch value {
        case .object(let fields): self.fields = fields
        case .array(let items) where items.isEmpty: fields = [:]
        default: throw ArchiveError("\(path) must be a table of fields, got \(value.archiveKind)")
        }
        self.path = path
    }

    func field(_ key: String) -> String { "\(path).\(key)" }

    func optional(_ key: String) -> Value? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(ArchiveError) -> String {
        guard let text = try optionalString(key) else { throw ArchiveError("\(field(key)) is required") }
        return text
    }

    func optionalString(_ key: String) throws(ArchiveError) -> String? {
        guard let value = optional(key) else { return nil }
        guard case .string(let text) = value else { throw ArchiveError("\(field(key)) must be a string, got \(value.archiveKind)") }
        return text
    }

    func int(_ key: String) throws(ArchiveError) -> Int64 {
        guard let number = try optionalInt(key) else { throw ArchiveError("\(field(key)) is required") }
        return number
    }

    func optionalInt(_ key: String) throws(ArchiveError) -> Int64? {
        guard let value = optional(key) else { return nil }
        switch value {
        case .int(let number): return number
        case .double(let number) where number == number.rounded() && abs(number) < 9e15: return Int64(number)
        default: throw ArchiveError("\(field(key)) must be a whole number, got \(value.archiveKind)")
        }
    }

    func optionalDouble(_ key: String) throws(ArchiveError) -> Double? {
        guard let value = optional(key) else { return nil }
        switch value {
        case .int(let number): return Double(number)
        case .double(let number) where number.isFinite: return number
        default: throw ArchiveError("\(field(key)) must be a finite number, got \(value.archiveKind)")
        }
    }

    func bool(_ key: String) throws(ArchiveError) -> Bool {
        guard let value = optional(key) else { return false }
        guard case .bool(let flag) = value else { throw ArchiveError("\(field(key)) must be a boolean, got \(value.archiveKind)") }
        return flag
    }

    /// A list field (absent: empty).
    func list(_ key: String) throws(ArchiveError) -> [Value] {
        guard let value = optional(key) else { return [] }
        switch value {
        case .array(let items): return items
        case .object(let fields) where fields.isEmpty: return []
        default: throw ArchiveError("\(field(key)) must be a list, got \(value.archiveKind)")
        }
    }

    /// A list of tables, each read with its position in the path.
    func tables(_ key: String) throws(ArchiveError) -> [ArchiveReader] {
        var readers: [ArchiveReader] = []
        for (index, item) in try list(key).enumerated() {
            readers.append(try ArchiveReader(item, path: "\(field(key))[\(index + 1)]"))
        }
        return readers
    }

    func table(_ key: String) throws(ArchiveError) -> ArchiveReader? {
        guard let value = optional(key) else { return nil }
        return try ArchiveReader(value, path: field(key))
    }

    /// Properties kept in order as `{ {name, value}, ... }` (a one-item pair is a null value).
    func properties(_ key: String) throws(ArchiveError) -> [Property] {
        var properties: [Property] = []
        for (index, item) in try list(key).enumerated() {
            guard case .array(let pair) = item, (1...2).contains(pair.count), case .string(let name) = pair[0] else {
                throw ArchiveError("\(field(key))[\(index + 1)] must be a {name, value} pair")
            }
            properties.append(Property(name, pair.count == 2 ? pair[1] : .null))
        }
        return properties
    }

    func generator(_ key: String) throws(ArchiveError) -> SeededGenerator {
        let text = try string(key)
        guard let generator = SeededGenerator(archived: text) else {
            throw ArchiveError("\(field(key)) must be 16 hexadecimal digits, got '\(text)'")
        }
        return generator
    }

    func passwordHash(_ key: String) throws(ArchiveError) -> PasswordHash? {
        guard let text = try optionalString(key) else { return nil }
        guard let hash = PasswordHash(archived: text) else {
            throw ArchiveError("\(field(key)) must be a password hash as exported (sha256:SALT:DIGEST), got '\(text)'")
        }
        return hash
    }

    func identifier(_ key: String) throws(ArchiveError) -> Identifier128 {
        let text = try string(key)
        guard let id = Identifier128(parsing: text) else { throw ArchiveError("\(field(key)) must be an id as exported, got '\(text)'") }
        return id
    }
}

/// Writing an archive's values.
enum ArchiveValues {
    static func properties(_ properties: [Property]) -> Value {
        .array(properties.map { $0.value == .null ? .array([.string($0.name)]) : .array([.string($0.name), $0.value]) })
    }

    static func optional(_ text: String?) -> Value { text.map(Value.string) ?? .null }
    static func optional(_ number: Int64?) -> Value { number.map(Value.int) ?? .null }
    static func optional(_ number: Double?) -> Value { number.map(Value.double) ?? .null }

    /// An object without its null fields (they are absent in Lua anyway) and empty lists (a reader takes an absent
    /// list as empty).
    static func object(_ fields: [String: Value]) -> Value {
        .object(fields.filter { $0.value != .null && $0.value != .array([]) })
    }

    /// A flavour's settings by name: those that differ from a fresh app's (`defaults`), and always those named
    /// in `kept` (the app id and keys, so a reader sees which app it is).
    static func settings<Settings: NamedSettings>(_ settings: Settings, defaults: Settings, kept: Set<String>) -> Value {
        var fields: [String: Value] = [:]
        for name in Settings.names {
            if let value = settings.value(of: name), kept.contains(name) || value != defaults.value(of: name) { fields[name] = value }
        }
        return .object(fields)
    }

    /// Applies archived settings, naming a wrong one.
    static func apply<Settings: NamedSettings>(_ reader: ArchiveReader?, to settings: inout Settings) throws(ArchiveError) {
        guard let reader else { return }
        for name in reader.fields.keys.sorted() {
            do throws(SettingError) {
                try settings.set(name, to: reader.fields[name]!)
            } catch {
                throw ArchiveError("\(reader.field(name)): \(error.description)")
            }
        }
    }
}

extension Value {
    var archiveKind: String {
        switch self {
        case .null: return "nil"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array, .object: return "table"
        }
    }
}

extension SeededGenerator {
    /// The generator's state as 16 hexadecimal digits: an exported world goes on with the same ids.
    package var archived: String { String(state, radix: 16).leftPadded(to: 16) }

    package init?(archived text: String) {
        guard text.utf8.count == 16, let state = UInt64(text, radix: 16) else { return nil }
        self.init(seed: state)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Identifier128 {
    /// 32 hexadecimal digits.
    var hex: String { String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16) }

    init?(hex text: some StringProtocol) {
        guard text.utf8.count == 32, let high = UInt64(text.prefix(16), radix: 16), let low = UInt64(text.suffix(16), radix: 16) else {
            return nil
        }
        self.init(high: high, low: low)
    }
}
