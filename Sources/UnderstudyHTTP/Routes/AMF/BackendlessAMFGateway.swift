internal import AMF
internal import HTTPTypes
internal import Understudy

/// The Backendless native SDKs' wire (Java/Android, .NET, Unity, Xamarin): `POST /{appId}/{apiKey}/binary` with an
/// AMF0 envelope holding AMF3 `RemotingMessage`s. A third adapter of the declared operations, beside Lua and REST:
/// each message names a call (`AMFCall`), whose arguments are placed where the operation's declaration says HTTP
/// carries them, and the REST route's own handler answers it: the same rules, faults, delays, codes, messages and
/// journal entry (named by the operation, its body the JSON the call stands for). The reply is always HTTP 200
/// with an `AcknowledgeMessage` holding the result in the shape the SDK casts, or an `ErrorMessage` carrying the
/// REST error's code (as a string) and message, which the SDK throws as a `BackendlessFault`.
enum BackendlessAMFGateway {
    static let contentType = "application/x-amf"

    static func register(in table: inout RouteTable<RouteHandler>) {
        let summary = "The native SDKs' AMF remoting gateway: each call runs the operation of the REST route it stands for"
        table.add(RouteDescription(method: .post, path: BackendlessRoutes.prefix + "/binary", area: .backendless, summary: summary), body: .text, answer)
        table.add(
            RouteDescription(method: .post, path: "/api/binary", area: .backendless, summary: summary + " (an app initialised with a custom domain; the only Backendless app)"),
            body: .text, answer
        )
    }

    /// The REST routes the gateway's calls run through.
    static let restRoutes: RouteTable<RouteHandler> = {
        var table = RouteTable<RouteHandler>()
        BackendlessRoutes.register(in: &table)
        return table
    }()

    static let answer: RouteHandler = { exchange in
        exchange.flavour = Flavour.backendless.rawValue
        let packet: AMFPacket
        do {
            packet = try AMFPacket.decode(exchange.body)
        } catch {
            return BackendlessError.unparsableRequest("the body is not an AMF remoting packet (\(error))").reply
        }
        let app = app(of: exchange)
        exchange.appID = app?.appID ?? exchange.parameters["appId"]
        var reply = Reply()
        var bodies: [AMFPacket.Body] = []
        for body in packet.bodies {
            let (value, succeeded): (AMFValue, Bool)
            if let app {
                (value, succeeded) = answer(body.value, &exchange, &reply, appID: app.appID, apiKey: app.apiKey)
            } else {
                // A wrong app id or key: the REST error, as a fault the SDK reads.
                let refusal = BackendlessError.catalogue(2002).reply
                reply.code = refusal.code
                (value, succeeded) = (AMFReplies.error(refusal, correlation: body.value.message?["messageId"] ?? .null), false)
            }
            bodies.append(AMFPacket.Body(target: body.response + (succeeded ? "/onResult" : "/onStatus"), response: "null", value: value))
            // A dropped connection stops there, as for requests pipelined behind it: the client gets no reply, so
            // the calls batched after the dropped one are not run (the journal shows the dropped call).
            if reply.dropConnection { break }
        }
        do {
            reply.bytes = try AMFPacket(version: 3, bodies: bodies).encoded()
        } catch {
            return ServerFailures.reply(.backendless, status: 500, backendlessCode: 8001, kiiCode: "", message: "the reply cannot be written as AMF: \(error)")
        }
        reply.contentType = contentType
        return reply
    }

    /// The app the request names by its path's id and key, or with `/api/binary` the only Backendless app; nil
    /// when there is none.
    private static func app(of exchange: Exchange) -> (appID: String, apiKey: String)? {
        if exchange.path == "/api/binary" {
            let apps = exchange.stage.world.apps.compactMap { app -> BackendlessApp? in
                if case .backendless(let app) = app.flavoured { return app }
                return nil
            }
            guard apps.count == 1 else { return nil }
            return (apps[0].settings.appID, apps[0].settings.apiKey)
        }
        let appID = exchange.parameters["appId"]
        let key = exchange.parameters["apiKey"]
        // The client key, or the CloudCode key (login by objectId needs it), as over REST.
        guard let app = exchange.stage.world.backendless(id: appID), key == app.settings.apiKey || key == app.settings.cloudCodeKey else { return nil }
        return (appID, key)
    }

