internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.*` of the account lifecycle (contract version 2): password recovery and reset, resending the
/// confirmation, reading, updating and deleting a user. Registered in `BackendlessBindings.pushApp`.
enum BackendlessLifecycleBindings {
    /// `users.restore_password(identity)` → `true`; the email lands in the outbox.
    static let restorePassword: us_swift_fn = { L in
        LuaCall.run(L, "users.restore_password") { call throws(LuaMisuse) in
            call.arguments("identity")
            let app: BackendlessApp = try call.app()
            let identity = try call.string(1, "identity")
            do throws(BackendlessError) {
                try app.restorePassword(identity: identity)
                return call.pushTrue()
            } catch {
                return call.fail(error)
            }
        }
    }

    /// `users.reset_password(link_or_token, new_password)` → `true`: what the change-password page does.
    static let resetPassword: us_swift_fn = { L in
        LuaCall.run(L, "users.reset_password") { call throws(LuaMisuse) in
            call.arguments("link_or_token", "new_password")
            let app: BackendlessApp = try call.app()
            let link = try call.string(1, "link_or_token")
            let password = try call.string(2, "new_password")
            do throws(BackendlessError) {
                try app.resetPassword(linkOrToken: link, newPassword: password)
                return call.pushTrue()
            } catch {
                return call.fail(error)
            }
        }
    }

    /// `users.resend_confirmation(identity)` → `true`; a new confirmation email lands in the outbox.
    static let resendConfirmation: us_swift_fn = { L in
        LuaCall.run(L, "users.resend_confirmation") { call throws(LuaMisuse) in
            call.arguments("identity")
            let app: BackendlessApp = try call.app()
            let identity = try call.string(1, "identity")
            do throws(BackendlessError) {
                try app.resendConfirmation(identity: identity)
                return call.pushTrue()
            } catch {
                return call.fail(error)
            }
        }
    }

    /// `users.confirmation_url(identity)` → the confirmation link (a string); no email is sent.
    static let confirmationURL: us_swift_fn = { L in
        LuaCall.run(L, "users.confirmation_url") { call throws(LuaMisuse) in
            call.arguments("identity")
            let app: BackendlessApp = try call.app()
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
        LuaCall.run(L, "users.get") { call throws(LuaMisuse) in
            call.arguments("objectId")
            let app: BackendlessApp = try call.app()
            let objectID = try call.string(1, "objectId")
            do throws(BackendlessError) {
                if let user = try app.getUser(objectID: objectID) {
                    BackendlessBindings.push(call.L, user)
                } else {
                    lua_pushnil(call.L)
                }
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }

    /// `users.update(objectId, props, token)` → the updated `user` (never its password).
    static let update: us_swift_fn = { L in
        LuaCall.run(L, "users.update") { call throws(LuaMisuse) in
            call.arguments("objectId", "props", "token")
            let app: BackendlessApp = try call.app()
            let objectID = try call.string(1, "objectId")
            try call.table(2, "props")
            let properties = try call.properties(2)
            let token = try call.string(3, "token")
            do throws(BackendlessError) {
                BackendlessBindings.push(call.L, try app.update(objectID: objectID, properties: properties, token: token))
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }

    /// `users.delete(objectId)` → `true`; the user's tokens answer 3064 from then on.
    static let delete: us_swift_fn = { L in
        LuaCall.run(L, "users.delete") { call throws(LuaMisuse) in
            call.arguments("objectId")
            let app: BackendlessApp = try call.app()
            let objectID = try call.string(1, "objectId")
            do throws(BackendlessError) {
                try app.delete(objectID: objectID)
                return call.pushTrue()
            } catch {
                return call.fail(error)
            }
        }
    }
}
