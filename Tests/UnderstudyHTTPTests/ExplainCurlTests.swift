import HTTPTypes
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyAuthoring
import UnderstudyLua

/// The curl commands `understudy explain` prints, sent to a fresh in-process server: the last one answers the
/// code with the catalogue's status and message.
@Suite("explain's curl examples")
struct ExplainCurlTests {
    /// Every catalogued code with HTTP requests in its example.
    static let examples: [(entry: ErrorCatalogue.Entry, requests: [ExampleRequest])] = ErrorCatalogue.all.compactMap { entry in
        guard let requests = CodeExample.example(for: entry)?.requests, !requests.isEmpty else { return nil }
        return (entry, requests)
    }

    @Test("every code only HTTP answers has a curl example")
    func httpOnlyCodesHaveExamples() {
        // A body over 1 MiB does not fit a command line, and an MQTT installation's id is the server's choice.
        let without: Set<String> = ["kii:REQUEST_ENTITY_TOO_LARGE", "kii:MQTT_ENDPOINT_NOT_FOUND", "kii:MQTT_ENDPOINT_NOT_READY"]
        for entry in ErrorCatalogue.all where entry.reach == .httpOnly {
            let key = "\(entry.flavour.rawValue):\(entry.code)"
            let hasRequests = CodeExample.example(for: entry)?.requests.isEmpty == false
            #expect(hasRequests || without.contains(key), "\(key) has no curl example")
        }
    }

    @Test("each curl example answers its code, status and message", arguments: examples.map(\.entry))
    func curlAnswersTheCode(entry: ErrorCatalogue.Entry) async throws {
        let requests = try #require(CodeExample.example(for: entry)?.requests)
        let key = "\(entry.flavour.rawValue):\(entry.code)"
        try await withServer { _, client in
            var last: TestReply?
            for request in requests {
                var headers = HTTPFields()
                for header in request.headers { if let name = HTTPField.Name(header.name) { headers[name] = header.value } }
                let method = HTTPRequest.Method(request.method)!
                if let body = request.body {
                    last = try await client.send(method, request.path, text: body, headers: headers)
                } else {
                    last = try await client.send(method, request.path, headers: headers)
                }
            }
            let reply = try #require(last)
            #expect(reply.status == entry.status, "\(key): HTTP \(reply.status) \(reply.text)")
            let code = entry.flavour == .backendless ? reply.json("code") : reply.json("errorCode")
            let expected: JSON = entry.number.map { .integer(Int64($0)) } ?? .string(entry.code)
            #expect(code == expected, "\(key): \(reply.text)")
            guard case .string(let message)? = reply.json("message") else {
                Issue.record("\(key): no message in \(reply.text)")
                return
            }
            if entry.reach != .injectionOnly {
                #expect(entry.matches(message: message), "\(key): the server says \(message), the catalogue says \(entry.message)")
            }
        }
    }
}
