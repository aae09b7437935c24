internal import Hummingbird
internal import HummingbirdCore
internal import HTTPTypes
internal import Logging
internal import NIOCore
internal import NIOHTTPTypes
internal import UnderstudyMQTT

/// Answers the emulated apps' routes on the event loop that read the request, without handing it to Swift
/// concurrency: the request never waits for a task to be scheduled, and its reply is written from the same thread.
/// It also answers the health check (`GET /_understudy/health`), which needs no lock. Everything else (the rest of
/// the control API, the dashboard, requests with an `Origin` (CORS), chunked or oversized bodies,
/// `Expect`, `OPTIONS`/`HEAD`, paths no route matches) goes on to Hummingbird's responder unchanged, and so does
/// every request that arrives while one handed on is still unanswered (replies leave in request order). Both ways
/// end in `UnderstudyServer.answer`: the same handler, lock and journal. The event loop never waits for long: when
/// the lock stays held past a few requests' time (a control chunk running) or a fault's Lua predicate could run,
/// the request read so far is handed on as it came.
///
/// It sits after Hummingbird's connection-state handler (`VendorFastPathChannel` puts it there), so that handler
/// still sees every request and reply: idle timeouts and graceful shutdown work as for any other request.
final class VendorFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let server: UnderstudyServer
    private let serverName: String

    /// A request this handler is reading to answer itself.
    private struct Reading {
        var head: HTTPRequest
        /// The method the request means (Kii's Unity SDK overrides a POST's).
        var method: HTTPRequest.Method
        var entry: RouteTable<RouteHandler>.Entry
        var parameters: RouteParameters
        var path: String
        var query: String
        var body: [UInt8]
    }

    private enum State {
        /// Between requests.
        case idle
        /// Reading a request to answer here.
        case reading(Reading)
        /// Passing a request's parts on to Hummingbird.
        case forwarding
    }

    private var state = State.idle
    /// Requests handed on whose reply has not been written yet.
    private var handedOn = 0
    /// True while a reply held back by an injected delay is pending, or while a request handed on is unanswered:
    /// parts that arrive meanwhile wait in `waiting`, unread, so nothing pipelined behind a request runs before
    /// its reply is written (a reply that drops the connection then discards them: the client never gets them).
    private var holding = false
    private var waitingForHandedOn = false
    private var waiting: [HTTPRequestPart] = []
    /// True once a reply dropped the connection (`drop = true`): nothing read after it is answered or run.
    private var dropped = false
    private var dates = HTTPDateCache()

    init(server: UnderstudyServer, serverName: String) {
        self.server = server
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if dropped { return }
        if holding {
            waiting.append(part)
            return
        }
        read(part, context: context)
    }

    /// Reads the parts that waited, until one holds the rest back again.
    private func drain(context: ChannelHandlerContext) {
        let forwarded = !waiting.isEmpty
        while !holding, !dropped, !waiting.isEmpty {
            read(waiting.removeFirst(), context: context)
        }
        if dropped { waiting.removeAll() }
        // Outside a read batch: Hummingbird's channel takes what was passed on at the batch's end.
        if forwarded { context.fireChannelReadComplete() }
    }

    private func read(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch (state, part) {
        case (.idle, .head(let head)):
            if handedOn > 0 {
                // Behind a request Hummingbird is answering: wait for its reply (it may drop the connection).
                holding = true
                waitingForHandedOn = true
                waiting.insert(part, at: 0)
            } else if let reading = plan(head) {
                state = .reading(reading)
            } else {
                handedOn += 1
                state = .forwarding
                context.fireChannelRead(wrapInboundOut(part))
            }
        case (.reading(var reading), .body(let buffer)):
            state = .idle  // keeps `reading.body` uniquely referenced while it grows
            reading.body.append(contentsOf: buffer.readableBytesView)
            state = .reading(reading)
        case (.reading(let reading), .end):
            state = .idle
            answer(reading, context: context)
        case (.forwarding, .end):
            state = .idle
            context.fireChannelRead(wrapInboundOut(part))
        default:
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    /// What to do with a request head: read and answer it here, or nil to hand it on.
    private func plan(_ head: HTTPRequest) -> Reading? {
        switch head.method {
        case .get, .post, .put, .patch, .delete: break
        default: return nil
        }
        let fields = head.headerFields
        guard fields[RequestOrigin.originHeader] == nil, fields[.expect] == nil, fields[.transferEncoding] == nil else {
            return nil
        }
        var expected = 0
        if let length = fields[.contentLength] {
            guard let declared = Int(length), declared >= 0, declared <= server.options.maxBodyBytes else { return nil }
            expected = declared
        }
        let uri = URI(head.path ?? "/")
        let requestPath = RequestPath(uri.path)
        let path = requestPath.path
        guard !requestPath.isControl || path == ControlRoutes.healthPath else { return nil }
        let method = KiiUnityTransport.method(head.method, path: path, headers: fields)
        guard case .found(let entry, let parameters) = server.routes.match(method, path),
            entry.description.area != .control || path == ControlRoutes.healthPath
        else { return nil }
        var body: [UInt8] = []
        body.reserveCapacity(expected)
        return Reading(head: head, method: method, entry: entry, parameters: parameters, path: path, query: uri.query ?? "", body: body)
    }

    private func answer(_ reading: Reading, context: ChannelHandlerContext) {
        if reading.path == ControlRoutes.healthPath {
            write(server.healthReply(), close: reading.head.headerFields[.connection] == "close", context: context)
            return
        }
        var fields = reading.head.headerFields
        fields[UnderstudyServer.connectionHeader] = String(ObjectIdentifier(context.channel).hashValue)
        guard let reply = server.answerWithoutWaiting(
            reading.entry, parameters: reading.parameters, method: reading.method, path: reading.path,
            query: reading.query, headers: fields,
            body: reading.entry.bodyKind == .none ? [] : reading.body
        ) else {
            // The lock is busy (a long control chunk, say) or a Lua predicate could run: the event loop must not
            // wait, so the request goes to Hummingbird's responder after all, as it came.
            handedOn += 1
            context.fireChannelRead(wrapInboundOut(.head(reading.head)))
            if !reading.body.isEmpty {
                context.fireChannelRead(wrapInboundOut(.body(context.channel.allocator.buffer(bytes: reading.body))))
            }
            context.fireChannelRead(wrapInboundOut(.end(nil)))
            return
        }
        let close = reading.head.headerFields[.connection] == "close"
        if reply.dropConnection { dropped = true }
        guard reply.delayMilliseconds > 0 else {
            write(reply, close: close, context: context)
            return
        }
        holding = true
        waitDelay(until: NIODeadline.now() + .milliseconds(Int64(reply.delayMilliseconds)), context: context) {
            self.write(reply, close: close, context: context)
            self.holding = false
            self.drain(context: context)
        }
    }

    /// Runs `then` at `deadline`, or at once when the server begins to shut down: a pending delay never holds
    /// up a SIGTERM (the reply goes out now, and graceful shutdown closes the connection after it).
    private func waitDelay(until deadline: NIODeadline, context: ChannelHandlerContext, then: @escaping () -> Void) {
        let step = min(deadline, NIODeadline.now() + .milliseconds(UnderstudyServer.shutdownPollMilliseconds))
        context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: step) {
            if NIODeadline.now() >= deadline || self.server.isShuttingDown {
                then()
            } else {
                self.waitDelay(until: deadline, context: context, then: then)
            }
        }
    }

    private func write(_ reply: Reply, close: Bool, context: ChannelHandlerContext) {
        // The fields in the order Hummingbird writes them: the route's, the length, the date, the server.
        var fields = reply.responseFields
        let bytes = reply.bodyBytes
        fields[.contentLength] = String(bytes.count)
        fields[.date] = dates.now()
        fields[.server] = serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .init(code: reply.status), headerFields: fields))), promise: nil)
        if !bytes.isEmpty { context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: bytes))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        if close { context.close(promise: nil) }
    }

    /// A client that closes the connection in the middle of a body: journaled as Hummingbird's path does. (The
    /// connection-state handler before this one does not pass `channelInactive` on; a closed channel removes its
    /// handlers.)
    func handlerRemoved(context: ChannelHandlerContext) {
        if case .reading(let reading) = state {
            state = .idle
            let reply = ServerFailures.bodyCutOff(reading.entry.description.area, declaredLength: reading.head.headerFields[.contentLength])
            let server = server
            server.worker.runLater {
                server.recordUnanswered(reply, method: reading.head.method, path: reading.path, query: reading.query, headers: reading.head.headerFields)
            }
        }
    }

    /// Replies Hummingbird writes for the requests handed on.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.headerFields[ConnectionDropper.marker] != nil:
            dropped = true
        case .end where handedOn > 0:
            handedOn -= 1
            if handedOn == 0, waitingForHandedOn {
                waitingForHandedOn = false
                holding = false
                context.eventLoop.assumeIsolatedUnsafeUnchecked().execute { self.drain(context: context) }
            }
        default: break
        }
        context.write(data, promise: promise)
    }
}

