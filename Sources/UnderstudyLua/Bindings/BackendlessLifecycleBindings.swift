internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.*` of the account lifecycle (contract version 2): password recovery and reset, resending the
/// confirmation, reading, updating and deleting a user. Registered in `BackendlessBindings.pushApp`.
enum BackendlessLifecycleBindings {
    /// The shape of calls that take one string and answer `true`.
    private static func action(
        _ L: OpaquePointer?, _ operation: BackendlessOperation, _ argument: StaticString,
        _ body: @escaping (BackendlessApp, String) throws(BackendlessError) -> Void
    ) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            call.arguments(argument)
            let app = try call.backendless()
            let value = try call.string(1, "\(argument)")
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
            call.arguments("link_or_token", "new_password")
            let app = try call.backendless()
            let link = try call.string(1, "link_or_token")
            let password = try call.string(2, "new_password")
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
            call.arguments("identity")
            let app = try call.backendless()
            let identity = try call.string(1, "identity")
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
            call.arguments("objectId")
            let app = try call.backendless()
            let objectID = try call.string(1, "objectId")
            return call.answer(optional: { () throws(BackendlessError) in try app.getUser(objectID: objectID) })
        }
    }

    /// `users.update(objectId, props, token)` → the updated `user` (never its password).
    static let update: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.updateUser) { call throws(LuaMisuse) in
            call.arguments("objectId", "props", "token")
            let app = try call.backendless()
            let objectID = try call.string(1, "objectId")
            try call.table(2, "props")
            let properties = try call.properties(2)
            let token = try call.string(3, "token")
            return call.answer { () throws(BackendlessError) in try app.update(objectID: objectID, properties: properties, token: token) }
        }
    }

    /// `users.delete(objectId)` → `true`; the user's tokens answer 3064 from then on.
    static let delete: us_swift_fn = { L in
        action(L, .deleteUser, "objectId") { app, objectID throws(BackendlessError) in try app.delete(objectID: objectID) }
    }
}
