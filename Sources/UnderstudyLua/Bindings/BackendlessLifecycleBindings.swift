internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.*` of the account lifecycle (contract version 2): password recovery and reset, resending the
/// confirmation, reading, updating and deleting a user. Registered in `BackendlessBindings.pushApp`.
enum BackendlessLifecycleBindings {
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
}
