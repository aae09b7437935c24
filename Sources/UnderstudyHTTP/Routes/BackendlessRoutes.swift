#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import HTTPTypes
internal import Understudy

/// The Backendless REST API under `/{appId}/{apiKey}/`: registration, login, logout, guest login, the email
/// confirmation link, push device registrations and publishing. Bodies, replies and errors as the real service
/// sends them (`{"code","message","errorData"}` with the status of `errors.md`).
enum BackendlessRoutes {
    static let prefix = "/{appId}/{apiKey}"

    static func register(in table: inout RouteTable<RouteHandler>) {
        table.addDeclared(
            BackendlessOperation.self,
            handlers: [.resetPassword: BackendlessLifecycleRoutes.changePassword],
            variants: [
                .getUser: ["projection": BackendlessDataRoutes.getUserOrRecord],
                .resetPassword: ["page": BackendlessLifecycleRoutes.changePasswordPage],
            ]
        )
        BackendlessAMFGateway.register(in: &table)
    }

    // MARK: Plumbing

    /// Finds the app of the path (2002 when the id or key is wrong), runs `body`, and turns errors and fired
    /// faults into the reply.
    static func serve(
        _ exchange: inout Exchange, _ operation: BackendlessOperation?, _ body: (BackendlessApp, inout Exchange) throws -> Reply
    ) -> Reply {
        exchange.flavour = Flavour.backendless.rawValue
        exchange.operation = operation?.name
        let appID = exchange.parameters["appId"]
        exchange.appID = appID
        guard let app = exchange.stage.world.backendless(id: appID),
            app.settings.apiKey == exchange.parameters["apiKey"] || app.settings.cloudCodeKey == exchange.parameters["apiKey"]
        else {
            return BackendlessError.catalogue(2002).reply
        }
        return Reply.answer(.backendless, app: app) {
            if let operation, operation.isAnsweredByAdapter { try app.checkAdapterFaults(operation, exchange.declaredArguments(of: operation)) }
            return try body(app, &exchange)
        }
    }

    /// The key a request is made with: the CloudCode key, or the client key (contract version 4).
    static func key(_ exchange: Exchange, _ app: BackendlessApp) -> APIKeyKind {
        exchange.parameters["apiKey"] == app.settings.cloudCodeKey && app.settings.cloudCodeKey != app.settings.apiKey ? .cloudcode : .rest
    }

    /// The JSON body as an object's members; nil for an empty body. Refuses other content types and shapes.
    static func object(_ exchange: Exchange) throws(Refusal) -> [JSON.Member]? {
        try exchange.jsonObject(.backendless, accepts: { $0 == "application/json" || $0.hasSuffix("+json") })
    }

    /// A value a property may hold over HTTP: a string, number, boolean or null.
    static func propertyValue(_ member: JSON.Member) throws(BackendlessError) -> Value {
        switch member.value {
        case .array, .object:
            throw BackendlessError(
                code: 3021,
                message: "Unable to register user due to error: property '\(member.key)' must be a string, number, boolean or null, got \(member.value.kindName)"
            )
        default: return member.value.value
        }
    }

    /// A string field; numbers and booleans are read as their text.
    static func text(_ value: JSON?) -> String? {
        switch value {
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        case .number(let number)?: return String(number)
        case .bool(let flag)?: return String(flag)
        default: return nil
        }
    }

    // MARK: Users

    // MARK: Push

    /// `expiration` as the SDKs send it: seconds (JS), milliseconds (Swift, Flutter), or an ISO 8601 string
    /// (Flutter REST). Numbers above 10^11 are milliseconds. Anything else reaches the backend as it is, which
    /// answers 5004 for it as for a date the virtual clock can never show.
    static func expiration(_ value: JSON?) -> Value? {
        switch value {
        case nil, .null?: return nil
        case .integer(let number)?:
            return number > 100_000_000_000 ? .double(Double(number) / 1000) : .int(number)
        case .number(let number)?: return .double(number > 100_000_000_000 ? number / 1000 : number)
        case .string(let text)?:
            if let date = try? Date(text, strategy: .iso8601) { return .double(date.timeIntervalSince1970) }
            return .string(text)
        case let other?: return other.value
        }
    }

    static func formatError(_ detail: String) -> BackendlessError {
        .wrongDeviceJSON(detail)
    }