    /// Answers one body: its message (the SDKs send `[RemotingMessage]`; a bare message is read too). Returns the
    /// reply message and whether it acknowledges.
    private static func answer(
        _ value: AMFValue, _ exchange: inout Exchange, _ reply: inout Reply, appID: String, apiKey: String
    ) -> (AMFValue, Bool) {
        guard let message = value.message else {
            return (AMFReplies.error(code: "8002", message: "Could not parse request with message: the body holds no remoting message", correlation: .null), false)
        }
        let correlation = message["messageId"] ?? .null
        // A CommandMessage (ping, client login/logout): acknowledged, nothing to run.
        if message.className == AMFReplies.commandMessage || (message["source"] == nil && message["operation"]?.string == nil) {
            return (AMFReplies.acknowledge(.null, correlation: correlation), true)
        }
        let service = message["source"]?.string ?? ""
        let method = message["operation"]?.string ?? ""
        var arguments: [AMFValue] = []
        if case .array(let array)? = message["body"] { arguments = array.dense }
        guard let call = AMFCall.find(service: service, method: method, argumentCount: arguments.count) else {
            let name = AMFCall.Service(rawValue: service)?.shortName ?? service
            return (AMFReplies.error(code: "404", message: "Understudy does not emulate \(name).\(method) over AMF", correlation: correlation), false)
        }
        let token = message["headers"]?.object?["user-token"]?.string

        let request = AMFRequest(call: call, arguments: arguments, token: token, prefix: "/\(appID)/\(apiKey)")
        let inner: Reply
        switch request.route {
        case .refused(let refusal):
            exchange.operation = call.operation.name
            inner = refusal
        case .found(let entry, let parameters, let path):
            var routed = Exchange(
                stage: exchange.stage, method: request.method, path: path, query: "", headers: request.headers,
                parameters: parameters, body: request.bodyBytes, json: .success(request.body)
            )
            inner = entry.handler(&routed)
            exchange.operation = routed.operation
            // The journal shows the call as the JSON it stands for (passwords redacted as in any JSON body).
            exchange.body = request.bodyBytes
            exchange.json = .success(request.body)
        }
        reply.code = inner.code ?? reply.code
        reply.delayMilliseconds = max(reply.delayMilliseconds, inner.delayMilliseconds)
        reply.dropConnection = reply.dropConnection || inner.dropConnection
        if inner.status >= 300 { return (AMFReplies.error(inner, correlation: correlation), false) }
        return (AMFReplies.acknowledge(AMFReplies.result(inner.body, as: call.result), correlation: correlation), true)
    }
}

extension AMFValue {
    /// The remoting message a body holds: the SDKs send `[message]`; a bare message is read too.
    var message: AMFObject? {
        switch self {
        case .object(let object): return object
        case .array(let array): return array.dense.first?.object
        default: return nil
        }
    }
}

/// The REST request an AMF call stands for, built from its operation's declaration: its first route, each
/// argument placed where the declaration says HTTP carries it.
struct AMFRequest {
    enum Route {
        case found(RouteTable<RouteHandler>.Entry, RouteParameters, path: String)
        /// What REST answers instead (no such route, a table other than Users).
        case refused(Reply)
    }

    let method: HTTPRequest.Method
    private(set) var headers = HTTPFields()
    private(set) var body: JSON?
    private(set) var route: Route = .refused(Reply(status: 500))
    private var pathValues: [String: String] = [:]
    private var bodyMembers: [JSON.Member] = []
    private var wholeBody: [JSON.Member]?
    private var tableRefusal: Reply?

    var bodyBytes: [UInt8] { body.map(JSONWriter.encode) ?? [] }

