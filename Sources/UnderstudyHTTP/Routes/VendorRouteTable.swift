public import HTTPTypes
internal import Understudy

/// Adding the vendors' routes: each names the operation it runs, from its flavour's vocabulary, so the route
/// listing, the journal and the OpenAPI document all say which operation a path is.
extension RouteTable where Handler == RouteHandler {
    /// A Backendless route under `/{appId}/{apiKey}` that runs `operation`.
    mutating func addBackendless(
        _ method: HTTPRequest.Method, _ path: String, _ body: BodyKind, _ operation: BackendlessOperation, _ summary: String,
        _ handler: @escaping RouteHandler
    ) {
        let description = RouteDescription(
            method: method, path: BackendlessRoutes.prefix + path, area: .backendless, summary: summary, operation: operation.name
        )
        add(description, body: body, handler)
    }

    /// A Kii route under `/api/apps/{appID}` (a path that starts with `/api/` is taken as it is) that runs
    /// `operation`.
    mutating func addKii(
        _ method: HTTPRequest.Method, _ path: String, _ body: BodyKind, _ operation: KiiOperation, _ summary: String,
        _ handler: @escaping RouteHandler
    ) {
        let full = path.hasPrefix("/api/") ? path : KiiRoutes.prefix + path
        add(RouteDescription(method: method, path: full, area: .kii, summary: summary, operation: operation.name), body: body, handler)
    }
}