/// Hummingbird's HTTP/1 child channel with `VendorFastPath` added after its connection-state handler.
struct VendorFastPathChannel: ServerChildChannel {
    let http1: HTTP1Channel
    let server: UnderstudyServer
    let serverName: String

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let state = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(VendorFastPath(server: server, serverName: serverName), position: .after(state))
            try operations.addHandler(H2CUpgradeDecliner(), position: .first)
            if server.options.mqttWebSocket {
                // First on the connection: `GET /mqtt` with a WebSocket upgrade becomes an MQTT connection, whose
                // keep-alive the broker keeps (so Hummingbird's idle timer leaves).
                try operations.addHandler(server.broker.webSocketHandler { operations in
                    if let state = try? operations.handler(type: HTTPConnectionStateHandler.self) {
                        operations.removeHandler(state, promise: nil)
                    }
                }, position: .first)
            }
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// The `Date` header's value, formatted once a second (RFC 9110's IMF-fixdate: `Tue, 24 Nov 2026 13:45:00 GMT`).
struct HTTPDateCache {
    private var second = Int64.min
    private var text = ""

    mutating func now() -> String {
        let seconds = Int64((ContinuousClock.now - Self.start.clock) / .seconds(1)) + Self.start.epoch
        if seconds != second {
            second = seconds
            text = Self.format(seconds)
        }
        return text
    }

    /// The real time at a moment of the continuous clock (read once: the clock then counts on from it).
    private static let start: (clock: ContinuousClock.Instant, epoch: Int64) = {
        (ContinuousClock.now, Int64(Stage.realTime()))
    }()

    static func format(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        // Days to a civil date (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(weekday), \(two(day)) \(months[Int(month - 1)]) \(year) \(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60)) GMT"
    }
}
