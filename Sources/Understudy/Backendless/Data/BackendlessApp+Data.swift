/// The Data service on the `Users` table (contract version 4): save, find (with where clause, paging, order and
/// projection), first, last, by id, count, remove. Every call checks its fault first, then 19000 (the where clause
/// and the sort entries are read), then 1006 (every column named must be one `users.describe` lists).
extension BackendlessApp {
    /// A query checked against the table: its matcher, order and projection.
    struct PreparedQuery {
        var matcher: WhereMatcher
        var sortKeys: [(source: UsersColumn.Source, descending: Bool)]
        var columns: ColumnLookup
        /// The columns a record keeps, in order; nil for all.
        var kept: [UsersColumn]?
        /// Names left out of each record.
        var excluded: Set<String>
    }

    /// Reads `query`: 19000 for a where clause or sort entry that cannot be read, then 1006 for a column the
    /// table does not have (in the where clause, `sort_by`, `properties`, `exclude_properties`, in that order).
    func prepare(_ query: DataQuery) throws(BackendlessError) -> PreparedQuery {
        let clause: WhereClause
        do {
            clause = try WhereClause(parsing: query.whereClause ?? "")
        } catch {
            throw .invalidWhereClause(error.detail)
        }
        var keys: [DataQuery.SortKey] = []
        for entry in query.sortBy {
            guard let key = DataQuery.SortKey(parsing: entry) else { throw .invalidSortEntry(entry) }
            keys.append(key)
        }
        let columns = ColumnLookup(usersColumns)
        let matcher = try WhereMatcher(clause, columns: columns)
        var sortKeys: [(UsersColumn.Source, Bool)] = []
        for key in keys { sortKeys.append((try columns.column(key.column).source, key.descending)) }
        var kept: [UsersColumn]?
        if let properties = query.properties, !properties.contains("*") {
            var list: [UsersColumn] = []
            for name in properties {
                let column = try columns.column(name)
                if !list.contains(where: { $0.name == column.name }) { list.append(column) }
            }
            kept = list
        }
        var excluded: Set<String> = []
        for name in query.excludeProperties { excluded.insert(try columns.column(name).name) }
        return PreparedQuery(matcher: matcher, sortKeys: sortKeys, columns: columns, kept: kept, excluded: excluded)
    }

    // MARK: Reading

    /// `data.users.find(query?)`: the records matching `where`, sorted, then the page.
    package func dataFind(_ query: DataQuery = DataQuery()) throws(BackendlessError) -> [DataRecord] {
        return try findRecords(query)
    }

    /// `find` without its fault: shared with `roles.users`. `holding` narrows the rows to one role's users.
    func findRecords(_ query: DataQuery, holding role: String? = nil, loadRoles: Bool = false) throws(BackendlessError) -> [DataRecord] {
        let prepared = try prepare(query)
        let matches = self.matches(prepared, holding: role)
        let pageEnd = query.offset + query.pageSize
        let users: [StoredUser]
        if query.distinct {
            var seen = Set<DataRecord>()
            var unique: [DataRecord] = []
            for user in matches.sorted(by: order(prepared)) {
                let record = self.record(user, prepared)
                if seen.insert(record).inserted { unique.append(record) }
                if unique.count >= pageEnd { break }
            }
            guard query.offset < unique.count else { return [] }
            return Array(unique[query.offset..<min(pageEnd, unique.count)])
        } else {
            users = Self.smallest(matches, pageEnd, by: order(prepared))
        }
        guard query.offset < users.count else { return [] }
        return users[query.offset...].map { user in
            var record = self.record(user, prepared)
            if loadRoles { record.fields.insert(Property("roles", .array(roles.custom(of: user.objectID).map(Value.string))), at: record.fields.count - 1) }
            return record
        }
    }

    /// `data.users.find_first(query?)`: the first match in `find`'s order, or nil; paging is ignored.
    package func dataFindFirst(_ query: DataQuery = DataQuery()) throws(BackendlessError) -> DataRecord? {
        let prepared = try prepare(query)
        return Self.smallest(matches(prepared), 1, by: order(prepared)).first.map { record($0, prepared) }
    }

    /// `data.users.find_last(query?)`: the last match in `find`'s order, or nil; paging is ignored.
    package func dataFindLast(_ query: DataQuery = DataQuery()) throws(BackendlessError) -> DataRecord? {
        let prepared = try prepare(query)
        let precedes = order(prepared)
        return Self.smallest(matches(prepared), 1, by: { precedes($1, $0) }).first.map { record($0, prepared) }
    }

    /// `data.users.find_by_id(objectId, query?)`: the record; only the query's projection applies. 1000 for an
    /// unknown objectId, then 1006.
    package func dataFindByID(_ objectID: String, _ query: DataQuery? = nil) throws(BackendlessError) -> DataRecord {
        try projectedRecord(objectID, query)
    }

    /// `find_by_id` without its fault: the v2 route `GET data/Users/{objectId}` with `props` answers it.
    package func projectedRecord(_ objectID: String, _ query: DataQuery?) throws(BackendlessError) -> DataRecord {
        guard let id = Identifier128(parsing: objectID), let user = users[id] else { throw .entityNotFound(objectID) }
        var projection = DataQuery()
        projection.properties = query?.properties
        projection.excludeProperties = query?.excludeProperties ?? []
        return record(user, try prepare(projection))
    }

    /// `data.users.count(where?)`: the rows matching `where`, guests included.
    package func dataCount(_ whereClause: String? = nil) throws(BackendlessError) -> Int {
        let prepared = try prepare(DataQuery(whereClause: whereClause))
        if prepared.matcher.root == nil { return users.count }
        var count = 0
        for user in registrationOrder where !user.isDeleted && prepared.matcher.matches(user) { count += 1 }
        return count
    }

