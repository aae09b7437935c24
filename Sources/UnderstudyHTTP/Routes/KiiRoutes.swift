internal import HTTPTypes
internal import Understudy

/// The Kii Cloud REST API under `/api/apps/{appID}/` (and `/api/oauth2/token`).
enum KiiRoutes {
    static func register(in table: inout RouteTable<RouteHandler>) {}
}
