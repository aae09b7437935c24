#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// A real-time source a test moves by hand.
final class FakeRealTime: Sendable {
    private let seconds: Mutex<Double>
    init(_ start: Double) { seconds = Mutex(start) }
    var now: Double { seconds.withLock { $0 } }
    func pass(_ amount: Double) { seconds.withLock { $0 += amount } }
}

/// A JSON number as a Double, whether written with a fraction or not.
func number(_ json: JSON?) -> Double? {
    switch json {
    case .integer(let value)?: return Double(value)
    case .number(let value)?: return value
    default: return nil
    }
}

@Suite("A service a pipeline can wait for: the health route")
struct HealthRouteTests {
    @Test("GET /_understudy/health answers 200 with the version and the apps' count, without a token")
    func healthWithoutToken() async throws {
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.controlToken = "s3cret"
        try await withServer(options) { _, client in
            let reply = try await client.send(.get, "/_understudy/health")
            #expect(reply.status == 200)
            #expect(reply.json("status") == "ok")
            #expect(reply.json("version") == .string(UnderstudyVersion.current))
            #expect(reply.json("apps") == 2)
            // Everything else of the control API still needs the token.
            #expect(try await client.send(.get, "/_understudy/state").status == 401)
        }
    }

    @Test("the apps' count follows a posted scenario that creates an app")
    func countFollowsApps() async throws {
        try await withServer { _, client in
            let posted = try await client.send(.post, "/_understudy/lua", text: "understudy.backendless{ app_id = 'THIRD' }")
            #expect(posted.status == 200, "\(posted.text)")
            #expect(try await client.send(.get, "/_understudy/health").json("apps") == 3)
        }
    }

    @Test("a chunk or a posted scenario creating an app under a served id is refused at run time, as at start")
    func duplicateAppIDRefused() async throws {
        try await withServer { _, client in
            // understudy.kii{} again: the default Kii app's id is taken.
            let chunk = try await client.send(.post, "/_understudy/lua", text: "local app = understudy.kii{}\nreturn 1")
            #expect(chunk.status == 400, "\(chunk.text)")
            #expect((chunk.json("message")?.stringValue ?? "").contains("a Kii app is served under the app_id 'understudy-kii-app' already"), "\(chunk.text)")
            #expect(chunk.json("location") == "control:1", "\(chunk.text)")
            let file = """
                scenario("makes a second Backendless app", function()
                  local app = understudy.backendless{ app_id = "\(DefaultApps.backendlessAppID)" }
                end)
                scenario("renames one to a served id", function()
                  local app = understudy.backendless{ app_id = "spare" }
                  app.settings.app_id = "\(DefaultApps.backendlessAppID)"
                end)
                """
            let posted = try await client.send(.post, "/_understudy/scenarios?name=twice.lua", text: file)
            #expect(posted.status == 200, "\(posted.text)")
            #expect(posted.json("failed") == 2, "\(posted.text)")
            guard case .array(let outcomes)? = posted.json("scenarios") else { Issue.record("no scenarios: \(posted.text)"); return }
            for outcome in outcomes {
                let message = outcome["message"]?.stringValue ?? ""
                #expect(message.contains("app is served under the app_id '\(DefaultApps.backendlessAppID)' already"), "\(message)")
            }
            // The apps: the two defaults, and the spare one the second scenario made before its rename failed.
            #expect(try await client.send(.get, "/_understudy/health").json("apps") == 3)
            // Another id is fine, and a Kii app may share a Backendless app's id.
            let other = try await client.send(.post, "/_understudy/lua", text: "understudy.kii{ app_id = 'spare' }")
            #expect(other.status == 200, "\(other.text)")
        }
    }

    @Test("both request paths answer it: the event loop's (no Origin) and Hummingbird's (a browser's Origin)")
    func bothPaths() async throws {
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.controlToken = "s3cret"
        try await withLiveServer(options) { _, client in
            let port = try #require(client.port)
            let plain = try #require(RawConnection(port: port))
            plain.send("GET /_understudy/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let fast = await plain.reply()
            #expect(fast.hasPrefix("HTTP/1.1 200 OK"), "\(fast)")
            #expect(fast.contains(#""status":"ok""#))
            // A page from another site: the control API refuses it (Origin rule), the health check does not.
            let foreign = try #require(RawConnection(port: port))
            foreign.send("GET /_understudy/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://elsewhere.example\r\n\r\n")
            let handedOn = await foreign.reply()
            #expect(handedOn.hasPrefix("HTTP/1.1 200 OK"), "\(handedOn)")
            #expect(handedOn.contains(#""apps":2"#))
            #expect(!handedOn.lowercased().contains("access-control-allow-origin"), "a foreign page cannot read it")
            // The state route under the same Origin is refused: the exemption is the health route's only.
            let state = try #require(RawConnection(port: port))
            state.send("GET /_understudy/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://elsewhere.example\r\nX-Understudy-Token: s3cret\r\n\r\n")
            #expect(await state.statusLine() == "HTTP/1.1 403 Forbidden")
        }
    }

    @Test("it is answered while the server's lock is held (a long control chunk), on either path")
    func answeredWhileLocked() async throws {
        try await withLiveServer { server, client in
            let port = try #require(client.port)
            let released = FakeRealTime(0)
            let holding = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                server.withStage { _ in
                    holding.signal()
                    usleep(8_000_000)  // long enough for both requests to be answered on a loaded machine
                    released.pass(1)
                }
            }
            holding.wait()
            for origin in ["", "Origin: http://elsewhere.example\r\n"] {
                let connection = try #require(RawConnection(port: port))
                connection.send("GET /_understudy/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(origin)\r\n")
                let reply = await connection.reply(within: 10_000)
                #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
                let waited = released.now > 0
                #expect(!waited, "the health check waited for the lock")
            }
        }
    }
}

