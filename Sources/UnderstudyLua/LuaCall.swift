internal import CLua
internal import CLuaShim
internal import Understudy

/// API misuse from a scenario (a wrong argument type, an unknown setting): raised as a Lua error that names the
/// function and the argument.
struct LuaMisuse: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One call of a bound function: typed access to its arguments and the backend it belongs to.
struct LuaCall {
    let L: OpaquePointer
    /// The name scenarios call it by, e.g. `users.register`.
    let function: String

    /// Runs the binding of a backend operation, named as the operation (`users.register`).
    static func run(_ L: OpaquePointer?, _ operation: some Operation, _ body: (LuaCall) throws(LuaMisuse) -> Int32) -> Int32 {
        run(L, operation.name, body)
    }

    /// Runs a binding: misuse becomes a Lua error raised by the C trampoline after Swift has returned.
    static func run(_ L: OpaquePointer?, _ function: String, _ body: (LuaCall) throws(LuaMisuse) -> Int32) -> Int32 {
        guard let L else { return US_RAISE }
        if lua_type(L, 1) == LUA_TTABLE, let message = APITables.colonCall(L, function: function) {
            LuaValues.push(L, "\(function): \(message)")
            return US_RAISE
        }
        let call = LuaCall(L: L, function: function)
        let host = ScenarioHost.of(L)
        let callerL = host.currentL
        host.currentL = L
        defer { host.currentL = callerL }
        // Memory the backends hold counts towards the cap (the trampoline raises once it is passed): new
        // backends by the outermost call, a backend's growth by each call, from what the backend was last
        // charged for (so a nested call's growth is not charged again by its caller); what a call frees (users
        // deleted, faults removed) is credited back the same way.
        let appsBefore = host.apps.count
        let bound = BackendMemory.boundApp(of: host, handle: L)
        if let bound, host.chargedFootprints[ObjectIdentifier(bound)] == nil {
            host.chargedFootprints[ObjectIdentifier(bound)] = BackendMemory.footprint(of: bound)
        }
        host.callDepth += 1
        defer {
            host.callDepth -= 1
            var grown = 0
            if host.callDepth == 0, host.apps.count > appsBefore {
                // New backends: all they hold (their settings' text too), from here on charged like the others.
                for app in host.apps[appsBefore...] {
                    let footprint = BackendMemory.footprint(of: app)
                    grown += footprint
                    host.chargedFootprints[ObjectIdentifier(app)] = footprint
                }
            }
            if let bound {
                let footprint = BackendMemory.footprint(of: bound)
                let charged = host.chargedFootprints[ObjectIdentifier(bound)] ?? footprint
                if footprint != charged {
                    grown += footprint - charged
                    host.chargedFootprints[ObjectIdentifier(bound)] = footprint
                }
            }
            if grown != 0 { us_charge_memory(L, Int64(grown)) }
        }
        let errorsBefore = host.uncheckedErrors.count
        do {
            let results = try body(call)
            if let pending = host.pendingError {
                host.pendingError = nil
                // The call raises: the error it was about to return never reaches the scenario, so nothing
                // should be blamed for not checking it.
                host.uncheckedErrors.forget(L, after: errorsBefore)
                if host.raisedPredicateError == nil { host.raisedPredicateError = pending }
                LuaValues.push(L, pending)
                return US_RAISE
            }
            return results
        } catch {
            LuaValues.push(L, "\(function): \(error.message)")
            return US_RAISE
        }
    }

    var host: ScenarioHost { ScenarioHost.of(L) }

    /// Charges work before doing it: `instructions` against the budget and `users` new users' memory (each
    /// holding `bytesPerUser`) against the cap. Throws when either is spent, so the work is never done (the
    /// trampoline raises the limit's failure).
    func charge(instructions: Int64, users: Int = 0, bytesPerUser: Int = HeldBytes.perUser) throws(LuaMisuse) {
        let withinBudget = us_charge(L, instructions) != 0
        var withinMemory = true
        if users > 0 {
            // Checked here, counted once the users exist (when the call returns).
            let (bytes, overflow) = Int64(users).multipliedReportingOverflow(by: Int64(bytesPerUser))
            if overflow { throw LuaMisuse("a limit was reached") }
            withinMemory = us_charge_memory(L, bytes) != 0
            us_charge_memory(L, -bytes)
        }
        if !withinBudget || !withinMemory { throw LuaMisuse("a limit was reached") }
    }

