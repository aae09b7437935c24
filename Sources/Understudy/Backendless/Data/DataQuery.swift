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
