internal import Hummingbird
internal import HTTPTypes
package import Understudy

/// What a route answers, before it becomes a response: status, JSON body, and what the journal and the network
/// faults need to know.
package struct Reply: Sendable {
    package var status: Int
    /// The JSON body; nil for an empty body.
    package var body: JSON?
    /// A body that is not JSON (a confirmation page, for instance).
    package var text: String?
    /// A binary body (an AMF reply).
    package var bytes: [UInt8]?
    package var contentType = "application/json"
    package var headers: [(name: String, value: String)] = []
    /// The error code answered (a Backendless number or a Kii `errorCode`), for the journal.
    package var code: Value?
    /// Extra latency from an injected fault, in milliseconds.
    package var delayMilliseconds = 0
    /// Close the connection instead of answering (an injected fault).
    package var dropConnection = false
    /// With `dropConnection`: close with a reset (RST) rather than cleanly.
    package var resetConnection = false
    /// The fault that fired for this request (the last, when several did), for the journal.
    package var fault: FaultMark?
    /// True when that fault's error code is what was answered (an injected error), for the coverage.
    var faultAnswered = false
    /// A 200 with a broken body took the place of the answer (a reply fault): what the client met.
    package var replyFault: ReplyFault?
    /// No route answers the request's method and path (the coverage report lists it with the nearest route).
    package var unmatched = false

    package init(status: Int = 200, body: JSON? = nil) {
        self.status = status
        self.body = body
    }

    /// A reply with a plain-text or HTML body.
    package static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Reply {
        var reply = Reply(status: status)
        reply.text = text
        reply.contentType = contentType
        return reply
    }

    /// Adds the latency, the dropped or reset connection and the broken body of the fault that fired, if one did.
    mutating func apply(_ fault: Fault?) {
        guard let fault else { return }
        self.fault = FaultMark(id: fault.id, effect: fault.effect)
        faultAnswered = fault.code != nil
        delayMilliseconds = max(delayMilliseconds, fault.delayMilliseconds)
        dropConnection = dropConnection || fault.dropConnection || fault.resetConnection
        resetConnection = resetConnection || fault.resetConnection
        if let kind = fault.replyFault { breakBody(kind) }
    }

    /// A 200 whose body is empty, the first half of the answer's, or not JSON at all; the client sees no code.
    mutating func breakBody(_ kind: ReplyFault) {
        let answer = bodyBytes
        replyFault = kind
        status = 200
        code = nil
        body = nil
        encoded = nil
        switch kind {
        case .empty: text = ""
        case .truncated: text = String(decoding: answer.prefix(answer.count / 2), as: UTF8.self)
        case .malformed: text = #"{"understudy": "a malformed reply"#
        }
    }

    /// How the answer reached the client, for the coverage report.
    var origin: (CodeOrigin, NetworkOutcome?) {
        if resetConnection { return (.network, .reset) }
        if dropConnection { return (.network, .dropped) }
        switch replyFault {
        case .empty?: return (.network, .emptyBody)
        case .truncated?: return (.network, .truncatedBody)
        case .malformed?: return (.network, .malformedBody)
        case nil: break
        }
        return (code != nil && faultAnswered ? .injected : .real, nil)
    }

    /// The body's bytes once `encodeBody()` has run: the journal and the response then share one encoding.
    private var encoded: [UInt8]?

    /// Encodes the body once, for the journal and the response.
    mutating func encodeBody() {
        if encoded == nil { encoded = bodyBytes }
    }

    /// The body as it is sent: the JSON encoded, or the text body's UTF-8; empty when there is none.
    var bodyBytes: [UInt8] {
        if let encoded { return encoded }
        if let bytes { return bytes }
        if let body { return JSONWriter.encode(body) }
        if let text { return Array(text.utf8) }
        return []
    }

    /// The body as text: the JSON as it is sent, or the text body; empty when there is none.
    var bodyText: String {
        if encoded == nil, body == nil, bytes == nil { return text ?? "" }
        return String(decoding: bodyBytes, as: UTF8.self)
    }

    /// The response's header fields: the content type, the route's headers and the drop marker
    /// (`ConnectionDropper`). Hummingbird, or `VendorFastPath`, adds the length, date and server name.
    var responseFields: HTTPFields {
        var fields = HTTPFields()
        if body != nil || text != nil || bytes != nil { fields[.contentType] = contentType }
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        if dropConnection { fields[ConnectionDropper.marker] = resetConnection ? ConnectionDropper.reset : "1" }
        return fields
    }

    /// The response Hummingbird writes.
    var response: Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: responseFields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bodyBytes))
        )
    }
}

extension BackendlessError {
    /// The real service's error reply: `{"code","message","errorData":{}}` with the status of `errors.md`.
    package var reply: Reply {
        var shown = self
        shown.retryAfter = nil  // a header, not part of the vendor's body
        var reply = Reply(status: httpStatus, body: JSONRecordWriter.json(shown, trailing: [.init("errorData", .object([]))]))
        reply.code = .int(Int64(code))
        if let retryAfter { reply.headers.append(("Retry-After", String(retryAfter))) }
        return reply
    }
}

extension KiiError {
    /// The real service's error reply: `{"errorCode","message"}` plus `field`/`value` where they apply; login
    /// failures in the OAuth2 shape (`error`, `error_description`) as well.
    package var reply: Reply {
        var members: [JSON.Member] = [.init("errorCode", .string(code)), .init("message", .string(message))]
        if let field { members.append(.init("field", .string(field))) }
        if let value { members.append(.init("value", .string(value))) }
        if code == "invalid_grant" {
            members.append(.init("error", .string(code)))
            members.append(.init("error_description", .string(message)))
        }
        var reply = Reply(status: status, body: .object(members))
        reply.code = .string(code)
        if let retryAfter { reply.headers.append(("Retry-After", String(retryAfter))) }
        return reply
    }
}

/// An error that knows the HTTP reply it stands for.
protocol ReplyingError: Error {
    var reply: Reply { get }
}

extension BackendlessError: ReplyingError {}
extension KiiError: ReplyingError {}

extension Reply {
    /// Runs a route's `body` against `app`: a thrown error becomes its own reply (an unexpected one a 500 in the
    /// area's shape), and the fault that fired, if any, adds its latency or dropped connection.
    static func answer(_ area: RouteArea, app: some EmulatedApp, _ body: () throws -> Reply) -> Reply {
        app.faults.lastFired = nil
        app.faults.pendingAfterCommit = nil
        var reply: Reply
        do {
            reply = try body()
            // The call made its change: an `after_commit` fault now answers its error (or drops the connection).
            if let fault = app.firePendingAfterCommit() {
                if fault.code != nil { reply = failure(for: fault, app: app) }
                reply.apply(fault)
                return reply
            }
        } catch let error as any ReplyingError {
            reply = error.reply
        } catch {
            reply = ServerFailures.reply(area, status: 500, backendlessCode: 8001, kiiCode: "UNDEFINED_ERROR", message: "\(error)")
        }
        app.faults.pendingAfterCommit = nil
        reply.apply(app.faults.lastFired)
        return reply
    }

    /// The error reply an injected fault answers with, in its app's flavour.
    static func failure(for fault: Fault, app: some EmulatedApp) -> Reply {
        switch app.flavoured {
        case .backendless(let app): return app.failure(for: fault).reply
        case .kii: return KiiError(fault: fault).reply
        }
    }
}
