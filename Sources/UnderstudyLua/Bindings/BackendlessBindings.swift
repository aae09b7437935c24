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
            .sendTemplate, .describeUsers, .loginByID, .dataRemove:
            return nil
        // Not yet derived (issue 28, partial): confirm_email takes a link or an objectId and its domain checks its
        // faults with the objectId a link names; reset_password's HTTP side is the recovery page (a form).
        case .confirmEmail: return confirmEmail
        case .resetPassword: return BackendlessLifecycleBindings.resetPassword
        // Not yet derived: table arguments read field by field with their own misuse messages (the generic
        // `fields(of:)` words some of them differently), and over HTTP the SDKs' units and spellings.
        case .registerDevice: return registerDevice
        case .publish: return BackendlessPushBindings.publish
        case .pushWithTemplate: return BackendlessPushBindings.withTemplate
        case .loginOAuth: return BackendlessOAuthBindings.login
        // Contract v4's Data service and roles (i32b), written before the declarations performed (describe,
        // login_by_id, data.remove and email.send_template now perform); each binding reads its arguments and calls
        // one domain method that checks its own fault. Not yet derived because: the `key` argument over HTTP is the
        // path's API key (no resolver yet), a query's page and sort rules raise in Lua but answer 1025/1005/1004/
        // 19000 over HTTP (no resolver yet).
        case .updateStatus: return BackendlessDataBindings.updateStatus
        case .assignRole: return BackendlessDataBindings.assign
        case .unassignRole: return BackendlessDataBindings.unassign
        case .rolesOf: return BackendlessDataBindings.of
        case .roleUsers: return BackendlessDataBindings.users
        case .dataSave: return BackendlessDataBindings.save
        case .dataFind: return BackendlessDataBindings.find
        case .dataFindFirst: return BackendlessDataBindings.findFirst
        case .dataFindLast: return BackendlessDataBindings.findLast
        case .dataFindByID: return BackendlessDataBindings.findByID
        case .dataCount: return BackendlessDataBindings.count
        case .isValidToken, .appInfo, .userRoles, .verifyPassword, .sendEmail: return nil
        }
    }

    // MARK: Presenting results

    /// A user, a session, a device registration: as the domain presents it.
    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }

    // MARK: users

    static let confirmEmail: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.confirmEmail) { call throws(LuaMisuse) in
            let objectID = try call.arguments(of: BackendlessOperation.confirmEmail).string("objectId")
            let app = try call.backendless()
            return call.answer { () throws(BackendlessError) in try app.confirmEmail(objectIDOrLink: objectID) }
        }
    }



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
