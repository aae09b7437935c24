/// Every error code a flavour answers, with what the docs say about it: the single source of `understudy
/// explain`, of the `--codes` coverage table and of the code tables the docs are checked against.
/// Tests keep it true to the error types: every code the errors' factories make is catalogued with the same status.
package enum ErrorCatalogue {
    /// How a scenario can make a code appear.
    package enum Reach: String, Sendable, Hashable {
        /// A real trigger in Lua: a call with the right arguments and settings answers it.
        case lua
        /// In Lua only through `app.faults.inject` (the real service's internal failures).
        case injectionOnly = "injection only"
        /// Only over HTTP (`understudy serve`): a wrong key, an unknown route, a malformed body.
        case httpOnly = "HTTP only"
    }

    /// One catalogued code.
    package struct Entry: Sendable, Hashable {
        package var flavour: Flavour
        /// The code as scenarios compare it: a Backendless number as text (`"3033"`) or a Kii `errorCode`.
        package var code: String
        /// The HTTP status `understudy serve` answers with.
        package var status: Int
        /// The message; `%s` stands for the property or value it names.
        package var message: String
        /// When it is answered.
        package var when: String
        /// The operations (contract names, `users.register`) that answer it; empty for HTTP-only codes.
        package var operations: [String]
        /// The settings that decide it (`registration`, `email_verification`, ...).
        package var settings: [String]
        package var reach: Reach
        /// The contract version that names it: 1 (`lua-api.md`, `errors.md`) or 2 (`lifecycle.md`).
        package var version: Int

        package init(
            _ flavour: Flavour, _ code: String, status: Int, message: String, when: String, operations: [String] = [],
            settings: [String] = [], reach: Reach = .lua, version: Int = 1
        ) {
            self.flavour = flavour
            self.code = code
            self.status = status
            self.message = message
            self.when = when
            self.operations = operations
            self.settings = settings
            self.reach = reach
            self.version = version
        }

        /// Whether `message` is this entry's message with each `%s` standing for any text (the value it names).
        package func matches(message: String) -> Bool {
            let parts = self.message.split(separator: "%s", omittingEmptySubsequences: false).map(String.init)
            guard parts.count > 1 else { return message == self.message }
            guard message.hasPrefix(parts[0]), message.hasSuffix(parts[parts.count - 1]),
                message.count >= parts[0].count + parts[parts.count - 1].count
            else { return false }
            var rest = Substring(message.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count))
            for part in parts.dropFirst().dropLast() where !part.isEmpty {
                guard let range = rest.firstRange(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }

        /// A Backendless code as its number; nil for Kii codes.
        package var number: Int? { flavour == .backendless ? Int(code) : nil }
    }

    /// Every catalogued code of a flavour, in the docs' order.
    package static func entries(of flavour: Flavour) -> [Entry] {
        switch flavour {
        case .backendless: return BackendlessError.catalogueEntries + BackendlessError.scheduledPushEntries
        case .kii: return KiiError.catalogueEntries
        }
    }

    /// Every catalogued code of both flavours.
    package static var all: [Entry] { Flavour.allCases.flatMap(entries(of:)) }

    /// The entries whose code is `code` (a Backendless number such as `3033` or a Kii code such as
    /// `USER_ALREADY_EXISTS`, case-insensitively for Kii), in one flavour or in both.
    package static func lookup(_ code: String, flavour: Flavour? = nil) -> [Entry] {
        let flavours = flavour.map { [$0] } ?? Flavour.allCases
        return flavours.flatMap(entries(of:)).filter { entry in
            entry.flavour == .backendless ? entry.code == code : entry.code.lowercased() == code.lowercased()
        }
    }

    /// The order in which an operation's checks run: the first that applies decides the code (`fault` first).
    /// Taken from the operations' declarations (`OperationDeclaration.checks`); operations whose only check is a
    /// fault are left out.
    package static func checkOrder(of flavour: Flavour) -> [String: [String]] {
        var orders: [String: [String]] = [:]
        for declaration in declarations(of: flavour) where declaration.checks != [.fault] {
            orders[declaration.name] = declaration.checkNames
        }
        return orders
    }

    /// Every operation's declaration of one flavour.
    package static func declarations(of flavour: Flavour) -> [OperationDeclaration] {
        switch flavour {
        case .backendless: return BackendlessOperation.declarations
        case .kii: return KiiOperation.declarations
        }
    }
}

extension ErrorCatalogue {
    /// One flavour's codes with their counts by origin, for the coverage tables and `--codes-json`: every
    /// catalogued code in the catalogue's order (counted or not), then the counted codes the catalogue does not
    /// list (an injected 4242, a network outcome such as `connection dropped`), sorted.
    package static func rows(of flavour: Flavour, counts: [String: [CodeOrigin: Int]]) -> [(code: String, entry: Entry?, counts: [CodeOrigin: Int])] {
        var rows: [(code: String, entry: Entry?, counts: [CodeOrigin: Int])] = []
        var seen: Set<String> = []
        for entry in entries(of: flavour) where seen.insert(entry.code).inserted {
            rows.append((entry.code, entry, counts[entry.code] ?? [:]))
        }
        for code in counts.keys.filter({ !seen.contains($0) }).sorted() {
            rows.append((code, nil, counts[code] ?? [:]))
        }
        return rows
    }
}
