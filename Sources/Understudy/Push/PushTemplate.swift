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
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                let value = values[String(rest[afterOpen..<close])]
            else {
                result.append("{")
                rest = rest[afterOpen...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }
}
