/// Estimates of the memory a backend's records hold. Backends keep running totals of them, updated where a record
/// is added, changed or removed (never recounted), so that the memory cap can count what backends hold on every
/// call at no cost.
package enum HeldBytes {
    /// One user record with its index entries, before its properties.
    package static let perUser = 256
    /// One property slot (its name and value inline), before the text they hold out of line.
    package static let perProperty = 48
    /// One backend with its settings, clock and indexes.
    package static let perApp = 4096
    /// One push registration (a Backendless device with its token and channels, a Kii installation).
    package static let perRegistration = 512
    /// One session token, confirmation or recovery link (its key and index entries).
    package static let perToken = 96
    /// One outbox record (email, text message or push) before its text.
    package static let perRecord = 128
    /// One small entry of a table (a role, a column name, a channel's member, a finished fault's hits) before
    /// its text.
    package static let perEntry = 64

    /// What a string holds out of line: nothing for the short strings Swift stores inline.
    @inline(__always)
    package static func of(_ text: String) -> Int {
        let count = text.utf8.count
        return count > 15 ? count + 32 : 0
    }

    package static func of(_ text: String?) -> Int { text.map(of) ?? 0 }

    /// What a value holds beyond its inline slot.
    package static func of(_ value: Value) -> Int {
        switch value {
        case .null, .bool, .int, .double: return 0
        case .string(let text): return of(text)
        case .array(let items): return items.reduce(32) { $0 + perProperty + of($1) }
        case .object(let fields): return fields.reduce(64) { $0 + perProperty + of($1.key) + of($1.value) }
        }
    }

    /// What a list of properties holds.
    package static func of(_ properties: [Property]) -> Int {
        var total = 0
        for property in properties { total += perProperty + of(property.name) + of(property.value) }
        return total
    }

    /// What a push template holds.
    package static func of(_ template: PushTemplate) -> Int {
        perRecord + of(template.name) + of(template.message) + of(template.title) + of(template.subtitle) + of(template.channel)
            + (template.headers?.reduce(0) { $0 + perEntry + of($1.name) + of($1.value) } ?? 0)
    }

    /// What an email template holds.
    package static func of(_ template: EmailTemplate) -> Int {
        perRecord + of(template.name) + of(template.subject) + of(template.body) + of(template.html)
    }

    /// What an OAuth account a scenario defines holds.
    package static func of(_ account: OAuthAccount) -> Int {
        perRegistration + of(account.provider) + of(account.token) + of(account.secret) + of(account.profile)
    }

    /// `a + b`, saturating: an estimate never wraps.
    @inline(__always)
    package static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }
}
