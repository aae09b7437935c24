internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.faults`: inject, list and clear faults; each injected fault is a table with live `hits` and `remove`.
extension SharedBindings {
    static let faultFields = FaultSpec.fieldNames + ["when"]

    /// Not derived (issue 28): `when` is a Lua function kept in the registry, and the answer is a live handle (`hits`
    /// read as they change, `remove()`), neither of which a domain method can hold or answer.
    static let faultsInject: us_swift_fn = { L in
        LuaCall.run(L, "faults.inject") { call throws(LuaMisuse) in
            let app = try call.app()
            try call.table(1, "fault")
            try call.rejectUnknownFields(1, known: faultFields, in: "the fault")
            var fields: [String: Value] = [:]
            for name in FaultSpec.fieldNames {
                fields[name] = try call.field(1, named: name, value: "fault.\(name)")
            }
            var fault: Fault
            do throws(FaultSpecError) { fault = try FaultSpec.fault(from: fields, for: app) } catch {
                throw LuaMisuse(error.message)
            }
            let operation = fault.operation
            let L = call.L
            let whenType = LuaValues.getField(L, 1, "when")
            if whenType == LUA_TFUNCTION {
                let reference = luaL_ref(L, us_registryindex())
                let host = call.host
                host.predicateReferences.append(reference)
                fault.condition = { [unowned host] arguments in
                    host.evaluatePredicate(reference, operation: operation, arguments: arguments)
                }
            } else {
                us_pop(L, 1)
                if whenType != LUA_TNIL { throw LuaMisuse("fault.when must be a function, got \(LuaValues.typeName(L, whenType))") }
            }
            let id = app.faults.inject(fault)
            pushFault(L, handle: Int64(us_tointeger(L, us_upvalueindex(2), nil)), id: id, operation: operation)
            return 1
        }
    }

    /// `{ op = ..., id = ..., remove = fn }` whose `hits` (and `active`) are read live.
    static func pushFault(_ L: OpaquePointer, handle: Int64, id: Int, operation: String) {
        lua_createtable(L, 0, 3)
        let table = lua_gettop(L)
        LuaValues.push(L, operation)
        LuaValues.setField(L, table, "op")
        lua_pushinteger(L, lua_Integer(id))
        LuaValues.setField(L, table, "id")
        lua_pushinteger(L, lua_Integer(handle))
        lua_pushinteger(L, lua_Integer(id))
        us_push_swift_function(L, faultRemove, 2)
        LuaValues.setField(L, table, "remove")
        lua_createtable(L, 0, 1)
        let meta = lua_gettop(L)
        lua_pushinteger(L, lua_Integer(handle))
        lua_pushinteger(L, lua_Integer(id))
        us_push_swift_function(L, faultField, 2)
        LuaValues.setField(L, meta, "__index")
        us_setmetatable_unarmed(L, table)
    }

    static let faultField: us_swift_fn = { L in
        LuaCall.run(L, "fault") { call throws(LuaMisuse) in
            let app = try call.app()
            let id = Int(us_tointeger(call.L, us_upvalueindex(3), nil))
            switch LuaValues.string(call.L, at: 2) {
            case "hits":
                guard let hits = app.faults.hits(of: id) else {
                    throw LuaMisuse(
                        "fault.hits: this fault finished before the last \(FaultInjector.keptFinishedHits) that did; only theirs are kept (read hits earlier)"
                    )
                }
                lua_pushinteger(call.L, lua_Integer(hits))
            case "active": lua_pushboolean(call.L, app.faults.fault(id: id) == nil ? 0 : 1)
            case "remaining":
                if let remaining = app.faults.fault(id: id)?.remaining {
                    lua_pushinteger(call.L, lua_Integer(remaining))
                } else {
                    lua_pushnil(call.L)
                }
            default: lua_pushnil(call.L)
            }
            return 1
        }
    }

    static let faultRemove: us_swift_fn = { L in
        LuaCall.run(L, "fault:remove") { call throws(LuaMisuse) in
            let app = try call.app()
            let id = Int(us_tointeger(call.L, us_upvalueindex(3), nil))
            lua_pushboolean(call.L, app.faults.remove(id: id) ? 1 : 0)
            return 1
        }
    }

    /// Not derived (issue 28): each fault is answered as the live handle `faults.inject` returns.
    static let faultsList: us_swift_fn = { L in
        LuaCall.run(L, "faults.list") { call throws(LuaMisuse) in
            let app = try call.app()
            let handle = Int64(us_tointeger(call.L, us_upvalueindex(2), nil))
            pushList(call.L, app.faults.active) { L, fault in pushFault(L, handle: handle, id: fault.id, operation: fault.operation) }
            return 1
        }
    }
}

extension ScenarioHost {
    /// Calls a `when` predicate with the call's arguments (`FaultArguments`: the same table whether the call came
    /// from Lua or over HTTP). A predicate that raises fails the scenario once the backend call returns.
    /// Outside a binding (a request served over HTTP) the predicate runs in the live session's state with a fresh
    /// instruction budget.
    func evaluatePredicate(_ reference: Int32, operation: String, arguments: FaultArguments) -> Bool {
        guard pendingError == nil else { return false }
        let L: OpaquePointer
        if let current = currentL {
            L = current
        } else if let state = self.L, world != nil {
            L = state
            us_reset_budget(L, liveBudget)
        } else {
            return false
        }
        _ = lua_checkstack(L, 8)
        lua_rawgeti(L, us_registryindex(), lua_Integer(reference))
        us_info_of(L).pointee.relaxed += 1
        Self.push(L, arguments)
        Self.makeStrict(L, lua_gettop(L), arguments, operation: operation)
        us_info_of(L).pointee.relaxed -= 1
        let status = us_pcall_from_swift(L, 1, 1)
        if status != LUA_OK {
            var message = "error"
            if lua_type(L, -1) == LUA_TTABLE {
                LuaValues.getField(L, lua_gettop(L), "message")
                message = LuaValues.string(L, at: -1) ?? message
                us_pop(L, 1)
            } else if let text = LuaValues.string(L, at: -1) {
                message = text
            }
            us_pop(L, 1)
            pendingError = "the 'when' predicate of a fault on \(operation) failed: \(message)"
            if currentL == nil { us_recover(L) }  // a served request: the state outlives this predicate
            return false
        }
        let matches = lua_toboolean(L, -1) != 0
        us_pop(L, 1)
        return matches
    }

    /// Makes reading a name the operation does not declare (`args.identity` for `users.login`, whose argument is
    /// `identity_value`) raise an error naming the declared ones, instead of giving nil (a predicate that then
    /// never matches, silently). A table first argument's fields (a registration's properties, which any name
    /// may be) stay open: an absent one reads as nil. One metatable per operation, kept in the registry.
    static func makeStrict(_ L: OpaquePointer, _ table: Int32, _ arguments: FaultArguments, operation: String) {
        guard !arguments.spreadsFirstTable else { return }
        if luaL_newmetatable(L, argumentsPrefix + operation) != 0 {
            let metatable = lua_gettop(L)
            LuaValues.push(L, arguments.names.joined(separator: ","))
            LuaValues.setField(L, metatable, "__arguments")
            us_push_swift_function(L, unknownArgument, 0)
            LuaValues.setField(L, metatable, "__index")
        }
        lua_setmetatable(L, table)
    }

    /// What the strict argument tables' metatables are named: this, then the operation (`users.login`).
    static let argumentsPrefix = "understudy args "

    /// `__index` of a predicate's arguments: a string key the operation does not declare raises; other keys
    /// (`args[3]` past the last argument) read as nil.
    static let unknownArgument: us_swift_fn = { L in
        guard let L else { return US_RAISE }
        guard lua_type(L, 2) == LUA_TSTRING, let key = LuaValues.string(L, at: 2), lua_getmetatable(L, 1) != 0 else {
            lua_pushnil(L)
            return 1
        }
        var operation = "this operation", names: [String] = []
        if us_rawgetfield(L, -1, "__name", 6) == LUA_TSTRING, let name = LuaValues.string(L, at: -1), name.hasPrefix(argumentsPrefix) {
            operation = String(name.dropFirst(argumentsPrefix.count))
        }
        us_pop(L, 1)
        if us_rawgetfield(L, -1, "__arguments", 11) == LUA_TSTRING, let list = LuaValues.string(L, at: -1) {
            names = list.split(separator: ",").map(String.init)
        }
        us_pop(L, 2)
        if names.contains(key) {
            // A declared argument the call left out (an absent optional one).
            lua_pushnil(L)
            return 1
        }
        let declared = names.isEmpty ? "it has none" : "its arguments are " + names.joined(separator: ", ")
        LuaValues.push(L, "args.\(key) is not an argument of \(operation)\(NearestName.to(key, among: names).map { " (did you mean args.\($0)?)" } ?? ""): \(declared)")
        return US_RAISE
    }

    /// `{ arg1, arg2, ..., name1 = arg1, ... }`, plus the fields of a table first argument.
    static func push(_ L: OpaquePointer, _ arguments: FaultArguments) {
        lua_createtable(L, Int32(arguments.values.count), Int32(arguments.names.count) + 4)
        let table = lua_gettop(L)
        for (offset, value) in arguments.values.enumerated() {
            LuaValues.push(L, value)
            lua_rawseti(L, table, lua_Integer(offset + 1))
        }
        if arguments.spreadsFirstTable, case .object(let fields)? = arguments.values.first {
            for (name, value) in fields {
                LuaValues.push(L, value)
                LuaValues.setField(L, table, name)
            }
        }
        for (name, value) in zip(arguments.names, arguments.values) {
            LuaValues.push(L, value)
            LuaValues.setField(L, table, name)
        }
    }
}
