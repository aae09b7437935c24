internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.backendless(settings)`: the Backendless flavour's app table.
enum BackendlessBindings {
    /// Not derived (issue 28): it makes a backend, which the scenario host adopts (a handle, the memory charged), and
    /// answers its app table of bound functions; no domain method over an app can.
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
            .pushWithTemplate, .resetPassword, .registerDevice, .publish, .loginOAuth:
            return nil
        case .isValidToken, .appInfo, .userRoles, .verifyPassword, .sendEmail, .oauthURL, .oauthAuthorize, .oauthPage: return nil
        }
    }
}
