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
        functions.install(L, into: table, handle: handle)
        SharedBindings.install(L, app: table, handle: handle)
        APITables.nameApp(L, table)
    }

    /// The app table's functions: every operation's binding at its declared Lua path, and the helpers.
    static let functions = BindingTree(
        KiiOperation.self, binding: binding(for:),
        helpers: [("users.find", find), ("users.count", SharedBindings.usersCount), ("users.all", SharedBindings.usersAll), ("users.seed", seed), ("groups.create", KiiV4Bindings.createGroup),
                  ("social.account", KiiV4Bindings.defineAccount), ("admin.token", KiiV4Bindings.adminToken)]
    )

    /// The binding of each operation scenarios can call; nil for those only HTTP reaches.
    static func binding(for operation: KiiOperation) -> us_swift_fn? {
        switch operation {
        case .register: return register
        case .login: return login
        case .verifyEmail: return verifyEmail
        case .verifyPhone: return verifyPhone
        case .changeEmail: return changeEmail
        case .changePhone: return changePhone
        case .getUser: return get
        case .resendEmailVerification: return resendEmail
        case .resendPhoneVerification: return resendPhone
        case .requestPasswordReset: return KiiLifecycleBindings.requestPasswordReset
        case .completePasswordReset: return KiiLifecycleBindings.completePasswordReset
        case .openResetLink: return KiiLifecycleBindings.openResetLink
        case .changePassword: return KiiLifecycleBindings.changePassword
        case .updateUser: return KiiLifecycleBindings.update
        case .deleteUser: return KiiLifecycleBindings.delete
        case .setDisabled: return KiiLifecycleBindings.setDisabled
        case .me: return KiiLifecycleBindings.me
        case .registerInstallation: return KiiInstallationBindings.register
        case .getInstallation: return KiiInstallationBindings.get
        case .listInstallations: return KiiInstallationBindings.list
        case .unregisterInstallation: return KiiInstallationBindings.unregister
        case .sendToUser: return KiiInstallationBindings.sendToUser
        case .registerPseudo: return KiiPseudoUserBindings.registerPseudo
        case .putIdentity: return KiiPseudoUserBindings.putIdentity
        case .createTopic: return KiiTopicBindings.create
        case .deleteTopic: return KiiTopicBindings.delete
        case .listTopics: return KiiTopicBindings.list
        case .subscribe: return KiiTopicBindings.subscribe
        case .unsubscribe: return KiiTopicBindings.unsubscribe
        case .isSubscribed: return KiiTopicBindings.isSubscribed
        case .sendToTopic: return KiiTopicBindings.send
        case .mqttEndpoint: return KiiV4Bindings.mqttEndpoint
        case .topicACL: return KiiV4Bindings.topicACL
        case .grantTopic: return KiiV4Bindings.grant
        case .revokeTopic: return KiiV4Bindings.revoke
        case .groupsMemberOf: return KiiV4Bindings.memberOf
        case .groupsOwnedBy: return KiiV4Bindings.ownedBy
        case .lookup: return KiiV4Bindings.lookup
        case .loginMFA: return KiiV4Bindings.loginMFA
        case .loginSocial: return KiiV4Bindings.loginSocial
        case .linkSocial: return KiiV4Bindings.linkSocial
        case .unlinkSocial: return KiiV4Bindings.unlinkSocial
        case .userStatus, .topicExists: return nil
        }
    }

    /// A user or a session, as the domain presents it.
    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }

    /// The fields of a registration table, as `users.register` declares them (a seeding template takes them too).
    static let registrationFields: [String] = {
        guard case .table(_, let fields)? = KiiOperation.register.declaration.arguments.first?.type else { return [] }
        return fields.map(\.name)
    }()

    static let register: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.register) { call throws(LuaMisuse) in
            _ = try call.arguments(of: KiiOperation.register)
            let app = try call.kii()
            let username = try call.field(1, "username", string: "registration.username")
            let email = try call.field(1, "email", string: "registration.email")
            let phone = try call.field(1, "phone", string: "registration.phone")
            let country = try call.field(1, "country", string: "registration.country")
            let password = try call.field(1, "password", string: "registration.password")
            let extra = try call.fields(of: KiiOperation.register, "registration") ?? [:]
            let displayName = extra["displayName"]?.stringValue
            let locale = extra["locale"]?.stringValue
            var fields: [Property] = []
            if case .object(let members)? = extra["fields"] {
                fields = members.map { Property($0.key, $0.value) }.sorted { $0.name < $1.name }
            }
            return call.answer { () throws(KiiError) in
                try app.register(
                    username: username, email: email, phone: phone, country: country, password: password,
                    displayName: displayName, locale: locale, fields: fields
                )
            }
        }
    }

    static let login: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.login) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.login)
            let app = try call.kii()
            let identifier = arguments.string("identifier")
            let password = arguments.string("password")
            return call.answer { () throws(KiiError) in try app.login(identifier: identifier, password: password) }
        }
    }

    /// The shape of verify/change calls: a userID, a second string, maybe a third.
    private static func userCall(
        _ L: OpaquePointer?, _ operation: KiiOperation, _ second: String, third: String? = nil,
        _ action: @escaping (KiiApp, String, String, String?) throws(KiiError) -> KiiUser
    ) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: operation)
            let app = try call.kii()
            let userID = arguments.string("userID")
            let value = arguments.string(second)
            let extra = third.flatMap(arguments.optionalString)
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
            let userID = try call.arguments(of: operation).string("userID")
            let app = try call.kii()
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
            let userID = try call.arguments(of: KiiOperation.getUser).string("userID")
            let app = try call.kii()
            return call.answer(optional: { () throws(KiiError) in try app.getUser(userID: userID) })
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
            try call.charge(instructions: Int64(count) * 20, users: count, bytesPerUser: HeldBytes.perUser + HeldBytes.of(template))
            do throws(KiiError) {
                lua_pushinteger(call.L, lua_Integer(try app.seedUsers(count: count, template: template, start: start)))
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }
}
