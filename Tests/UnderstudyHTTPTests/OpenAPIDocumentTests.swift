import Foundation
import HTTPTypes
import Testing
import Understudy
import UnderstudyHTTP
import Yams

/// The operations of docs/openapi.yaml, read with a YAML parser (Yams): each path item's methods with their
/// summary, `x-understudy-operation` and documented statuses.
struct OpenAPIDocument {
    struct Operation {
        var summary: String?
        /// `x-understudy-operation`: the emulator's operation a vendor route runs.
        var understudyOperation: String?
        /// The documented statuses ("200", "400", ..., "default").
        var statuses: Set<String> = []
    }

    /// `"POST /{appId}/{apiKey}/users/register"` → its operation.
    private(set) var operations: [String: Operation] = [:]

    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// docs/openapi.yaml of this checkout.
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/openapi.yaml")

    static func load() throws -> OpenAPIDocument {
        try OpenAPIDocument(text: String(contentsOf: url, encoding: .utf8))
    }

    init(text: String) throws {
        guard let document = try Yams.load(yaml: text) as? [String: Any], let paths = document["paths"] as? [String: Any] else {
            throw DocumentError(message: "docs/openapi.yaml has no paths")
        }
        for (path, item) in paths {
            guard let item = item as? [String: Any] else { continue }
            for (method, value) in item where Self.methods.contains(method) {
                guard let fields = value as? [String: Any] else { continue }
                var operation = Operation()
                operation.summary = fields["summary"] as? String
                operation.understudyOperation = fields["x-understudy-operation"] as? String
                if let responses = fields["responses"] as? [AnyHashable: Any] {
                    operation.statuses = Set(responses.keys.map { "\($0.base)" })
                }
                operations["\(method.uppercased()) \(path)"] = operation
            }
        }
    }

    struct DocumentError: Error {
        var message: String
    }

    /// `METHOD /path/{}/…`: parameter names left out, so `{appId}` and `{id}` compare equal.
    static func normalised(_ operation: String) -> String {
        var result = ""
        var inParameter = false
        for character in operation {
            if character == "{" {
                inParameter = true
                result.append("{}")
            } else if character == "}" {
                inParameter = false
            } else if !inParameter {
                result.append(character)
            }
        }
        return result
    }

    /// The operation for `method path` (parameter names may differ from the document's).
    func operation(_ method: HTTPRequest.Method, _ path: String) -> Operation? {
        let wanted = Self.normalised("\(method.rawValue) \(path)")
        return operations.first { Self.normalised($0.key) == wanted }?.value
    }
}

