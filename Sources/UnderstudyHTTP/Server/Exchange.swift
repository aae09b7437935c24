#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
package import HTTPTypes
internal import Understudy

/// One request as a route handler sees it, inside the server's lock: the stage, the request, and the notes the
/// handler leaves for the journal.
package struct Exchange {
    package let stage: Stage
    package let method: HTTPRequest.Method
    package let path: String
    /// The query string without `?`.
    package let query: String
    package let headers: HTTPFields
    package let parameters: RouteParameters
    package var body: [UInt8]
    /// The body read as JSON (routes that take JSON): nil for an empty body.
    package var json: Result<JSON?, JSONError>

    /// For the journal: the flavour and app that answered, and the operation the request ran.
    package var flavour: String?
    package var appID: String?
    package var operation: String?

    /// The first value of header `name`.
    package func header(_ name: String) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        return headers[field]
    }

    /// The first value of query parameter `name`, percent-decoded (`+` read as a space).
    package func queryItem(_ name: String) -> String? {
        guard !query.isEmpty else { return nil }
        return FormEncoding.pairs(query).first { $0.name == name }?.value
    }

    /// The body as text (invalid UTF-8 repaired).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The `Content-Type` without parameters, lower-cased; nil when absent.
    package var mediaType: String? {
        guard let value = headers[.contentType] else { return nil }
        if value == "application/json" { return value }
        var bytes = Array(value.utf8.prefix { $0 != UInt8(ascii: ";") })
        while bytes.last == 0x20 || bytes.last == 0x09 { bytes.removeLast() }
        let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.count
        return String(decoding: bytes[start...].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// True when the body is declared JSON (`application/json`, `application/*+json`) or not declared at all.
    package var acceptsAsJSON: Bool {
        guard let type = mediaType else { return true }
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}

/// A route's handler: runs inside the server's lock and answers.
package typealias RouteHandler = @Sendable (inout Exchange) -> Reply