@Suite("serve --clock real: the apps' clocks follow the real time")
struct RealClockTests {
    static let setup = """
        local app = understudy.backendless{ lockout_after = 1, lockout_minutes = 1 }
        app.users.register{ email = "m@mi6.co.uk", password = "right" }
        """

    @Test("a one-minute lockout ends by itself after a minute of real time; advance still moves the clock")
    func lockoutEndsWithRealTime() async throws {
        let time = FakeRealTime(2_000_000_000)
        var options = ServerOptions(port: 0, clockMode: .real, realTime: { time.now })
        options.clockStart = nil
        try await withServer(options, setup: Self.setup) { _, client in
            let login = "\(backendless)/users/login"
            #expect(try await client.send(.post, login, json: #"{"login":"m@mi6.co.uk","password":"wrong"}"#).json("code") == 3003)
            #expect(try await client.send(.post, login, json: #"{"login":"m@mi6.co.uk","password":"right"}"#).json("code") == 3036)
            time.pass(59)
            #expect(try await client.send(.post, login, json: #"{"login":"m@mi6.co.uk","password":"right"}"#).json("code") == 3036)
            time.pass(1.5)
            let after = try await client.send(.post, login, json: #"{"login":"m@mi6.co.uk","password":"right"}"#)
            #expect(after.status == 200, "\(after.text)")
            // The clock started at the real time and followed it; an advance is an offset that stays.
            let clock = try await client.send(.get, "/_understudy/clock")
            #expect(clock.json("mode") == "real")
            #expect(number(clock.json("now")) == 2_000_000_060.5)
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds": 3600}"#)
            time.pass(10)
            #expect(number(try await client.send(.get, "/_understudy/clock").json("now")) == 2_000_003_670.5)
            let summary = try await client.send(.get, "/_understudy/summary")
            #expect(summary.json("clock_mode") == "real")
        }
    }

    @Test("an app a posted chunk creates later starts at the real time, not at the server's start")
    func laterAppsStartNow() async throws {
        let time = FakeRealTime(2_000_000_000)
        var options = ServerOptions(port: 0, clockMode: .real, realTime: { time.now })
        options.clockStart = nil
        try await withServer(options) { _, client in
            time.pass(120)
            let made = try await client.send(.post, "/_understudy/lua", text: "return understudy.kii{ app_id = 'LATER' }.clock.now()")
            guard case .array(let results)? = made.json("results") else { Issue.record("\(made.text)"); return }
            #expect(number(results.first) == 2_000_000_120, "\(made.text)")
        }
    }

    @Test("under the default --clock virtual the clocks stand still while real time passes")
    func virtualStandsStill() async throws {
        let time = FakeRealTime(2_000_000_000)
        let options = ServerOptions(port: 0, clockStart: VirtualClock.start, realTime: { time.now })
        try await withServer(options) { _, client in
            time.pass(3600)
            let clock = try await client.send(.get, "/_understudy/clock")
            #expect(number(clock.json("now")) == VirtualClock.start)
            #expect(clock.json("mode") == "virtual")
        }
    }

    @Test("with the machine's own real time, the clock moves by itself (a second of real time)")
    func realSecondPasses() async throws {
        let options = ServerOptions(port: 0, clockMode: .real)
        try await withServer(options) { _, client in
            let before = try #require(number(try await client.send(.get, "/_understudy/clock").json("now")))
            try await Task.sleep(for: .milliseconds(1100))
            let after = try #require(number(try await client.send(.get, "/_understudy/clock").json("now")))
            #expect(after - before >= 1.0)
            #expect(after - before < 60)
        }
    }
}

@Suite("Names refused over HTTP come with the nearest one, and predicates read only declared arguments")
struct RefusedNameTests {
    @Test("a predicate posted in a setup script that reads args.identity fails the request, naming identity_value")
    func strictArgumentsOverHTTP() async throws {
        let setup = """
            local app = understudy.backendless()
            app.faults.inject{ op = "users.login", code = 3036, when = function(args) return args.identity == "x@example.com" end }
            """
        try await withServer(setup: setup) { _, client in
            let reply = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"x@example.com","password":"pw"}"#)
            #expect(reply.text.contains("args.identity is not an argument of users.login (did you mean args.identity_value?)"), "\(reply.text)")
        }
    }

    @Test("unknown app, query parameter, body field and fault operation: each suggests the nearest name")
    func suggestions() async throws {
        try await withServer { _, client in
            let app = try await client.send(.get, "/_understudy/clock?app=UNDERSTUDY-AP")
            #expect(app.text.contains("(did you mean 'UNDERSTUDY-APP'?)"), "\(app.text)")
            let query = try await client.send(.get, "/_understudy/clock?ap=kii")
            #expect(query.text.contains("(did you mean 'app'?)"), "\(query.text)")
            let field = try await client.send(.post, "/_understudy/clock/advance", json: #"{"second": 5}"#)
            #expect(field.text.contains("(did you mean 'seconds'?)"), "\(field.text)")
            let operation = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.registr","code":3033}"#)
            #expect(operation.text.contains("(did you mean 'users.register'?)"), "\(operation.text)")
        }
    }
}
