internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.*` of the Kii account lifecycle (`lifecycle.md`): password reset and change, update, delete,
/// disabling, and `me`.
enum KiiLifecycleBindings {
    /// `request_password_reset(identifier, method?)`: `method` is `"EMAIL"` (default), `"SMS"` or `"SMS_PIN"`.
    static let requestPasswordReset: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.requestPasswordReset) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.requestPasswordReset)
            let app = try call.kii()
            let identifier = arguments.string("identifier")
            let method = arguments.optionalString("method").flatMap(KiiResetMethod.init(rawValue:)) ?? .email
            return call.answerTrue { () throws(KiiError) in try app.requestPasswordReset(identifier: identifier, method: method) }
        }
    }

    static let completePasswordReset: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.completePasswordReset) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.completePasswordReset)
            let app = try call.kii()
            let identifier = arguments.string("identifier")
            let pin = arguments.string("pin")
            let password = arguments.string("new_password")
            return call.answerTrue { () throws(KiiError) in
                try app.completePasswordReset(identifier: identifier, pin: pin, newPassword: password)
            }
        }
    }

    static let openResetLink: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.openResetLink) { call throws(LuaMisuse) in
            let link = try call.arguments(of: KiiOperation.openResetLink).string("link")
            let app = try call.kii()
            return call.answerTrue { () throws(KiiError) in _ = try app.openResetLink(link) }
        }
    }

    static let changePassword: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.changePassword) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.changePassword)
            let app = try call.kii()
            let userID = arguments.string("userID")
            let old = arguments.string("old_password")
            let new = arguments.string("new_password")
            return call.answerTrue { () throws(KiiError) in
                try app.changePassword(userID: userID, oldPassword: old, newPassword: new)
            }
        }
    }

    /// `update(userID, fields)`: `fields` is a table of strings, numbers and booleans.
    static let update: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.updateUser) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.updateUser)
            let app = try call.kii()
            let userID = arguments.string("userID")
            let fields = arguments.properties("fields")
            return call.answer { () throws(KiiError) in try app.update(userID: userID, fields: fields) }
        }
    }

    static let delete: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.deleteUser) { call throws(LuaMisuse) in
            let userID = try call.arguments(of: KiiOperation.deleteUser).string("userID")
            let app = try call.kii()
            return call.answerTrue { () throws(KiiError) in try app.delete(userID: userID) }
        }
    }

    static let setDisabled: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.setDisabled) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.setDisabled)
            let app = try call.kii()
            let userID = arguments.string("userID")
            let disabled = arguments.bool("disabled")
            return call.answer { () throws(KiiError) in try app.setDisabled(userID: userID, disabled: disabled) }
        }
    }

}