    /// The backend this function is bound to (upvalue 2 holds its handle), whatever its flavour.
    func app() throws(LuaMisuse) -> any EmulatedApp {
        let handle = Int64(us_tointeger(L, us_upvalueindex(2), nil))
        guard let app = host.app(handle) else {
            if host.wasDroppedByRestore(handle) {
                throw LuaMisuse("this backend was made after the snapshot that understudy.restore brought back, so it is gone")
            }
            throw LuaMisuse("this backend belongs to a scenario that has ended; create backends inside the scenario")
        }
        app.faults.lastFired = nil  // so that `fail` can tell an injected error from a real one
        app.faults.pendingAfterCommit = nil
        return app
    }

    /// The Backendless backend this function is bound to.
    func backendless() throws(LuaMisuse) -> BackendlessApp {
        guard case .backendless(let app) = try app().flavoured else { throw LuaMisuse("bound to a Kii backend") }
        return app
    }

    /// The Kii backend this function is bound to.
    func kii() throws(LuaMisuse) -> KiiApp {
        guard case .kii(let app) = try app().flavoured else { throw LuaMisuse("bound to a Backendless backend") }
        return app
    }

    // MARK: Reading arguments

    /// Reads and checks the arguments of `operation` as its declaration lists them (type, optional, one of a few
    /// strings, the known fields of a table): misuse names the argument and its position.
    func arguments(of operation: some Operation) throws(LuaMisuse) -> DeclaredArguments {
        let declaration = operation.declaration
        var values: [DeclaredArguments.Read] = []
        values.reserveCapacity(declaration.arguments.count)
        for (offset, argument) in declaration.arguments.enumerated() {
            values.append(try read(argument, at: Int32(offset + 1)))
        }
        return DeclaredArguments(names: declaration.arguments.map(\.name), values: values)
    }

    /// Reads and checks the arguments `declaration` lists, as `arguments(of:)` does, for its domain method: a table
    /// argument's declared fields are read too (`fields(of:_:)`), as one object.
    func arguments(of declaration: OperationDeclaration) throws(LuaMisuse) -> CallArguments {
        var values: [ArgumentValue] = []
        values.reserveCapacity(declaration.arguments.count)
        for (offset, argument) in declaration.arguments.enumerated() {
            let index = Int32(offset + 1)
            if let reader = argument.luaReader {
                values.append(try read(argument, at: index, by: reader))
                continue
            }
            switch try read(argument, at: index) {
            case .absent: values.append(argument.defaultValue.map(ArgumentValue.string) ?? .absent)
            case .string(let text): values.append(.string(text))
            case .bool(let flag): values.append(.bool(flag))
            case .number(let number): values.append(.number(number))
            case .properties(let properties): values.append(.properties(properties))
            case .value(let value): values.append(.value(value))
            case .table:
                guard case .table(_, let fields) = argument.type else { preconditionFailure("\(argument.name) is not a table") }
                values.append(.value(.object(try tableFields(index, fields, in: argument.name))))
            }
        }
        return CallArguments(names: declaration.argumentNames, values: values)
    }

