internal import HTTPTypes

/// What Kii's Unity SDK sends and reads, because Unity's `WWW` class can only GET and POST, cannot send a body-less
/// POST, and hands no status to the game (`KiiCloudUnitySDK`, `KiiHttpUnityClientImpl.SetHttpMethodOverride`,
/// `WWWUtils.GetStatusCode`):
/// - every call is a POST; GET, HEAD, PUT and DELETE carry `X-HTTP-Method-Override`, and a call without a body
///   carries the stub `{"_method":"GET"}` instead; a body-less POST sends `{"_method":"POST"}` as
///   `application/X-Dummy-Content`;
/// - the status is read from the `X-HTTP-Status-Code` reply header (without it a 404 or a 409 reaches the game as a
///   network error).
/// Every Kii route takes the override (header or stub body) and every Kii reply carries the header.
enum KiiUnityTransport {
    static let overrideHeader = HTTPField.Name("X-HTTP-Method-Override")!
    static let statusHeader = "X-HTTP-Status-Code"

    /// True for a path of the Kii API.
    static func isKii(_ path: String) -> Bool {
        path.hasPrefix("/api/") && path != "/api/binary"
    }

    /// The method a request means: a POST to a Kii path with `X-HTTP-Method-Override` means the header's method.
    static func method(_ method: HTTPRequest.Method, path: String, headers: HTTPFields) -> HTTPRequest.Method {
        guard method == .post, let named = headers[overrideHeader], isKii(path) else { return method }
        return HTTPRequest.Method(named.uppercased()) ?? method
    }

    /// The method a stub body (`{"_method":"GET"}`, nothing else) names; nil for any other body.
    static func stubMethod(_ body: [UInt8]) -> HTTPRequest.Method? {
        guard body.count < 64, case .object(let members)? = try? JSONParser.parse(body), members.count == 1,
            members[0].key == "_method", case .string(let name) = members[0].value
        else { return nil }
        return HTTPRequest.Method(name.uppercased())
    }

    /// The request as the route sees it: a stub body becomes no body (its content type dropped), and names the
    /// method when no header did. Returns nil when the request carries no stub.
    static func unstub(method: HTTPRequest.Method, path: String, headers: HTTPFields, body: [UInt8])
        -> (method: HTTPRequest.Method, headers: HTTPFields)?
    {
        guard isKii(path), method == .post || headers[overrideHeader] != nil, let named = stubMethod(body) else { return nil }
        var headers = headers
        headers[.contentType] = nil
        return (headers[overrideHeader] == nil ? named : method, headers)
    }

    /// Adds `X-HTTP-Status-Code` (the reply's status) unless the reply has it.
    static func addStatus(to reply: inout Reply) {
        guard !reply.headers.contains(where: { $0.name == statusHeader }) else { return }
        reply.headers.append((statusHeader, String(reply.status)))
    }
}
