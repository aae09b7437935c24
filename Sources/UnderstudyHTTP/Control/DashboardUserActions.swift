internal import Understudy

/// The actions the dashboard (or curl) can take on one user through `POST /_understudy/users/{app}/{id}/{action}`,
/// each what the contract's Lua call of the same meaning does. The dashboard shows only the actions listed here
/// for the app's flavour and, per user, only those that apply now: an action added here appears in the page.
enum DashboardUserActions {
    /// Every action the server offers for the app's flavour.
    static func names(for app: any EmulatedApp) -> [String] {
        app is KiiApp ? ["verify_email", "verify_phone"] : ["confirm_email", "disable", "enable"]
    }

    /// The actions that apply to this Backendless user now.
    static func applicable(to user: BackendlessUser) -> [String] {
        switch user.status {
        case .emailConfirmationPending: return ["confirm_email", "disable"]
        case .enabled: return ["disable"]
        case .disabled: return ["enable"]
        case .guest: return []
        }
    }

    /// The actions that apply to this Kii user now.
    static func applicable(to user: KiiUser, in app: KiiApp) -> [String] {
        var actions: [String] = []
        if app.pendingVerificationCode(userID: user.userID, email: true) != nil { actions.append("verify_email") }
        if app.pendingVerificationCode(userID: user.userID, email: false) != nil { actions.append("verify_phone") }
        return actions
    }

    /// Carries out `action` on the user `id` and answers the user as the users page shows it.
    static func perform(_ action: String, on id: String, in app: any EmulatedApp) throws(ControlRefusal) -> JSON {
        guard names(for: app).contains(action) else {
            throw .invalid(
                "the path's action '\(action)' is not offered for \(app.flavourName) users (offered: "
                    + names(for: app).joined(separator: ", ") + ")"
            )
        }
        switch app {
        case let app as BackendlessApp:
            guard app.user(objectID: id) != nil else { throw notFound(id, app) }
            do throws(BackendlessError) {
                let user: BackendlessUser
                switch action {
                case "confirm_email": user = try app.confirmEmail(objectID: id)
                case "disable": user = try app.setStatus(objectID: id, to: .disabled)
                default: user = try app.setStatus(objectID: id, to: .enabled)
                }
                return DashboardUserPresentation.user(user, sessions: app.openSessions(objectID: id))
            } catch {
                throw ControlRefusal(error.httpStatus, "ACTION_FAILED", "\(action) answered \(error.code): \(error.message)")
            }
        case let app as KiiApp:
            guard app.user(userID: id) != nil else { throw notFound(id, app) }
            let email = action == "verify_email"
            guard let code = app.pendingVerificationCode(userID: id, email: email) else {
                throw ControlRefusal(
                    400, "ACTION_FAILED", "\(action): nothing waits for verification on the user's \(email ? "email address" : "phone number")"
                )
            }
            do throws(KiiError) {
                let user = email ? try app.verifyEmail(userID: id, code: code) : try app.verifyPhone(userID: id, code: code)
                return DashboardUserPresentation.user(user, in: app, sessions: app.openSessions(userID: id))
            } catch {
                throw ControlRefusal(error.status, "ACTION_FAILED", "\(action) answered \(error.code): \(error.message)")
            }
        default:
            throw notFound(id, app)
        }
    }

    static func notFound(_ id: String, _ app: any EmulatedApp) -> ControlRefusal {
        ControlRefusal(404, "USER_NOT_FOUND", "the path's user: the app '\(app.servedID)' has no user '\(id)'")
    }
}

/// How the users page shows a user: as the Lua bindings do, plus `created`, `sessions` and `actions`.
enum DashboardUserPresentation {
    static func user(_ user: BackendlessUser, sessions: Int) -> JSON {
        guard case .object(var members) = ControlPresentation.user(user) else { return .null }
        members.append(.init("sessions", .integer(Int64(sessions))))
        members.append(.init("actions", .array(DashboardUserActions.applicable(to: user).map(JSON.string))))
        return .object(members)
    }

    static func user(_ user: KiiUser, in app: KiiApp, sessions: Int) -> JSON {
        guard case .object(var members) = ControlPresentation.user(user) else { return .null }
        members.append(.init("created", .integer(user.created)))
        members.append(.init("sessions", .integer(Int64(sessions))))
        members.append(.init("actions", .array(DashboardUserActions.applicable(to: user, in: app).map(JSON.string))))
        return .object(members)
    }
}