    /// Reads and checks `argument` at `index` as its declared type says.
    func read(_ argument: ArgumentDeclaration, at index: Int32) throws(LuaMisuse) -> DeclaredArguments.Read {
        let name = argument.name
        if isNil(index) {
            if argument.optional { return .absent }
            if let missing = argument.missingMessage(at: Int(index)) { throw LuaMisuse(missing) }
        }
        switch argument.type {
        case .string: return .string(try string(index, name))
        case .oneOf(let choices):
            let text = try string(index, name)
            guard choices.contains(text) else { throw LuaMisuse(argument.choiceMessage(at: Int(index), got: text)) }
            return .string(text)
        case .boolean:
            guard lua_type(L, index) == LUA_TBOOLEAN else {
                throw LuaMisuse("\(name) (argument \(index)) must be a boolean, got \(typeName(index))")
            }
            return .bool(lua_toboolean(L, index) != 0)
        case .number, .integer:
            return .number(try number(index, name))
        case .properties:
            try table(index, name)
            return .properties(try properties(index))
        case .table(_, let fields):
            try table(index, name)
            try rejectUnknownFields(index, known: fields.map(\.name), in: "the \(name)")
            return .table(index)
        case .strings, .stringMap, .any:
            return .value(try field(index, name))
        }
    }

    /// The declared fields of table argument `name` of `operation`, each checked against its declared type
    /// (nested tables too, required fields present): misuse names the field (`options.fields_mapping must be a
    /// table, got string`). Nil when an optional table is absent. Call it after `arguments(of:)`.
    func fields(of operation: some Operation, _ name: String) throws(LuaMisuse) -> [String: Value]? {
        let arguments = operation.declaration.arguments
        guard let position = arguments.firstIndex(where: { $0.name == name }),
            case .table(_, let fields) = arguments[position].type
        else { preconditionFailure("\(operation.name) declares no table argument \(name)") }
        let index = Int32(position + 1)
        if isNil(index) { return nil }
        return try tableFields(index, fields, in: name)
    }

    /// The declared fields of the table at `index`, each checked against its declared type; an absent optional
    /// field is left out.
    private func tableFields(_ index: Int32, _ fields: [ArgumentDeclaration], in name: String) throws(LuaMisuse) -> [String: Value] {
        var values: [String: Value] = [:]
        for field in fields {
            let path = "\(name).\(field.name)"
            let read = field.misuse.luaTypeNames ? try luaTypedField(index, field, path) : try self.field(index, named: field.name, value: path)
            guard let value = read else {
                if field.optional { continue }
                throw LuaMisuse(field.missingFieldMessage(in: name))
            }
            values[field.name] = value
            if case .oneOf = field.type, field.misuse.domainChecksChoices, case .string = value { continue }
            if field.misuse.luaTypeNames, [ArgumentType.string, .strings, .properties].contains(field.type) { continue }  // read as their type
            try check(value, as: field.type, path, expected: field.misuse.expected)
        }
        return values
    }

    /// A table field read as a Lua argument of its type is (`FieldMisuse.luaTypeNames`): misuse names the value's
    /// Lua type. Nil when it is absent.
    private func luaTypedField(_ index: Int32, _ field: ArgumentDeclaration, _ path: String) throws(LuaMisuse) -> Value? {
        let type = LuaValues.getField(L, lua_absindex(L, index), field.name)
        defer { us_pop(L, 1) }
        if type <= LUA_TNIL { return nil }
        switch field.type {
        case .strings:
            return .array(try stringList(onTop: type, path).map(Value.string))
        case .properties:
            guard type == LUA_TTABLE else { throw LuaMisuse("\(path) must be a table, got \(LuaValues.typeName(L, type))") }
            return Value(properties: try properties(-1))
        default:
            guard let text = try utf8String(at: -1, path) else {
                throw LuaMisuse("\(path) must be \(field.misuse.expected ?? "a string"), got \(LuaValues.typeName(L, type))")
            }
            return .string(text)
        }
    }

