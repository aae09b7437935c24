import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// A reply as the tests read it.
struct TestReply: Sendable {
    let status: Int
    let headers: HTTPFields
    let text: String

    /// The body parsed as JSON (nil when it is empty or not JSON).
    var json: JSON? { try? JSONParser.parse(text) }

    /// The value at a path of object keys (`json("code")`, `json("user", "email")`).
    func json(_ keys: String...) -> JSON? {
        var current = json
        for key in keys { current = current?[key] }
        return current
    }

    func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }
}

/// The default Backendless app's REST prefix.
let backendless = "/\(DefaultApps.backendlessAppID)/\(DefaultApps.backendlessAPIKey)"
/// The default Kii app's prefix.
let kii = "/api/apps/\(DefaultApps.kiiAppID)"

extension TestClientProtocol {
    /// Sends a request; `json` is sent with `Content-Type: application/json` unless `headers` set one.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, text: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestReply {
        var headers = headers
        var body: ByteBuffer?
        if let json {
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
            body = ByteBuffer(string: json)
        } else if let text {
            body = ByteBuffer(string: text)
        }
        let response = try await executeRequest(uri: path, method: method, headers: headers, body: body)
        return TestReply(
            status: Int(response.status.code), headers: response.headers, text: String(buffer: response.body)
        )
    }
}

/// Runs `body` against a fresh server answering in-process (no sockets).
func withServer(
    _ options: ServerOptions = ServerOptions(port: 0, clockStart: VirtualClock.start), setup: String? = nil,
    _ body: @Sendable (UnderstudyServer, any TestClientProtocol) async throws -> Void
) async throws {
    var options = options
    if let setup { options.setupScript = ScenarioFile(path: "setup.lua", contents: Array(setup.utf8)) }
    let server = try UnderstudyServer(options: options)
    try await server.application().test(.router) { client in try await body(server, client) }
}

/// Runs `body` against a fresh server listening on a loopback port (for dropped connections and concurrency).
func withLiveServer(
    _ options: ServerOptions = ServerOptions(port: 0, clockStart: VirtualClock.start),
    _ body: @Sendable (UnderstudyServer, any TestClientProtocol) async throws -> Void
) async throws {
    let server = try UnderstudyServer(options: options)
    try await server.application().test(.live) { client in try await body(server, client) }
}
