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
            try SharedBindings.refuseSharedAppID(call, app, id: app.appID, function: "understudy.kii")
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
    static let functions = BindingTree(KiiOperation.self, binding: binding(for:), console: console(for:))

    /// The hand-written binding of each console call whose declaration names no domain method.
    static func console(for call: ConsoleCall) -> us_swift_fn? {
        switch call {
        case .faultsInject: return SharedBindings.faultsInject
        case .faultsList: return SharedBindings.faultsList
        default: return nil
        }
    }

    /// The hand-written binding of each operation scenarios can call whose declaration names no domain method;
    /// nil for those only HTTP reaches and those `OperationAdapter` serves.
    static func binding(for operation: KiiOperation) -> us_swift_fn? {
        switch operation {
        // Not yet derived: table arguments read field by field with their own misuse messages (the generic
        // `fields(of:)` words some of them differently); over HTTP, sign-up also answers register_pseudo.
        case .register: return register
        case .putIdentity: return KiiPseudoUserBindings.putIdentity
        case .sendToTopic: return KiiTopicBindings.send
        case .userStatus, .topicExists, .getInstallation, .listInstallations, .registerInstallation, .sendToUser, .registerPseudo: return nil
        case .verifyEmail, .verifyPhone, .changePhone, .resendEmailVerification, .resendPhoneVerification, .me, .getUser,
            .requestPasswordReset, .completePasswordReset, .changePassword, .deleteUser, .setDisabled, .login, .changeEmail,
            .openResetLink, .updateUser, .createTopic, .deleteTopic, .listTopics, .subscribe, .unsubscribe, .isSubscribed,
            .unregisterInstallation, .mqttEndpoint, .topicACL, .grantTopic, .revokeTopic, .groupsMemberOf, .groupsOwnedBy, .lookup,
            .loginMFA, .loginSocial, .linkSocial, .unlinkSocial:
            return nil
        }
    }

    /// A user or a session, as the domain presents it.
    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }

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

}
