internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.clock`, `app.outbox`, `app.faults` and `app.settings`: the same for every flavour.
enum SharedBindings {
    /// Adds the settings table to the app table at `app` (its clock, outbox and faults are declared calls: the
    /// flavour's `BindingTree` puts them in).
    static func install(_ L: OpaquePointer, app table: Int32, handle: Int64) {
        // settings: an empty table whose metatable reads and writes the backend's settings
        lua_createtable(L, 0, 0)
        lua_createtable(L, 0, 4)
        let meta = lua_gettop(L)
        Binding.function(L, meta, "__index", handle, settingsGet)
        Binding.function(L, meta, "__newindex", handle, settingsSet)
        Binding.function(L, meta, "__pairs", handle, settingsPairs)
        LuaValues.push(L, "settings")
        LuaValues.setField(L, meta, "__metatable")
        us_setmetatable_unarmed(L, -2)
        LuaValues.setField(L, table, "settings")
    }

    /// Under `serve`, refuses to give `app` an app id another app of its flavour is served under (a chunk or a
    /// posted scenario that creates `understudy.kii{}` again, or sets `app_id` to a served one), as the server
    /// refuses it at start: requests would reach only the first.
    static func refuseSharedAppID(_ call: LuaCall, _ app: any EmulatedApp, id: String, function: String) throws(LuaMisuse) {
        guard let world = call.host.world, world.app(app.flavour, id: id, other: app) != nil else { return }
        throw LuaMisuse(
            "\(function): a \(app.flavour.displayName) app is served under the app_id '\(id)' already, and two apps "
                + "cannot share one (requests would reach only the first): give this one another app_id, or reach the "
                + "served one with understudy.app(\"\(id)\")"
        )
    }

    /// Applies the settings table at `index` (as given to `understudy.backendless{...}`), sorted by name.
    static func apply(_ call: LuaCall, settingsAt index: Int32, to app: any EmulatedApp, function: String) throws(LuaMisuse) {
        guard !call.isNil(index) else { return }
        try call.table(index, "settings")
        let L = call.L
        let table = lua_absindex(L, index)
        var names: [String] = []
        lua_pushnil(L)
        while lua_next(L, table) != 0 {
            us_pop(L, 1)
            guard let name = LuaValues.string(L, at: -1) else {
                us_pop(L, 1)
                throw LuaMisuse("setting names must be strings")
            }
            names.append(name)
        }
        for name in names.sorted() {
            LuaValues.push(L, name)
            lua_rawget(L, table)
            defer { us_pop(L, 1) }
            let value: Value
            switch LuaValues.value(L, at: -1) {
            case .success(let found): value = found
            case .failure(let error): throw LuaMisuse("setting '\(name)' cannot be \(error.found)")
            }
            do throws(SettingError) { try app.changeSetting(name, to: value) } catch { throw LuaMisuse(error.description) }
        }
    }

    // MARK: settings

    static let settingsGet: us_swift_fn = { L in
            LuaCall.run(L, "app.settings") { call throws(LuaMisuse) in
                let app = try call.app()
                guard let name = LuaValues.string(call.L, at: 2) else {
                    throw LuaMisuse("setting names are strings, got \(call.typeName(2))")
                }
                guard let value = app.setting(name) else {
                    throw LuaMisuse(SettingError(unknown: name, known: type(of: app).settingNames).description)
                }
                LuaValues.push(call.L, value)
                return 1
            }
    }

    static let settingsSet: us_swift_fn = { L in
            LuaCall.run(L, "app.settings") { call throws(LuaMisuse) in
                let app = try call.app()
                guard let name = LuaValues.string(call.L, at: 2) else {
                    throw LuaMisuse("setting names are strings, got \(call.typeName(2))")
                }
                let value: Value
                switch LuaValues.value(call.L, at: 3) {
                case .success(let found): value = found
                case .failure(let error): throw LuaMisuse("setting '\(name)' cannot be \(error.found)")
                }
                if name == "app_id", case .string(let id) = value { try refuseSharedAppID(call, app, id: id, function: "app.settings.app_id") }
                do throws(SettingError) { try app.changeSetting(name, to: value) } catch { throw LuaMisuse(error.description) }
                return 0
            }
    }

    static let settingsPairs: us_swift_fn = { L in
            LuaCall.run(L, "app.settings") { call throws(LuaMisuse) in
                let app = try call.app()
                var object: [String: Value] = [:]
                for name in type(of: app).settingNames { object[name] = app.setting(name) }
                lua_pushglobaltable_next(call.L)
                LuaValues.push(call.L, .object(object))
                lua_pushnil(call.L)
                return 3
            }
    }

    // MARK: outbox

    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }

    static func pushList<T>(_ L: OpaquePointer, _ items: [T], _ pushItem: (OpaquePointer, T) -> Void) {
        lua_createtable(L, Int32(clamping: items.count), 0)
        let list = lua_gettop(L)
        for (offset, item) in items.enumerated() {
            // Past the memory cap the state is spent: stop building (the trampoline raises the failure).
            if offset & 63 == 0, us_info_of(L).pointee.fatal != 0 { return }
            pushItem(L, item)
            lua_rawseti(L, list, lua_Integer(offset + 1))
        }
    }

}

/// Pushes the base library's `next` (for a `__pairs` metamethod).
func lua_pushglobaltable_next(_ L: OpaquePointer) {
    us_pushglobaltable(L)
    LuaValues.getField(L, lua_gettop(L), "next")
    us_remove(L, -2)
}
