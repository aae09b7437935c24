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

/// `GET /_understudy/coverage`: what the app under test met, per app, operation and test.
@Suite("Coverage of the app under test")
struct CoverageRouteTests {
    let alice = #"{"email":"alice@example.com","password":"secret1"}"#

    func test(_ name: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[HTTPField.Name("X-Understudy-Test")!] = name
        return fields
    }

    /// The `answered` entry of `code` for one operation of the report.
    func answered(_ report: JSON?, op: String, code: String) -> JSON? {
        guard case .array(let operations)? = report?["operations"],
            let operation = operations.first(where: { $0["op"]?.stringValue == op }),
            case .array(let answered)? = operation["answered"]
        else { return nil }
        return answered.first { $0["code"]?.stringValue == code }
    }

    func codeRow(_ report: JSON?, _ flavour: String, _ code: String) -> JSON? {
        guard case .array(let rows)? = report?["codes"] else { return nil }
        return rows.first { $0["flavour"]?.stringValue == flavour && $0["code"]?.stringValue == code }
    }

    @Test("real triggers, injected faults and a dropped connection are each counted as such, per test")
    func realInjectedAndNetwork() async throws {
        let setup = """
            local app = understudy.backendless{}
            app.faults.inject{ op = "users.login", code = 3000, times = 1 }
            app.faults.inject{ op = "users.get", drop = true, times = 1 }
            """
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.setupScript = ScenarioFile(path: "setup.lua", contents: Array(setup.utf8))
        try await withLiveServer(options) { server, client in
            let signUp = test("sign-up twice")
            #expect(try await client.send(.post, "\(backendless)/users/register", json: alice, headers: signUp).status == 200)
            #expect(try await client.send(.post, "\(backendless)/users/register", json: alice, headers: signUp).json("code") == 3033)
            let login = test("login")
            let injected = try await client.send(
                .post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"secret1"}"#, headers: login
            )
            #expect(injected.json("code") == 3000)
            let miss = try await client.send(.post, "\(backendless)/users/logn", json: "{}", headers: login)
            #expect([404, 405].contains(miss.status))
            // The drop ends the test client's connection: it comes last.
            await #expect(throws: (any Error).self) {
                _ = try await client.send(.get, "\(backendless)/data/Users/someone", headers: self.test("profile"))
            }
            // The client's connection is gone: read the report as serve --codes-json writes it.
            let report = try JSONParser.parse(Array(server.coverageText().utf8))
            #expect(codeRow(report, "backendless", "3033")?["real"] == 1)
            #expect(codeRow(report, "backendless", "3033")?["injected"] == 0)
            #expect(codeRow(report, "backendless", "3000")?["injected"] == 1)
            #expect(codeRow(report, "backendless", "connection dropped")?["network"] == 1)
            guard case .array(let tests)? = report["tests"] else { Issue.record("no tests"); return }
            #expect(tests.compactMap { $0["name"]?.stringValue } == ["sign-up twice", "login", "profile"])
            let tally = server.withStage { $0.world.coverage }
            let profile: JSON? = CoverageReport.json(tally, test: "profile", routes: server.routeDescriptions)
            #expect(answered(profile, op: "users.get", code: "connection dropped")?["network"] == 1)
            #expect(codeRow(profile, "backendless", "3033")?["real"] == 0)
        }
    }

    @Test("the report says which codes were met and how, per test, with the reachable codes never answered")
    func reportPerTest() async throws {
        let setup = """
            local app = understudy.backendless{}
            app.faults.inject{ op = "users.login", code = 3000, times = 1 }
            """
        try await withServer(setup: setup) { server, client in
            let signUp = test("sign-up twice")
            _ = try await client.send(.post, "\(backendless)/users/register", json: alice, headers: signUp)
            _ = try await client.send(.post, "\(backendless)/users/register", json: alice, headers: signUp)
            let login = test("login")
            _ = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"secret1"}"#, headers: login)
            _ = try await client.send(.post, "\(backendless)/users/logn", json: "{}", headers: login)
            // A dropped connection, recorded as the server would (the in-process client cannot see a drop).
            _ = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.login","drop":true,"times":1}"#)
            _ = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"secret1"}"#, headers: login)

            let report = try await client.send(.get, "/_understudy/coverage").json
            #expect(report?["understudy_codes"] == 1)
            #expect(codeRow(report, "backendless", "3033")?["real"] == 1)
            #expect(codeRow(report, "backendless", "3000")?["injected"] == 1)
            #expect(codeRow(report, "backendless", "3000")?["real"] == 0)
            #expect(codeRow(report, "backendless", "connection dropped")?["network"] == 1)
            #expect(answered(report, op: "users.register", code: "ok")?["real"] == 1)
            #expect(answered(report, op: "users.register", code: "3033")?["first_seq"] == 2)
            #expect(answered(report, op: "users.login", code: "connection dropped")?["network"] == 1)
            guard case .array(let operations)? = report?["operations"],
                let register = operations.first(where: { $0["op"] == "users.register" }),
                case .array(let never)? = register["never_answered"]
            else { Issue.record("no users.register entry"); return }
            #expect(never.contains("3009") && !never.contains("3033"))

            // One test's part.
            let signUpReport = try await client.send(.get, "/_understudy/coverage?test=sign-up%20twice").json
            #expect(signUpReport?["test"] == "sign-up twice")
            #expect(codeRow(signUpReport, "backendless", "3033")?["real"] == 1)
            #expect(codeRow(signUpReport, "backendless", "3000") == nil, "3000 is not catalogued: listed only once met")
            #expect(answered(signUpReport, op: "users.login", code: "3000") == nil)
            let unknown = try await client.send(.get, "/_understudy/coverage?test=nope")
            #expect(unknown.status == 404)
            #expect(unknown.json("message")?.stringValue?.contains("sign-up twice") == true)

            // The unmatched request, with the route nearest to it.
            guard case .array(let unmatched)? = report?["unmatched"], let miss = unmatched.first else {
                Issue.record("no unmatched request listed"); return
            }
            #expect(miss["path"] == .string("\(backendless)/users/logn"))
            #expect(miss["nearest"]?["path"] == "/{appId}/{apiKey}/users/login")
            #expect(miss["nearest"]?["op"] == "users.login")
            #expect(miss["tests"] == .array(["login"]))

            // The journal entry names the test and the fault that changed it.
            let entries = server.withStage { $0.world.journal.entries(matching: JournalFilter(test: "login")) }
            #expect(entries.count == 3)
            #expect(entries.first?.fault?.effect == "error")
            #expect(entries.last?.fault?.effect == "drop")

            // The file serve --codes-json writes is the same report.
            let written = try JSONParser.parse(Array(server.coverageText().utf8))
            #expect(codeRow(written, "backendless", "3033")?["real"] == 1)

            #expect(try await client.send(.delete, "/_understudy/coverage").status == 200)
            let cleared = try await client.send(.get, "/_understudy/coverage").json
            #expect(codeRow(cleared, "backendless", "3033")?["real"] == 0)
        }
    }

    @Test("after a 3087 the report shows the next call the same test made")
    func whatTheAppDidNext() async throws {
        let setup = """
            local app = understudy.backendless{}
            app.settings.email_confirmation = true
            """
        try await withServer(setup: setup) { _, client in
            let careful = test("resends")
            let careless = test("gives up")
            _ = try await client.send(.post, "\(backendless)/users/register", json: alice, headers: careful)
            let bob = #"{"email":"bob@example.com","password":"secret1"}"#
            _ = try await client.send(.post, "\(backendless)/users/register", json: bob, headers: careless)
            let refused = try await client.send(
                .post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"secret1"}"#, headers: careful
            )
            #expect(refused.json("code") == 3087)
            _ = try await client.send(
                .post, "\(backendless)/users/login", json: #"{"login":"bob@example.com","password":"secret1"}"#, headers: careless
            )
            // Another test's request in between does not count as the careful test's reaction.
            _ = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"c@example.com","password":"secret1"}"#, headers: careless)
            _ = try await client.send(.post, "\(backendless)/users/resendconfirmation/alice@example.com", headers: careful)

            let report = try await client.send(.get, "/_understudy/coverage").json
            guard case .array(let tests)? = report?["tests"] else { Issue.record("no tests"); return }
            let resends = try #require(tests.first { $0["name"] == "resends" })
            guard case .array(let errors)? = resends["errors"], let error = errors.first else { Issue.record("no errors"); return }
            #expect(error["code"] == "3087")
            #expect(error["next"]?["op"] == "users.resend_confirmation")
            #expect(error["reaction"] == "recovery")
            let givesUp = try #require(tests.first { $0["name"] == "gives up" })
            guard case .array(let bobErrors)? = givesUp["errors"], let bobError = bobErrors.first else { Issue.record("no errors"); return }
            #expect(bobError["next"]?["op"] == "users.register")
            #expect(bobError["reaction"] == "other")

            guard case .array(let reactions)? = report?["reactions"],
                let after3087 = reactions.first(where: { $0["code"] == "3087" })
            else { Issue.record("no reactions"); return }
            #expect(after3087["times"] == 2)
            #expect(after3087["recovery"] == 1)
            #expect(after3087["other"] == 1)
            #expect(after3087["next"]?["users.resend_confirmation"] == 1)
        }
    }

    @Test("without a test name, the next request on the same connection is the reaction")
    func reactionPerConnection() async throws {
        try await withLiveServer { _, client in
            _ = try await client.send(.post, "\(backendless)/users/register", json: alice)
            let again = try await client.send(.post, "\(backendless)/users/register", json: alice)
            #expect(again.json("code") == 3033)
            _ = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"secret1"}"#)
            let report = try await client.send(.get, "/_understudy/coverage").json
            guard case .array(let reactions)? = report?["reactions"], let after3033 = reactions.first else {
                Issue.record("no reactions"); return
            }
            #expect(after3033["code"] == "3033")
            #expect(after3033["recovery"] == 1)
            #expect(after3033["next"]?["users.login"] == 1)
        }
    }
}

