import Foundation
import HTTPTypes
import Testing
import Understudy
@testable import UnderstudyHTTP

/// A fault's `when(args)` must see the same table whether the call came from Lua or over HTTP. Driven by the
/// operations' declarations: every declared operation is called from Lua (when it has a Lua path) and over its
/// first route (when it has one), with sample values chosen by argument name, and what its predicate saw is
/// compared. A new operation is covered as soon as it is declared; one whose argument has no sample here fails
/// until a sample is added.
@Suite("Fault arguments are the same from Lua and over HTTP")
struct FaultArgumentsDriftTests {
    /// `show(args)`: a table as canonical text (keys sorted), so two tables compare as strings. A local of each
    /// chunk that needs it: every chunk starts with pristine globals.
    static let show = """
        local function drift_show(v)
          if type(v) ~= "table" then return type(v) == "string" and string.format("%q", v) or tostring(v) end
          local keys = {}
          for k in pairs(v) do keys[#keys + 1] = k end
          table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
          local parts = {}
          for _, k in ipairs(keys) do parts[#parts + 1] = "[" .. drift_show(k) .. "]=" .. drift_show(v[k]) end
          return "{" .. table.concat(parts, ",") .. "}"
        end
        """

    /// The backends' fixtures: a pending Backendless user with its confirmation token, a logged-in user with a
    /// recovery token; a Kii user with a token and an MQTT installation. Returns the values samples refer to.
    static let fixtures = """
        local b = understudy.app("\(DefaultApps.backendlessAppID)")
        b.settings.email_confirmation = true
        local pending = b.users.register{ email = "pending@example.com", password = "pw1" }
        local confirm = b.outbox.emails()[#b.outbox.emails()].link:match("confirmemail/([^/?]+)")
        b.settings.email_confirmation = false
        b.users.register{ email = "drift@example.com", password = "pw1" }
        local session = b.users.login("drift@example.com", "pw1")
        b.users.restore_password("drift@example.com")
        local recovery = b.outbox.emails()[#b.outbox.emails()].link:match("changepassword/([^/?]+)")
        local k = understudy.app("\(DefaultApps.kiiAppID)")
        local user = k.users.register{ username = "drifter", password = "pw123" }
        local login = k.users.login("drifter", "pw123")
        local installation = k.installations.register{ user = user.userID, type = "MQTT" }
        return pending.objectId, confirm, session.token, recovery, user.userID, login.token, installation.installationID
        """

    struct Fixtures {
        var objectID, confirmToken, userToken, recoveryToken, userID, kiiToken, installationID: String
    }

    /// A sample value for each argument name (and table field) the declarations use.
    static func samples(_ f: Fixtures, _ flavour: Flavour) -> [String: Value] {
        switch flavour {
        case .backendless:
            return [
                "props": .object(["name": "Jim"]), "identity_value": "drift@example.com", "password": "pw1",
                "token": .string(f.userToken), "objectId": .string(f.objectID), "status": "DISABLED",
                "identity": "drift@example.com", "link_or_token": .string(f.recoveryToken), "new_password": "pw2",
                "registration": .object(["token": "tok-1", "device_id": "phone-1", "os": "IOS"]), "device_id": "phone-1",
                "publication": .object(["channel": "news", "message": "hi"]), "messageId": "message:1",
                "provider": "facebook",
                "options": .object(["fields_mapping": .object(["email": "email"]), "guest": "g-1", "secret": "s-1"]),
                "os": "IOS", "name": "welcome", "values": .object(["name": "Ann"]), "subject": "Hello",
                "bodyparts": .object(["textmessage": "Hi", "htmlmessage": .null]), "to": .array(["ann@example.com"]),
                "key": "rest", "role": "Editor", "record": .object(["name": "Jim"]),
                "envelope": .object(["to": .array(["ann@example.com"]), "unique_emails": true]),
            ]
        case .kii:
            return [
                "registration": flavourRegistration(f), "identifier": .string(f.userID), "password": "pw123",
                "userID": .string(f.userID), "code": "123456", "email": "new@example.com", "phone": "+819012345678",
                "method": "EMAIL", "pin": "1234", "new_password": "newpw1", "old_password": "pw123", "link": "resetcode",
                "fields": .object(["name": "Jim"]), "disabled": true, "token": .string(f.kiiToken),
                "installationID": .string(f.installationID), "push": .object(["user": .string(f.userID), "message": "hi"]),
                "topicID": "news", "message": .object(["data": .object(["m": "hi"]), "sender": .string(f.userID)]),
                "action": "SUBSCRIBE_TO_TOPIC", "subject": "UserID:ANY_AUTHENTICATED_USER", "provider": "facebook",
                "provider_token": "fb-token", "grant": .object(["totp_code": "123456"]),
                "identity": .object(["username": "drifter3", "password": "pw123"]),
            ]
        }
    }

