internal import Understudy

/// The actions the dashboard (or curl) can take on one user through `POST /_understudy/users/{app}/{id}/{action}`,
/// each what the contract's Lua call of the same meaning does. The dashboard shows only the actions listed here
/// for the app's flavour and, per user, only those that apply now: an action added here appears in the page.
enum DashboardUserActions {
    /// Every action the server offers for the app's flavour.
    static func names(for app: any EmulatedApp) -> [String] {
        switch app.flavour {
        case .backendless: return ["confirm_email", "disable", "enable", "delete"]
        case .kii: return ["verify_email", "verify_phone", "disable", "enable", "delete"]
        }
    }

    /// The actions that apply to this Backendless user now.
    static func applicable(to user: BackendlessUser) -> [String] {
        switch user.status {
        case .emailConfirmationPending: return ["confirm_email", "disable", "delete"]
        case .enabled: return ["disable", "delete"]
        case .disabled: return ["enable", "delete"]
        case .guest: return ["delete"]
        }
    }

    /// The actions that apply to this Kii user now.
    static func applicable(to user: KiiUser, in app: KiiApp) -> [String] {
        var actions: [String] = []
        if app.pendingVerificationCode(userID: user.userID, email: true) != nil { actions.append("verify_email") }
        if app.pendingVerificationCode(userID: user.userID, email: false) != nil { actions.append("verify_phone") }
        actions.append(user.disabled ? "enable" : "disable")
        actions.append("delete")
        return actions
    }

    /// Carries out `action` on the user `id` and answers the user as the users page shows it (`{"deleted": true}`
    /// after a deletion).
    static func perform(_ action: String, on id: String, in app: any EmulatedApp) throws(ControlRefusal) -> JSON {
        guard names(for: app).contains(action) else {
            throw .invalid(
                "the path's action '\(action)' is not offered for \(app.flavour.rawValue) users (offered: "
                    + names(for: app).joined(separator: ", ") + ")"
            )
        }
        switch app.flavoured {
        case .backendless(let app):
            guard app.user(objectID: id) != nil else { throw notFound(id, app) }
            do throws(BackendlessError) {
                let user: BackendlessUser
                switch action {
                case "confirm_email": user = try app.confirmEmail(objectID: id)
                case "disable", "enable":
                    // As `users.set_status` does: faults injected on it apply.
                    let status = ArgumentValue.string(action == "disable" ? "DISABLED" : "ENABLED")
                    guard let changed = try app.perform(.setStatus, ["objectId": .string(id), "status": status])
                        .record(as: BackendlessUser.self)
                    else { throw BackendlessError(code: 1000, message: "no user \(id)") }
                    user = changed
                default:
                    _ = try app.perform(.deleteUser, ["objectId": .string(id)])
                    return ["deleted": true]
                }
                return DashboardUserPresentation.user(user, sessions: app.openSessions(objectID: id))
            } catch {
                throw ControlRefusal(error.httpStatus, "ACTION_FAILED", "\(action) answered \(error.code): \(error.message)")
            }
        case .kii(let app):
            guard app.user(userID: id) != nil else { throw notFound(id, app) }
            let email = action == "verify_email"
            let code = app.pendingVerificationCode(userID: id, email: email)
            if action.hasPrefix("verify_"), code == nil {
                throw ControlRefusal(
                    400, "ACTION_FAILED",
                    "\(action): nothing waits for verification on the user's \(email ? "email address" : "phone number")"
                )
            }
            do throws(KiiError) {
                let user: KiiUser
                switch action {
                case "verify_email", "verify_phone":
                    // As `users.verify_email` / `verify_phone` do: faults injected on them apply.
                    let outcome = try app.perform(email ? .verifyEmail : .verifyPhone, ["userID": .string(id), "code": .string(code ?? "")])
                    guard let verified = outcome.record(as: KiiUser.self) else { throw KiiError.userNotFound(id) }
                    user = verified
                case "disable", "enable":
                    // As `users.set_disabled` does: faults injected on it apply.
                    let outcome = try app.perform(.setDisabled, ["userID": .string(id), "disabled": .bool(action == "disable")])
                    guard let changed = outcome.record(as: KiiUser.self) else { throw KiiError.userNotFound(id) }
                    user = changed
                default:
                    _ = try app.perform(.deleteUser, ["userID": .string(id)])
                    return ["deleted": true]
                }
                return DashboardUserPresentation.user(user, in: app, sessions: app.openSessions(userID: id))
            } catch {
                throw ControlRefusal(error.status, "ACTION_FAILED", "\(action) answered \(error.code): \(error.message)")
            }
        }
    }

    static func notFound(_ id: String, _ app: any EmulatedApp) -> ControlRefusal {
        ControlRefusal(404, "USER_NOT_FOUND", "the path's user: the app '\(app.appID)' has no user '\(id)'")
    }
}

/// How the users page shows a user: as the domain presents it, plus `created`, `sessions` and `actions`.
enum DashboardUserPresentation {
    static func user(_ user: BackendlessUser, sessions: Int) -> JSON {
        JSONRecordWriter.json(user, trailing: [
            .init("sessions", .integer(Int64(sessions))),
            .init("actions", .array(DashboardUserActions.applicable(to: user).map(JSON.string))),
        ])
    }

    static func user(_ user: KiiUser, in app: KiiApp, sessions: Int) -> JSON {
        JSONRecordWriter.json(user, trailing: [
            .init("created", .integer(user.created)), .init("sessions", .integer(Int64(sessions))),
            .init("actions", .array(DashboardUserActions.applicable(to: user, in: app).map(JSON.string))),
        ])
    }
}
