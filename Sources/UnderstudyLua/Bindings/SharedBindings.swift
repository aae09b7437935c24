internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.clock`, `app.outbox`, `app.faults` and `app.settings`: the same for every flavour.
enum SharedBindings {
    /// Adds clock, outbox, faults and settings to the app table at `app`.
    static func install(_ L: OpaquePointer, app table: Int32, handle: Int64) {
        Binding.table(L, handle, [("now", clockNow), ("advance", clockAdvance), ("set", clockSet)])
        LuaValues.setField(L, table, "clock")
        Binding.table(
            L, handle,
            [("emails", outboxEmails), ("sms", outboxSMS), ("pushes", outboxPushes), ("clear", outboxClear),
             ("last_email", outboxLastEmail), ("last_sms", outboxLastSMS)]
        )
        LuaValues.setField(L, table, "outbox")
        Binding.table(L, handle, [("inject", faultsInject), ("clear", faultsClear), ("list", faultsList)])
        LuaValues.setField(L, table, "faults")

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

    // MARK: clock

    static let clockNow: us_swift_fn = { L in
        LuaCall.run(L, "clock.now") { call throws(LuaMisuse) in
            let app = try call.app()
            LuaValues.push(call.L, number: app.clock.now)
            return 1
        }
    }

    static let clockAdvance: us_swift_fn = { L in
        LuaCall.run(L, "clock.advance") { call throws(LuaMisuse) in
            let app = try call.app()
            let seconds = try call.number(1, "seconds")
            guard let now = try moveClock(call, app, to: app.clock.now + seconds) else {
                throw LuaMisuse(outOfRange("seconds", seconds, from: app.clock.now))
            }
            LuaValues.push(call.L, number: now)
            return 1
        }
    }

    static let clockSet: us_swift_fn = { L in
        LuaCall.run(L, "clock.set") { call throws(LuaMisuse) in
            let app = try call.app()
            let seconds = try call.number(1, "seconds")
            guard let now = try moveClock(call, app, to: seconds) else { throw LuaMisuse(outOfRange("seconds", seconds, from: nil)) }
            LuaValues.push(call.L, number: now)
            return 1
        }
    }

    /// Moves a backend's clock, delivering what comes due on the way. Each firing is charged before it is made:
    /// instructions against the budget, and the pushes the move has added so far against the memory cap (they
    /// are counted in the backend's footprint when the call returns), so that a repeating message cannot turn one
    /// move into unbounded work or memory: at a limit the move stops and the limit's failure is raised.
    static func moveClock(_ call: LuaCall, _ app: any EmulatedApp, to target: Double) throws(LuaMisuse) -> Double? {
        var pushes: Int64 = 0
        do {
            return try app.moveClock(to: target) { count in
                pushes += Int64(count)
                guard us_charge(call.L, BackendMemory.instructionsPerFiring + Int64(count) * BackendMemory.instructionsPerPush) != 0
                else { return false }
                let bytes = pushes * Int64(BackendMemory.perPush)
                let fits = us_charge_memory(call.L, bytes) != 0
                us_charge_memory(call.L, -bytes)
                return fits
            }
        } catch {
            throw LuaMisuse("a limit was reached while delivering the pushes due by \(error.time)")
        }
    }

    /// Why the clock refused to move: the argument would put it beyond `VirtualClock.limit`.
    static func outOfRange(_ argument: String, _ seconds: Double, from now: Double?) -> String {
        let target = now.map { "\($0) + \(seconds)" } ?? "\(seconds)"
        return "\(argument) (argument 1) would put the clock at \(target) seconds; the clock stays finite and within ±10^15 seconds of the epoch"
    }

    // MARK: outbox

    static func push(_ L: OpaquePointer, _ record: some Presentable) {
        LuaRecordWriter.push(L, record)
    }

    /// `users.all()`: every user of the app, whatever its flavour, as its records present themselves.
    static let usersAll: us_swift_fn = { L in
        LuaCall.run(L, "users.all") { call throws(LuaMisuse) in
            let app = try call.app()
            pushList(call.L, app.allUsers) { L, user in LuaRecordWriter.push(L, user) }
            return 1
        }
    }

    /// `users.count()`: how many users the app holds (Backendless guests excluded).
    static let usersCount: us_swift_fn = { L in
        LuaCall.run(L, "users.count") { call throws(LuaMisuse) in
            let app = try call.app()
            lua_pushinteger(call.L, lua_Integer(app.userCount))
            return 1
        }
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

    /// `outbox.NAME(filter?)`: the items whose `matches` accepts the filter (all without one), oldest first; with
    /// `newest`, only the newest of them, or nil.
    private static func outboxCall<Item: OutboxItem>(
        _ L: OpaquePointer?, _ name: String, _ filterName: StaticString, newest: Bool, _ items: @escaping (Outbox) -> [Item],
        _ matches: @escaping (Item, String) -> Bool
    ) -> Int32 {
        LuaCall.run(L, name) { call throws(LuaMisuse) in
            let app = try call.app()
            let filter = try call.optionalString(1, "\(filterName)")
            let all = items(app.outbox)
            if newest {
                if let item = all.last(where: { filter == nil || matches($0, filter!) }) { push(call.L, item) } else { lua_pushnil(call.L) }
            } else {
                pushList(call.L, filter.map { wanted in all.filter { matches($0, wanted) } } ?? all, push)
            }
            return 1
        }
    }

    private static func sentTo(_ email: Outbox.Email, _ address: String) -> Bool { email.isFor(address) }

    static let outboxEmails: us_swift_fn = { L in outboxCall(L, "outbox.emails", "to", newest: false, \.emails, sentTo) }
    static let outboxLastEmail: us_swift_fn = { L in outboxCall(L, "outbox.last_email", "to", newest: true, \.emails, sentTo) }
    static let outboxSMS: us_swift_fn = { L in outboxCall(L, "outbox.sms", "to", newest: false, \.sms) { $0.isFor($1) } }
    static let outboxLastSMS: us_swift_fn = { L in outboxCall(L, "outbox.last_sms", "to", newest: true, \.sms) { $0.isFor($1) } }
    static let outboxPushes: us_swift_fn = { L in
        outboxCall(L, "outbox.pushes", "recipient", newest: false, \.pushes) { $0.isFor($1) }
    }

    static let outboxClear: us_swift_fn = { L in
        LuaCall.run(L, "outbox.clear") { call throws(LuaMisuse) in
            let app = try call.app()
            app.outbox.clear()
            return call.pushTrue()
        }
    }
}

/// Pushes the base library's `next` (for a `__pairs` metamethod).
func lua_pushglobaltable_next(_ L: OpaquePointer) {
    us_pushglobaltable(L)
    LuaValues.getField(L, lua_gettop(L), "next")
    us_remove(L, -2)
}