    /// Checks a field's value against its declared type; `expected` words what a value of another type must be.
    private func check(_ value: Value, as type: ArgumentType, _ path: String, expected wording: String? = nil) throws(LuaMisuse) {
        func refuse(_ expected: String) -> LuaMisuse { LuaMisuse("\(path) must be \(wording ?? expected), got \(value.kindName)") }
        switch (type, value) {
        case (.string, .string), (.boolean, .bool), (.number, .int), (.number, .double), (.integer, .int), (.any, _): return
        case (.oneOf(let choices), .string(let text)):
            guard choices.contains(text) else {
                let nearest = NearestName.suggestion(for: text, among: choices, quote: "\"")
                throw LuaMisuse("\(path) must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(text)\"\(nearest)")
            }
        case (.strings, .array(let items)):
            guard items.allSatisfy({ $0.stringValue != nil }) else { throw refuse("a list of strings") }
        case (.strings, .object(let members)) where members.isEmpty: return
        case (.properties, .object(let members)):
            for (key, member) in members {
                switch member {
                case .string, .int, .double, .bool: continue
                default: throw LuaMisuse("\(path).\(key) must be a string, number or boolean, got \(member.kindName)")
                }
            }
        case (.properties, .array(let items)) where items.isEmpty, (.stringMap, .array(let items)) where items.isEmpty: return
        case (.stringMap, .object(let members)):
            for key in members.keys.sorted() where members[key]?.stringValue == nil {
                throw LuaMisuse("\(path).\(key) must be a string, got \(members[key]!.kindName)")
            }
        case (.table(_, let fields), .object(let members)):
            let known = Set(fields.map(\.name))
            if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
                let names = fields.map(\.name)
                throw LuaMisuse(
                    "\(path) has an unknown field '\(unknown)'\(NearestName.suggestion(for: unknown, among: names, quote: "'")) (known fields: \(names.joined(separator: ", ")))"
                )
            }
            for field in fields {
                guard let member = members[field.name] else {
                    if field.optional { continue }
                    throw LuaMisuse("\(path).\(field.name) is required")
                }
                try check(member, as: field.type, "\(path).\(field.name)")
            }
        case (.string, _), (.oneOf, _): throw refuse("a string")
        case (.boolean, _): throw refuse("a boolean")
        case (.number, _): throw refuse("a number")
        case (.integer, _): throw refuse("an integer")
        case (.strings, _): throw refuse("a list of strings")
        case (.stringMap, _): throw refuse("a table of strings by name")
        case (.properties, _), (.table, _): throw refuse("a table")
        }
    }

    /// The value at `index` as a dynamic value.
    private func field(_ index: Int32, _ name: String) throws(LuaMisuse) -> Value {
        lua_pushvalue(L, index)
        return try valueOnTop(name) ?? .null
    }

    func isNil(_ index: Int32) -> Bool { lua_type(L, index) <= LUA_TNIL }

    func typeName(_ index: Int32) -> String { LuaValues.typeName(L, at: index) }

    /// The string at `index` as given (nil when it is not a string); `what` names it when it is not UTF-8.
    func utf8String(at index: Int32, _ what: @autoclosure () -> String) throws(LuaMisuse) -> String? {
        do {
            return try LuaValues.utf8String(L, at: index)
        } catch {
            throw LuaMisuse("\(what()) is not valid UTF-8")
        }
    }

    func string(_ index: Int32, _ name: String) throws(LuaMisuse) -> String {
        guard let text = try utf8String(at: index, "\(name) (argument \(index))") else {
            throw LuaMisuse("\(name) (argument \(index)) must be a string, got \(typeName(index))")
        }
        return text
    }

    func optionalString(_ index: Int32, _ name: String) throws(LuaMisuse) -> String? {
        if isNil(index) { return nil }
        return try string(index, name)
    }

    func number(_ index: Int32, _ name: String) throws(LuaMisuse) -> Double {
        guard lua_type(L, index) == LUA_TNUMBER else {
            throw LuaMisuse("\(name) (argument \(index)) must be a number, got \(typeName(index))")
        }
        return us_tonumber(L, index, nil)
    }

    func table(_ index: Int32, _ name: String) throws(LuaMisuse) {
        guard lua_type(L, index) == LUA_TTABLE else {
            throw LuaMisuse("\(name) (argument \(index)) must be a table, got \(typeName(index))")
        }
    }

    /// Reads a table of properties (string keys; string, number or boolean values; strings valid UTF-8), sorted
    /// by name so that messages naming one of several offending properties do not depend on Lua's hash order.
    func properties(_ index: Int32) throws(LuaMisuse) -> [Property] {
        let index = lua_absindex(L, index)
        var properties: [Property] = []
        properties.reserveCapacity(entryCount(index))  // one allocation of the right size: a user keeps it
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            guard lua_type(L, -2) == LUA_TSTRING else {
                let key = lua_type(L, -2) == LUA_TNUMBER ? "[\(us_tonumber(L, -2, nil))]" : "a \(typeName(-2)) key"
                us_pop(L, 2)
                throw LuaMisuse("property names must be strings, got \(key)")
            }
            guard let name = try? LuaValues.utf8String(L, at: -2) else {
                let shown = LuaValues.string(L, at: -2) ?? ""
                us_pop(L, 2)
                throw LuaMisuse("property name '\(shown)' is not valid UTF-8")
            }
            let value: Value
            switch lua_type(L, -1) {
            case LUA_TSTRING:
                guard let text = try? LuaValues.utf8String(L, at: -1) else {
                    us_pop(L, 2)
                    throw LuaMisuse("property '\(name)' is not valid UTF-8")
                }
                value = .string(text)
            case LUA_TBOOLEAN: value = .bool(lua_toboolean(L, -1) != 0)
            case LUA_TNUMBER:
                value = lua_isinteger(L, -1) != 0 ? .int(Int64(us_tointeger(L, -1, nil))) : .double(us_tonumber(L, -1, nil))
            default:
                let found = typeName(-1)
                us_pop(L, 2)
                throw LuaMisuse("property '\(name)' must be a string, number or boolean, got \(found)")
            }
            properties.append(Property(name, value))
            us_pop(L, 1)
        }
        properties.sort { $0.name < $1.name }
        return properties
    }

    /// How many entries the table at absolute `index` has (its `pairs`).
    func entryCount(_ index: Int32) -> Int {
        var count = 0
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            count += 1
            us_pop(L, 1)
        }
        return count
    }

    /// Field `key` of the table at `index` (raw), as a string; nil when absent.
    func field(_ index: Int32, _ key: StaticString, string name: String) throws(LuaMisuse) -> String? {
        let type = LuaValues.getField(L, lua_absindex(L, index), key)
        defer { us_pop(L, 1) }
        if type <= LUA_TNIL { return nil }
        guard let text = try utf8String(at: -1, name) else {
            throw LuaMisuse("\(name) must be a string, got \(LuaValues.typeName(L, type))")
        }
        return text
    }

    /// Field `key` of the table at `index`, as a list of strings; nil when absent.
    func field(_ index: Int32, _ key: StaticString, strings name: String) throws(LuaMisuse) -> [String]? {
        let type = LuaValues.getField(L, lua_absindex(L, index), key)
        defer { us_pop(L, 1) }
        if type <= LUA_TNIL { return nil }
        return try stringList(onTop: type, name)
    }

    /// The value on top of the stack (of Lua type `type`) as a list of strings; misuse names `name` and the position.
    private func stringList(onTop type: Int32, _ name: String) throws(LuaMisuse) -> [String] {
        guard type == LUA_TTABLE else { throw LuaMisuse("\(name) must be a list of strings, got \(LuaValues.typeName(L, type))") }
        let list = lua_gettop(L)
        let count = lua_rawlen(L, list)
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        var position: lua_Integer = 1
        while position <= count {
            lua_rawgeti(L, list, position)
            guard let text = try utf8String(at: -1, "\(name)[\(position)]") else {
                let found = typeName(-1)
                us_pop(L, 1)
                throw LuaMisuse("\(name)[\(position)] must be a string, got \(found)")
            }
            strings.append(text)
            us_pop(L, 1)
            position += 1
        }
        return strings
    }

    /// Field `key` of the table at `index` as a dynamic value; nil when absent.
    func field(_ index: Int32, _ key: StaticString, value name: String) throws(LuaMisuse) -> Value? {
        LuaValues.getField(L, lua_absindex(L, index), key)
        return try valueOnTop(name)
    }

    /// Field `key` (a name known at run time) of the table at `index` as a dynamic value; nil when absent.
    func field(_ index: Int32, named key: String, value name: String) throws(LuaMisuse) -> Value? {
        LuaValues.getField(L, lua_absindex(L, index), key)
        return try valueOnTop(name)
    }

    /// Pops the value on top and reads it as a dynamic value (nil for nil).
    private func valueOnTop(_ name: String) throws(LuaMisuse) -> Value? {
        let type = lua_type(L, -1)
        defer { us_pop(L, 1) }
        if type <= LUA_TNIL { return nil }
        if type == LUA_TSTRING, let text = try utf8String(at: -1, name) { return .string(text) }
        switch LuaValues.value(L, at: -1) {
        case .success(let value): return value
        case .failure(let error):
            throw LuaMisuse("\(name)\(error.path.isEmpty ? "" : "." + error.path) cannot be \(error.found)")
        }
    }

    /// Refuses fields of the table at `index` that are not in `known` (a typo should not pass silently).
    func rejectUnknownFields(_ index: Int32, known: [String], in name: String) throws(LuaMisuse) {
        let index = lua_absindex(L, index)
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            let key = LuaValues.string(L, at: -2)
            us_pop(L, 1)
            guard let key, known.contains(key) else {
                us_pop(L, 1)
                let suggestion = key.map { NearestName.suggestion(for: $0, among: known, quote: "'") } ?? ""
                throw LuaMisuse("\(name) has an unknown field \(key.map { "'\($0)'" } ?? "(not a string)")\(suggestion) (known fields: \(known.joined(separator: ", ")))")
            }
        }
    }

    /// Reads a seeding template: `count` (required), `start` (default 1), `status`, and the template properties.
    func seedTemplate(_ index: Int32) throws(LuaMisuse) -> (count: Int, start: Int, status: String?, template: [Property]) {
        var template: [Property] = []
        var count: Int?
        var start = 1
        var status: String?
        for property in try properties(index) {
            switch property.name {
            case "count":
                guard case .int(let number) = property.value, number >= 0, number <= 50_000_000 else {
                    throw LuaMisuse("template.count must be a whole number from 0 to 50000000")
                }
                count = Int(number)
            case "start":
                guard case .int(let number) = property.value, number >= 0, number <= Int64(Int32.max) else {
                    throw LuaMisuse("template.start must be a whole number of at least 0")
                }
                start = Int(number)
            case "status":
                guard case .string(let text) = property.value else { throw LuaMisuse("template.status must be a string") }
                status = text
            default: template.append(property)
            }
        }
        guard let count else { throw LuaMisuse("template.count is required (how many users to seed)") }
        return (count, start, status, template)
    }

    // MARK: Results

    /// Pushes `nil, err` for a backend error and returns 2.
    /// Once a call has made its change: the `nil, err` of the `after_commit` fault that fires now, if one does.
    func afterCommit() -> Int32? {
        let handle = Int64(us_tointeger(L, us_upvalueindex(2), nil))
        guard let app = host.app(handle), app.faults.pendingAfterCommit != nil,
            let fault = app.firePendingAfterCommit(), fault.code != nil
        else { return nil }
        switch app.flavoured {
        case .backendless(let app): return fail(app.failure(for: fault))
        case .kii: return fail(KiiError(fault: fault))
        }
    }

    func fail(_ error: some LuaPresentable) -> Int32 {
        recordProduced(error)
        lua_pushnil(L)
        error.push(to: L)
        host.uncheckedErrors.wrap(L, error, call: function)
        return 2
    }

    /// Pushes what a domain method answered: a record as its table, `nil`, `true`, a text, a value, a list of
    /// records. Returns 1.
    func present(_ outcome: Outcome) -> Int32 {
        switch outcome {
        case .record(let record): LuaRecordWriter.push(L, record)
        case .nothing: lua_pushnil(L)
        case .done: lua_pushboolean(L, 1)
        case .text(let text): LuaValues.push(L, text)
        case .value(let value): LuaValues.push(L, value)
        case .records(let records): SharedBindings.pushList(L, records) { L, record in LuaRecordWriter.push(L, record) }
        case .app(let app): pushApp(app)
        case .apps(let apps):
            lua_createtable(L, Int32(clamping: apps.count), 0)
            for (position, app) in apps.enumerated() {
                pushApp(app)
                lua_rawseti(L, -2, lua_Integer(position + 1))
            }
        case .recordsByName(let records):
            lua_createtable(L, 0, Int32(clamping: records.count))
            let table = lua_gettop(L)
            for (name, record) in records {
                LuaRecordWriter.push(L, record)
                LuaValues.setField(L, table, name)
            }
        }
        return 1
    }

    /// Runs a backend call and pushes what it returns (a record), or `nil, err` for a backend error.
    func answer<Failure: Error & LuaPresentable>(_ body: () throws(Failure) -> some Presentable) -> Int32 {
        do throws(Failure) {
            let record = try body()
            if let failed = afterCommit() { return failed }
            LuaRecordWriter.push(L, record)
            return 1
        } catch {
            return fail(error)
        }
    }

    /// Runs a backend call and pushes its record, `nil` when it returns none, or `nil, err` for a backend error.
    func answer<Record: Presentable, Failure: Error & LuaPresentable>(optional body: () throws(Failure) -> Record?) -> Int32 {
        do throws(Failure) {
            let record = try body()
            if let failed = afterCommit() { return failed }
            if let record { LuaRecordWriter.push(L, record) } else { lua_pushnil(L) }
            return 1
        } catch {
            return fail(error)
        }
    }

    /// Runs a backend call that returns nothing and pushes `true`, or `nil, err` for a backend error.
    func answerTrue<Failure: Error & LuaPresentable>(_ body: () throws(Failure) -> Void) -> Int32 {
        do throws(Failure) {
            try body()
            if let failed = afterCommit() { return failed }
            return pushTrue()
        } catch {
            return fail(error)
        }
    }

    func push(_ text: String) -> Int32 {
        LuaValues.push(L, text)
        return 1
    }

    /// Pushes the app table of `app`, one of the host's backends (nil for another).
    private func pushApp(_ app: any EmulatedApp) {
        guard let index = host.apps.firstIndex(where: { $0 === app }) else { return lua_pushnil(L) }
        ServedBindings.pushApp(L, host: host, index: index)
    }

    func pushTrue() -> Int32 {
        lua_pushboolean(L, 1)
        return 1
    }
}

