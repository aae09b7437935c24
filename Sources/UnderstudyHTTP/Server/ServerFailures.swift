internal import HTTPTypes
internal import Understudy

/// The replies for requests that go wrong before (or around) a backend: no such route, a body too large or not
/// JSON, a missing control token. Each in the shape of the area the path belongs to, so an SDK parses it.
package enum ServerFailures {
    /// The area a path belongs to, guessed from its first segment (for requests that matched no route).
    static func area(of path: String) -> RouteArea {
        if path.hasPrefix("/api/") || path == "/api" { return .kii }
        if path.hasPrefix("/" + ControlRoutes.prefix) { return .control }
        return .backendless
    }

    /// An error reply in the area's shape.
    package static func reply(_ area: RouteArea, status: Int, backendlessCode: Int, kiiCode: String, message: String) -> Reply {
        switch area {
        case .backendless:
            return BackendlessError(code: backendlessCode, message: message, httpStatus: status).reply
        case .kii:
            var reply = KiiError(status: status, code: kiiCode, message: message).reply
            KiiUnityTransport.addStatus(to: &reply)
            return reply
        case .control:
            var reply = Reply(status: status, body: ["error": .string(kiiCode), "message": .string(message)])
            reply.code = .string(kiiCode)
            return reply
        }
    }

    static func noRoute(_ method: HTTPRequest.Method, _ path: String) -> Reply {
        var result = reply(
            area(of: path), status: 404, backendlessCode: 404, kiiCode: "NOT_FOUND",
            message: "Understudy has no route \(method.rawValue) \(path) (GET /_understudy/routes lists them)"
        )
        result.unmatched = true
        return result
    }

    static func wrongMethod(_ method: HTTPRequest.Method, _ path: String, allowed: [HTTPRequest.Method]) -> Reply {
        var result = reply(
            area(of: path), status: 405, backendlessCode: 405, kiiCode: "METHOD_NOT_ALLOWED",
            message: "\(path) does not answer \(method.rawValue); it answers \(allowed.map(\.rawValue).joined(separator: ", "))"
        )
        result.headers.append((name: "Allow", value: allowed.map(\.rawValue).joined(separator: ", ")))
        result.unmatched = true
        return result
    }

    static func bodyTooLarge(_ area: RouteArea, limit: Int) -> Reply {
        reply(
            area, status: 413, backendlessCode: 8002, kiiCode: "REQUEST_ENTITY_TOO_LARGE",
            message: "the request body is larger than \(limit) bytes"
        )
    }

    /// A body the client stopped sending before its end (it closed the connection, or went silent past the idle
    /// timeout): answered, if anyone still listens, and journaled as what happened.
    static func bodyCutOff(_ area: RouteArea, declaredLength: String?) -> Reply {
        let declared = declaredLength.map { " (Content-Length \($0))" } ?? ""
        return reply(
            area, status: 400, backendlessCode: 8002, kiiCode: "INCOMPLETE_BODY",
            message: "the request body was cut off: the client stopped sending before its end\(declared)"
        )
    }

    /// A body that is not JSON, not UTF-8, nested too deeply, or holds a number out of range.
    package static func malformedBody(_ area: RouteArea, _ error: JSONError) -> Reply {
        reply(
            area, status: 400, backendlessCode: 8002, kiiCode: "INVALID_JSON",
            message: "Could not parse request with message: \(error.description)"
        )
    }

    /// A JSON body of the wrong kind (an array where an object belongs, say).
    package static func wrongBody(_ area: RouteArea, expected: String, got: String) -> Reply {
        reply(
            area, status: 400, backendlessCode: 8002, kiiCode: "INVALID_INPUT_DATA",
            message: "Could not parse request with message: the body must be \(expected), got \(got)"
        )
    }

    /// A content type the route does not take.
    package static func unsupportedMediaType(_ area: RouteArea, got: String, expected: String) -> Reply {
        reply(
            area, status: 415, backendlessCode: 8002, kiiCode: "UNSUPPORTED_MEDIA_TYPE",
            message: "Content-Type \(got) is not accepted here; send \(expected)"
        )
    }

    static func predicateFailed(_ area: RouteArea, _ message: String) -> Reply {
        reply(area, status: 500, backendlessCode: 8001, kiiCode: "UNDEFINED_ERROR", message: message)
    }

    static func controlTokenRequired() -> Reply {
        reply(
            .control, status: 401, backendlessCode: 0, kiiCode: "CONTROL_TOKEN_REQUIRED",
            message: "the control API needs the header \(ControlRoutes.tokenHeader.rawName) with the server's --control-token"
        )
    }
}
