package import Hummingbird
internal import HummingbirdCore
internal import HTTPTypes
internal import Logging
internal import NIOCore
internal import NIOPosix
internal import Synchronization
internal import Understudy
internal import UnderstudyLua
package import UnderstudyMQTT

/// `understudy serve`: the emulated apps at the real services' REST paths, the control API under
/// `/_understudy/`, and a journal of every request. All state sits behind one lock: requests are answered one
/// at a time against one consistent world, which is what makes "64 concurrent sign-ups, exactly one wins" hold.
package final class UnderstudyServer: Sendable {
    package let options: ServerOptions
    let stage: Mutex<Stage>
    let routes: RouteTable<RouteHandler>
    /// Where the async paths wait for the lock and run handlers, off the threads that read requests.
    let worker = StageWorker()

    /// The MQTT broker: TCP on `options.mqttPort` (from `run`), WebSocket at `/mqtt` on the HTTP port.
    package let broker: MQTTBroker

    /// Builds the stage (running the setup script, if any). Throws when the script fails.
    package init(options: ServerOptions) throws(StageError) {
        self.options = options
        let authority = ServedMQTTAuthority()
        broker = MQTTBroker(authority: authority)
        stage = Mutex(try Stage(options: options, mqttDeliveries: broker))
        var routes = RouteTable<RouteHandler>()
        BackendlessRoutes.register(in: &routes)
        KiiRoutes.register(in: &routes)
        ControlRoutes.register(in: &routes)
        self.routes = routes
        authority.server.withLock { $0 = self }
    }

    /// The `Server` header's value.
    static let serverName = "understudy"

    /// Every route the server answers.
    package var routeDescriptions: [RouteDescription] { routes.entries.map(\.description) }

    /// Runs `body` with the stage, under the lock.
    package func withStage<T: Sendable>(_ body: (Stage) throws -> T) rethrows -> T {
        try stage.withLock { stage in try body(stage) }
    }

    /// The Hummingbird application (for `run`, or for HummingbirdTesting). `onReady` runs once it listens.
    package func application(onReady: @escaping @Sendable () -> Void = {}) -> some ApplicationProtocol {
        var logger = Logger(label: "understudy")
        logger.logLevel = .warning
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionDropper()],
            idleTimeout: options.idleTimeout > 0 ? .nanoseconds(Int64(options.idleTimeout * 1e9)) : nil
        )
        return Application(
            responder: UnderstudyResponder(server: self),
            // Hummingbird's HTTP/1 server, with the emulated apps' routes answered on the event loop.
            server: HTTPServerBuilder { responder in
                VendorFastPathChannel(
                    http1: HTTP1Channel(responder: responder, configuration: http1), server: self, serverName: Self.serverName
                )
            },
            configuration: ApplicationConfiguration(
                address: .hostname(options.host, port: options.port), serverName: Self.serverName
            ),
            onServerRunning: { _ in onReady() },
            logger: logger
        )
    }

    /// Makes NIO's event loops Swift concurrency's global executor, so request handling stays on the thread that
    /// read the request. Call once, from the main thread, before any concurrency code runs.
    package static func runConcurrencyOnEventLoops() {
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Serves until SIGINT or SIGTERM, then stops cleanly; with `options.mqttPort`, the broker listens for MQTT
    /// over TCP meanwhile.
    package func run(onReady: @escaping @Sendable () -> Void = {}) async throws {
        let mqtt = options.mqttPort > 0 ? try await broker.listen(host: options.host, port: options.mqttPort) : nil
        do {
            try await application(onReady: onReady).runService()
        } catch {
            try? await mqtt?.close()
            throw error
        }
        try? await mqtt?.close()
    }

    /// Answers one request: find the route, read the body, run the handler under the lock, record the journal.
    func respond(to request: Request) async -> Response {
        // One reading of the path decides everything below: the guard, CORS, the route and the journal.
        let requestPath = RequestPath(request.uri.path)
        let path = requestPath.path
        let origin = request.headers[RequestOrigin.originHeader]
        let isControl = requestPath.isControl
        if isControl,
           let refusal = RequestOrigin.controlRefusal(origin: origin, authority: request.head.authority, servedHost: options.host)
        {
            return ServerFailures.reply(.control, status: 403, backendlessCode: 0, kiiCode: "FOREIGN_ORIGIN_REFUSED", message: refusal).response
        }
        if !isControl, let origin {
            var response: Response
            if request.method == .options, request.headers[RequestOrigin.requestMethodHeader] != nil {
                var reply = Reply(status: 204)
                reply.headers = RequestOrigin.preflightHeaders(origin: origin, requestedHeaders: request.headers[RequestOrigin.requestHeadersHeader])
                return reply.response
            }
            response = await respondToRoute(request, path: path)
            for (name, value) in RequestOrigin.corsHeaders(origin: origin) {
                if let field = HTTPField.Name(name) { response.headers[field] = value }
            }
            return response
        }
        return await respondToRoute(request, path: path)
    }

    private func respondToRoute(_ request: Request, path: String) async -> Response {
        let query = request.uri.query ?? ""
        switch routes.match(request.method, path) {
        case .notFound:
            return await record(ServerFailures.noRoute(request.method, path), request, path: path, query: query).response
        case .wrongMethod(let allowed):
            return await record(ServerFailures.wrongMethod(request.method, path, allowed: allowed), request, path: path, query: query)
                .response
        case .found(let entry, let parameters):
            let area = entry.description.area
            if area == .control, let token = options.controlToken, !ControlRoutes.servesWithoutToken(path),
                !RequestOrigin.tokensMatch(request.headers[ControlRoutes.tokenHeader], token)
            {
                return ServerFailures.controlTokenRequired().response
            }
            if area == .control, entry.bodyKind == .json, RequestOrigin.isSimpleNonJSON(request.headers[.contentType]) {
                return ServerFailures.unsupportedMediaType(.control, got: request.headers[.contentType] ?? "", expected: "application/json").response
            }
            var bytes: [UInt8] = []
            if entry.bodyKind != .none {
                var request = request
                do {
                    let buffer = try await request.collectBody(upTo: options.maxBodyBytes)
                    bytes = Array(buffer.readableBytesView)
                } catch is NIOTooManyBytesError {
                    let reply = ServerFailures.bodyTooLarge(area, limit: options.maxBodyBytes)
                    return await record(reply, request, path: path, query: query).response
                } catch {
                    // The client closed the connection (or stopped sending past the idle timeout) mid-body.
                    let reply = ServerFailures.bodyCutOff(area, declaredLength: request.headers[.contentLength])
                    return await record(reply, request, path: path, query: query).response
                }
            }
            let (method, headers) = (request.method, request.headers)
            let reply = await worker.run { [bytes] in
                self.answer(entry, parameters: parameters, method: method, path: path, query: query, headers: headers, body: bytes)
            }
            if reply.delayMilliseconds > 0 { try? await Task.sleep(for: .milliseconds(reply.delayMilliseconds)) }
            return reply.response
        }
    }

    /// Answers a routed request whose body has been read: parses the JSON body, runs the handler under the lock and
    /// records the journal entry. Synchronous, so that the event loop can call it too (`VendorFastPath`); the
    /// caller applies the reply's delay.
    func answer(
        _ entry: RouteTable<RouteHandler>.Entry, parameters: RouteParameters, method: HTTPRequest.Method, path: String,
        query: String, headers: HTTPFields, body bytes: [UInt8]
    ) -> Reply {
        let json = Self.readJSON(entry, bytes)
        return stage.withLock { stage -> Reply in
            answer(entry, parameters: parameters, method: method, path: path, query: query, headers: headers, body: bytes, json: json, stage: stage)
        }
    }

    /// `answer` for the event loop, which must never wait for long: nil (the request then goes to Hummingbird's
    /// responder) when the lock stays busy for `lockPatience` (a control chunk running, say), or when a fault with a
    /// Lua `when` predicate could run (a predicate may take up to its deadline). The lock is often held for a few
    /// microseconds by a request on the other event loop; waiting that out is much cheaper than a hand-over.
    func answerWithoutWaiting(
        _ entry: RouteTable<RouteHandler>.Entry, parameters: RouteParameters, method: HTTPRequest.Method, path: String,
        query: String, headers: HTTPFields, body bytes: [UInt8]
    ) -> Reply? {
        enum Attempt { case answered(Reply), needsPredicate }
        let json = Self.readJSON(entry, bytes)
        let giveUp = ContinuousClock.now + Self.lockPatience
        repeat {
            let attempt = stage.withLockIfAvailable { stage -> Attempt in
                guard !stage.world.apps.contains(where: { $0.faults.active.contains { $0.condition != nil } }) else {
                    return .needsPredicate
                }
                return .answered(answer(
                    entry, parameters: parameters, method: method, path: path, query: query, headers: headers, body: bytes,
                    json: json, stage: stage
                ))
            }
            switch attempt {
            case .answered(let reply): return reply
            case .needsPredicate: return nil
            case nil: continue
            }
        } while ContinuousClock.now < giveUp
        return nil
    }

    /// How long the event loop tries for a busy lock before handing the request on: a few vendor requests' time.
    static let lockPatience = Duration.microseconds(50)

    private static func readJSON(_ entry: RouteTable<RouteHandler>.Entry, _ bytes: [UInt8]) -> Result<JSON?, JSONError> {
        guard entry.bodyKind == .json, bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            return .success(nil)
        }
        do throws(JSONError) { return .success(try JSONParser.parse(bytes)) } catch { return .failure(error) }
    }

    /// The part of `answer` under the lock.
    private func answer(
        _ entry: RouteTable<RouteHandler>.Entry, parameters: RouteParameters, method: HTTPRequest.Method, path: String,
        query: String, headers: HTTPFields, body bytes: [UInt8], json: Result<JSON?, JSONError>, stage: Stage
    ) -> Reply {
            let area = entry.description.area
            var exchange = Exchange(
                stage: stage, method: method, path: path, query: query, headers: headers,
                parameters: parameters, body: bytes, json: json
            )
            if let refusal = MemoryCap.refusal(method, path: path, area: area, stage: stage) {
                if area != .control { Self.record(refusal, exchange: exchange, stage: stage) }
                return refusal
            }
            stage.session.beginRequest()
            let started = ContinuousClock.now
            var reply = entry.handler(&exchange)
            if let failure = stage.session.takePredicateError() { reply = ServerFailures.predicateFailed(area, failure) }
            reply.encodeBody()
            if area != .control { Self.record(reply, exchange: exchange, stage: stage, since: started) }
            return reply
    }

    /// Records a request that never reached a handler, on the stage's thread.
    private func record(_ reply: Reply, _ request: Request, path: String, query: String) async -> Reply {
        let (method, headers) = (request.method, request.headers)
        await worker.run { self.recordUnanswered(reply, method: method, path: path, query: query, headers: headers) }
        return reply
    }

    /// Records a request that never reached a handler (no route, a body too large or cut off). Takes the lock:
    /// callers on a thread that reads requests go through `worker`.
    func recordUnanswered(_ reply: Reply, method: HTTPRequest.Method, path: String, query: String, headers: HTTPFields) {
        guard !path.hasPrefix("/" + ControlRoutes.prefix) else { return }
        stage.withLock { stage in
            let exchange = Exchange(
                stage: stage, method: method, path: path, query: query, headers: headers,
                parameters: RouteParameters(), body: [], json: .success(nil)
            )
            Self.record(reply, exchange: exchange, stage: stage)
        }
    }

    private static func record(_ reply: Reply, exchange: Exchange, stage: Stage, since started: ContinuousClock.Instant? = nil) {
        let app = exchange.appID.flatMap { id in exchange.flavour.flatMap(Flavour.init).flatMap { stage.world.app($0, id: id) } }
        var bodyIsJSON = false
        if case .success(_?) = exchange.json { bodyIsJSON = true }
        stage.world.journal.record(JournalRecord(
            method: exchange.method.rawValue, path: exchange.path, query: exchange.query, flavour: exchange.flavour,
            appID: exchange.appID, operation: exchange.operation, body: exchange.body, bodyIsJSON: bodyIsJSON,
            status: reply.status, code: reply.code, time: app?.clock.now ?? 0, delayMilliseconds: reply.delayMilliseconds,
            connectionDropped: reply.dropConnection,
            // For the dashboard's journal view: what the app got back, and how long the server took.
            reply: reply.bodyBytes,
            durationMilliseconds: started.map { (ContinuousClock.now - $0) / .milliseconds(1) } ?? 0
        ))
        MemoryCap.trimJournal(stage)
    }
}

/// Hands every request to the server.
struct UnderstudyResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let server: UnderstudyServer

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        await server.respond(to: request)
    }
}
