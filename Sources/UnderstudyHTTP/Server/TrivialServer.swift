package import Hummingbird
internal import HummingbirdCore
internal import HTTPTypes
internal import Logging
internal import NIOCore

/// The floor `bench/http.py` measures understudy serve against: Hummingbird with the same HTTP/1 server and the
/// same event-loop executor, answering every POST with a fixed JSON body once it has read the request's body.
/// Reached through `understudy serve --bench-trivial`, a hidden option; it serves no emulated app.
package enum TrivialServer {
    static let reply = ByteBuffer(string: #"{"ok":true}"#)

    /// Serves until SIGINT or SIGTERM.
    package static func run(host: String, port: Int, onReady: @escaping @Sendable () -> Void = {}) async throws {
        try await application(host: host, port: port, onReady: onReady).runService()
    }

    /// The trivial application, listening on `host:port`; `onReady` runs once it listens.
    package static func application(host: String, port: Int, onReady: @escaping @Sendable () -> Void = {}) -> some ApplicationProtocol {
        var logger = Logger(label: "understudy-trivial")
        logger.logLevel = .warning
        let router = Router()
        router.post("**") { request, _ -> Response in
            var request = request
            _ = try await request.collectBody(upTo: 1 << 20)
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: reply))
        }
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "understudy"),
            onServerRunning: { _ in onReady() },
            logger: logger
        )
    }
}
