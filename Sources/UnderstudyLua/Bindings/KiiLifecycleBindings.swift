internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.*` of the Kii account lifecycle (`lifecycle.md`): password reset and change, update, delete,
/// disabling, and `me`.
enum KiiLifecycleBindings {
    /// The functions added to `app.users`.
    static let userFunctions: [(StaticString, us_swift_fn)] = [
        ("request_password_reset", requestPasswordReset), ("complete_password_reset", completePasswordReset),
        ("open_reset_link", openResetLink), ("change_password", changePassword), ("update", update),
        ("delete", delete), ("set_disabled", setDisabled), ("me", me),
    ]

    /// `request_password_reset(identifier, method?)`: `method` is `"EMAIL"` (default), `"SMS"` or `"SMS_PIN"`.
    static let requestPasswordReset: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.requestPasswordReset) { call throws(LuaMisuse) in
            call.arguments("identifier", "method")
            let app = try call.kii()
            let identifier = try call.string(1, "identifier")
            var method = KiiResetMethod.email
            if let name = try call.optionalString(2, "method") {
                guard let known = KiiResetMethod(rawValue: name) else {
                    throw LuaMisuse("method (argument 2) must be \"EMAIL\", \"SMS\" or \"SMS_PIN\", got \"\(name)\"")
                }
                method = known
            }
            return call.answerTrue { () throws(KiiError) in try app.requestPasswordReset(identifier: identifier, method: method) }
        }
    }

    static let completePasswordReset: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.completePasswordReset) { call throws(LuaMisuse) in
            call.arguments("identifier", "pin", "new_password")
            let app = try call.kii()
            let identifier = try call.string(1, "identifier")
            let pin = try call.string(2, "pin")
            let password = try call.string(3, "new_password")
            return call.answerTrue { () throws(KiiError) in
                try app.completePasswordReset(identifier: identifier, pin: pin, newPassword: password)
            }
        }
    }

    static let openResetLink: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.openResetLink) { call throws(LuaMisuse) in
            call.arguments("link")
            let app = try call.kii()
            let link = try call.string(1, "link")
            return call.answerTrue { () throws(KiiError) in _ = try app.openResetLink(link) }
        }
    }

    static let changePassword: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.changePassword) { call throws(LuaMisuse) in
            call.arguments("userID", "old_password", "new_password")
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            let old = try call.string(2, "old_password")
            let new = try call.string(3, "new_password")
            return call.answerTrue { () throws(KiiError) in
                try app.changePassword(userID: userID, oldPassword: old, newPassword: new)
            }
        }
    }

    /// `update(userID, fields)`: `fields` is a table of strings, numbers and booleans.
    static let update: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.updateUser) { call throws(LuaMisuse) in
            call.arguments("userID", "fields")
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            try call.table(2, "fields")
            let fields = try call.properties(2)
            return call.answer { () throws(KiiError) in try app.update(userID: userID, fields: fields) }
        }
    }

    static let delete: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.deleteUser) { call throws(LuaMisuse) in
            call.arguments("userID")
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            return call.answerTrue { () throws(KiiError) in try app.delete(userID: userID) }
        }
    }

    static let setDisabled: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.setDisabled) { call throws(LuaMisuse) in
            call.arguments("userID", "disabled")
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            guard lua_type(call.L, 2) == LUA_TBOOLEAN else {
                throw LuaMisuse("disabled (argument 2) must be a boolean, got \(call.typeName(2))")
            }
            let disabled = lua_toboolean(call.L, 2) != 0
            return call.answer { () throws(KiiError) in try app.setDisabled(userID: userID, disabled: disabled) }
        }
    }

    /// `me(token)`: the user of a live token, else `nil, { status = 403, code = "WRONG_TOKEN" }`.
    static let me: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.me) { call throws(LuaMisuse) in
            call.arguments("token")
            let app = try call.kii()
            let token = try call.string(1, "token")
            return call.answer { () throws(KiiError) in try app.me(token: token) }
        }
    }
}
