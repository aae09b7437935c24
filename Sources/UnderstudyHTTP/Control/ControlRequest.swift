#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import Understudy

/// A control request that cannot be carried out; `reply` says why (`{"error": CODE, "message": …}`).
struct ControlRefusal: Error {
    var reply: Reply

    init(reply: Reply) {
        self.reply = reply
    }

    /// A refusal in the control area's shape.
    init(_ status: Int, _ code: String, _ message: String) {
        reply = ServerFailures.reply(.control, status: status, backendlessCode: 0, kiiCode: code, message: message)
    }

    /// 400 `INVALID_INPUT`: a field of the body or the query holds something unusable (the message names it).
    static func invalid(_ message: String) -> ControlRefusal {
        ControlRefusal(400, "INVALID_INPUT", message)
    }
}

/// A control handler: reads the request, works on the stage, answers. Runs under the server's lock.
typealias ControlHandler = @Sendable (ControlRequest) throws(ControlRefusal) -> Reply

/// One control request as a handler sees it: the stage, the query and the body, with the checks every control
/// route shares (unknown query parameters, app lookup, JSON bodies).
struct ControlRequest {
    let exchange: Exchange

    var stage: Stage { exchange.stage }

    /// Wraps a control handler as a route handler: refuses unknown query parameters (a typo should not pass
    /// silently) and turns refusals into replies.
    static func handler(query known: [String] = [], _ body: @escaping ControlHandler) -> RouteHandler {
        { exchange in
            let request = ControlRequest(exchange: exchange)
            do throws(ControlRefusal) {
                try request.rejectUnknownQuery(known: known)
                return try body(request)
            } catch {
                return error.reply
            }
        }
    }

    // MARK: Query

    /// The names of the query parameters, decoded, in order.
    var queryNames: [String] {
        FormEncoding.pairs(exchange.query).map(\.name).filter { !$0.isEmpty }
    }

    func rejectUnknownQuery(known: [String]) throws(ControlRefusal) {
        for name in queryNames where !known.contains(name) {
            let accepted = known.isEmpty ? "this route takes none" : "known: \(known.joined(separator: ", "))"
            throw .invalid("unknown query parameter '\(name)'\(NearestName.suggestion(for: name, among: known, quote: "'")) (\(accepted))")
        }
    }

    /// Query parameter `name`, or nil when absent. An empty value counts as absent.
    func query(_ name: String) -> String? {
        guard let value = exchange.queryItem(name), !value.isEmpty else { return nil }
        return value
    }

    /// Query parameter `name` as a whole number of at least 0.
    func count(_ name: String) throws(ControlRefusal) -> Int? {
        guard let text = query(name) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw .invalid("query parameter \(name) must be a whole number of at least 0, got '\(text)'")
        }
        return number
    }

    // MARK: Apps

    /// The app served under `name`; also `backendless` or `kii` for the first app of that flavour (as
    /// `understudy.app(name)` reads it). 404 `UNKNOWN_APP` listing the apps otherwise.
    func app(named name: String, field: String = "query parameter app") throws(ControlRefusal) -> any EmulatedApp {
        if let app = stage.world.app(named: name) { return app }
        let names = stage.world.apps.map(\.appID) + ["backendless", "kii"]
        let suggestion = NearestName.suggestion(for: name, among: names, quote: "'")
        throw ControlRefusal(404, "UNKNOWN_APP", "\(field): no app is served under '\(name)'\(suggestion) (\(servedApps))")
    }

    /// `apps: ID (flavour), …`, for messages.
    var servedApps: String { stage.world.appList }

    /// The app the `app` query parameter names, or every app when it is absent.
    func selectedApps() throws(ControlRefusal) -> [any EmulatedApp] {
        guard let name = query("app") else { return stage.apps }
        return [try app(named: name)]
    }

    /// The app the `app` query parameter names; without it, the only app. 400 when the server has several.
    func requiredApp() throws(ControlRefusal) -> any EmulatedApp {
        if let name = query("app") { return try app(named: name) }
        guard stage.apps.count == 1 else {
            throw .invalid("query parameter app is required when the server has more than one app (\(servedApps))")
        }
        return stage.apps[0]
    }

    // MARK: Body

    /// The JSON body as an object's members; nil for an empty body. Any content type is read as JSON (so
    /// `curl -d '{…}'` works), but the body must parse.
    func optionalObject() throws(ControlRefusal) -> [JSON.Member]? {
        do throws(Refusal) { return try exchange.jsonObject(.control) } catch { throw ControlRefusal(reply: error.reply) }
    }

    /// The JSON body as an object's members; 400 for an empty body.
    func object(example: String) throws(ControlRefusal) -> [JSON.Member] {
        guard let members = try optionalObject() else {
            throw .invalid("the body must be a JSON object such as \(example)")
        }
        return members
    }

    /// Refuses members whose names are not in `known`, and names given twice.
    static func rejectUnknownFields(_ members: [JSON.Member], known: [String], in name: String) throws(ControlRefusal) {
        var seen = Set<String>()
        for member in members {
            guard known.contains(member.key) else {
                throw .invalid(
                    "\(name) has an unknown field '\(member.key)'\(NearestName.suggestion(for: member.key, among: known, quote: "'")) (known fields: \(known.joined(separator: ", ")))"
                )
            }
            guard seen.insert(member.key).inserted else { throw .invalid("\(name) has the field '\(member.key)' twice") }
        }
    }

    /// The body as text, for routes that take Lua: `text/plain`, `application/x-lua`, `text/x-lua` or no
    /// content type. 415 for the rest (curl's `-d` sends a form type and strips newlines: use `--data-binary`).
    func luaText() throws(ControlRefusal) -> String {
        if let type = exchange.mediaType, !["text/plain", "application/x-lua", "text/x-lua"].contains(type) {
            throw ControlRefusal(
                reply: ServerFailures.unsupportedMediaType(
                    .control, got: type,
                    expected: "the Lua text as text/plain or application/x-lua (curl: --data-binary @file.lua -H 'Content-Type: text/plain')"
                )
            )
        }
        guard let text = String(validating: exchange.body, as: UTF8.self) else {
            throw .invalid("the body must be UTF-8 text")
        }
        return text
    }
}

extension JSON {
    /// The members of an object as a lookup (first occurrence wins); callers reject repeats first.
    static func lookup(_ members: [JSON.Member]) -> [String: JSON] {
        var fields: [String: JSON] = [:]
        for member in members where fields[member.key] == nil { fields[member.key] = member.value }
        return fields
    }
}
