internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.*` of the account lifecycle (contract version 2): password recovery and reset, resending the
/// confirmation, reading, updating and deleting a user. Registered in `BackendlessBindings.pushApp`.
enum BackendlessLifecycleBindings {
    /// The shape of calls that take one string and answer `true`.
    private static func action(
        _ L: OpaquePointer?, _ operation: BackendlessOperation, _ argument: String,
        _ body: @escaping (BackendlessApp, String) throws(BackendlessError) -> Void
    ) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            let value = try call.arguments(of: operation).string(argument)
            let app = try call.backendless()
            return call.answerTrue { () throws(BackendlessError) in try body(app, value) }
        }
    }

    /// `users.restore_password(identity)` → `true`; the email lands in the outbox.
    static let restorePassword: us_swift_fn = { L in
        action(L, .restorePassword, "identity") { app, identity throws(BackendlessError) in try app.restorePassword(identity: identity) }
    }

    /// `users.reset_password(link_or_token, new_password)` → `true`: what the change-password page does.
    static let resetPassword: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.resetPassword) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: BackendlessOperation.resetPassword)
            let app = try call.backendless()
            let link = arguments.string("link_or_token")
            let password = arguments.string("new_password")
            return call.answerTrue { () throws(BackendlessError) in try app.resetPassword(linkOrToken: link, newPassword: password) }
        }
    }

    /// `users.resend_confirmation(identity)` → `true`; a new confirmation email lands in the outbox.
    static let resendConfirmation: us_swift_fn = { L in
        action(L, .resendConfirmation, "identity") { app, identity throws(BackendlessError) in try app.resendConfirmation(identity: identity) }
    }

    /// `users.confirmation_url(identity)` → the confirmation link (a string); no email is sent.
    static let confirmationURL: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.confirmationURL) { call throws(LuaMisuse) in
            let identity = try call.arguments(of: BackendlessOperation.confirmationURL).string("identity")
            let app = try call.backendless()
            do throws(BackendlessError) {
                return call.push(try app.confirmationURL(identity: identity))
            } catch {
                return call.fail(error)
            }
        }
    }

    /// `users.get(objectId)` → `user`, or `nil` when there is none; only an injected fault answers `nil, err`.
    static let get: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.getUser) { call throws(LuaMisuse) in
            let objectID = try call.arguments(of: BackendlessOperation.getUser).string("objectId")
            let app = try call.backendless()
            return call.answer(optional: { () throws(BackendlessError) in try app.getUser(objectID: objectID) })
        }
    }

    /// `users.update(objectId, props, token)` → the updated `user` (never its password).
    static let update: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.updateUser) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: BackendlessOperation.updateUser)
            let app = try call.backendless()
            let objectID = arguments.string("objectId")
            let properties = arguments.properties("props")
            let token = arguments.string("token")
            return call.answer { () throws(BackendlessError) in try app.update(objectID: objectID, properties: properties, token: token) }
        }
    }

    /// `users.delete(objectId)` → `true`; the user's tokens answer 3064 from then on.
    static let delete: us_swift_fn = { L in
        action(L, .deleteUser, "objectId") { app, objectID throws(BackendlessError) in try app.delete(objectID: objectID) }
    }
}
