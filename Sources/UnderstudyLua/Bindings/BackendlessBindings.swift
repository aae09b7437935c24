internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.backendless(settings)`: the Backendless flavour's app table.
enum BackendlessBindings {
    static let create: us_swift_fn = { L in
        LuaCall.run(L, "understudy.backendless") { call throws(LuaMisuse) in
            let host = call.host
            let app = BackendlessApp(seed: host.nextAppSeed())
            try SharedBindings.apply(call, settingsAt: 1, to: app, function: "understudy.backendless")
            try SharedBindings.refuseSharedAppID(call, app, id: app.appID, function: "understudy.backendless")
            let handle = host.adopt(app)
            pushApp(call.L, handle: handle)
            return 1
        }
    }

    static func pushApp(_ L: OpaquePointer, handle: Int64) {
        lua_createtable(L, 0, 10)
        let table = lua_gettop(L)
        LuaValues.push(L, "backendless")
        LuaValues.setField(L, table, "flavour")
        functions.install(L, into: table, handle: handle)
        SharedBindings.install(L, app: table, handle: handle)
        APITables.nameApp(L, table)
    }

    /// The app table's functions: every operation's binding at its declared Lua path, and the helpers.
    static let functions = BindingTree(BackendlessOperation.self, binding: binding(for:), console: console(for:))

    /// The hand-written binding of each console call whose declaration names no domain method (why: beside each).
    static func console(for call: ConsoleCall) -> us_swift_fn? {
        switch call {
        // `when` is a Lua function kept in the registry; the fault table has live fields and a `remove` function.
        case .faultsInject: return SharedBindings.faultsInject
        case .faultsList: return SharedBindings.faultsList
        // Not yet derived: the profile is a nested table read with its own messages, charged to the memory cap.
        case .oauthAccount: return BackendlessOAuthBindings.account
        // Not yet derived: the template's fields are checked with messages of their own (`template.os must be ...`).
        case .pushTemplatesDefine: return BackendlessPushBindings.defineTemplate
        default: return nil
        }
    }

    /// The hand-written binding of each operation scenarios can call whose declaration names no domain method;
    /// nil for those only HTTP reaches and those `OperationAdapter` serves.
    static func binding(for operation: BackendlessOperation) -> us_swift_fn? {
        switch operation {
        case .register, .login, .logout, .guestLogin, .setStatus, .getUser, .restorePassword, .resendConfirmation,
            .confirmationURL, .updateUser, .deleteUser, .getDevice, .unregisterDevice, .messageStatus, .cancelMessage, .pushTemplates,
            .sendTemplate, .describeUsers, .loginByID, .dataRemove, .updateStatus, .assignRole, .unassignRole, .rolesOf, .dataCount,
            .roleUsers, .dataSave, .dataFind, .dataFindFirst, .dataFindLast, .dataFindByID, .confirmEmail,
            .pushWithTemplate, .resetPassword:
            return nil
        // Hand-written in Lua only (their HTTP routes are derived): the table argument is read field by field with
        // misuse messages of its own (`registration.os must be "IOS" or "ANDROID"`, a whole `repeat_every` given as
        // 60.0, `options.fields_mapping` keys), which the declared field types do not say yet.
        case .registerDevice: return registerDevice
        case .publish: return BackendlessPushBindings.publish
        case .loginOAuth: return BackendlessOAuthBindings.login
        case .isValidToken, .appInfo, .userRoles, .verifyPassword, .sendEmail, .oauthURL, .oauthAuthorize, .oauthPage: return nil
        }
    }

    // MARK: Presenting results

    /// A user, a session, a device registration: as the domain presents it.
    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }

    // MARK: users

    // MARK: devices, channels, push

    static let registerDevice: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.registerDevice) { call throws(LuaMisuse) in
            _ = try call.arguments(of: BackendlessOperation.registerDevice)
            let app = try call.backendless()
            guard let token = try call.field(1, "token", string: "registration.token") else {
                throw LuaMisuse("registration.token is required (the APNS or FCM device token)")
            }
            let deviceID = try call.field(1, "device_id", string: "registration.device_id")
            let osName = try call.field(1, "os", string: "registration.os")
            guard let osName, let os = DeviceRegistration.OperatingSystem(rawValue: osName) else {
                throw LuaMisuse("registration.os must be \"IOS\" or \"ANDROID\"\(osName.map { ", got \"\($0)\"" } ?? "")")
            }
            let osVersion = try call.field(1, "os_version", string: "registration.os_version")
            let channels = try call.field(1, "channels", strings: "registration.channels")
            let expiration = try call.field(1, "expiration", value: "registration.expiration")
            return call.answer { () throws(BackendlessError) in
                try app.registerDevice(
                    token: token, deviceID: deviceID, os: os, osVersion: osVersion, channels: channels, expiration: expiration
                )
            }
        }
    }

}
