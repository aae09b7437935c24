/// Expands property templates for bulk seeding: each `%d` in a string becomes the item's number.
struct TemplateExpander {
    private enum Part {
        case fixed(Value)
        case numbered(prefix: String, suffix: String)
    }

    private let parts: [(name: String, part: Part)]
    /// True when the password template contains `%d` (each user then gets a different password).
    let passwordVaries: Bool

    init(_ template: [Property]) {
        var parts: [(String, Part)] = []
        var passwordVaries = false
        for property in template {
            if case .string(let text) = property.value, let range = text.firstRange(of: "%d") {
                parts.append((property.name, .numbered(prefix: String(text[..<range.lowerBound]), suffix: String(text[range.upperBound...]))))
                if property.name == "password" { passwordVaries = true }
            } else {
                parts.append((property.name, .fixed(property.value)))
            }
        }
        self.parts = parts
        self.passwordVaries = passwordVaries
    }

    func properties(for number: Int) -> [Property] {
        var result: [Property] = []
        result.reserveCapacity(parts.count)
        for (name, part) in parts { result.append(Property(name, Self.value(of: part, for: number))) }
        return result
    }

    /// The value of the first property named `name` for item `number`; nil when the template has none.
    func value(named name: String, for number: Int) -> Value? {
        guard let part = parts.first(where: { $0.name == name })?.part else { return nil }
        return Self.value(of: part, for: number)
    }

    private static func value(of part: Part, for number: Int) -> Value {
        switch part {
        case .fixed(let value): return value
        case .numbered(let prefix, let suffix): return .string(numbered(prefix, number, suffix))
        }
    }

    /// `prefix + String(number) + suffix`, written into one string of the right size (no intermediate strings).
    static func numbered(_ prefix: String, _ number: Int, _ suffix: String) -> String {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits and sign of any Int
        return withUnsafeMutableBytes(of: &digits) { scratch in
            var position = scratch.count
            var magnitude = number.magnitude
            repeat {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                position -= 1
                scratch[position] = UInt8(ascii: "-")
            }
            let number = UnsafeRawBufferPointer(rebasing: scratch[position...])
            let count = prefix.utf8.count + number.count + suffix.utf8.count
            return String(unsafeUninitializedCapacity: count) { buffer in
                var written = buffer.initialize(from: prefix.utf8).1
                written = buffer[written...].initialize(from: number).1
                written = buffer[written...].initialize(from: suffix.utf8).1
                return written
            }
        }
    }
}