    init(call: AMFCall, arguments: [AMFValue], token: String?, prefix: String) {
        let declaration = call.operation.declaration
        let routes = (call.via ?? call.operation).declaration.routes
        guard let route = call.path.flatMap({ path in routes.first { $0.path == path } }) ?? routes.first(where: { $0.variant == nil }) ?? routes.first
        else {
            method = .post
            self.route = .refused(ServerFailures.noRoute(.post, prefix + "/binary"))
            return
        }
        method = HTTPRequest.Method(route.method)
        if let token { headers[HTTPField.Name("user-token")!] = token }
        // Every declared argument and declared field of a table argument, by name, with where HTTP carries it.
        var sources: [String: HTTPSource] = [:]
        func collect(_ declared: [ArgumentDeclaration]) {
            for argument in declared {
                if case .table(_, let fields) = argument.type, argument.http == .body { collect(fields) }
                sources[argument.name] = route.sources[argument.name] ?? argument.http
            }
        }
        collect(declaration.arguments)
        for (position, placement) in call.arguments.enumerated() {
            let value = position < arguments.count ? arguments[position] : .null
            switch placement {
            case .argument(let name): place(value, at: sources[name])
            case .members: placeMembers(value, sources)
            case .membersUnsetWhenZero(let names): placeMembers(value, sources, unsetWhenZero: Set(names))
            case .argumentAndMembers(let name):
                place(value, at: sources[name])
                placeMembers(value, sources)
            case .lowercasedMembers(let name):
                guard case .object(let object) = value else {
                    place(value, at: sources[name])
                    break
                }
                let members = object.members.map { AMFMember($0.name.lowercased(), $0.value) }
                place(.object(AMFObject(sealed: members)), at: sources[name])
            case .usersTable:
                if route.path.contains("{table}") {
                    pathValues["table"] = AMFReplies.text(value) ?? ""
                } else if value.string != "Users" {
                    tableRefusal = ServerFailures.noRoute(method, prefix + "/data/" + (value.string ?? "null"))
                }
            case .dataQuery: placeQuery(value)
            case .ignored: break
            }
        }
        if route.body != .none {
            if var whole = wholeBody {
                for member in bodyMembers where !whole.contains(where: { $0.key == member.key }) { whole.append(member) }
                body = .object(whole)
            } else if !bodyMembers.isEmpty {
                body = .object(bodyMembers)
            }
            if body != nil { headers[.contentType] = "application/json" }
        }
        if let tableRefusal {
            self.route = .refused(tableRefusal)
            return
        }
        let path = prefix + Self.fill(route.path, pathValues)
        switch BackendlessAMFGateway.restRoutes.match(method, path) {
        case .found(let entry, let parameters): self.route = .found(entry, parameters, path: path)
        case .notFound, .wrongMethod: self.route = .refused(ServerFailures.noRoute(method, path))
        }
    }

    private mutating func place(_ value: AMFValue, at source: HTTPSource?) {
        switch source {
        case .path(let name)?: pathValues[name] = AMFReplies.text(value)
        case .header(let name)?:
            if let field = HTTPField.Name(name), let text = AMFReplies.text(value) { headers[field] = text }
        case .bodyField(let name)?:
            bodyMembers.removeAll { $0.key == name }
            bodyMembers.append(JSON.Member(name, AMFReplies.json(value)))
        case .body?:
            if case .object(let members) = AMFReplies.json(value) { wholeBody = members } else if !value.isNull { wholeBody = [] }
        case .some(.query), .some(.resolved), .some(.none), nil: break
        }
    }

    private mutating func placeMembers(_ value: AMFValue, _ sources: [String: HTTPSource], unsetWhenZero: Set<String> = []) {
        guard case .object(let object) = value else { return }
        let bodyFields = Set(sources.values.compactMap { source -> String? in
            if case .bodyField(let name) = source { return name }
            return nil
        })
        for member in object.members where !member.value.isNull {
            if unsetWhenZero.contains(member.name), member.value == .int(0) || member.value == .double(0) { continue }
            if let source = sources[member.name] {
                place(member.value, at: source)
            } else if bodyFields.contains(member.name) {
                place(member.value, at: .bodyField(member.name))
            }
        }
    }

    /// A `BackendlessDataQuery`'s members as the REST body's query fields.
    private mutating func placeQuery(_ value: AMFValue) {
        guard case .object(let query) = value else { return }
        var fields: [(String, AMFValue?)] = [
            ("where", query["whereClause"]), ("pageSize", query["pageSize"]), ("offset", query["offset"]),
            ("props", query["properties"]), ("excludeProps", query["excludeProperties"]), ("groupBy", query["groupBy"]),
            ("having", query["havingClause"]), ("distinct", query["distinct"]),
        ]
        if case .object(let options)? = query["queryOptions"] { fields.append(("sortBy", options["sortBy"])) }
        for (name, member) in fields {
            guard let member else { continue }
            let json = AMFReplies.json(member)
            switch json {
            case .null, .bool(false), .string(""): continue
            case .array(let items) where items.isEmpty: continue
            default:
                bodyMembers.removeAll { $0.key == name }
                bodyMembers.append(JSON.Member(name, json))
            }
        }
    }

    /// The route's path with each `{name}` replaced by its value, percent-encoded (an absent one stays empty).
    static func fill(_ template: String, _ values: [String: String]) -> String {
        template.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return String(segment) }
            return percentEncoded(values[String(segment.dropFirst().dropLast())] ?? "")
        }.joined(separator: "/")
    }

    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"), UInt8(ascii: "+"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
