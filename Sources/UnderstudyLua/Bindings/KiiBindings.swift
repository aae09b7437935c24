internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.kii(settings)`: the Kii Cloud flavour's app table.
enum KiiBindings {
    static let create: us_swift_fn = { L in
        LuaCall.run(L, "understudy.kii") { call throws(LuaMisuse) in
            let host = call.host
            let app = KiiApp(seed: host.nextAppSeed())
            try SharedBindings.apply(call, settingsAt: 1, to: app, function: "understudy.kii")
            let handle = host.adopt(app)
            pushApp(call.L, handle: handle)
            return 1
        }
    }

    static func pushApp(_ L: OpaquePointer, handle: Int64) {
        lua_createtable(L, 0, 6)
        let table = lua_gettop(L)
        LuaValues.push(L, "kii")
        LuaValues.setField(L, table, "flavour")
        Binding.table(
            L, handle,
            [
                ("register", register), ("login", login), ("verify_email", verifyEmail), ("verify_phone", verifyPhone),
                ("change_email", changeEmail), ("change_phone", changePhone), ("find", find), ("count", count),
                ("get", get), ("all", all), ("resend_email_verification", resendEmail),
                ("resend_phone_verification", resendPhone), ("seed", seed),
            ] + KiiLifecycleBindings.userFunctions + KiiPseudoUserBindings.userFunctions
        )
        LuaValues.setField(L, table, "users")
        KiiInstallationBindings.install(L, app: table, handle: handle)
        KiiTopicBindings.install(L, app: table, handle: handle)
        SharedBindings.install(L, app: table, handle: handle)
    }

    /// A user or a session, as the domain presents it.
    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }

    static let registrationFields = ["username", "email", "phone", "country", "password"]

    static let register: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.register) { call throws(LuaMisuse) in
            let app = try call.kii()
            try call.table(1, "registration")
            try call.rejectUnknownFields(1, known: registrationFields, in: "the registration")
            let username = try call.field(1, "username", string: "registration.username")
            let email = try call.field(1, "email", string: "registration.email")
            let phone = try call.field(1, "phone", string: "registration.phone")
            let country = try call.field(1, "country", string: "registration.country")
            let password = try call.field(1, "password", string: "registration.password")
            return call.answer { () throws(KiiError) in
                try app.register(username: username, email: email, phone: phone, country: country, password: password)
            }
        }
    }

    static let login: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.login) { call throws(LuaMisuse) in
            call.arguments("identifier", "password")
            let app = try call.kii()
            let identifier = try call.string(1, "identifier")
            let password = try call.string(2, "password")
            return call.answer { () throws(KiiError) in try app.login(identifier: identifier, password: password) }
        }
    }

    /// The shape of verify/change calls: a userID, a second string, maybe a third.
    private static func userCall(
        _ L: OpaquePointer?, _ operation: KiiOperation, _ second: StaticString, third: StaticString? = nil,
        _ action: @escaping (KiiApp, String, String, String?) throws(KiiError) -> KiiUser
    ) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            if let third { call.arguments("userID", second, third) } else { call.arguments("userID", second) }
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            let value = try call.string(2, "\(second)")
            let extra = third == nil ? nil : try call.optionalString(3, "\(third!)")
            return call.answer { () throws(KiiError) in try action(app, userID, value, extra) }
        }
    }

    static let verifyEmail: us_swift_fn = { L in
        userCall(L, .verifyEmail, "code") { app, userID, code, _ throws(KiiError) in try app.verifyEmail(userID: userID, code: code) }
    }

    static let verifyPhone: us_swift_fn = { L in
        userCall(L, .verifyPhone, "code") { app, userID, code, _ throws(KiiError) in try app.verifyPhone(userID: userID, code: code) }
    }

    static let changeEmail: us_swift_fn = { L in
        userCall(L, .changeEmail, "email") { app, userID, email, _ throws(KiiError) in try app.changeEmail(userID: userID, email: email) }
    }

    static let changePhone: us_swift_fn = { L in
        userCall(L, .changePhone, "phone", third: "country") { app, userID, phone, country throws(KiiError) in
            try app.changePhone(userID: userID, phone: phone, country: country)
        }
    }

    /// The shape of calls on one user that answer `true`.
    private static func userAction(
        _ L: OpaquePointer?, _ operation: KiiOperation, _ action: @escaping (KiiApp, String) throws(KiiError) -> Void
    ) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            call.arguments("userID")
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            return call.answerTrue { () throws(KiiError) in try action(app, userID) }
        }
    }

    static let resendEmail: us_swift_fn = { L in
        userAction(L, .resendEmailVerification) { app, userID throws(KiiError) in try app.resendEmailVerification(userID: userID) }
    }

    static let resendPhone: us_swift_fn = { L in
        userAction(L, .resendPhoneVerification) { app, userID throws(KiiError) in try app.resendPhoneVerification(userID: userID) }
    }

    static let find: us_swift_fn = { L in
        LuaCall.run(L, "users.find") { call throws(LuaMisuse) in
            let app = try call.kii()
            let identifier = try call.string(1, "identifier")
            if let user = app.find(identifier: identifier) { push(call.L, user) } else { lua_pushnil(call.L) }
            return 1
        }
    }

    static let get: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.getUser) { call throws(LuaMisuse) in
            call.arguments("userID")
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            return call.answer(optional: { () throws(KiiError) in try app.getUser(userID: userID) })
        }
    }

    static let all: us_swift_fn = { L in
        LuaCall.run(L, "users.all") { call throws(LuaMisuse) in
            let app = try call.kii()
            SharedBindings.pushList(call.L, app.allUsers, push)
            return 1
        }
    }

    static let count: us_swift_fn = { L in
        LuaCall.run(L, "users.count") { call throws(LuaMisuse) in
            let app = try call.kii()
            lua_pushinteger(call.L, lua_Integer(app.userCount))
            return 1
        }
    }

    static let seed: us_swift_fn = { L in
        LuaCall.run(L, "users.seed") { call throws(LuaMisuse) in
            let app = try call.kii()
            try call.table(1, "template")
            let (count, start, status, template) = try call.seedTemplate(1)
            if status != nil { throw LuaMisuse("template.status is not a Kii setting (seeded Kii users are verified)") }
            for property in template where !registrationFields.contains(property.name) {
                throw LuaMisuse(
                    "unknown field '\(property.name)' in the template (known: count, start, \(registrationFields.joined(separator: ", ")))"
                )
            }
            try call.charge(instructions: Int64(count) * 20, users: count)
            do throws(KiiError) {
                lua_pushinteger(call.L, lua_Integer(try app.seedUsers(count: count, template: template, start: start)))
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }
}
