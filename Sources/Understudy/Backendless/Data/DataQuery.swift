/// A query of the Data service on the `Users` table (contract version 4): where clause, paging, order,
/// projection. The adapters check the ranges (Lua raises, HTTP answers 1025/1005/1004) before the domain sees it.
package struct DataQuery: Sendable, Hashable {
    package var whereClause: String?
    /// 1-100.
    package var pageSize = 10
    /// ≥ 0.
    package var offset = 0
    /// Entries `"column"`, `"column asc"`, `"column desc"`; earlier entries first.
    package var sortBy: [String] = []
    /// The columns each record keeps (plus `___class`); nil for all. `"*"` means every column.
    package var properties: [String]?
    package var excludeProperties: [String] = []
    package var distinct = false

    package init(whereClause: String? = nil) {
        self.whereClause = whereClause
    }

    /// The largest page.
    package static let maximumPageSize = 100

    /// One `sort_by` entry read.
    package struct SortKey: Sendable, Hashable {
        package var column: String
        package var descending: Bool

        /// Reads `"column"`, `"column asc"` or `"column desc"` (`asc`/`desc` without case, blanks around);
        /// nil for anything else.
        package init?(parsing entry: String) {
            let words = entry.split(whereSeparator: { $0.isWhitespace })
            guard (1...2).contains(words.count), let first = words.first?.unicodeScalars.first,
                WhereLexer.isLetter(first),
                words[0].unicodeScalars.allSatisfy({ WhereLexer.isLetter($0) || WhereLexer.isDigit($0) })
            else { return nil }
            column = String(words[0])
            if words.count == 2 {
                switch words[1].lowercased() {
                case "asc": descending = false
                case "desc": descending = true
                default: return nil
                }
            } else {
                descending = false
            }
        }
    }

    /// The fields the caller gave, by their Lua names (`where`, `page_size`, ...): what a fault's `when(args)`
    /// sees (fine point 18: a field left out is nil there, its default applied after the predicate).
    package var given: Set<String> = []
    /// The query exactly as a Lua caller passed it, when one did: `when(args)` sees it as it was written.
    package var passed: Value?

    /// The value as a fault's `when(args)` sees it: `{ where, page_size, offset, sort_by, properties,
    /// exclude_properties, distinct }` with only the fields given; nil when none was.
    package var faultValue: Value {
        if let passed { return passed }
        if given.isEmpty { return .null }
        var fields: [String: Value] = [:]
        if given.contains("where") { fields["where"] = Value(whereClause) }
        if given.contains("page_size") { fields["page_size"] = .int(Int64(pageSize)) }
        if given.contains("offset") { fields["offset"] = .int(Int64(offset)) }
        if given.contains("sort_by") { fields["sort_by"] = .array(sortBy.map(Value.string)) }
        if given.contains("properties") { fields["properties"] = .array((properties ?? []).map(Value.string)) }
        if given.contains("exclude_properties") { fields["exclude_properties"] = .array(excludeProperties.map(Value.string)) }
        if given.contains("distinct") { fields["distinct"] = .bool(distinct) }
        return .object(fields)
    }
}

/// A row of the `Users` table as the Data service returns it: the user's columns (never the password) and
/// `___class = "Users"`, or only those a query's `properties` keep.
package struct DataRecord: Sendable, Hashable {
    package var fields: [Property]
}

extension DataRecord: Presentable {
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        for field in fields { writer.write(dynamic: field.name, field.value) }
    }
}

/// `data.users.remove`'s answer.
package struct DataDeletion: Sendable, Hashable {
    /// Milliseconds on the virtual clock.
    package var deletionTime: Int64
}

extension DataDeletion: Presentable {
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("deletionTime", deletionTime)
    }
}