    static func flavourRegistration(_ f: Fixtures) -> Value { .object(["username": "drifter2", "password": "pw123"]) }

    /// Path parameters the adapters resolve: Kii's `{user}` (the user), Backendless' confirmation `{token}`.
    static func resolvedPath(_ f: Fixtures, _ flavour: Flavour) -> [String: String] {
        flavour == .kii ? ["user": f.userID] : ["token": f.confirmToken, "table": "Users"]
    }

    /// Kii's `installations.register` table differs from the sign-up's: samples are by name within a flavour,
    /// so the table arguments of the same name are told apart by operation here.
    static func sample(_ name: String, of operation: String, _ f: Fixtures, _ flavour: Flavour) -> Value? {
        if flavour == .kii, operation == "installations.register", name == "registration" {
            return .object(["user": .string(f.userID), "type": "MQTT"])
        }
        if operation == "roles.users", name == "options" { return nil }
        return samples(f, flavour)[name]
    }

    /// What a predicate printed (`DRIFT <args>`) in a chunk's output, or nil.
    static func seen(_ reply: TestReply) -> String? {
        guard let output = reply.json("output")?.stringValue else { return nil }
        return output.split(separator: "\n").last(where: { $0.hasPrefix("DRIFT ") }).map { String($0.dropFirst(6)) }
    }

    /// The first value a chunk returned, as a string.
    static func first(_ reply: TestReply) -> String? {
        guard case .array(let values)? = reply.json("results") else { return nil }
        return values.first?.stringValue
    }

