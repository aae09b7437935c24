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
        for (name, part) in parts {
            switch part {
            case .fixed(let value): result.append(Property(name, value))
            case .numbered(let prefix, let suffix): result.append(Property(name, .string(prefix + String(number) + suffix)))
            }
        }
        return result
    }
}
