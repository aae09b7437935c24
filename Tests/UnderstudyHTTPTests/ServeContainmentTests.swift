#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

private func hostileLimits() -> ScenarioLimits {
    ScenarioLimits(maxInstructions: 100_000, maxMemory: 8 * 1024 * 1024, timeout: 2)
}

@Suite("Serve containment: misbehaving clients and hostile control chunks cannot starve other clients")
struct ServeContainmentTests {
    @Test("idle connections and half-sent heads are closed after the idle timeout; a new client is served meanwhile")
    func idleConnectionsAreClosed() async throws {
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.idleTimeout = 0.5
        try await withLiveServer(options) { _, client in
            let port = try #require(client.port)
            var idle: [RawConnection] = []
            for number in 0..<200 {
                let connection = try #require(RawConnection(port: port))
                if number % 2 == 1 { connection.send("GET /_understudy/routes HTTP/1.1\r\nHo") }
                idle.append(connection)
            }
            // A new client is served meanwhile. (Not the test client: its connection, opened before the 200, may
            // itself have been idle for the timeout on a loaded machine, and been closed.)
            let meanwhile = try #require(RawConnection(port: port))
            meanwhile.send("GET /_understudy/routes HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let served = await meanwhile.replies(1)
            #expect(served.first?.hasPrefix("HTTP/1.1 200 OK") == true)
            try await Task.sleep(for: .milliseconds(700))
            var stillOpen = 0
            for connection in idle {
                if await !connection.closedByServer(within: 2000) { stillOpen += 1 }
            }
            #expect(stillOpen == 0)
            // The test client's own connection was idle too: a new one is served.
            let fresh = try #require(RawConnection(port: port))
            fresh.send("GET /_understudy/routes HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            #expect(await fresh.statusLine() == "HTTP/1.1 200 OK")
        }
    }

    @Test("a body the client cuts off is journaled as cut off, not as too large")
    func cutOffBody() async throws {
        try await withLiveServer { server, client in
            let port = try #require(client.port)
            let connection = try #require(RawConnection(port: port))
            connection.send(
                "POST \(backendless)/users/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"email\":"
            )
            try await Task.sleep(for: .milliseconds(100))
            shutdown(connection.descriptor, Int32(SHUT_RDWR))
            var entries: [JournalEntry] = []
            for _ in 0..<40 where entries.isEmpty {
                try await Task.sleep(for: .milliseconds(50))
                entries = server.withStage { $0.world.journal.entries(matching: JournalFilter()) }
            }
            let entry = try #require(entries.first)
            #expect(entry.status == 400)
            #expect(entry.reply.contains("cut off"), "\(entry.reply)")
            #expect(!entry.reply.contains("larger than"))
        }
    }

    @Test("hostile control chunks end within their deadline and leave the server answering", .serialized, arguments: [
        #"while true do load(function() error("x") end) end"#,
        #"local function loop() while true do end end error(setmetatable({}, { __tostring = function() return xpcall(loop, loop) end }))"#,
        #"("a"):rep(30000):find(".-.-.-b")"#,
        #"for _ = 1, 3 do understudy.kii().users.seed{ count = 1000000, username = "u%d", password = "secret1" } end"#,
        #"local app = understudy.backendless() app.faults.inject{ op = "users.logout", code = 3000, when = function() error("x") end } while true do pcall(app.users.logout, "t") end"#,
        #"local s = (""):rep(math.maxinteger)"#,
        "table.move({}, 1, 1e15, 2)",
        #"local s = "x" while true do s = s .. s end"#,
        #"table.insert(setmetatable({}, { __len = function() return 1 << 40 end }), 1, "x")"#,
        #"local h, n = ("a"):rep(1 << 20), ("a"):rep(1 << 12) .. "b" while true do h:find(n, 1, true) end"#,
        #"local s = ("a"):rep(1 << 20) while true do utf8.len(s) end"#,
        #"for k = 10, 20 do local store = {} local t = setmetatable({}, setmetatable({ __newindex = store }, { __mode = "v" })) for i = 1, 1 << k do t["k" .. i] = i end store = nil pcall(function() t["k0"] = true end) end"#,
        #"local function nest(n) if n == 0 then return end local co = coroutine.create(function() local x <close> = setmetatable({}, { __close = function() nest(n - 1) end }) coroutine.yield() end) coroutine.resume(co) coroutine.close(co) end nest(20000)"#,
    ])
    func hostileChunks(chunk: String) async throws {
        try await withLiveServer(ServerOptions(port: 0, limits: hostileLimits(), clockStart: VirtualClock.start)) { _, client in
            let start = ContinuousClock.now
            async let hostile = client.send(.post, "/_understudy/lua", text: chunk)
            try await Task.sleep(for: .milliseconds(20))
            let other = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"alice@example.com","password":"wonderland","name":"Alice"}"#)
            #expect(other.status == 200)
            let reply = try await hostile
            // Answered: refused (400) when a limit stopped it, or 200 where the chunk caught its own error.
            #expect([200, 400].contains(reply.status), "\(reply.text)")
            // The deadline is 2 s; a chunk that escaped it would never end. Room for a loaded machine.
            #expect(ContinuousClock.now - start < .seconds(10))
            #expect(try await client.send(.get, "/_understudy/routes").status == 200)
        }
    }

    @Test("a control chunk or posted file cannot arm a finalizer through the shared API metatables")
    func noFinalizerAcrossChunks() async throws {
        try await withLiveServer(ServerOptions(port: 0, limits: hostileLimits())) { _, client in
            let disarm = #"function() rawset(expect, "equal", function() end) end"#
            let attacks = [
                "getmetatable(understudy.backendless()).__gc = \(disarm); for i = 1, 20 do understudy.backendless() end",
                "getmetatable(understudy.app('backendless').users).__gc = \(disarm); for i = 1, 20 do understudy.apps() end",
                "getmetatable(understudy.journal).__gc = function() while true do end end; setmetatable(understudy.journal, nil)",
                "local mt = getmetatable(expect); mt.__gc = \(disarm); setmetatable(expect, nil)",
            ]
            for attack in attacks {
                _ = try await client.send(.post, "/_understudy/lua", text: attack)
                _ = try await client.send(.post, "/_understudy/scenarios", text: "scenario('a', function() \(attack) end)")
                let chunk = try await client.send(.post, "/_understudy/lua", text: "collectgarbage(); collectgarbage(); return (pcall(expect.equal, 1 + 1, 3))")
                #expect(chunk.json("results") == .array([false]), "\(attack): \(chunk.text)")
                let honest = try await client.send(.post, "/_understudy/scenarios", text: "scenario('honest', function() collectgarbage(); expect.equal(1 + 1, 3) end)")
                #expect(honest.json("failed") == 1, "\(attack): \(honest.text)")
            }
        }
    }

    @Test("a posted file or chunk cannot change what later ones see: file-level expect, nested library tables")
    func postedFilesStartPristine() async throws {
        try await withLiveServer(ServerOptions(port: 0, limits: hostileLimits())) { _, client in
            let attacks = [
                #"expect = { equal = function() end }; fail = function() end; scenario("a", function() end)"#,
                #"understudy.journal.count = function() return 99 end; scenario("a", function() end)"#,
                #"rawset(_G, "expect", { equal = function() end }); scenario("a", function() end)"#,
            ]
            for attack in attacks {
                _ = try await client.send(.post, "/_understudy/scenarios", text: attack)
                let honest = try await client.send(.post, "/_understudy/scenarios", text: #"""
                    scenario("honest", function()
                      expect.fails(function() expect.equal(1, 2) end)
                      expect.equal(type(understudy.journal.count()), "number")
                      expect.truthy(understudy.journal.count() ~= 99)
                    end)
                    """#)
                #expect(honest.json("passed") == 1, "\(attack): \(honest.text)")
                _ = try await client.send(.post, "/_understudy/lua", text: attack.replacingOccurrences(of: #"; scenario("a", function() end)"#, with: ""))
                let chunk = try await client.send(.post, "/_understudy/lua", text: "local ok = pcall(expect.equal, 1, 2) return ok, understudy.journal.count() ~= 99")
                #expect(chunk.text.contains("false") && chunk.text.contains("true"), "\(attack): \(chunk.text)")
            }
            // each chunk starts with pristine globals: a global set by one chunk, a replaced `expect` or `tostring`,
            // are gone in the next; state lives in the apps (`understudy.app(...)`)
            _ = try await client.send(.post, "/_understudy/lua", text: #"kept = 41; expect = nil; tostring = function() return "x" end; understudy.app("backendless").settings.lockout_after = 7"#)
            let kept = try await client.send(.post, "/_understudy/lua", text: #"return type(kept), type(expect), tostring(1), understudy.app("backendless").settings.lockout_after"#)
            #expect(kept.json("results") == .array(["nil", "table", "1", 7]), "\(kept.text)")
        }
    }

    @Test("the control API answers only its own pages and tools: foreign Origin and rebinding Host are refused")
    func controlRefusesForeignPages() async throws {
        try await withLiveServer(ServerOptions(port: 0, limits: hostileLimits())) { _, client in
            let port = try #require(client.port)
            func raw(_ head: String, body: String = "") async -> String {
                guard let connection = RawConnection(port: port) else { return "" }
                connection.send(head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
                return await connection.reply()
            }
            let chunk = "understudy.app('UNDERSTUDY-APP').settings{ registration = false }"
            // a page on another site
            for origin in ["http://evil.example", "http://127.0.0.1.evil.example", "null", "http://localhost:1"] {
                let reply = await raw("POST /_understudy/lua HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: \(origin)\r\nContent-Type: text/plain\r\n", body: chunk)
                #expect(reply.hasPrefix("HTTP/1.1 403"), "\(origin): \(reply)")
            }
            // DNS rebinding: the page's own name, pointed at 127.0.0.1
            for host in ["evil.example:\(port)", "rebind.attacker.test"] {
                let reply = await raw("GET /_understudy/state HTTP/1.1\r\nHost: \(host)\r\n")
                #expect(reply.hasPrefix("HTTP/1.1 403"), "\(host): \(reply)")
                let vendor = await raw("GET \(backendless)/users/login HTTP/1.1\r\nHost: \(host)\r\n")
                #expect(!vendor.hasPrefix("HTTP/1.1 403"), "vendor routes answer any host: \(vendor)")
            }
            // its own page, curl and loopback names keep working
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] {
                let sameOrigin = await raw("GET /_understudy/routes HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\n")
                #expect(sameOrigin.hasPrefix("HTTP/1.1 200"), "\(host): \(sameOrigin)")
            }
            #expect(await raw("GET /_understudy/routes HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n").hasPrefix("HTTP/1.1 200"))
            // JSON control routes refuse the body types a page may send without asking first
            for type in ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let reply = await raw("POST /_understudy/clock/advance HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(type)\r\n", body: #"{"seconds":60}"#)
                #expect(reply.hasPrefix("HTTP/1.1 415"), "\(type): \(reply)")
            }
            let advanced = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":60}"#)
            #expect(advanced.status == 200, "\(advanced.text)")
            // the vendor routes answer a web app under test from any origin, preflight included
            let preflight = await raw("OPTIONS \(backendless)/users/register HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://app.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type, user-token\r\n")
            #expect(preflight.hasPrefix("HTTP/1.1 204"), "\(preflight)")
            #expect(preflight.lowercased().contains("access-control-allow-origin: http://app.example"), "\(preflight)")
            #expect(preflight.lowercased().contains("access-control-allow-headers: content-type, user-token"), "\(preflight)")
            let body = #"{"email":"cors@example.com","password":"wonderland"}"#
            let register = await raw("POST \(backendless)/users/register HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://app.example\r\nContent-Type: application/json\r\n", body: body)
            #expect(register.hasPrefix("HTTP/1.1 200"), "\(register)")
            #expect(register.lowercased().contains("access-control-allow-origin: http://app.example"), "\(register)")
        }
    }

    /// Other spellings of a control path that a router, a proxy or a decoder might read as the path itself.
    static func spellings(of path: String) -> [String] {
        let rest = String(path.dropFirst("/_understudy".count))
        return [
            "/" + path, "/." + path, "/x/.." + path, "/%2e" + path, "/%2E/%2E" + path, "/x/%2e%2e" + path,
            "/%5Funderstudy" + rest, "/%5funderstudy" + rest, "/_UNDERSTUDY" + rest, "/_Understudy" + rest,
            "/%5F%75nderstudy" + rest, "/%255Funderstudy" + rest, "/%2F_understudy" + rest, "/%2f%2f_understudy" + rest,
            "/_understudy/" + rest, "/_understudy/." + rest, path + "/", path + "/.", "/_understudy%2F" + rest.dropFirst(),
            "/%5C_understudy" + rest, "//%5F%55NDERSTUDY/./" + rest.dropFirst(),
        ]
    }

    @Test("no spelling of a control path reaches a control route around the Origin/Host guard, or gets CORS headers")
    func controlPathSpellings() async throws {
        // No idle timeout: the test client's own connection waits, idle, while the raw connections run (over
        // 1,500 of them, minutes on a loaded machine), and the server must not close it meanwhile.
        try await withLiveServer(ServerOptions(port: 0, limits: hostileLimits(), idleTimeout: 0, clockStart: VirtualClock.start)) { server, client in
            let port = try #require(client.port)
            func raw(_ head: String, body: String = "") async -> String {
                guard let connection = RawConnection(port: port) else { return "" }
                connection.send(head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
                return await connection.reply()
            }
            // The health check is answered whatever the Origin and Host (it is for container runtimes and CI, and says
            // only the version and the number of apps), without CORS headers: a foreign page cannot read it.
            let routes = server.routeDescriptions.filter { $0.area == .control && $0.path != "/_understudy/health" }
            #expect(routes.count > 20)
            var tried = 0
            for route in routes {
                let path = route.path.split(separator: "/").map { $0.hasPrefix("{") ? "x" : String($0) }.joined(separator: "/")
                let concrete = "/" + path
                let body = route.method == .get ? "" : "return 1"
                for spelling in Self.spellings(of: concrete) {
                    let method = route.method.rawValue
                    for (host, origin) in [
                        ("127.0.0.1:\(port)", "http://evil.example"), ("evil.example:\(port)", nil), ("evil.example.:\(port)", nil),
                        ("evil.example.", "http://evil.example."), ("127.0.0.1:\(port)", "null"),
                    ] {
                        let head = "\(method) \(spelling) HTTP/1.1\r\nHost: \(host)\r\n" + (origin.map { "Origin: \($0)\r\n" } ?? "")
                        let reply = await raw(head + "Content-Type: text/plain\r\n", body: body)
                        tried += 1
                        let status = reply.prefix(12)
                        #expect(status == "HTTP/1.1 403" || status == "HTTP/1.1 400", "\(method) \(spelling) Host \(host) Origin \(origin ?? "-"): \(reply.prefix(300))")
                        #expect(!reply.lowercased().contains("access-control-allow-origin"), "\(method) \(spelling): \(reply.prefix(300))")
                    }
                }
            }
            #expect(tried > 1000)
            // The registration switch the attack aimed at is untouched, and the server's own tools still reach
            // every spelling (it is the same route).
            let state = await raw("GET //_UNDERSTUDY/./apps/../state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
            #expect(state.hasPrefix("HTTP/1.1 200"), "\(state.prefix(300))")
            // (a new connection: the test client's own may have passed the idle timeout meanwhile on a loaded machine)
            let journal = await raw("GET /_understudy/journal HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
            #expect(journal.hasPrefix("HTTP/1.1 200"), "\(journal.prefix(300))")
            #expect(!journal.contains("_understudy"), "control requests are not journaled: \(journal.prefix(300))")
        }
    }

    @Test("a vendor path in another spelling is routed, and journaled, as its canonical path")
    func vendorPathSpellings() async throws {
        try await withLiveServer(ServerOptions(port: 0, limits: hostileLimits(), clockStart: VirtualClock.start)) { _, client in
            let port = try #require(client.port)
            let body = #"{"email":"walk@example.com","password":"wonderland"}"#
            let connection = try #require(RawConnection(port: port))
            let spelled = "/" + backendless.replacingOccurrences(of: "/", with: "//") + "/./%75sers/x/../register"
            connection.send("POST \(spelled) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            let reply = await connection.reply()
            #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(300))")
            let journal = try await client.send(.get, "/_understudy/journal")
            #expect(journal.text.contains("\"path\":\"\(backendless)/users/register\""), "\(journal.text.prefix(600))")
        }
    }

    @Test("the Host guard reads a name without its trailing dots, and only ASCII digits as an IPv4 literal")
    func hostSpellings() async throws {
        try await withLiveServer(ServerOptions(port: 0, limits: hostileLimits(), clockStart: VirtualClock.start)) { _, client in
            let port = try #require(client.port)
            func status(_ host: String) async -> String {
                guard let connection = RawConnection(port: port) else { return "" }
                connection.send("GET /_understudy/routes HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                return String(await connection.reply().prefix(12))
            }
            for host in ["evil.example.", "evil.example..:\(port)", "EVIL.example.:\(port)", "[::1]evil.example", "[::1]:\(port)@evil.example",
                         "\u{0661}\u{0662}\u{0667}.\u{0660}.\u{0660}.\u{0661}", "127.0.0.1:\(port)@evil.example", "127.0.0.1:80x"] {
                #expect(await status(host) == "HTTP/1.1 403", "\(host)")
            }
            for host in ["localhost.:\(port)", "localhost..", "127.0.0.1.:\(port)", "[::1]", "[::1]:\(port)"] {
                #expect(await status(host) == "HTTP/1.1 200", "\(host)")
            }
        }
    }

    @Test("the control token is compared as bytes: a differently composed café does not match")
    func controlTokenIsBytes() async throws {
        try await withServer(ServerOptions(port: 0, controlToken: "caf\u{E9}")) { _, client in
            let decomposed = try await client.send(.get, "/_understudy/routes", headers: [ControlRoutes.tokenHeader: "cafe\u{301}"])
            #expect(decomposed.status == 401)
            let composed = try await client.send(.get, "/_understudy/routes", headers: [ControlRoutes.tokenHeader: "caf\u{E9}"])
            #expect(composed.status == 200)
            let prefix = try await client.send(.get, "/_understudy/routes", headers: [ControlRoutes.tokenHeader: "caf"])
            #expect(prefix.status == 401)
        }
    }

    @Test("while control chunks loop in Lua, one after another, a request that needs no lock is answered at once")
    func loopingChunksHoldNoRequestThread() async throws {
        // One more chunk than the threads that could run requests: each chunk waiting for the lock, or running Lua,
        // on such a thread would leave none for the preflight.
        let chunks = min(ProcessInfo.processInfo.activeProcessorCount, 8) + 1
        // Each chunk runs to its 5 s deadline, one after another. A preflight that waited for even one of them would
        // take 5 s; one that needs no lock is answered at once, and 4 s leaves room for a loaded machine.
        let limits = ScenarioLimits(maxInstructions: Int64.max / 2, maxMemory: 64 * 1024 * 1024, timeout: 5)
        try await withLiveServer(ServerOptions(port: 0, limits: limits, clockStart: VirtualClock.start)) { _, client in
            let port = try #require(client.port)
            var looping: [RawConnection] = []
            for _ in 0..<chunks {
                let connection = try #require(RawConnection(port: port))
                connection.send("POST /_understudy/lua HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: text/plain\r\nContent-Length: 17\r\n\r\nwhile true do end")
                looping.append(connection)
            }
            try await Task.sleep(for: .milliseconds(100))
            let preflight = try #require(RawConnection(port: port))
            let start = ContinuousClock.now
            preflight.send("OPTIONS \(backendless)/users/register HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://app.example\r\nAccess-Control-Request-Method: POST\r\n\r\n")
            #expect(await preflight.statusLine() == "HTTP/1.1 204 No Content")
            #expect(ContinuousClock.now - start < .seconds(4), "the preflight waited for the chunks")
            for connection in looping {
                let reply = await connection.reply(within: 90_000)
                #expect(reply.contains("timed out after 5 s"), "\(reply)")
            }
        }
    }

    @Test("a control chunk looping in Lua delays another client by at most its deadline")
    func chunkDelaysOthersByItsDeadlineAtMost() async throws {
        let limits = ScenarioLimits(maxInstructions: Int64.max / 2, maxMemory: 64 * 1024 * 1024, timeout: 1)
        try await withLiveServer(ServerOptions(port: 0, limits: limits, clockStart: VirtualClock.start)) { _, client in
            let start = ContinuousClock.now
            async let hostile = client.send(.post, "/_understudy/lua", text: "while true do end")
            try await Task.sleep(for: .milliseconds(50))
            let other = try await client.send(.get, "/_understudy/routes")
            #expect(other.status == 200)
            // Without the deadline the chunk would loop for ever and this request would wait for it; with it, the
            // request waits about 1 s. The bound is the deadline plus room for a loaded machine (CI runs the suites
            // in parallel on two cores), not a speed test.
            #expect(ContinuousClock.now - start < .seconds(10))
            let reply = try await hostile
            #expect(reply.json("message") == "timed out after 1 s (raise it with --timeout)")
        }
    }
}
