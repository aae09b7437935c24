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
                .init("arguments", arguments(of: app.flavour)),
                .init("user_actions", .array(DashboardUserActions.names(for: app).map(JSON.string))),
            ]
        )
    }

    /// `{"users.login": ["identity_value", "password"], …}`: the names a fault's condition can read per operation
    /// (its `args`), the fields of a table first argument included; `email` for a registration's properties.
    static func arguments(of flavour: Flavour) -> JSON {
        .object(
            ErrorCatalogue.declarations(of: flavour).map { declaration in
                var names = declaration.argumentNames
                switch declaration.arguments.first?.type {
                case .table(_, let fields)?: names += fields.map(\.name).filter { !names.contains($0) }
                case .properties?: if !names.contains("email") { names.append("email") }
                default: break
                }
                return JSON.Member(declaration.name, .array(names.map(JSON.string)))
            }
        )
    }
}
