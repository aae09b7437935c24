internal import Understudy

/// What the dashboard's forms offer per flavour: the operations a fault can name, the error codes with their
/// meaning and default status (the domain's `ErrorCatalogue`), and the per-user actions `POST /_understudy/users/{app}/{id}/{action}` carries out.
enum DashboardCatalogue {
    /// `{"flavour","app_id","operations":[…],"codes":[{code,status,meaning}],"user_actions":[…]}`.
    static func json(for app: any EmulatedApp) -> JSON {
        // One catalogue: the domain's (what `understudy explain` shows), its code, status and message.
        let codes: [JSON] = ErrorCatalogue.entries(of: app.flavour).map { entry in
            [
                "code": entry.number.map { .integer(Int64($0)) } ?? .string(entry.code),
                "status": .integer(Int64(entry.status)), "meaning": .string(entry.message),
            ]
        }
        return .object(
            ControlPresentation.identity(app) + [
                .init("operations", .array(type(of: app).operations.map(JSON.string))), .init("codes", .array(codes)),
                .init("user_actions", .array(DashboardUserActions.names(for: app).map(JSON.string))),
            ]
        )
    }
}
