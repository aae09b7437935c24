internal import HTTPTypes

/// Who may reach which routes, by the request's `Origin` and `Host`.
///
/// The control API answers only its own pages and tools: a browser page from another site (its `Origin` is not
/// the address it talks to) is refused, and so is a request whose `Host` is a DNS name other than the one served
/// (DNS rebinding: a page whose own name was pointed at 127.0.0.1). curl, scripts and SDK tests send no `Origin`.
/// The vendor routes accept browser apps from any origin, with the CORS headers such an app needs.
enum RequestOrigin {
    static let originHeader = HTTPField.Name("Origin")!
    static let requestMethodHeader = HTTPField.Name("Access-Control-Request-Method")!
    static let requestHeadersHeader = HTTPField.Name("Access-Control-Request-Headers")!

    /// Why a control request is refused, or nil when it may go on.
    static func controlRefusal(origin: String?, authority: String?, servedHost: String) -> String? {
        if let authority, !hostIsServed(authority, servedHost: servedHost) {
            return "the control API answers only requests addressed to the server itself (Host \(authority) is refused)"
        }
        if let origin, !isSameOrigin(origin, authority: authority) {
            return "the control API answers only its own pages and tools, not a page from \(origin)"
        }
        return nil
    }

    /// `http://host:port` (or https) naming the address the request was sent to.
    static func isSameOrigin(_ origin: String, authority: String?) -> Bool {
        guard let authority else { return false }
        let lowered = origin.lowercased(), target = authority.lowercased()
        return lowered == "http://" + target || lowered == "https://" + target
    }

    /// An IP literal, `localhost` (or a name under it) or the host the server was told to listen on: names a
    /// rebinding page could use are refused.
    /// A name is compared without its trailing dots (`localhost.` is `localhost`, `evil.example.` is
    /// `evil.example`), and only ASCII digits make an IPv4 literal.
    static func hostIsServed(_ authority: String, servedHost: String) -> Bool {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            // An IPv6 literal, and nothing after it but a port.
            guard let close = host.firstIndex(of: "]") else { return false }
            let literal = host[host.index(after: host.startIndex)..<close], rest = host[host.index(after: close)...]
            return !literal.isEmpty && literal.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }
                && (rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }))
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            host = host[..<colon]
        }
        func trimmed(_ name: Substring) -> Substring {
            var name = name
            while name.last == "." { name = name.dropLast() }
            return name
        }
        host = trimmed(host)
        if host.isEmpty || host == "localhost" || host.hasSuffix(".localhost") { return true }
        if host == trimmed(Substring(servedHost.lowercased())) { return true }
        return host.allSatisfy { $0.isASCII && ($0 == "." || $0.isNumber) } // an IPv4 literal
    }

    /// The CORS headers a vendor route's reply carries for a browser app at `origin`.
    static func corsHeaders(origin: String) -> [(name: String, value: String)] {
        [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"), ("Access-Control-Expose-Headers", "*")]
    }

    /// The reply headers of a preflight (`OPTIONS` with Access-Control-Request-Method) to a vendor route.
    static func preflightHeaders(origin: String, requestedHeaders: String?) -> [(name: String, value: String)] {
        corsHeaders(origin: origin) + [
            ("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS"),
            ("Access-Control-Allow-Headers", requestedHeaders ?? "*"),
            ("Access-Control-Max-Age", "600"),
        ]
    }

    /// Compares a given token with the expected one as bytes, in time that does not depend on where they differ
    /// (a `String` comparison would also match a differently composed `café`).
    static func tokensMatch(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference: UInt8 = a.count == b.count ? 0 : 1
        for index in 0..<b.count { difference |= b[index] ^ (index < a.count ? a[index] : 0) }
        return difference == 0
    }

    /// Is this a body type a browser may send across origins without asking first, where JSON is expected?
    static func isSimpleNonJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.lowercased().split(separator: ";").first.map { $0.filter { $0 != " " && $0 != "\t" } } ?? ""
        return type == "text/plain" || type == "multipart/form-data" || type == "application/x-www-form-urlencoded"
    }
}
