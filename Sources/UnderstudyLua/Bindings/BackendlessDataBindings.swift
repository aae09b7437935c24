internal import CLua
internal import CLuaShim
internal import Understudy

/// Contract version 4 of Backendless in Lua: `app.data.users.*` (the Data service on the `Users` table),
/// `users.describe`, `users.login_by_id`, `users.update_status`, `app.roles.*`. Registered in
/// `BackendlessBindings.binding(for:)`.
enum BackendlessDataBindings {
    /// A query table read into a `DataQuery`: its fields checked by the declaration, the ranges here (misuse
    /// raises: `query.page_size must be a whole number from 1 to 100, got 0`).
    static func query(_ fields: [String: Value]?, _ name: String = "query") throws(LuaMisuse) -> DataQuery? {
        guard let fields else { return nil }
        var query = DataQuery()
        query.given = Set(fields.keys)
        query.passed = .object(fields)
        query.whereClause = fields["where"]?.stringValue
        if case .int(let size)? = fields["page_size"] {
            guard (1...Int64(DataQuery.maximumPageSize)).contains(size) else {
                throw LuaMisuse("\(name).page_size must be a whole number from 1 to \(DataQuery.maximumPageSize), got \(size)")
            }
            query.pageSize = Int(size)
        }
        if case .int(let offset)? = fields["offset"] {
            guard offset >= 0, offset <= Int64(Int32.max) else { throw LuaMisuse("\(name).offset must be a whole number ≥ 0, got \(offset)") }
            query.offset = Int(offset)
        }
        switch fields["sort_by"] {
        case nil: break
        case .string(let entry)?: query.sortBy = [entry]
        case .array(let items)?:
            for item in items {
                guard let entry = item.stringValue else {
                    throw LuaMisuse("\(name).sort_by must be a string or a list of strings, got a list holding a \(item.kindName)")
                }
                query.sortBy.append(entry)
            }
        case .object(let members)? where members.isEmpty: break
        case let other?: throw LuaMisuse("\(name).sort_by must be a string or a list of strings, got \(other.kindName)")
        }
        for entry in query.sortBy where DataQuery.SortKey(parsing: entry) == nil {
            throw LuaMisuse("\(name).sort_by entry \"\(entry)\" must be \"column\", \"column asc\" or \"column desc\"")
        }
        if case .array(let items)? = fields["properties"] { query.properties = items.compactMap(\.stringValue) }
        if case .object? = fields["properties"] { query.properties = [] }
        if case .array(let items)? = fields["exclude_properties"] { query.excludeProperties = items.compactMap(\.stringValue) }
        if case .bool(let flag)? = fields["distinct"] { query.distinct = flag }
        return query
    }

    /// Runs `body` and pushes its records as a list, or `nil, err`.
    static func answerList(_ call: LuaCall, _ body: () throws(BackendlessError) -> [DataRecord]) -> Int32 {
        do throws(BackendlessError) {
            let records = try body()
            SharedBindings.pushList(call.L, records) { L, record in LuaRecordWriter.push(L, record) }
            return 1
        } catch {
            return call.fail(error)
        }
    }

    // MARK: data.users

    static let save: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.dataSave) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: BackendlessOperation.dataSave)
            let app = try call.backendless()
            let record = arguments.properties("record")
            let token = arguments.optionalString("token")
            return call.answer { () throws(BackendlessError) in try app.dataSave(record, token: token) }
        }
    }

    static let find: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.dataFind) { call throws(LuaMisuse) in
            _ = try call.arguments(of: BackendlessOperation.dataFind)
            let query = try query(call.fields(of: BackendlessOperation.dataFind, "query")) ?? DataQuery()
            let app = try call.backendless()
            return answerList(call) { () throws(BackendlessError) in try app.dataFind(query) }
        }
    }

    static let findFirst: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.dataFindFirst) { call throws(LuaMisuse) in
            _ = try call.arguments(of: BackendlessOperation.dataFindFirst)
            let query = try query(call.fields(of: BackendlessOperation.dataFindFirst, "query")) ?? DataQuery()
            let app = try call.backendless()
            return call.answer(optional: { () throws(BackendlessError) in try app.dataFindFirst(query) })
        }
    }

    static let findLast: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.dataFindLast) { call throws(LuaMisuse) in
            _ = try call.arguments(of: BackendlessOperation.dataFindLast)
            let query = try query(call.fields(of: BackendlessOperation.dataFindLast, "query")) ?? DataQuery()
            let app = try call.backendless()
            return call.answer(optional: { () throws(BackendlessError) in try app.dataFindLast(query) })
        }
    }

    static let findByID: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.dataFindByID) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: BackendlessOperation.dataFindByID)
            let query = try query(call.fields(of: BackendlessOperation.dataFindByID, "query"))
            let objectID = arguments.string("objectId")
            let app = try call.backendless()
            return call.answer { () throws(BackendlessError) in try app.dataFindByID(objectID, query) }
        }
    }

    static let users: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.roleUsers) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: BackendlessOperation.roleUsers)
            let options = try call.fields(of: BackendlessOperation.roleUsers, "options")
            var loadRoles: Bool?
            if case .bool(let flag)? = options?["load_roles"] { loadRoles = flag }
            var queryFields: [String: Value]?
            if case .object(let members)? = options?["query"] { queryFields = members }
            if case .array(let items)? = options?["query"], items.isEmpty { queryFields = [:] }
            let query = try query(queryFields, "options.query")
            let role = arguments.string("role")
            let app = try call.backendless()
            var faultOptions: Value = .null
            if let options { faultOptions = .object(options) }
            return answerList(call) { () throws(BackendlessError) in
                try app.roleUsers(role: role, loadRoles: loadRoles, query: query, faultOptions: faultOptions)
            }
        }
    }
}