/// An error that knows how to show itself to a scenario as a table.
protocol LuaPresentable {
    func push(to L: OpaquePointer)
    /// One line for failure messages: the code(s) and the message.
    var summary: String { get }
}

/// What backends hold, counted towards a scenario's `--max-memory` (the estimates are `HeldBytes`).
package enum BackendMemory {
    /// One backend before its records (counted when a scenario creates it; `heldBytes` includes it).
    static let perApp = HeldBytes.perApp
    /// One push registration, or an OAuth account a scenario defines (charged when it is defined).
    static let perRegistration = HeldBytes.perRegistration

    /// The backend the running binding is bound to (upvalue 2), if any.
    static func boundApp(of host: ScenarioHost, handle L: OpaquePointer) -> (any EmulatedApp)? {
        guard lua_type(L, us_upvalueindex(2)) == LUA_TNUMBER else { return nil }
        return host.app(Int64(us_tointeger(L, us_upvalueindex(2), nil)))
    }

    /// One outbox push (its record; what the deliveries of one firing share is held once).
    package static let perPush = HeldBytes.perRecord
    /// What a firing of a scheduled message costs on the instruction budget, and each push it delivers.
    package static let instructionsPerFiring: Int64 = 10
    package static let instructionsPerPush: Int64 = 10

    /// What a backend holds: its running total, read at no cost.
    static func footprint(of app: any EmulatedApp) -> Int { app.heldBytes }
}