extension DataQuery: TypedArgument {
    /// A query table as a scenario passes it (its declared fields already read), checked with the Lua rules
    /// (misuse: `query.page_size must be a whole number from 1 to 100, got 0`); nil when there is none. `name` is
    /// the table's path in messages (`query`, `options.query`).
    package static func lua(_ fields: [String: Value]?, _ name: String = "query") throws(CallMisuse) -> DataQuery? {
        guard let fields else { return nil }
        var query = DataQuery()
        query.given = Set(fields.keys)
        query.passed = .object(fields)
        query.whereClause = fields["where"]?.stringValue
        if case .int(let size)? = fields["page_size"] {
            guard (1...Int64(DataQuery.maximumPageSize)).contains(size) else {
                throw CallMisuse("\(name).page_size must be a whole number from 1 to \(DataQuery.maximumPageSize), got \(size)")
            }
            query.pageSize = Int(size)
        }
        if case .int(let offset)? = fields["offset"] {
            guard offset >= 0, offset <= Int64(Int32.max) else { throw CallMisuse("\(name).offset must be a whole number ≥ 0, got \(offset)") }
            query.offset = Int(offset)
        }
        switch fields["sort_by"] {
        case nil: break
        case .string(let entry)?: query.sortBy = [entry]
        case .array(let items)?:
            for item in items {
                guard let entry = item.stringValue else {
                    throw CallMisuse("\(name).sort_by must be a string or a list of strings, got a list holding a \(item.kindName)")
                }
                query.sortBy.append(entry)
            }
        case .object(let members)? where members.isEmpty: break
        case let other?: throw CallMisuse("\(name).sort_by must be a string or a list of strings, got \(other.kindName)")
        }
        for entry in query.sortBy where DataQuery.SortKey(parsing: entry) == nil {
            throw CallMisuse("\(name).sort_by entry \"\(entry)\" must be \"column\", \"column asc\" or \"column desc\"")
        }
        if case .array(let items)? = fields["properties"] { query.properties = items.compactMap(\.stringValue) }
        if case .object? = fields["properties"] { query.properties = [] }
        if case .array(let items)? = fields["exclude_properties"] { query.excludeProperties = items.compactMap(\.stringValue) }
        if case .bool(let flag)? = fields["distinct"] { query.distinct = flag }
        return query
    }

    /// The query of a call: as an HTTP resolver built it, else from the Lua fields (checked by the declaration's
    /// `MisuseCheck.dataQuery` before the method runs, so this cannot fail).
    package static func of(_ arguments: CallArguments, _ name: String) -> DataQuery? {
        if let typed = arguments.typed(name, as: DataQuery.self) { return typed }
        return (try? lua(arguments.fields(name), name)) ?? nil
    }
}

/// `roles.users`' options: `load_roles` and a query. Over HTTP built by the `backendlessRoleUsersOptions`
/// resolver from `loadRoles` and the query parameters; from Lua, the declared fields.
package struct RoleUsersOptions: TypedArgument {
    package var loadRoles: Bool?
    package var query: DataQuery?

    package init(loadRoles: Bool?, query: DataQuery?) {
        self.loadRoles = loadRoles
        self.query = query
    }

    /// `{ load_roles, query }` with only what was given; nil for neither.
    package var faultValue: Value {
        var options: [String: Value] = [:]
        if let loadRoles { options["load_roles"] = .bool(loadRoles) }
        if let query, query.faultValue != .null { options["query"] = query.faultValue }
        return options.isEmpty ? .null : .object(options)
    }

    /// The options of a call: as the HTTP resolver built them, else the Lua table's fields (its `query` checked
    /// by the declaration's `MisuseCheck.roleUsersOptions` before the method runs).
    package static func of(_ arguments: CallArguments, _ name: String) -> RoleUsersOptions {
        if let typed = arguments.typed(name, as: RoleUsersOptions.self) { return typed }
        var loadRoles: Bool?
        if case .bool(let flag)? = arguments.fields(name)?["load_roles"] { loadRoles = flag }
        return RoleUsersOptions(loadRoles: loadRoles, query: (try? lua(arguments, name)) ?? nil)
    }

    /// The Lua options' query, checked by the Lua rules (`options.query.page_size must be ...`).
    static func lua(_ arguments: CallArguments, _ name: String) throws(CallMisuse) -> DataQuery? {
        let fields = arguments.fields(name)
        var queryFields: [String: Value]?
        if case .object(let members)? = fields?["query"] { queryFields = members }
        if case .array(let items)? = fields?["query"], items.isEmpty { queryFields = [:] }
        return try DataQuery.lua(queryFields, "\(name).query")
    }
}

extension MisuseCheck {
    /// A Data service query table's page size (1-100), offset (≥ 0) and `sort_by` entries, by the Lua rules
    /// (`DataQuery.lua`), for the table argument `name`.
    package static func dataQuery(_ name: String) -> MisuseCheck {
        MisuseCheck { arguments throws(CallMisuse) in _ = try DataQuery.lua(arguments.fields(name), name) }
    }

    /// `roles.users`' options: their `query`, as `dataQuery`'s.
    package static func roleUsersOptions(_ name: String) -> MisuseCheck {
        MisuseCheck { arguments throws(CallMisuse) in _ = try RoleUsersOptions.lua(arguments, name) }
    }
}