    /// The rows matching the query's where clause, in registration order (guests included).
    func matches(_ prepared: PreparedQuery, holding role: String? = nil) -> [StoredUser] {
        var found: [StoredUser] = []
        for user in registrationOrder where !user.isDeleted && prepared.matcher.matches(user) {
            if let role, !roles.custom(of: user.objectID).contains(role) { continue }
            found.append(user)
        }
        return found
    }

    /// `find`'s order: the sort keys, then `created`, then `objectId`.
    func order(_ prepared: PreparedQuery) -> (StoredUser, StoredUser) -> Bool {
        let keys = prepared.sortKeys
        return { left, right in
            for key in keys {
                var result = Self.sortOrder(key.source.cell(of: left), key.source.cell(of: right))
                if key.descending { result = -result }
                if result != 0 { return result < 0 }
            }
            if left.created != right.created { return left.created < right.created }
            if left.objectID.high != right.objectID.high { return left.objectID.high < right.objectID.high }
            return left.objectID.low < right.objectID.low
        }
    }

    /// How sorting orders two values: a missing value first, then booleans (`false` first), numbers and dates,
    /// strings without case.
    static func sortOrder(_ left: Cell, _ right: Cell) -> Int {
        func rank(_ cell: Cell) -> Int {
            switch cell {
            case .null: return 0
            case .bool: return 1
            case .number, .date: return 2
            case .string: return 3
            }
        }
        switch (left, right) {
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (!a ? -1 : 1)
        case (.string(let a), .string(let b)): return FoldedText.compare(a, b)
        default:
            func number(_ cell: Cell) -> Double? {
                switch cell {
                case .number(let value): return value
                case .date(let ms): return Double(ms)
                default: return nil
                }
            }
            if let a = number(left), let b = number(right) { return a < b ? -1 : (a > b ? 1 : 0) }
            return rank(left) - rank(right)
        }
    }

    /// The first `count` items in the order `precedes` defines: a bounded insertion for small pages, a sort for
    /// large ones.
    static func smallest(_ items: [StoredUser], _ count: Int, by precedes: (StoredUser, StoredUser) -> Bool) -> [StoredUser] {
        guard count > 0, !items.isEmpty else { return [] }
        if count >= items.count / 8 { return Array(items.sorted(by: precedes).prefix(count)) }
        var best: [StoredUser] = []
        best.reserveCapacity(count + 1)
        for item in items {
            if best.count == count, !precedes(item, best[count - 1]) { continue }
            var low = 0
            var high = best.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(item, best[middle]) { high = middle } else { low = middle + 1 }
            }
            best.insert(item, at: low)
            if best.count > count { best.removeLast() }
        }
        return best
    }

    /// The record of `user` with the query's projection.
    func record(_ user: StoredUser, _ prepared: PreparedQuery) -> DataRecord {
        var fields: [Property] = []
        if let kept = prepared.kept {
            for column in kept where column.source != .password && !prepared.excluded.contains(column.name) {
                fields.append(Property(column.name, column.source.value(of: user)))
            }
        } else {
            fields.reserveCapacity(user.properties.count + 10)
            for property in user.properties where !prepared.excluded.contains(property.name) { fields.append(property) }
            for column in prepared.columns.columns where !prepared.excluded.contains(column.name) {
                switch column.source {
                case .password: continue
                case .property(let name):
                    if user.properties[named: name] == nil { fields.append(Property(column.name, .null)) }
                default: fields.append(Property(column.name, column.source.value(of: user)))
                }
            }
        }
        fields.append(Property("___class", "Users"))
        return DataRecord(fields: fields)
    }

    /// The full record of `user`.
    func record(_ user: StoredUser) -> DataRecord {
        let columns = ColumnLookup(usersColumns)
        return record(user, PreparedQuery(matcher: WhereMatcher(), sortKeys: [], columns: columns, kept: nil, excluded: []))
    }

    // MARK: Changing

    /// `data.users.save(record, token?)`: without `objectId` registers a user as `users.register` does; with the
    /// `objectId` of a user updates it as `users.update` does (with `token`, only as that user). Errors: a fault;
    /// create: `users.register`'s; update: 3064 a token that is not a live session, 1000 an unknown objectId,
    /// then `users.update`'s from 3029 on.
    package func dataSave(_ record: [Property], token: String? = nil) throws(BackendlessError) -> DataRecord {
        guard let idValue = record[named: "objectId"], !idValue.isEmpty else {
            let created = try register(record.filter { $0.name != "objectId" && $0.name != "___class" })
            return self.record(users[created.identifier]!)
        }
        var caller: StoredUser?
        if let token {
            guard let session = Identifier128(parsing: token), let user = sessions[session] else { throw .unknownToken(token) }
            caller = user
        }
        let objectID = idValue.stringValue ?? "\(idValue)"
        guard let id = Identifier128(parsing: objectID), let user = users[id] else { throw .entityNotFound(objectID) }
        if let caller, caller !== user { throw .catalogue(3029) }
        _ = try applyUpdate(to: user, record)
        return self.record(user)
    }

    /// `data.users.remove(objectId)`: deletes the user as `users.delete` does; answers the deletion time.
    package func dataRemove(_ objectID: String) throws(BackendlessError) -> DataDeletion {
        try delete(objectID: objectID)
        return DataDeletion(deletionTime: clock.milliseconds)
    }
}


extension BackendlessError {
    /// 19000 over HTTP for a `sortBy` entry that is not `column`, `column asc` or `column desc`.
    static func invalidSortEntry(_ entry: String) -> BackendlessError {
        invalidWhereClause("sortBy entry '\(entry)': expected \"column\", \"column asc\" or \"column desc\"")
    }
}
