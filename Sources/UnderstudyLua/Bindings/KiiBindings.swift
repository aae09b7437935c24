internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.kii(settings)`: the Kii Cloud flavour's app table.
enum KiiBindings {
    /// By hand: a call of the bridge itself, not of an app: it makes a backend from settings, adopts it into the
    /// scenario host and builds its app table (no declaration's domain method runs on an app that does not exist
    /// yet).
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

    /// The hand-written binding of an operation scenarios can call: none, every Kii operation's Lua call is
    /// `OperationAdapter`'s (an operation declared with a Lua path and no domain method stops the start-up).
    static func binding(for operation: KiiOperation) -> us_swift_fn? { nil }

    /// A user or a session, as the domain presents it.
    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }
}
