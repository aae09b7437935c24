import Foundation
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// The emulated apps' routes are answered on the event loop (`VendorFastPath`), the rest by Hummingbird's responder.
/// A client must not be able to tell the two apart: the same headers, replies in request order however requests are
/// pipelined across both, injected delays that hold back what comes after, `Connection: close` honoured.
@Suite("Vendor routes answered on the event loop")
struct VendorFastPathTests {
    private func register(_ email: String, close: Bool = false) -> String {
        let body = #"{"email":"\#(email)","password":"secret"}"#
        return "POST \(backendless)/users/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + (close ? "Connection: close\r\n" : "") + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    private let routes = "GET /_understudy/routes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    private func headerNames(_ reply: String) -> Set<String> {
        Set(reply.components(separatedBy: "\r\n\r\n")[0].split(separator: "\r\n").dropFirst().compactMap {
            $0.split(separator: ":").first.map { $0.lowercased() }
        })
    }

    @Test("a vendor reply carries the headers a Hummingbird reply carries")
    func sameHeaders() async throws {
        try await withLiveServer { _, client in
            let port = try #require(client.port)
            let connection = try #require(RawConnection(port: port))
            connection.send(register("headers@example.com") + routes)
            let replies = await connection.replies(2)
            try #require(replies.count == 2)
            #expect(replies[0].hasPrefix("HTTP/1.1 200 OK"), "\(replies[0])")
            #expect(replies[0].contains("\"email\":\"headers@example.com\""))
            for name in ["content-length", "content-type", "date", "server"] {
                #expect(headerNames(replies[0]).contains(name), "the register reply lacks \(name): \(replies[0])")
                #expect(headerNames(replies[1]).contains(name), "the routes reply lacks \(name)")
            }
            #expect(replies[0].lowercased().contains("server: understudy"))
        }
    }

    @Test("pipelined requests are answered in the order they came, across both paths")
    func pipelinedOrder() async throws {
        try await withLiveServer { _, client in
            let port = try #require(client.port)
            let connection = try #require(RawConnection(port: port))
            // A control request (Hummingbird's path) first: the vendor requests behind it must wait for its reply.
            connection.send(routes + register("first@example.com") + register("second@example.com") + routes)
            let replies = await connection.replies(4)
            try #require(replies.count == 4, "\(replies)")
            #expect(replies[0].contains("/_understudy/"), "the routes listing comes first")
            #expect(replies[1].contains("first@example.com"))
            #expect(replies[2].contains("second@example.com"))
            #expect(replies[3].contains("/_understudy/"))
        }
    }

    @Test("requests pipelined behind a dropped connection are not run, on either path; the journal shows the drop")
    func nothingRunsAfterADrop() async throws {
        // The drop on the event loop's path (a plain fault), and on Hummingbird's (a fault with a Lua predicate).
        for when in ["", ", when = function() return true end"] {
            try await withLiveServer { server, client in
                _ = server.withStage { stage in
                    stage.session.evaluate(#"understudy.app("backendless").faults.inject{ op = "users.login", drop = true\#(when) }"#, chunkName: "=test")
                }
                let port = try #require(client.port)
                let connection = try #require(RawConnection(port: port))
                let body = #"{"login":"one@example.com","password":"secret"}"#
                let login = "POST \(backendless)/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                connection.send(register("one@example.com") + login + register("three@example.com") + register("four@example.com") + routes)
                let replies = await connection.replies(5, within: 2000)
                #expect(replies.count == 1, "\(replies)")
                let emails = server.withStage { stage in stage.world.backendless(id: DefaultApps.backendlessAppID)!.allUsers.map { "\($0)" } }
                #expect(emails.count == 1, "only the request before the drop ran: \(emails)")
                let journal = server.withStage { $0.world.journal.entries(matching: JournalFilter()) }
                #expect(journal.map(\.operation) == ["users.register", "users.login"], "\(journal.map(\.operation))")
                #expect(journal.last?.connectionDropped == true)
            }
        }
    }

    @Test("a delay fault holds back the reply and every request pipelined behind it")
    func delayedReplyKeepsOrder() async throws {
        try await withLiveServer { server, client in
            let injected = server.withStage { stage in
                stage.session.evaluate(
                    #"understudy.app("backendless").faults.inject{ op = "users.register", delay_ms = 300, times = 1 }"#,
                    chunkName: "=test"
                )
            }
            if case .failure(let failure) = injected { Issue.record("the fault was not injected: \(failure.message)") }
            let port = try #require(client.port)
            let connection = try #require(RawConnection(port: port))
            let started = Date()
            connection.send(register("slow@example.com") + register("fast@example.com"))
            let replies = await connection.replies(2)
            try #require(replies.count == 2, "\(replies)")
            #expect(Date().timeIntervalSince(started) >= 0.3, "the delay was applied")
            #expect(replies[0].contains("slow@example.com"))
            #expect(replies[1].contains("fast@example.com"))
            let journal = server.withStage { $0.world.journal.entries(matching: JournalFilter(operation: "users.register")) }
            #expect(journal.map(\.delayMilliseconds) == [300, 0])
        }
    }

    @Test("Connection: close closes the connection after the vendor reply")
    func connectionClose() async throws {
        try await withLiveServer { _, client in
            let port = try #require(client.port)
            let connection = try #require(RawConnection(port: port))
            connection.send(register("closing@example.com", close: true))
            let replies = await connection.replies(1)
            #expect(replies.first?.contains("closing@example.com") == true)
            #expect(await connection.closedByServer(within: 2000))
        }
    }

    @Test("the journal shows a vendor request's JSON body parsed and its password redacted")
    func journalOfFastPath() async throws {
        try await withLiveServer { server, client in
            let port = try #require(client.port)
            let connection = try #require(RawConnection(port: port))
            connection.send(register("journal@example.com"))
            _ = await connection.replies(1)
            let entry = try #require(server.withStage { $0.world.journal.entries(matching: JournalFilter(operation: "users.register")).last })
            #expect(entry.json == .object(["email": .string("journal@example.com"), "password": .string("[redacted]")]))
            #expect(!entry.body.contains("secret"))
            #expect(entry.reply.contains("journal@example.com"))
        }
    }
}
