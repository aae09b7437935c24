/// A Backendless push template, as the console's Push Composer defines it: content (message, title, subtitle,
/// headers) and audience (an operating system and one channel). `{var}` placeholders are filled from the
/// values `push.with_template` is given.
package struct PushTemplate: Sendable, Hashable, Presentable {
    /// Whom a template aims at.
    package enum Audience: String, Sendable, Hashable, CaseIterable {
        case all = "ALL"
        case ios = "IOS"
        case android = "ANDROID"

        /// The name compared without case; nil for another.
        package init?(name: String) { self.init(rawValue: name.uppercased()) }

        var broadcast: PushBroadcast? {
            switch self {
            case .all: return nil
            case .ios: return .ios
            case .android: return .android
            }
        }
    }

    package var name: String
    package var message: String
    package var title: String?
    package var subtitle: String?
    /// Header names and values, sorted by name; nil when the template has none.
    package var headers: [Pair]?
    package var os: Audience
    package var channel: String

    /// A header: name and value (a struct, so that the template is `Hashable`).
    package struct Pair: Sendable, Hashable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(
        name: String, message: String, title: String? = nil, subtitle: String? = nil, headers: [Pair]? = nil,
        os: Audience = .all, channel: String = DeviceRegistry.defaultChannel
    ) {
        self.name = name
        self.message = message
        self.title = title
        self.subtitle = subtitle
        self.headers = headers?.sorted { $0.name < $1.name }
        self.os = os
        self.channel = channel
    }

    /// Whether `templates.list(os)` lists it: every template for `ALL` (or no os), else the template's own os and
    /// `ALL` ones. An os the emulator does not know lists only the `ALL` ones.
    func isListed(for os: String?) -> Bool {
        guard let os, os.uppercased() != "ALL" else { return true }
        return self.os == .all || self.os.rawValue == os.uppercased()
    }

    /// `{ name, message, title?, subtitle?, headers?, os, channel }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("name", name)
        writer.write("message", message)
        if let title { writer.write("title", title) }
        if let subtitle { writer.write("subtitle", subtitle) }
        if let headers { writer.write("headers", pairs: headers.map { ($0.name, $0.value) }) }
        writer.write("os", os.rawValue)
        writer.write("channel", channel)
    }

    /// Replaces every `{var}` in `text` by `values[var]`; a placeholder with no value stays as written.
    static func fill(_ text: String, with values: [String: String]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        walk(text, values) { result += $0 }
        return result
    }

    /// What `fill` makes of `text` holds (`HeldBytes`), found without making it: nothing when `fill` answers
    /// `text` itself (its storage shared), else the filled text's size. What a call asks `admitsGrowth` for
    /// before it fills a template.
    static func filledBytes(_ text: String, with values: [String: String]) -> Int {
        guard !values.isEmpty, text.contains("{") else { return 0 }
        var count = 32
        walk(text, values) { count = HeldBytes.sum(count, $0.utf8.count) }
        return count
    }

    /// At most what `fill` makes of `text` holds when no value is longer than `longest` bytes: nothing for a
    /// text without a `{`, else the text with every `{` counted as a value. Found by counting, without values.
    static func filledBytes(_ text: String, longest: Int) -> Int {
        var braces = 0
        for byte in text.utf8 where byte == UInt8(ascii: "{") { braces += 1 }
        guard braces > 0 else { return 0 }
        let (values, overflow) = braces.multipliedReportingOverflow(by: longest)
        return overflow ? .max : HeldBytes.sum(32 + text.utf8.count, values)
    }

    /// What the filled template holds: its message, title, subtitle and header values.
    func filledBytes(with values: [String: String]) -> Int {
        var total = Self.filledBytes(message, with: values)
        for text in [title, subtitle] + (headers ?? []).map(\.value) {
            if let text { total = HeldBytes.sum(total, Self.filledBytes(text, with: values)) }
        }
        return total
    }

    /// Walks `text`, handing `emit` each piece of the filled text in order: the text between placeholders, each
    /// placeholder's value (a `{` that opens no known placeholder as itself).
    private static func walk(_ text: String, _ values: [String: String], _ emit: (Substring) -> Void) {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            emit(rest[..<open])
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                let value = values[String(rest[afterOpen..<close])]
            else {
                emit("{")
                rest = rest[afterOpen...]
                continue
            }
            emit(Substring(value))
            rest = rest[rest.index(after: close)...]
        }
        emit(rest)
    }
}