@Suite("docs/openapi.yaml")
struct OpenAPIDocumentTests {
    @Test("the document describes exactly the routes the server answers, with their summaries")
    func sameRoutes() async throws {
        let document = try OpenAPIDocument.load()
        try await withServer { _, client in
            let reply = try await client.send(.get, "/_understudy/routes")
            guard case .array(let routes)? = reply.json("routes") else {
                Issue.record("GET /_understudy/routes answered \(reply.text)")
                return
            }
            var served: [String: String] = [:]
            var servedOperations: [String: String] = [:]
            for route in routes {
                let method = route["method"]?.stringValue ?? ""
                let path = route["path"]?.stringValue ?? ""
                served[OpenAPIDocument.normalised("\(method) \(path)")] = route["summary"]?.stringValue
                servedOperations[OpenAPIDocument.normalised("\(method) \(path)")] = route["operation"]?.stringValue
            }
            let documented = Dictionary(
                document.operations.map { (OpenAPIDocument.normalised($0.key), $0.value) }, uniquingKeysWith: { a, _ in a }
            )
            let missing = Set(served.keys).subtracting(documented.keys).sorted()
            let extra = Set(documented.keys).subtracting(served.keys).sorted()
            #expect(missing.isEmpty, "routes the server answers but docs/openapi.yaml does not describe: \(missing)")
            #expect(extra.isEmpty, "operations docs/openapi.yaml describes but the server does not answer: \(extra)")
            #expect(!served.isEmpty)

            for (operation, summary) in served {
                guard let entry = documented[operation] else { continue }
                #expect(entry.summary == summary, "\(operation): the document's summary differs from the route table's")
                #expect(
                    entry.understudyOperation == servedOperations[operation],
                    "\(operation): x-understudy-operation differs from the operation the route runs"
                )
            }
        }
    }

    @Test("every vendor route names an operation of its flavour's vocabulary, and every operation is in docs/lua-api.md")
    func operationVocabulary() async throws {
        let document = try OpenAPIDocument.load()
        // The AMF gateway runs many operations, each call its own (docs/real-sdks.md).
        for (route, entry) in document.operations where !route.contains("/_understudy") && !route.hasSuffix("/binary") {
            let name = try #require(entry.understudyOperation, "\(route) names no x-understudy-operation")
            let flavourOperations = route.contains("/api/") ? KiiOperation.names : BackendlessOperation.names
            #expect(flavourOperations.contains(name), "\(route): '\(name)' is not an operation of its flavour")
        }
        let reference = try String(
            contentsOf: OpenAPIDocument.url.deletingLastPathComponent().appendingPathComponent("lua-api.md"), encoding: .utf8
        )
        let undocumented = (BackendlessOperation.names + KiiOperation.names).filter { !reference.contains("`\($0)`") }
        #expect(undocumented == [], "operations docs/lua-api.md does not document")
    }

    /// A request that goes wrong, the documented operation it belongs to, and the error shape it must answer in.
    struct ErrorCase: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        /// The operation's path template in the document.
        var template: String
        var body: String?
        var headers: HTTPFields = [:]
        /// The member every error of the area carries: `code`, `errorCode` or `error`.
        var errorMember: String

        var description: String { "\(method.rawValue) \(path)" }
    }

    static let kiiBasic: HTTPFields = [
        .authorization: "Basic " + Data("\(DefaultApps.kiiAppID):\(DefaultApps.kiiAppKey)".utf8).base64EncodedString()
    ]

    static let errorCases: [ErrorCase] = {
        let register = "/{appId}/{apiKey}/users/register"
        let device = "/{appId}/{apiKey}/messaging/registrations/{deviceId}"
        let kiiUsers = "/api/apps/{appID}/users"
        return [
            ErrorCase(method: .post, path: "\(backendless)/users/register", template: register, body: "[1]", errorMember: "code"),
            ErrorCase(method: .post, path: "\(backendless)/users/register", template: register, body: "{", errorMember: "code"),
            ErrorCase(
                method: .post, path: "\(backendless)/users/register", template: register, body: "a=b",
                headers: [.contentType: "application/x-www-form-urlencoded"], errorMember: "code"
            ),
            ErrorCase(
                method: .post, path: "\(backendless)/users/register", template: register,
                body: #"{"a":""# + String(repeating: "x", count: (1 << 20) + 1) + #""}"#, errorMember: "code"
            ),
            ErrorCase(method: .post, path: "/NOPE/KEY/users/register", template: register, body: "{}", errorMember: "code"),
            ErrorCase(
                method: .post, path: "\(backendless)/users/login", template: "/{appId}/{apiKey}/users/login",
                body: #"{"login":"nobody@example.com","password":"x"}"#, errorMember: "code"
            ),
            ErrorCase(method: .get, path: "\(backendless)/users/logout", template: "/{appId}/{apiKey}/users/logout", errorMember: "code"),
            ErrorCase(method: .get, path: "\(backendless)/messaging/registrations/none", template: device, errorMember: "code"),
            ErrorCase(method: .delete, path: "\(backendless)/messaging/registrations/none", template: device, errorMember: "code"),
            ErrorCase(
                method: .post, path: "\(backendless)/messaging/registrations", template: "/{appId}/{apiKey}/messaging/registrations",
                body: #"{"deviceToken":"t","deviceId":"d","os":"IOS","expiration":1e300}"#, errorMember: "code"
            ),
            ErrorCase(method: .post, path: "\(kii)/users", template: kiiUsers, body: "{}", errorMember: "errorCode"),
            ErrorCase(method: .post, path: "/api/apps/nope/users", template: kiiUsers, body: "{}", errorMember: "errorCode"),
            ErrorCase(
                method: .post, path: "\(kii)/users", template: kiiUsers, body: #"{"loginName":"x"}"#,
                headers: OpenAPIDocumentTests.kiiBasic, errorMember: "errorCode"
            ),
            ErrorCase(
                method: .post, path: "\(kii)/users", template: kiiUsers, body: "<xml/>",
                headers: OpenAPIDocumentTests.kiiBasic.merging([.contentType: "application/xml"]), errorMember: "errorCode"
            ),
            ErrorCase(method: .get, path: "\(kii)/users/me", template: "/api/apps/{appID}/users/me", errorMember: "errorCode"),
            ErrorCase(
                method: .get, path: "\(kii)/users/FOO:bar", template: "/api/apps/{appID}/users/{user}",
                headers: OpenAPIDocumentTests.kiiBasic, errorMember: "errorCode"
            ),
            ErrorCase(
                method: .post, path: "\(kii)/oauth2/token", template: "/api/apps/{appID}/oauth2/token",
                body: #"{"username":"nobody","password":"x"}"#, headers: OpenAPIDocumentTests.kiiBasic, errorMember: "errorCode"
            ),
            ErrorCase(
                method: .get, path: "\(kii)/users/LOGIN_NAME:nobody/email-address/verify?code=1",
                template: "/api/apps/{appID}/users/{user}/email-address/verify", errorMember: "errorCode"
            ),
            ErrorCase(method: .get, path: "/_understudy/state?app=nope", template: "/_understudy/state", errorMember: "error"),
            ErrorCase(method: .get, path: "/_understudy/state?limit=-1", template: "/_understudy/state", errorMember: "error"),
            ErrorCase(method: .post, path: "/_understudy/faults", template: "/_understudy/faults", body: "{}", errorMember: "error"),
            ErrorCase(
                method: .delete, path: "/_understudy/faults/backendless/99", template: "/_understudy/faults/{app}/{id}",
                errorMember: "error"
            ),
            ErrorCase(
                method: .post, path: "/_understudy/clock/set", template: "/_understudy/clock/set", body: #"{"now":1e300}"#,
                errorMember: "error"
            ),
            ErrorCase(
                method: .post, path: "/_understudy/lua", template: "/_understudy/lua", body: "{}",
                headers: [.contentType: "application/json"], errorMember: "error"
            ),
            ErrorCase(method: .post, path: "/_understudy/lua", template: "/_understudy/lua", body: "error('boom')", errorMember: "error"),
        ]
    }()

    @Test("an error's status is one the document gives for that operation, in the area's shape", arguments: errorCases)
    func documentedErrorStatus(_ item: ErrorCase) async throws {
        let document = try OpenAPIDocument.load()
        guard let operation = document.operation(item.method, item.template) else {
            Issue.record("\(item.method.rawValue) \(item.template) is not in docs/openapi.yaml")
            return
        }
        try await withServer { _, client in
            var headers = item.headers
            if item.body != nil, headers[.contentType] == nil, !item.template.hasPrefix("/_understudy/lua") {
                headers[.contentType] = "application/json"
            }
            let reply = try await client.send(item.method, item.path, text: item.body, headers: headers)
            #expect(reply.status >= 400, "\(item) answered \(reply.status): \(reply.text)")
            #expect(
                operation.statuses.contains(String(reply.status)),
                "\(item) answered \(reply.status), which docs/openapi.yaml does not list for \(item.template) (it lists \(operation.statuses.sorted()))"
            )
            #expect(reply.json(item.errorMember) != nil, "\(item): \(reply.text.prefix(200))")
        }
    }

    @Test("without the control token, every control operation answers a documented 401")
    func controlTokenStatus() async throws {
        let document = try OpenAPIDocument.load()
        try await withServer(ServerOptions(port: 0, controlToken: "secret", clockStart: VirtualClock.start)) { server, client in
            // The dashboard's page and files hold no data: they are served without the token; so is the health check.
            for route in server.routeDescriptions
            where route.area == .control && !route.path.hasPrefix("/_understudy/ui") && route.path != "/_understudy/health" {
                guard let operation = document.operation(route.method, route.path) else {
                    Issue.record("\(route.method.rawValue) \(route.path) is not in docs/openapi.yaml")
                    continue
                }
                let path = route.path.replacingOccurrences(of: "{app}", with: "backendless").replacingOccurrences(of: "{id}", with: "1")
                let reply = try await client.send(route.method, path)
                #expect(reply.status == 401, "\(route.method.rawValue) \(path)")
                #expect(operation.statuses.contains("401"), "\(route.method.rawValue) \(route.path) does not document 401")
            }
        }
    }
}

extension HTTPFields {
    /// These fields plus `other` (whose values win).
    fileprivate func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other { result[field.name] = field.value }
        return result
    }
}
