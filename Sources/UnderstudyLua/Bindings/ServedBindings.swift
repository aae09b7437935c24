internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.app(name)`, `understudy.apps()` and `understudy.journal`: reaching the backends a script did not
/// create itself (under `understudy serve`, the served apps) and the requests the server answered.
enum ServedBindings {
    static func install(_ L: OpaquePointer, module: Int32) {
        lua_pushinteger(L, 0)
        us_push_swift_function(L, app, 1)
        LuaValues.setField(L, module, "app")
        lua_pushinteger(L, 0)
        us_push_swift_function(L, apps, 1)
        LuaValues.setField(L, module, "apps")
        journal.install(L, into: module, handle: 0)
    }

    /// `understudy.journal`: its calls' declarations name their methods, `OperationAdapter` serves them.
    static let journal: BindingTree = {
        var tree = BindingTree()
        for call in [ConsoleCall.journalEntries, .journalLast, .journalCount, .journalClear] {
            let declaration = call.declaration(for: .backendless)
            guard let path = declaration.lua, let index = OperationAdapter.index(of: declaration) else {
                preconditionFailure("\(call.rawValue) names no method")
            }
            tree.add(path, .operation(index))
        }
        return tree
    }()

    /// Pushes the app table of the backend at `index`.
    static func pushApp(_ L: OpaquePointer, host: ScenarioHost, index: Int) {
        let handle = host.handle(ofAppAt: index)
        switch host.apps[index].flavoured {
        case .backendless: BackendlessBindings.pushApp(L, handle: handle)
        case .kii: KiiBindings.pushApp(L, handle: handle)
        }
    }

    /// `understudy.app(name)`: the backend whose `app_id` is `name`, or the first of a flavour
    /// (`"backendless"`, `"kii"`); nil when there is none.
    /// Not derived (issue 28): the answer is an app table of functions bound to one of the scenario host's backends.
    static let app: us_swift_fn = { L in
        LuaCall.run(L, "understudy.app") { call throws(LuaMisuse) in
            let name = try call.string(1, "name")
            let host = call.host
            let index: Int?
            if let world = host.world {
                index = world.app(named: name).flatMap { found in world.apps.firstIndex { $0 === found } }
            } else {
                index = host.apps.firstIndex { $0.appID == name }
                    ?? Flavour(rawValue: name).flatMap { flavour in host.apps.firstIndex { $0.flavour == flavour } }
            }
            if let index { pushApp(call.L, host: host, index: index) } else { lua_pushnil(call.L) }
            return 1
        }
    }

    /// `understudy.apps()`: every backend, in the order they were created.
    /// Not derived (issue 28): app tables of the host's backends, as `understudy.app`.
    static let apps: us_swift_fn = { L in
        LuaCall.run(L, "understudy.apps") { call throws(LuaMisuse) in
            let host = call.host
            lua_createtable(call.L, Int32(host.apps.count), 0)
            for index in host.apps.indices {
                pushApp(call.L, host: host, index: index)
                lua_rawseti(call.L, -2, lua_Integer(index + 1))
            }
            return 1
        }
    }
}