    /// A device registration's fields by the contract's names, read from the SDKs' body (`deviceToken`, `os` in any
    /// case, `channels` a list or one name, `expiration` by `expiration(_:)`): 5006 without a body.
    static func deviceRegistration(_ body: JSON?) throws -> [String: Value] {
        guard let body else { throw BackendlessError.catalogue(5006) }
        guard let token = text(body["deviceToken"]), !token.isEmpty else { throw formatError("deviceToken is required") }
        let osNames = DeviceRegistration.OperatingSystem.allCases.map(\.rawValue)
        guard let osName = text(body["os"]), let os = DeviceRegistration.OperatingSystem(rawValue: osName.uppercased()) else {
            throw formatError("os must be one of \(osNames.joined(separator: ", "))")
        }
        var channels: [String]?
        switch body["channels"] {
        case nil, .null?: channels = nil
        case .array(let items)?:
            channels = []
            for item in items {
                guard case .string(let name) = item else { throw formatError("channels must be a list of names") }
                channels?.append(name)
            }
        case .string(let name)?: channels = [name]
        default: throw formatError("channels must be a list of names")
        }
        var fields: [String: Value] = ["token": .string(token), "os": .string(os.rawValue)]
        fields["device_id"] = text(body["deviceId"]).flatMap { $0.isEmpty ? nil : Value.string($0) }
        fields["os_version"] = text(body["osVersion"]).map(Value.string)
        fields["channels"] = channels.map { .array($0.map(Value.string)) }
        fields["expiration"] = expiration(body["expiration"])
        return fields
    }
}

extension BackendlessRoutes {
    /// The body of a form route: `application/x-www-form-urlencoded` fields as strings (the provider page's form),
    /// or a JSON object. 8002 for a form that is not valid URL-encoded UTF-8; nil for an empty body.
    static func form(_ exchange: Exchange) throws -> JSON? {
        if let type = exchange.mediaType, type == "application/json" || type.hasSuffix("+json") {
            guard !exchange.body.isEmpty else { return nil }
            let parsed: JSON
            do { parsed = try JSONParser.parse(exchange.body) } catch { throw BackendlessError.unparsableRequest("\(error)") }
            guard case .object(let members) = parsed else {
                throw BackendlessError.unparsableRequest("the body must be a JSON object or a form")
            }
            return .object(members)
        }
        guard !exchange.body.isEmpty else { return nil }
        guard let pairs = FormEncoding.strictPairs(exchange.body) else {
            throw BackendlessError.unparsableRequest("the form is not valid URL-encoded UTF-8")
        }
        var members: [JSON.Member] = []
        for pair in pairs where !members.contains(where: { $0.key == pair.name }) {
            members.append(.init(pair.name, .string(pair.value)))
        }
        return .object(members)
    }

    /// A body field read as its declared type: a boolean (`true`/`false`, or their text), a list of strings (a
    /// single string is a list of one), a table of strings by name; anything else as its text. 8002 naming the
    /// field for a value of another kind; absent for none or null.
    static func field(_ value: JSON?, named name: String, as type: ArgumentType) throws(BackendlessError) -> ArgumentValue {
        guard let value, value != .null else { return .absent }
        func wrong(_ expected: String) -> BackendlessError {
            .unparsableRequest("\(name) must be \(expected), got \(value.kindName)")
        }
        switch type {
        case .boolean:
            switch value {
            case .bool(let flag): return .bool(flag)
            case .string("true"): return .bool(true)
            case .string("false"): return .bool(false)
            default: throw wrong("a boolean")
            }
        case .strings:
            switch value {
            case .string(let text): return .value(.array([.string(text)]))
            case .array(let items):
                var strings: [Value] = []
                for item in items {
                    guard case .string(let text) = item else { throw wrong("a list of strings") }
                    strings.append(.string(text))
                }
                return .value(.array(strings))
            default: throw wrong("a list of strings")
            }
        case .stringMap:
            guard case .object(let members) = value else { throw wrong("an object of strings") }
            var map: [String: Value] = [:]
            for member in members {
                guard case .string(let text) = member.value else {
                    throw .unparsableRequest("\(name).\(member.key) must be a string, got \(member.value.kindName)")
                }
                if map[member.key] == nil { map[member.key] = .string(text) }
            }
            return .value(.object(map))
        default:
            return text(value).map(ArgumentValue.string) ?? .absent
        }
    }
}
