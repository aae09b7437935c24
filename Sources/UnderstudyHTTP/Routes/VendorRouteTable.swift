internal import HTTPTypes
internal import Understudy

/// Adding the vendors' routes from the operations' declarations: each declared route (method, path, body,
/// summary) is registered under its flavour's prefix and names its operation, so the route listing, the journal
/// and the OpenAPI document all say which operation a path is.
extension RouteTable where Handler == RouteHandler {
    /// Registers the routes of every operation of `Op` whose declaration names its domain method: answered by the
    /// generic adapter, or by `handlers[operation]` where the flavour still answers it by hand (its Lua call is
    /// derived all the same), and a route declared with a variant by `variants[operation][variant]` when given.
    /// An operation declared with a domain method is routed by its declaration alone.
    mutating func addDeclared<Op: Operation>(
        _: Op.Type, handlers: [Op: RouteHandler] = [:], variants: [Op: [String: RouteHandler]] = [:]
    ) {
        for operation in Op.allCases where operation.declaration.perform != nil && !operation.declaration.routes.isEmpty {
            for route in operation.declaration.routes {
                let handwritten = route.variant.map { variants[operation]?[$0] } ?? handlers[operation]
                add(operation, route, handwritten ?? VendorAdapter.handler(operation, route))
            }
        }
    }

    private mutating func add<Op: Operation>(_ operation: Op, _ route: RouteDeclaration, _ handler: @escaping RouteHandler) {
        let area: RouteArea = Op.flavour == .backendless ? .backendless : .kii
        let description = RouteDescription(
            method: HTTPRequest.Method(route.method), path: VendorRoutes.fullPath(route, of: Op.flavour), area: area,
            summary: route.summary, operation: operation.name
        )
        add(description, body: BodyKind(route.body), handler)
    }

    /// Registers every route `operation` declares, answered by `handler`, or by `variants[route.variant]` for a
    /// route declared with a variant (`"legacy"`, `"link"`).
    mutating func add<Op: Operation>(_ operation: Op, _ handler: @escaping RouteHandler, variants: [String: RouteHandler] = [:]) {
        let declaration = operation.declaration
        precondition(declaration.perform == nil, "\(declaration.name) names its domain method: addDeclared routes it")
        precondition(!declaration.routes.isEmpty, "\(declaration.name) declares no route")
        for route in declaration.routes {
            let answer: RouteHandler
            if let variant = route.variant {
                guard let found = variants[variant] else { preconditionFailure("\(declaration.name): no handler for variant \(variant)") }
                answer = found
            } else {
                answer = handler
            }
            let area: RouteArea = Op.flavour == .backendless ? .backendless : .kii
            let description = RouteDescription(
                method: HTTPRequest.Method(route.method), path: VendorRoutes.fullPath(route, of: Op.flavour), area: area,
                summary: route.summary, operation: declaration.name
            )
            add(description, body: BodyKind(route.body), answer)
        }
    }
}

/// Where the flavours' routes live.
enum VendorRoutes {
    /// The route's full path template (`RouteDeclaration.fullPath(of:)`).
    static func fullPath(_ route: RouteDeclaration, of flavour: Flavour) -> String {
        route.fullPath(of: flavour)
    }
}

extension HTTPRequest.Method {
    init(_ method: HTTPMethod) {
        switch method {
        case .get: self = .get
        case .post: self = .post
        case .put: self = .put
        case .delete: self = .delete
        case .head: self = .head
        case .patch: self = .patch
        }
    }
}

extension BodyKind {
    init(_ body: RouteBody) {
        switch body {
        case .none: self = .none
        case .json: self = .json
        case .text: self = .text
        }
    }
}

extension Exchange {
    /// The arguments of `operation` as this request carries them, read from where its declaration says (path,
    /// query, body field, whole body, header), in the declared order: what a fault's `when(args)` sees for an
    /// operation the adapter answers. An argument the adapter works out (`resolved`) or that HTTP does not carry
    /// is `null`.
    func declaredArguments(of operation: some Operation) -> [Value] {
        operation.declaration.arguments.map { argument in
            switch argument.http {
            case .path(let name): return .string(parameters[name])
            case .query(let name): return Value(queryItem(name))
            case .header(let name): return Value(header(name))
            case .bodyField(let name):
                guard case .success(let body?) = json else { return .null }
                return body[name]?.value ?? .null
            case .body:
                guard case .success(let body?) = json else { return .null }
                return body.value
            case .resolved, .none: return .null
            }
        }
    }
}
