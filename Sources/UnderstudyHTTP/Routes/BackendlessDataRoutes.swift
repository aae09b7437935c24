internal import HTTPTypes
internal import Understudy

/// Contract version 4 of Backendless over HTTP: the Data service on the `Users` table (`data/Users…`), login by
/// objectId and status changes (CloudCode key), roles. Registered from `BackendlessRoutes.register`; each
/// handler reads the request and calls one domain method.
enum BackendlessDataRoutes {
    static func register(in table: inout RouteTable<RouteHandler>) {
    }

    // MARK: Reading requests

    /// 1009 for a table other than `Users` (other tables are out of scope).
    static func checkTable(_ exchange: Exchange) throws(BackendlessError) {
        let table = exchange.parameters["table"]
        if !table.isEmpty, table != "Users" {
            throw BackendlessError(
                code: 1009,
                message: "Table not found by name 'Table not found by name '\(table)'. Make sure the client class referenced in the API call has the same literal name as the table in Backendless console'"
            )
        }
    }

    /// A comma-separated list (`"a,b desc"`) or a JSON list of strings.
    static func list(_ value: JSON?) -> [String]? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            return text.split(separator: ",").map { String(String($0).trimmed(of: " \t")) }.filter { !$0.isEmpty }
        case .array(let items)?: return items.compactMap(BackendlessRoutes.text)
        case let other?: return BackendlessRoutes.text(other).map { [$0] }
        }
    }

    /// A whole number field (a JSON number or its text); 8002 naming it otherwise.
    static func whole(_ value: JSON?, _ name: String) throws(BackendlessError) -> Int? {
        switch value {
        case nil, .null?: return nil
        case .integer(let number)?: return Int(clamping: number)
        case .number(let number)? where number == number.rounded() && abs(number) < 1e15: return Int(number)
        case .string(let text)?: if let number = Int(text) { return number }
        default: break
        }
        throw BackendlessError.unparsableRequest("'\(name)' must be a whole number")
    }

    /// The query of a request: the JSON body's fields (`POST …/find`) or the query string's (`GET`), with the
    /// SDKs' names. 1025 / 1005 / 1004 for a page size or offset out of range; 19000 for `groupBy` / `having`.
    static func query(_ exchange: Exchange, fromBody: Bool) throws -> DataQuery {
        var fields: [String: JSON] = [:]
        if fromBody {
            for member in try BackendlessRoutes.object(exchange) ?? [] { fields[member.key] = member.value }
        } else {
            var properties: [String] = []
            for pair in FormEncoding.pairs(exchange.query) {
                if pair.name == "property" { properties.append(pair.value) } else if fields[pair.name] == nil { fields[pair.name] = .string(pair.value) }
            }
            if !properties.isEmpty, fields["props"] == nil { fields["props"] = .array(properties.map(JSON.string)) }
        }
        var query = DataQuery()
        let names = ["where": "where", "pageSize": "page_size", "offset": "offset", "sortBy": "sort_by", "props": "properties",
                     "excludeProps": "exclude_properties", "distinct": "distinct"]
        for (field, name) in names where fields[field] != nil && fields[field] != .null { query.given.insert(name) }
        if let text = BackendlessRoutes.text(fields["where"]), !text.isEmpty { query.whereClause = text }
        if let size = try whole(fields["pageSize"], "pageSize") {
            if size > DataQuery.maximumPageSize {
                throw BackendlessError(code: 1025, message: "Invalid pagesize. Page size cannot be greater than 100.")
            }
            if size < 1 { throw BackendlessError(code: 1005, message: "Invalid page size: \(size). Page size must be at least 1.") }
            query.pageSize = size
        }
        if let offset = try whole(fields["offset"], "offset") {
            if offset < 0 { throw BackendlessError(code: 1004, message: "Invalid offset: \(offset). Offset cannot be negative.") }
            query.offset = offset
        }
        for name in ["groupBy", "having"] where !(list(fields[name]) ?? []).isEmpty {
            throw BackendlessError.invalidWhereClause("unsupported by Understudy: \(name)")
        }
        query.sortBy = list(fields["sortBy"]) ?? []
        query.properties = list(fields["props"])
        query.excludeProperties = list(fields["excludeProps"]) ?? []
        switch fields["distinct"] {
        case .bool(let flag)?: query.distinct = flag
        case .string(let text)?: query.distinct = text == "true"
        default: break
        }
        return query
    }

    static func records(_ records: [DataRecord]) -> JSON {
        .array(records.map { JSONRecordWriter.json($0) })
    }

    // MARK: Data service

    /// 1010 when no record matches.
    static let emptyStore = BackendlessError(code: 1010, message: "Unable to retrieve data - object store is empty", httpStatus: 404)

    // MARK: Routes shared with earlier versions

    /// `GET data/Users/{objectId}`: the declared `users.get`, or, with `props`, `property` or `excludeProps`, the
    /// Data service's record with that projection (contract version 4). Not derived (issue 28): the query decides
    /// the reply's shape and the domain method (`projectedRecord`), while the journal and the faults stay `users.get`'s.
    static let getUserOrRecord: RouteHandler = {
        let get = BackendlessOperation.getUser
        let declared = VendorAdapter.handler(get, get.declaration.routes[0])
        return { exchange in
            guard ["props", "property", "excludeProps"].contains(where: { exchange.queryItem($0) != nil }) else {
                return declared(&exchange)
            }
            return BackendlessRoutes.serve(&exchange, get) { app, exchange in
                try VendorAdapter.guardRoute(.liveUserToken, app, exchange)
                let objectID = exchange.parameters["objectId"]
                try app.checkAdapterFaults(get, [.string(objectID)])
                let query = try query(exchange, fromBody: false)
                return Reply(body: JSONRecordWriter.json(try app.projectedRecord(objectID, query)))
            }
        }
    }()

}

extension String {
    /// The text without leading and trailing characters of `set`.
    func trimmed(of set: String) -> Substring {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