/// The faults apps meet, over HTTP.
@Suite("Faults apps meet, over HTTP")
struct FaultsAppsMeetTests {
    let alice = #"{"email":"alice@example.com","password":"secret1"}"#

    @Test("after_commit on users.register: the user is made, the error answered, and the app's retry meets 3033")
    func afterCommitRetry() async throws {
        try await withServer { server, client in
            let injected = try await client.send(
                .post, "/_understudy/faults", json: #"{"op":"users.register","code":3021,"after_commit":true,"times":1}"#
            )
            #expect(injected.status == 201)
            #expect(injected.json("after_commit") == true)
            let first = try await client.send(.post, "\(backendless)/users/register", json: alice)
            #expect(first.json("code") == 3021)
            let retry = try await client.send(.post, "\(backendless)/users/register", json: alice)
            #expect(retry.json("code") == 3033)
            let entries = server.withStage { $0.world.journal.entries(matching: JournalFilter(operation: "users.register")) }
            #expect(entries.first?.fault?.effect == "after_commit")
            #expect(entries.first?.fault?.id == 1)
            #expect(entries.last?.fault == nil)
        }
    }

    @Test("after_commit with drop: the sign-up is made and the reply is lost; the retry meets 3033")
    func afterCommitDrop() async throws {
        let setup = """
            local app = understudy.backendless{}
            app.faults.inject{ op = "users.register", code = 3021, after_commit = true, drop = true, times = 1 }
            """
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.setupScript = ScenarioFile(path: "setup.lua", contents: Array(setup.utf8))
        try await withLiveServer(options) { server, client in
            await #expect(throws: (any Error).self) {
                _ = try await client.send(.post, "\(backendless)/users/register", json: self.alice)
            }
            let users = server.withStage { $0.apps[0].userCount }
            #expect(users == 1)
            let entry = server.withStage { $0.world.journal.entries(matching: JournalFilter()).last }
            #expect(entry?.connectionDropped == true)
            #expect(entry?.fault?.effect == "after_commit+drop")
        }
    }

    @Test("a window ends when the virtual clock passes until")
    func windowEnds() async throws {
        try await withServer { _, client in
            let now = VirtualClock.start
            let injected = try await client.send(
                .post, "/_understudy/faults", json: #"{"op":"users.register","code":3021,"from":\#(now + 10),"until":\#(now + 70)}"#
            )
            #expect(injected.status == 201)
            #expect(try await client.send(.post, "\(backendless)/users/register", json: alice).status == 200)
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":10}"#)
            let bob = #"{"email":"bob@example.com","password":"secret1"}"#
            #expect(try await client.send(.post, "\(backendless)/users/register", json: bob).json("code") == 3021)
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":60}"#)
            #expect(try await client.send(.post, "\(backendless)/users/register", json: bob).status == 200)
            let refused = try await client.send(
                .post, "/_understudy/faults", json: #"{"op":"users.register","code":3021,"from":100,"until":50}"#
            )
            #expect(refused.status == 400)
            #expect(refused.json("message")?.stringValue?.contains("fault.until") == true)
        }
    }

    @Test("op = users.* hits login and register; op = * hits every operation")
    func wildcards() async throws {
        try await withServer { _, client in
            #expect(try await client.send(.post, "\(backendless)/users/register", json: alice).status == 200)
            let injected = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.*","code":3021,"app":"UNDERSTUDY-APP"}"#)
            #expect(injected.status == 201)
            #expect(injected.json("op") == "users.*")
            let login = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"secret1"}"#)
            #expect(login.json("code") == 3021)
            let bob = #"{"email":"bob@example.com","password":"secret1"}"#
            #expect(try await client.send(.post, "\(backendless)/users/register", json: bob).json("code") == 3021)
            _ = try await client.send(.delete, "/_understudy/faults")
            _ = try await client.send(.post, "/_understudy/faults", json: #"{"op":"*","code":"RESOURCE_TEMPORARILY_UNAVAILABLE","status":503,"app":"understudy-kii-app"}"#)
            let kiiReply = try await client.send(
                .post, "\(kii)/users", json: #"{"loginName":"alice","password":"secret1"}"#,
                headers: [HTTPField.Name("X-Kii-AppID")!: DefaultApps.kiiAppID, HTTPField.Name("X-Kii-AppKey")!: DefaultApps.kiiAppKey]
            )
            #expect(kiiReply.status == 503)
            let typo = try await client.send(.post, "/_understudy/faults", json: #"{"op":"usrs.*","code":3021}"#)
            #expect(typo.status == 400)
        }
    }

    @Test("reply faults answer 200 with an empty, truncated or malformed body and the change made")
    func replyFaults() async throws {
        try await withServer { server, client in
            for (index, kind) in ["empty", "truncated", "malformed"].enumerated() {
                _ = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.register","reply":"\#(kind)","times":1}"#)
                let body = #"{"email":"u\#(index)@example.com","password":"secret1"}"#
                let reply = try await client.send(.post, "\(backendless)/users/register", json: body)
                #expect(reply.status == 200)
                #expect(reply.json == nil, "the \(kind) body is not JSON")
                switch kind {
                case "empty": #expect(reply.text.isEmpty)
                case "truncated": #expect(reply.text.hasPrefix("{") && reply.text.count > 10)
                default: #expect(!reply.text.isEmpty)
                }
            }
            #expect(server.withStage { $0.apps[0].userCount } == 3)
            let effects = server.withStage { $0.world.journal.entries(matching: JournalFilter()).map { $0.fault?.effect } }
            #expect(effects == ["reply:empty", "reply:truncated", "reply:malformed"])
            let report = try await client.send(.get, "/_understudy/coverage").json
            guard case .array(let rows)? = report?["codes"] else { Issue.record("no codes"); return }
            #expect(rows.contains { $0["code"] == "truncated body" && $0["network"] == 1 })
            let refused = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.register","reply":"garbage"}"#)
            #expect(refused.json("message")?.stringValue?.contains("fault.reply must be one of") == true)
        }
    }

    @Test("reset = true closes the connection with a reset instead of a clean close")
    func resetConnection() async throws {
        let setup = """
            local app = understudy.backendless{}
            app.faults.inject{ op = "users.register", reset = true }
            """
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.setupScript = ScenarioFile(path: "setup.lua", contents: Array(setup.utf8))
        try await withLiveServer(options) { server, client in
            _ = try await client.send(.get, "/_understudy/clock")
            let port = try #require(client.port)
            let connection = try #require(RawConnection(port: port))
            connection.send(
                "POST \(backendless)/users/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(alice.utf8.count)\r\n\r\n\(alice)"
            )
            let failure = await connection.readFailure(within: 5000)
            #expect(failure == ECONNRESET)
            let entry = server.withStage { $0.world.journal.entries(matching: JournalFilter()).last }
            #expect(entry?.fault?.effect == "reset")
            #expect(entry?.connectionDropped == true)
        }
    }

    @Test("delay_ms = { min, max } draws each delay from the seed: the same seed, the same delays")
    func seededDelays() async throws {
        func delays(seed: UInt64) async throws -> [Int] {
            let server = try UnderstudyServer(options: ServerOptions(port: 0, seed: seed, clockStart: VirtualClock.start))
            return try await server.application().test(.router) { client in
                let injected = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.register","delay_ms":[1,40]}"#)
                #expect(injected.json("delay_ms") == .array([1, 40]))
                for index in 0..<5 {
                    _ = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"u\#(index)@example.com","password":"secret1"}"#)
                }
                return server.withStage { $0.world.journal.entries(matching: JournalFilter()).map(\.delayMilliseconds) }
            }
        }
        let first = try await delays(seed: 7)
        #expect(first == (try await delays(seed: 7)))
        #expect(first.allSatisfy { (1...40).contains($0) })
        #expect(Set(first).count > 1, "the delays vary: \(first)")
    }

    @Test("the rate limit answers as each vendor does, with Retry-After on the virtual clock, and is off by default")
    func rateLimits() async throws {
        try await withServer { server, client in
            let kiiHeaders: HTTPFields = [
                HTTPField.Name("X-Kii-AppID")!: DefaultApps.kiiAppID, HTTPField.Name("X-Kii-AppKey")!: DefaultApps.kiiAppKey,
            ]
            for index in 0..<5 {
                let body = #"{"loginName":"user\#(index)","password":"secret1"}"#
                #expect(try await client.send(.post, "\(kii)/users", json: body, headers: kiiHeaders).status == 201)
            }
            let patched = try await client.send(
                .patch, "/_understudy/settings?app=\(DefaultApps.kiiAppID)", json: #"{"rate_limit":2,"rate_limit_seconds":60}"#
            )
            #expect(patched.status == 200)
            _ = try await client.send(.post, "/_understudy/clock/set", json: #"{"now":\#(VirtualClock.start + 30)}"#)
            #expect(try await client.send(.post, "\(kii)/users", json: #"{"loginName":"alice1","password":"secret1"}"#, headers: kiiHeaders).status == 201)
            #expect(try await client.send(.post, "\(kii)/users", json: #"{"loginName":"alice2","password":"secret1"}"#, headers: kiiHeaders).status == 201)
            let limited = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"alice3","password":"secret1"}"#, headers: kiiHeaders)
            #expect(limited.status == 429)
            #expect(limited.json("errorCode") == "TOO_MANY_REQUESTS")
            #expect(limited.header("Retry-After") == "30")
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":30}"#)
            #expect(try await client.send(.post, "\(kii)/users", json: #"{"loginName":"alice3","password":"secret1"}"#, headers: kiiHeaders).status == 201)

            _ = try await client.send(.patch, "/_understudy/settings?app=\(DefaultApps.backendlessAppID)", json: #"{"rate_limit":1}"#)
            #expect(try await client.send(.post, "\(backendless)/users/register", json: alice).status == 200)
            let backendlessLimited = try await client.send(.post, "\(backendless)/users/register", json: alice)
            #expect(backendlessLimited.status == 429)
            #expect(backendlessLimited.json("code") == 999)
            #expect(backendlessLimited.json("retry_after") == nil)
            #expect(backendlessLimited.header("Retry-After") != nil)
            let entry = server.withStage { $0.world.journal.entries(matching: JournalFilter()).last }
            #expect(entry?.fault?.effect == "rate_limit")
        }
    }

    @Test("a test phone number's SMS code is the fixed one, over HTTP too")
    func testPhoneNumbers() async throws {
        try await withServer { _, client in
            let patched = try await client.send(
                .patch, "/_understudy/settings?app=\(DefaultApps.kiiAppID)",
                json: #"{"phone_verification":true,"test_phone_numbers":{"+819012345678":"123456"}}"#
            )
            #expect(patched.status == 200)
            let kiiHeaders: HTTPFields = [
                HTTPField.Name("X-Kii-AppID")!: DefaultApps.kiiAppID, HTTPField.Name("X-Kii-AppKey")!: DefaultApps.kiiAppKey,
            ]
            let made = try await client.send(
                .post, "\(kii)/users", json: #"{"loginName":"alice","phoneNumber":"+819012345678","password":"secret1"}"#,
                headers: kiiHeaders
            )
            #expect(made.status == 201)
            let outbox = try await client.send(.get, "/_understudy/outbox?kind=sms").json
            guard case .array(let sms)? = outbox?["sms"], let last = sms.last else { Issue.record("no SMS: \(String(describing: outbox))"); return }
            #expect(last["code"] == "123456")
            let bad = try await client.send(
                .patch, "/_understudy/settings?app=\(DefaultApps.kiiAppID)", json: #"{"test_phone_numbers":{"0901234":"12"}}"#
            )
            #expect(bad.status == 400)
        }
    }
}

extension RawConnection {
    /// The error a read meets within `milliseconds` (ECONNRESET for a reset), 0 for a clean close, -1 for none.
    func readFailure(within milliseconds: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var watched = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&watched, 1, milliseconds) > 0 else { return continuation.resume(returning: -1) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(self.descriptor, &buffer, buffer.count)
                continuation.resume(returning: count < 0 ? errno : 0)
            }
        }
    }
}
