import HTTPTypes
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// `--max-memory` under `serve`: the served world stops growing at the cap, with a clear error reply.
@Suite("Serve memory cap: the served apps stop growing at --max-memory")
struct ServeMemoryTests {
    static let cap = 2 * 1024 * 1024

    static func options() -> ServerOptions {
        ServerOptions(port: 0, limits: ScenarioLimits(maxInstructions: Int64.max / 2, maxMemory: cap, timeout: 20), clockStart: VirtualClock.start)
    }

    /// A registration with 200 properties of 500 characters (about 100 KB).
    static func registration(_ number: Int) -> String {
        let properties = (1...200).map { #""p\#($0)":"\#(String(repeating: "x", count: 500))""# }.joined(separator: ",")
        return #"{"email":"u\#(number)@example.com","password":"secret1",\#(properties)}"#
    }

    @Test("HTTP registrations are refused with 507 and a memory cap message once the apps hold the cap; reads and a reset still work")
    func registrationsStopAtTheCap() async throws {
        try await withServer(Self.options()) { server, client in
            var refused: TestReply?
            var accepted = 0
            for number in 1...100 {
                let reply = try await client.send(.post, "\(backendless)/users/register", json: Self.registration(number))
                if reply.status == 507 { refused = reply; break }
                #expect(reply.status == 200, "\(reply.text.prefix(300))")
                accepted += 1
            }
            let reply = try #require(refused, "100 registrations of 100 KB (10 MB) under a 2 MiB cap were all accepted")
            #expect(reply.json("message")?.stringValue?.contains("memory cap") == true, "\(reply.text)")
            #expect(accepted >= 15 && accepted <= 25, "about 2 MiB of 100 KB users: \(accepted)")
            let held = server.withStage { $0.world.appBytes }
            #expect(held <= Self.cap + 200_000, "the world stops one request past the cap: \(held)")
            #expect(try await client.send(.get, "/_understudy/state").status == 200)
            #expect(try await client.send(.post, "/_understudy/reset").status == 200)
            #expect(try await client.send(.post, "\(backendless)/users/register", json: Self.registration(1)).status == 200)
        }
    }

    @Test("a control chunk that registers users stops at the cap with a memory cap error, and the next one is refused")
    func chunksStopAtTheCap() async throws {
        try await withServer(Self.options()) { server, client in
            let chunk = #"""
                local app = understudy.app("backendless")
                for i = 1, 1000 do
                  local user = { email = "c" .. i .. "@example.com", password = "secret1" }
                  for p = 1, 200 do user["p" .. p] = ("x"):rep(499) .. (p % 10) end
                  app.users.register(user)
                end
                """#
            let reply = try await client.send(.post, "/_understudy/lua", text: chunk)
            #expect(reply.text.contains("memory cap"), "\(reply.status) \(reply.text.prefix(400))")
            let held = server.withStage { $0.world.appBytes }
            #expect(held <= 2 * Self.cap + 200_000, "\(held)")
            let next = try await client.send(.post, "/_understudy/lua", text: "return 1")
            if held > Self.cap {
                #expect(next.status == 507, "\(next.text)")
                #expect(next.json("message")?.stringValue?.contains("memory cap") == true, "\(next.text)")
            }
        }
    }

    @Test("the journal drops its oldest entries to stay within the cap: big refused requests do not pile up")
    func journalStaysWithinTheCap() async throws {
        try await withServer(Self.options()) { server, client in
            // Each is refused (the identity is missing) but journaled with its body and parsed JSON: about
            // 100 KB each, 10 MB in all without the trim.
            let body = #"{"password":"secret1",\#((1...200).map { #""p\#($0)":"\#(String(repeating: "x", count: 500))""# }.joined(separator: ","))}"#
            for _ in 1...100 {
                let reply = try await client.send(.post, "\(backendless)/users/register", json: body)
                #expect(reply.status == 400, "\(reply.text.prefix(200))")
            }
            let (held, dropped, count) = server.withStage { ($0.world.journal.heldBytes, $0.world.journal.dropped, $0.world.journal.count) }
            #expect(held <= Self.cap, "the journal holds \(held) bytes")
            #expect(dropped > 0 && count > 0, "\(dropped) dropped, \(count) kept")
            let journal = try await client.send(.get, "/_understudy/journal?limit=1")
            #expect(journal.status == 200)
        }
    }
}
