package import Understudy
package import HTTPTypes
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// Which part of the server a route belongs to: decides the shape of its errors and what the journal records.
package enum RouteArea: String, Sendable, CaseIterable {
    case backendless
    case kii
    case control
}

/// What a route expects in its body.
package enum BodyKind: Sendable {
    /// No body is read.
    case none
    /// A JSON document (an empty body is allowed and seen as no body).
    case json
    /// Text taken as it is (a Lua chunk).
    case text
}

/// One route: method, path template (`/{appId}/{apiKey}/users/register`), and what it expects.
package struct RouteDescription: Sendable, Hashable {
    package var method: HTTPRequest.Method
    /// The path template; `{name}` marks a parameter that fills one path segment.
    package var path: String
    package var area: RouteArea
    /// One line for the route listing and the OpenAPI check.
    package var summary: String
    /// The operation a vendor route runs, in the vocabulary of its flavour (`users.register`); nil for the
    /// control API.
    package var operation: String?

    package init(method: HTTPRequest.Method, path: String, area: RouteArea, summary: String, operation: String? = nil) {
        self.method = method
        self.path = path
        self.area = area
        self.summary = summary
        self.operation = operation
    }

    package static func == (lhs: RouteDescription, rhs: RouteDescription) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(method.rawValue)
        hasher.combine(path)
    }
}

/// The values of a matched route's `{name}` segments.
package struct RouteParameters: Sendable {
    var names: [Substring] = []
    var values: [Substring] = []

    /// The value of parameter `name` (percent-decoded), or "" when the route has none by that name.
    package subscript(name: String) -> String {
        guard let index = names.firstIndex(where: { $0 == name }) else { return "" }
        let raw = values[index]
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return String(raw) }
        // The one percent-decoder of the server (query strings and forms use it too); text that is not
        // percent-encoded UTF-8 is taken as sent.
        if case .text(let text) = FormEncoding.percentDecoded(ArraySlice(raw.utf8), plusIsSpace: false) { return text }
        return String(raw)
    }

}

/// Routes matched segment by segment; constant segments win over parameters.
struct RouteTable<Handler: Sendable>: Sendable {
    struct Entry: Sendable {
        var description: RouteDescription
        var bodyKind: BodyKind
        var segments: [Segment]
        var handler: Handler
    }

    enum Segment: Sendable, Equatable {
        case constant(String)
        case parameter(String)
    }

    private(set) var entries: [Entry] = []
    /// The positions in `entries` of the routes with each number of segments, in `entries`' order: a request
    /// is compared with those alone, and without copying an entry until one matches.
    private var bySegmentCount: [Int: [Int]] = [:]

    mutating func add(_ description: RouteDescription, body: BodyKind, _ handler: Handler) {
        let segments = description.path.split(separator: "/").map { segment -> Segment in
            if segment.hasPrefix("{"), segment.hasSuffix("}") { return .parameter(String(segment.dropFirst().dropLast())) }
            return .constant(String(segment))
        }
        entries.append(Entry(description: description, bodyKind: body, segments: segments, handler: handler))
        // Constant segments first, so `/messaging/registrations` wins over `/messaging/{channel}`.
        entries.sort { lhs, rhs in
            lhs.segments.lexicographicallyPrecedes(rhs.segments) { left, right in
                if case .constant = left, case .parameter = right { return true }
                return false
            }
        }
        bySegmentCount = Dictionary(grouping: entries.indices) { entries[$0].segments.count }
    }

    enum Match {
        case found(Entry, RouteParameters)
        /// The path exists with other methods.
        case wrongMethod(allowed: [HTTPRequest.Method])
        case notFound
    }

    func match(_ method: HTTPRequest.Method, _ path: String) -> Match {
        let segments = Self.segments(of: path)
        var allowed: [HTTPRequest.Method] = []
        // Constants are compared first, so a route that does not match allocates nothing.
        candidates: for index in bySegmentCount[segments.count] ?? [] {
            for position in segments.indices {
                if case .constant(let text) = entries[index].segments[position], text != segments[position] {
                    continue candidates
                }
            }
            guard entries[index].description.method == method else {
                // Once each: `/users/me` and `/users/{user}` both answer GET.
                if !allowed.contains(entries[index].description.method) { allowed.append(entries[index].description.method) }
                continue
            }
            let entry = entries[index]
            var parameters = RouteParameters()
            for (segment, actual) in zip(entry.segments, segments) {
                guard case .parameter(let name) = segment else { continue }
                parameters.names.append(Substring(name))
                parameters.values.append(actual)
            }
            return .found(entry, parameters)
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }

    /// The path's non-empty segments between slashes (read byte by byte: a slash is one byte in UTF-8).
    private static func segments(of path: String) -> [Substring] {
        var segments: [Substring] = []
        let utf8 = path.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                if start < index { segments.append(path[start..<index]) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start < utf8.endIndex { segments.append(path[start...]) }
        return segments
    }
}
