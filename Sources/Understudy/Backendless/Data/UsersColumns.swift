/// The columns of the `Users` table (contract version 4): what `users.describe` lists, what a where clause, a
/// `sort_by` or `properties` may name, and how each reads its value from a stored user.
package struct UsersColumn: Sendable, Hashable {
    /// The column's type as `users.describe` reports it.
    package enum ColumnType: String, Sendable, Hashable {
        case stringID = "STRING_ID"
        case string = "STRING"
        case dateTime = "DATETIME"
        case int = "INT"
        case double = "DOUBLE"
        case boolean = "BOOLEAN"
    }

    /// Where a column's value comes from.
    enum Source: Sendable, Hashable {
        case objectID, ownerID, userStatus, socialAccount, created, updated, lastLogin, password
        /// A stored property (`email`, `name`, a declared or dynamic one).
        case property(String)
    }

    package var name: String
    package var type: ColumnType
    package var required = false
    package var identity = false
    package var isPrimaryKey = false
    var source: Source
}

extension UsersColumn: Presentable {
    /// `{ name, required, type, defaultValue, identity, relatedTable, customRegex, autoLoad, isPrimaryKey }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("name", name)
        writer.write("required", required)
        writer.write("type", type.rawValue)
        writer.write("defaultValue", null: ())
        writer.write("identity", identity)
        writer.write("relatedTable", null: ())
        writer.write("customRegex", null: ())
        writer.write("autoLoad", false)
        writer.write("isPrimaryKey", isPrimaryKey)
    }
}

/// One value of a column as a where clause and sorting compare it.
enum Cell {
    case null
    case string(String)
    case number(Double)
    case bool(Bool)
    /// A DATETIME: milliseconds since the epoch.
    case date(Int64)

    init(_ value: Value?) {
        switch value {
        case .string(let text)?: self = .string(text)
        case .int(let number)?: self = .number(Double(number))
        case .double(let number)?: self = .number(number)
        case .bool(let flag)?: self = .bool(flag)
        default: self = .null
        }
    }
}

extension UsersColumn.Source {
    /// The cell of this column for `user`.
    func cell(of user: StoredUser) -> Cell {
        switch self {
        case .property(let name):
            for property in user.properties where property.name == name { return Cell(property.value) }
            return .null
        case .objectID, .ownerID: return .string(user.objectID.formatted())
        case .userStatus: return .string(user.status.rawValue)
        case .socialAccount: return .string(user.socialAccount)
        case .created: return .date(user.created)
        case .updated: return user.updated.map(Cell.date) ?? .null
        case .lastLogin: return user.lastLogin.map(Cell.date) ?? .null
        case .password: return .null
        }
    }

    /// The column's value for a record.
    func value(of user: StoredUser) -> Value {
        switch self {
        case .property(let name): return user.properties[named: name] ?? .null
        case .objectID, .ownerID: return .string(user.objectID.formatted())
        case .userStatus: return .string(user.status.rawValue)
        case .socialAccount: return .string(user.socialAccount)
        case .created: return .int(user.created)
        case .updated: return user.updated.map(Value.int) ?? .null
        case .lastLogin: return user.lastLogin.map(Value.int) ?? .null
        case .password: return .null
        }
    }
}

extension BackendlessApp {
    /// The columns always present, before the declared and dynamic ones.
    static let fixedColumns: [UsersColumn] = [
        UsersColumn(name: "objectId", type: .stringID, isPrimaryKey: true, source: .objectID),
        UsersColumn(name: "ownerId", type: .string, source: .ownerID),
        UsersColumn(name: "email", type: .string, source: .property("email")),
        UsersColumn(name: "name", type: .string, source: .property("name")),
        UsersColumn(name: "password", type: .string, required: true, source: .password),
        UsersColumn(name: "userStatus", type: .string, source: .userStatus),
        UsersColumn(name: "socialAccount", type: .string, source: .socialAccount),
        UsersColumn(name: "blUserLocale", type: .string, source: .property("blUserLocale")),
        UsersColumn(name: "created", type: .dateTime, source: .created),
        UsersColumn(name: "updated", type: .dateTime, source: .updated),
        UsersColumn(name: "lastLogin", type: .dateTime, source: .lastLogin),
    ]

    /// Every column of the `Users` table, sorted by name in byte order: the fixed ones, the identity property,
    /// every declared property and every dynamic property any user has ever held (typed by its first value).
    package var usersColumns: [UsersColumn] {
        var columns: [String: UsersColumn] = [:]
        for column in Self.fixedColumns { columns[column.name] = column }
        for (name, type) in heldColumns where columns[name] == nil {
            columns[name] = UsersColumn(name: name, type: type ?? .string, source: .property(name))
        }
        for (name, rule) in settings.properties {
            var column = columns[name] ?? UsersColumn(name: name, type: .string, source: .property(name))
            if Self.fixedColumns.allSatisfy({ $0.name != name }) { column.type = .string }
            column.required = rule.required || column.required
            columns[name] = column
        }
        let identity = settings.identity
        var identityColumn = columns[identity] ?? UsersColumn(name: identity, type: .string, source: .property(identity))
        identityColumn.identity = true
        columns[identity] = identityColumn
        return columns.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// Records the columns `properties` adds to the table: a dynamic column stays once any user held it, typed by
    /// its first non-null value.
    func noteColumns(_ properties: [Property]) {
        for property in properties {
            let type = Self.columnType(of: property.value)
            if let known = heldColumns[property.name] {
                if known == nil, let type { heldColumns[property.name] = type }
            } else {
                heldColumns[property.name] = .some(type)
                consoleBytes += Self.heldBytes(ofColumn: property.name)
            }
        }
    }

    /// What a column `users.describe` keeps listing holds (`HeldBytes`).
    static func heldBytes(ofColumn name: String) -> Int { HeldBytes.perEntry + HeldBytes.of(name) }

    static func columnType(of value: Value) -> UsersColumn.ColumnType? {
        switch value {
        case .string: return .string
        case .int: return .int
        case .double: return .double
        case .bool: return .boolean
        default: return nil
        }
    }
}

/// The columns of the table by name without regard to case (fine point 16), built once per call.
struct ColumnLookup {
    let columns: [UsersColumn]
    private var byFoldedName: [String: UsersColumn] = [:]

    init(_ columns: [UsersColumn]) {
        self.columns = columns
        for column in columns {
            let key = column.name.lowercased()
            if byFoldedName[key] == nil { byFoldedName[key] = column }
        }
    }

    /// The column `name` (as written) means; 1006 when the table has none.
    func column(_ name: String) throws(BackendlessError) -> UsersColumn {
        if let column = byFoldedName[name.lowercased()] { return column }
        throw .unknownColumn(name)
    }
}

extension BackendlessError {
    /// 1006: a column the `Users` table does not have, quoted as written.
    static func unknownColumn(_ name: String) -> BackendlessError {
        BackendlessError(code: 1006, message: "Column '\(name)' does not exist in table 'Users'")
    }

    /// 19000: a where clause (or a sort entry over HTTP) that cannot be read.
    package static func invalidWhereClause(_ detail: String) -> BackendlessError {
        BackendlessError(code: 19000, message: "Invalid where clause: \(detail)")
    }
}
