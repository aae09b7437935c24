import HTTPTypes
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// `--max-memory` under `serve` counts everything the apps hold (templates, fault messages, channel names,
/// roles, settings), refuses before filling a template past the cap, and the live session's account is credited
/// back when what it made is freed (issue 29, item 3).
@Suite("Serve memory account: templates, placeholders, faults and channels count; the live session is credited back")
struct ServeMemoryAccountTests {
    static let cap = 2 * 1024 * 1024

    static func options() -> ServerOptions {
        ServerOptions(port: 0, limits: ScenarioLimits(maxInstructions: Int64.max / 2, maxMemory: cap, timeout: 20), clockStart: VirtualClock.start)
    }

    /// Chunks that each keep 512 KB in the world (the string they make is freed when the chunk ends).
    static let growingChunks: [(name: String, chunk: String)] = [
        ("push templates", #"understudy.app("backendless").push.templates.define{ name = "t" .. N, message = ("x"):rep(512 * 1024) .. N }"#),
        ("email templates", #"understudy.app("backendless").email.templates.define{ name = "e" .. N, subject = "s", body = ("x"):rep(512 * 1024) .. N }"#),
        ("fault messages", #"understudy.app("kii").faults.inject{ op = "users.register", code = "X", status = 400, message = ("m"):rep(512 * 1024) .. N }"#),
        ("roles", #"understudy.app("backendless").roles.define(("r"):rep(512 * 1024) .. N)"#),
    ]

    @Test("chunks that keep templates, fault messages or roles in the apps are refused with 507 once the apps hold the cap")
    func chunksStopAtTheCap() async throws {
        for grower in Self.growingChunks {
            try await withServer(Self.options()) { server, client in
                var statuses: [Int] = []
                for number in 1...40 {
                    let reply = try await client.send(.post, "/_understudy/lua", text: "local N = \(number) " + grower.chunk)
                    statuses.append(reply.status)
                    if reply.status == 507 { break }
                }
                #expect(statuses.last == 507, "\(grower.name): \(statuses)")
                let held = server.withStage { $0.heldBytes }
                #expect(held <= 2 * Self.cap, "\(grower.name): the apps hold \(held)")
            }
        }
    }

    @Test("POST messaging/push/{name} whose values would fill the template past the cap is refused with 507 before anything is filled")
    func placeholdersAreChargedFirst() async throws {
        try await withServer(Self.options()) { server, client in
            let define = try await client.send(
                .post, "/_understudy/lua", text: #"understudy.app("backendless").push.templates.define{ name = "t", message = ("{v}"):rep(100000) }"#
            )
            #expect(define.status == 200, "\(define.text)")
            let values = String(repeating: "y", count: 1000)
            let reply = try await client.send(.post, "\(backendless)/messaging/push/t", json: #"{"templateValues":{"v":"\#(values)"}}"#)
            #expect(reply.status == 507, "\(reply.status) \(reply.text.prefix(300))")
            #expect(reply.text.contains("memory cap"), "\(reply.text.prefix(300))")
            #expect(server.withStage { $0.heldBytes } < Self.cap, "nothing was filled")
            // A small fill still works.
            let small = try await client.send(.post, "/_understudy/lua", text: #"understudy.app("backendless").push.templates.define{ name = "s", message = "hi {v}" }"#)
            #expect(small.status == 200)
            #expect(try await client.send(.post, "\(backendless)/messaging/push/s", json: #"{"templateValues":{"v":"there"}}"#).status == 200)
        }
    }

    @Test("faults posted to the control API and devices with long channel lists count: 507 once the apps hold the cap")
    func faultsAndChannelsCount() async throws {
        try await withServer(Self.options()) { server, client in
            var statuses: [Int] = []
            for number in 1...20 {
                let message = String(repeating: "m", count: 300_000) + String(number)
                let reply = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.register","code":3033,"message":"\#(message)"}"#)
                statuses.append(reply.status)
                if reply.status == 507 { break }
            }
            #expect(statuses.last == 507, "faults: \(statuses)")
        }
        try await withServer(Self.options()) { server, client in
            let channels = (1...300).map { #""\#(String(repeating: "c", count: 90))\#($0)""# }.joined(separator: ",")
            var statuses: [Int] = []
            for number in 1...200 {
                let body = #"{"deviceToken":"t","deviceId":"d\#(number)","os":"IOS","channels":[\#(channels)]}"#
                let reply = try await client.send(.post, "\(backendless)/messaging/registrations", json: body)
                statuses.append(reply.status)
                if reply.status == 507 { break }
            }
            #expect(statuses.last == 507, "devices: \(Set(statuses))")
            #expect(server.withStage { $0.heldBytes } <= 2 * Self.cap)
        }
    }

    @Test("the live session's account is credited back: after a chunk's users are deleted over HTTP, a chunk that allocates 150 KB runs")
    func liveSessionIsCredited() async throws {
        try await withServer(Self.options()) { server, client in
            let seed = try await client.send(.post, "/_understudy/lua", text: #"""
                local app = understudy.app("backendless")
                local ids = {}
                for i = 1, 12 do -- 100 KB each
                  local properties = { email = "u" .. i .. "@example.com", password = "secret" }
                  for p = 1, 200 do properties["p" .. p] = ("b"):rep(490) .. i end
                  ids[i] = assert(app.users.register(properties)).objectId
                end
                return ids
                """#)
            #expect(seed.status == 200, "\(seed.text.prefix(300))")
            guard case .array(let results)? = seed.json("results"), case .array(let ids)? = results.first else {
                Issue.record("no ids: \(seed.text.prefix(300))")
                return
            }
            #expect(ids.count == 12)
            for value in ids {
                let id = try #require(value.stringValue)
                #expect(try await client.send(.delete, "\(backendless)/data/Users/\(id)").status == 200)
            }
            for _ in 1...5 {
                let reply = try await client.send(.post, "/_understudy/lua", text: #"local t = {} for i = 1, 150 do t[i] = ("k"):rep(1000) .. i end return #t"#)
                #expect(reply.status == 200, "\(reply.text.prefix(300))")
            }
        }
    }
}