    static func lua(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .array(let items): return "{" + items.map(lua).joined(separator: ", ") + "}"
        case .object(let fields): return "{" + fields.keys.sorted().map { "\($0) = \(lua(fields[$0]!))" }.joined(separator: ", ") + "}"
        }
    }

    /// One request carrying `arguments` where `route` says.
    struct Request {
        var method: HTTPRequest.Method
        var path: String
        var headers: HTTPFields = [:]
        var json: String?
        var text: String?
    }

    static func request(
        _ declaration: OperationDeclaration, _ route: RouteDeclaration, _ f: Fixtures
    ) throws -> Request {
        var path = VendorRoutes.fullPath(route, of: declaration.flavour)
            .replacingOccurrences(of: "{appId}", with: DefaultApps.backendlessAppID)
            .replacingOccurrences(of: "{apiKey}", with: DefaultApps.backendlessAPIKey)
            .replacingOccurrences(of: "{appID}", with: DefaultApps.kiiAppID)
        var body: [JSON.Member] = []
        var wholeBody: Value?
        var query: [String] = []
        var headers: HTTPFields = [:]
        func place(_ source: HTTPSource, _ value: Value) {
            switch source {
            case .path(let name): path = path.replacingOccurrences(of: "{\(name)}", with: value.stringValue ?? "")
            case .query(let name): query.append("\(name)=\(value.stringValue ?? "")")
            case .bodyField(let name): body.append(.init(name, JSON(value)))
            case .body: wholeBody = value
            case .header(let name): headers[HTTPField.Name(name)!] = value.stringValue
            case .resolved, .none: break
            }
        }
        for argument in declaration.arguments {
            guard let value = sample(argument.name, of: declaration.name, f, declaration.flavour) else {
                if !argument.optional {
                    Issue.record("\(declaration.name): no sample for argument \(argument.name): add one to FaultArgumentsDriftTests")
                }
                continue
            }
            if case .table(_, let fields) = argument.type, case .object(let given) = value, route.source(of: argument) == .body {
                for field in fields { if let item = given[field.name] { place(route.source(of: field), item) } }
            } else {
                place(route.source(of: argument), value)
            }
        }
        for (name, value) in resolvedPath(f, declaration.flavour) { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
        if !query.isEmpty { path += "?" + query.joined(separator: "&") }
        var request = Request(method: HTTPRequest.Method(route.method), path: path, headers: headers)
        if declaration.flavour == .kii { request.headers[.authorization] = "Bearer \(f.kiiToken)" }
        switch route.body {
        case .none: break
        case .json: request.json = JSONWriter.string(wholeBody.map(JSON.init) ?? .object(body))
        case .text:
            request.headers[.contentType] = "application/x-www-form-urlencoded"
            request.text = body.map { "\($0.key)=\($0.value.stringValue ?? "")" }.joined(separator: "&")
        }
        return request
    }

    @Test("every declared operation's when(args) gets the same table from Lua and over HTTP, by the declared names")
    func sameArguments() async throws {
        try await withServer { _, client in
            let set = try await client.send(.post, "/_understudy/lua", text: Self.fixtures)
            #expect(set.status == 200, "\(set.text)")
            guard case .array(let values)? = set.json("results"), values.count == 7 else { return }
            let strings = values.map { $0.stringValue ?? "" }
            let f = Fixtures(
                objectID: strings[0], confirmToken: strings[1], userToken: strings[2], recoveryToken: strings[3],
                userID: strings[4], kiiToken: strings[5], installationID: strings[6]
            )
            var compared = 0
            for declaration in BackendlessOperation.declarations + KiiOperation.declarations {
                let appID = declaration.flavour == .backendless ? DefaultApps.backendlessAppID : DefaultApps.kiiAppID
                let fault = declaration.flavour == .backendless
                    ? "code = 3021" : "code = \"RESOURCE_TEMPORARILY_UNAVAILABLE\", status = 503"
                // The predicate prints what it saw: a chunk's output holds what predicates printed since the
                // last chunk (globals do not carry over from chunk to chunk).
                let arm = """
                    \(Self.show)
                    local app = understudy.app("\(appID)")
                    app.faults.clear()
                    app.faults.inject{ op = "\(declaration.name)", \(fault), times = 1,
                      when = function(args) print("DRIFT " .. drift_show(args)); return true end }
                    """
                let read = "return 0"

                var fromLua: String?
                if let path = declaration.lua {
                    var arguments: [String] = []
                    for argument in declaration.arguments {
                        let value = Self.sample(argument.name, of: declaration.name, f, declaration.flavour)
                        if value == nil, !argument.optional { Issue.record("\(declaration.name): no sample for argument \(argument.name)") }
                        arguments.append(Self.lua(value ?? .null))
                    }
                    let call = "\(arm)\nlocal app = understudy.app(\"\(appID)\")\nlocal _ = app.\(path)(\(arguments.joined(separator: ", ")))\n\(read)"
                    let reply = try await client.send(.post, "/_understudy/lua", text: call)
                    fromLua = Self.seen(reply)
                    #expect(fromLua != nil, "\(declaration.name) from Lua: the fault's predicate did not run (\(reply.text))")
                }

                var fromHTTP: String?
                if let route = declaration.routes.first(where: { $0.variant == nil }) ?? declaration.routes.first {
                    var request = try Self.request(declaration, route, f)
                    for attempt in 0..<2 {
                        _ = try await client.send(.post, "/_understudy/lua", text: arm)
                        let answer = try await client.send(request.method, request.path, json: request.json, text: request.text, headers: request.headers)
                        fromHTTP = Self.seen(try await client.send(.post, "/_understudy/lua", text: read))
                        // A route only the app may call (Kii's users.set_disabled) is retried with app credentials.
                        if fromHTTP != nil || attempt == 1 || declaration.flavour != .kii {
                            #expect(fromHTTP != nil, "\(declaration.name) over HTTP (\(request.method) \(request.path)): the predicate did not run: \(answer.status) \(answer.text)")
                            break
                        }
                        let basic = Data("\(DefaultApps.kiiAppID):\(DefaultApps.kiiAppKey)".utf8).base64EncodedString()
                        request.headers[.authorization] = "Basic \(basic)"
                    }
                }

                for argument in declaration.arguments where Self.sample(argument.name, of: declaration.name, f, declaration.flavour) != nil {
                    let name = argument.name
                    for seen in [fromLua, fromHTTP].compactMap({ $0 }) {
                        #expect(seen.contains("[\"\(name)\"]="), "\(declaration.name): args lacks its declared \(name): \(seen)")
                    }
                }
                if let fromLua, let fromHTTP {
                    compared += 1
                    #expect(fromLua == fromHTTP, "\(declaration.name): from Lua \(fromLua)\nover HTTP \(fromHTTP)")
                }
            }
            #expect(compared >= 30, "only \(compared) operations were compared")
        }
    }
}
