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
    /// How many apps the stage serves, as of the last request answered under the lock: what
    /// `GET /_understudy/health` reports without waiting for the lock (a long Lua chunk may hold it).
    let appCount: Atomic<Int>
    private let shuttingDown = Atomic<Bool>(false)

    /// Whether the server was told to stop (SIGTERM, SIGINT): pending delays then end at once.
    var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Ends every pending injected delay now (their replies go out) and every later one at once: called when the
    /// process is told to stop, so a `delay_ms` fault never holds up the shutdown.
    package func beginShutdown() { shuttingDown.store(true, ordering: .relaxed) }

    /// How often a pending delay looks whether the server is shutting down.
    static let shutdownPollMilliseconds: Int64 = 50

    /// The MQTT broker: TCP on `options.mqttPort` (from `run`), WebSocket at `/mqtt` on the HTTP port.
    package let broker: MQTTBroker

    /// Builds the stage (running the setup script, if any). Throws when the script fails.
    package init(options: ServerOptions) throws(StageError) {
        self.options = options
        let authority = ServedMQTTAuthority()
        broker = MQTTBroker(authority: authority)
        let stage = try Stage(options: options, mqttDeliveries: broker)
        appCount = Atomic(stage.apps.count)
        self.stage = Mutex(stage)
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

    /// The coverage report as `serve --codes-json` writes it.
    package func coverageText() -> String {
        let routes = routeDescriptions
        return withStage { stage in CoverageReport.text(stage.world.coverage, routes: routes) }
    }

    /// Runs `body` with the stage, under the lock.
    package func withStage<T: Sendable>(_ body: (Stage) throws -> T) rethrows -> T {
        try stage.withLock { stage in
            stage.followRealTime()
            return try body(stage)
        }
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
    /// over TCP meanwhile (a default port that is taken turns it off, told to `warn`).
    package func run(onReady: @escaping @Sendable () -> Void = {}, warn: @Sendable (String) -> Void = { _ in }) async throws {
        var mqtt: (any Channel)?
        if options.mqttPort > 0 {
            do {
                mqtt = try await broker.listen(host: options.host, port: options.mqttPort)
            } catch where !options.mqttPortRequired {
                withStage { $0.turnOffMQTTOverTCP() }
                warn("MQTT over TCP is off: port \(options.mqttPort) is taken (\(error)); --mqtt-port sets another")
            }
        }
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
        if path == ControlRoutes.healthPath, request.method == .get || request.method == .head {
            // Before the Origin rule and the token: a health check (a container's, a CI step's) sends neither.
            return healthReply().response
        }
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
        var request = request
        var match = routes.match(KiiUnityTransport.method(request.method, path: path, headers: request.headers), path)
        // Kii's Unity SDK may name the method in a stub body alone (`{"_method":"GET"}`): read it to route.
        var bodyRead: [UInt8]?
        switch match {
        case .found: break
        case .notFound, .wrongMethod:
            if request.method == .post, KiiUnityTransport.isKii(path), let buffer = try? await request.collectBody(upTo: 64) {
                let bytes = Array(buffer.readableBytesView)
                bodyRead = bytes
                if let named = KiiUnityTransport.stubMethod(bytes) { match = routes.match(named, path) }
            }
        }
        switch match {
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
            var bytes: [UInt8] = bodyRead ?? []
            if entry.bodyKind != .none, bodyRead == nil {
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
            let (method, headers) = (KiiUnityTransport.method(request.method, path: path, headers: request.headers), request.headers)
            let reply = await worker.run { [bytes] in
                self.answer(entry, parameters: parameters, method: method, path: path, query: query, headers: headers, body: bytes)
            }
            if reply.delayMilliseconds > 0 { await pause(milliseconds: reply.delayMilliseconds) }
            return reply.response
        }
    }

    /// Waits out an injected delay, ending early when the server begins to shut down.
    private func pause(milliseconds: Int) async {
        let end = ContinuousClock.now + .milliseconds(milliseconds)
        while !isShuttingDown, ContinuousClock.now < end {
            let step = min(end - ContinuousClock.now, .milliseconds(Self.shutdownPollMilliseconds))
            try? await Task.sleep(for: step)
        }
    }

    /// Answers a routed request whose body has been read: parses the JSON body, runs the handler under the lock and
    /// records the journal entry. Synchronous, so that the event loop can call it too (`VendorFastPath`); the
    /// caller applies the reply's delay.
    func answer(
        _ entry: RouteTable<RouteHandler>.Entry, parameters: RouteParameters, method: HTTPRequest.Method, path: String,
        query: String, headers: HTTPFields, body bytes: [UInt8]
    ) -> Reply {
        let (entry, parameters, method, headers, bytes) = unstubbed(entry, parameters, method, path, headers, bytes)
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
        let (entry, parameters, method, headers, bytes) = unstubbed(entry, parameters, method, path, headers, bytes)
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

    /// The request as its route sees it once a Kii Unity stub body (`{"_method":"GET"}`) is taken off: no body,
    /// and the route of the method the stub names when no override header named one.
    private func unstubbed(
        _ entry: RouteTable<RouteHandler>.Entry, _ parameters: RouteParameters, _ method: HTTPRequest.Method, _ path: String,
        _ headers: HTTPFields, _ bytes: [UInt8]
    ) -> (RouteTable<RouteHandler>.Entry, RouteParameters, HTTPRequest.Method, HTTPFields, [UInt8]) {
        guard let unstubbed = KiiUnityTransport.unstub(method: method, path: path, headers: headers, body: bytes) else {
            return (entry, parameters, method, headers, bytes)
        }
        if unstubbed.method != method, case .found(let routed, let routedParameters) = routes.match(unstubbed.method, path) {
            return (routed, routedParameters, unstubbed.method, unstubbed.headers, [])
        }
        return (entry, parameters, method, unstubbed.headers, [])
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
            stage.followRealTime()
            if let refusal = MemoryCap.refusal(method, path: path, area: area, stage: stage) {
                if area != .control { Self.record(refusal, exchange: exchange, stage: stage) }
                return refusal
            }
            stage.session.beginRequest()
            let started = ContinuousClock.now
            var reply = entry.handler(&exchange)
            if let failure = stage.session.takePredicateError() { reply = ServerFailures.predicateFailed(area, failure) }
            if area == .kii { KiiUnityTransport.addStatus(to: &reply) }
            reply.encodeBody()
            if area != .control { Self.record(reply, exchange: exchange, stage: stage, since: started) }
            appCount.store(stage.apps.count, ordering: .relaxed)
            return reply
    }

    /// `GET /_understudy/health`: 200 with the version and the number of apps. Takes no lock and needs no token,
    /// so a health check is answered at once on either request path, even while a control chunk runs.
    func healthReply() -> Reply {
        var reply = Reply(body: [
            "status": "ok", "version": .string(UnderstudyVersion.current),
            "apps": .number(Double(appCount.load(ordering: .relaxed))),
        ])
        reply.headers = [("Cache-Control", "no-store")]
        reply.encodeBody()
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

    /// The header that attributes a request to one of the app's tests in the journal and the coverage report.
    static let testHeader = HTTPField.Name("X-Understudy-Test")!
    /// The header the server itself adds to a request: the connection it came on (`ConnectionContext`), read by
    /// the coverage report's "what the app did next" for requests without a test name.
    static let connectionHeader = HTTPField.Name("X-Understudy-Connection")!

    private static func record(_ reply: Reply, exchange: Exchange, stage: Stage, since started: ContinuousClock.Instant? = nil) {
        let flavour = exchange.flavour.flatMap(Flavour.init)
        let app = exchange.appID.flatMap { id in flavour.flatMap { stage.world.app($0, id: id) } }
        var bodyIsJSON = false
        if case .success(_?) = exchange.json { bodyIsJSON = true }
        let test = exchange.headers[testHeader].flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
        var mark = reply.fault
        if mark == nil, reply.headers.contains(where: { $0.name == "Retry-After" }) { mark = FaultMark(id: nil, effect: "rate_limit") }
        let (origin, network) = reply.origin
        let sequence = stage.world.journal.record(JournalRecord(
            method: exchange.method.rawValue, path: exchange.path, query: exchange.query, flavour: exchange.flavour,
            appID: exchange.appID, operation: exchange.operation, body: exchange.body, bodyIsJSON: bodyIsJSON,
            status: reply.status, code: reply.code, time: app?.clock.now ?? 0, delayMilliseconds: reply.delayMilliseconds,
            connectionDropped: reply.dropConnection,
            // For the dashboard's journal view: what the app got back, and how long the server took.
            reply: reply.bodyBytes,
            durationMilliseconds: started.map { (ContinuousClock.now - $0) / .milliseconds(1) } ?? 0,
            test: test, fault: mark
        ))
        var observation = CoverageObservation(
            sequence: sequence, flavour: flavour, appID: exchange.appID, operation: exchange.operation,
            method: exchange.method.rawValue, path: exchange.path, status: reply.status,
            code: reply.code.flatMap(Self.codeText), origin: origin, network: network, test: test,
            connection: exchange.headers[connectionHeader].flatMap { Int($0) }
        )
        observation.unmatched = reply.unmatched
        stage.world.coverage.record(observation)
        MemoryCap.trimJournal(stage)
    }
}

extension UnderstudyServer {
    /// A code as the coverage report names it: a Backendless number as text, a Kii errorCode.
    static func codeText(_ code: Value) -> String? {
        switch code {
        case .int(let number): return String(number)
        case .string(let text): return text
        default: return nil
        }
    }
}

/// Hands every request to the server.
struct UnderstudyResponder: HTTPResponder {
    typealias Context = ConnectionContext
    let server: UnderstudyServer

    func respond(to request: Request, context: ConnectionContext) async throws -> Response {
        var head = request.head
        head.headerFields[UnderstudyServer.connectionHeader] = String(context.connection)
        return await server.respond(to: Request(head: head, body: request.body))
    }
}

/// Hummingbird's request context plus the connection the request came on.
struct ConnectionContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// An opaque number, the same for every request of one connection while it is open.
    let connection: Int

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = ObjectIdentifier(source.channel).hashValue
    }
}
