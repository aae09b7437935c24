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
        Binding.table(L, 0, [("entries", journalEntries), ("last", journalLast), ("count", journalCount), ("clear", journalClear)])
        LuaValues.setField(L, module, "journal")
    }

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

    // MARK: The journal

    static let filterFields = ["method", "path", "op", "app_id", "status", "code", "test", "limit"]

    /// The served world, or a clear error outside `understudy serve`.
    static func live(_ call: LuaCall) throws(LuaMisuse) -> ServedWorld {
        guard let world = call.host.world else {
            throw LuaMisuse("the journal records requests served over HTTP; it exists only under `understudy serve`")
        }
        return world
    }

    static func filter(_ call: LuaCall, at index: Int32) throws(LuaMisuse) -> JournalFilter {
        var filter = JournalFilter()
        guard !call.isNil(index) else { return filter }
        try call.table(index, "filter")
        try call.rejectUnknownFields(index, known: filterFields, in: "the journal filter")
        filter.method = try call.field(index, "method", string: "filter.method")
        filter.path = try call.field(index, "path", string: "filter.path")
        filter.operation = try call.field(index, "op", string: "filter.op")
        filter.appID = try call.field(index, "app_id", string: "filter.app_id")
        filter.test = try call.field(index, "test", string: "filter.test")
        if let status = try call.field(index, "status", value: "filter.status") {
            guard case .int(let number) = status else { throw LuaMisuse("filter.status must be an integer") }
            filter.status = Int(number)
        }
        filter.code = try call.field(index, "code", value: "filter.code")
        if let limit = try call.field(index, "limit", value: "filter.limit") {
            guard case .int(let number) = limit, number >= 0 else { throw LuaMisuse("filter.limit must be a whole number") }
            filter.limit = Int(number)
        }
        return filter
    }

    static func push(_ L: OpaquePointer, _ entry: JournalEntry) {
        LuaRecordWriter.push(L, entry, capacity: 16)
    }

    /// `understudy.journal.entries(filter?)`: the matching requests, oldest first.
    static let journalEntries: us_swift_fn = { L in
        LuaCall.run(L, "journal.entries") { call throws(LuaMisuse) in
            let entries = try live(call).journal.entries(matching: try filter(call, at: 1))
            SharedBindings.pushList(call.L, entries, push)
            return 1
        }
    }

    /// `understudy.journal.last(filter?)`: the newest matching request, or nil.
    static let journalLast: us_swift_fn = { L in
        LuaCall.run(L, "journal.last") { call throws(LuaMisuse) in
            var wanted = try filter(call, at: 1)
            wanted.limit = 1
            if let entry = try live(call).journal.entries(matching: wanted).last { push(call.L, entry) } else { lua_pushnil(call.L) }
            return 1
        }
    }

    /// `understudy.journal.count(filter?)`: how many requests match.
    static let journalCount: us_swift_fn = { L in
        LuaCall.run(L, "journal.count") { call throws(LuaMisuse) in
            let count = try live(call).journal.count(matching: try filter(call, at: 1))
            lua_pushinteger(call.L, lua_Integer(count))
            return 1
        }
    }

    /// `understudy.journal.clear()`.
    static let journalClear: us_swift_fn = { L in
        LuaCall.run(L, "journal.clear") { call throws(LuaMisuse) in
            try live(call).journal.clear()
            return call.pushTrue()
        }
    }
}
