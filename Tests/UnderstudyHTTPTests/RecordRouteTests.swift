import Foundation
import HTTPTypes
import Hummingbird
import Synchronization
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

/// `Authorization: Basic base64(appID:key)` for the default Kii app.
private let kiiApp: HTTPFields = [.authorization: "Basic " + Data("\(DefaultApps.kiiAppID):key".utf8).base64EncodedString()]

extension JSON {
    /// The item at `index` of an array.
    fileprivate subscript(index: Int) -> JSON? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }
}

/// What a recorded session used that must never appear in the file it records.
private struct SessionSecrets: Sendable {
    var values: [String] = []
}

extension TestClientProtocol {
    fileprivate func control(_ method: HTTPRequest.Method, _ path: String, json: String? = nil) async throws -> TestReply {
        let reply = try await send(method, "/_understudy" + path, json: json)
        #expect(reply.status < 400, "\(method) \(path): \(reply.text)")
        return reply
    }

    /// The session the issue names: sign-ups with and without confirmation, a wrong password, a confirmation
    /// through the emailed link, a setting flipped, the clock moved, a fault that fired (and one that did not), a
    /// device registration, Kii sign-up and SMS verification, a request no route answers. Answers what must not
    /// appear in the recording.
    fileprivate func recordedSession() async throws -> SessionSecrets {
        var secrets = SessionSecrets()
        secrets.values += ["Sw0rdfish!", "S3cond-pass", "wrong-Passw0rd", "kii-Pa55word"]
        // Backendless: a sign-up without confirmation, a wrong password, a login.
        let bond = try await send(.post, "\(backendless)/users/register", json: #"{"email":"bond@mi6.test","password":"Sw0rdfish!","rank":"00"}"#)
        #expect(bond.status == 200)
        secrets.values.append(try #require(bond.json("objectId")?.stringValue))
        #expect(try await send(.post, "\(backendless)/users/login", json: #"{"login":"bond@mi6.test","password":"wrong-Passw0rd"}"#).json("code") == 3003)
        let login = try await send(.post, "\(backendless)/users/login", json: #"{"login":"bond@mi6.test","password":"Sw0rdfish!"}"#)
        let token = try #require(login.json("user-token")?.stringValue)
        secrets.values.append(token)
        // A setting flipped; a sign-up that waits for confirmation; its login refused; the emailed link; a login.
        _ = try await control(.patch, "/settings?app=backendless", json: #"{"email_confirmation": true}"#)
        let moneypenny = try await send(
            .post, "\(backendless)/users/register", json: #"{"email":"moneypenny@mi6.test","password":"S3cond-pass"}"#
        )
        secrets.values.append(try #require(moneypenny.json("objectId")?.stringValue))
        #expect(try await send(.post, "\(backendless)/users/login", json: #"{"login":"moneypenny@mi6.test","password":"S3cond-pass"}"#).json("code") == 3087)
        let outbox = try await control(.get, "/outbox?app=backendless&kind=emails")
        let link = try #require(outbox.json("emails")?[0]?["link"]?.stringValue)
        let linkPath = String(link[try #require(link.range(of: "/UNDERSTUDY-APP"))!.lowerBound...])
        secrets.values.append(String(linkPath.split(separator: "/").last!))
        #expect(try await send(.get, linkPath).status == 200)
        #expect(try await send(.post, "\(backendless)/users/login", json: #"{"login":"moneypenny@mi6.test","password":"S3cond-pass"}"#).status == 200)
        // The clock moved; a fault that fires and one that never does.
        _ = try await control(.post, "/clock/advance", json: #"{"seconds": 3600}"#)
        _ = try await control(.post, "/faults", json: #"{"app":"backendless","op":"users.login","code":3036,"times":1}"#)
        _ = try await control(.post, "/faults", json: #"{"app":"backendless","op":"devices.unregister","code":5001,"probability":0.5}"#)
        #expect(try await send(.post, "\(backendless)/users/login", json: #"{"login":"bond@mi6.test","password":"Sw0rdfish!"}"#).json("code") == 3036)
        // A device registration, as the logged-in user; a logout.
        var userToken = HTTPFields()
        userToken[HTTPField.Name("user-token")!] = token
        let device = try await send(
            .post, "\(backendless)/messaging/registrations",
            json: #"{"deviceToken":"a1b2c3d4e5f6","deviceId":"phone-1","os":"IOS","channels":["news"]}"#, headers: userToken
        )
        #expect(device.status == 200, "\(device.text)")
        #expect(try await send(.get, "\(backendless)/users/logout", headers: userToken).status == 200)
        // Kii: phone verification on, a sign-up, a login, the SMS code.
        _ = try await control(.patch, "/settings?app=kii", json: #"{"phone_verification": true}"#)
        let kiiUser = try await send(
            .post, "\(kii)/users", json: #"{"loginName":"q-branch","phoneNumber":"+819012345678","country":"JP","password":"kii-Pa55word"}"#,
            headers: kiiApp
        )
        #expect(kiiUser.status == 201, "\(kiiUser.text)")
        let userID = try #require(kiiUser.json("userID")?.stringValue)
        secrets.values.append(userID)
        let kiiLogin = try await send(
            .post, "\(kii)/oauth2/token", json: #"{"grant_type":"password","username":"q-branch","password":"kii-Pa55word"}"#, headers: kiiApp
        )
        let accessToken = try #require(kiiLogin.json("access_token")?.stringValue)
        secrets.values.append(accessToken)
        let sms = try await control(.get, "/outbox?app=kii&kind=sms")
        let code = try #require(sms.json("sms")?[0]?["code"]?.stringValue)
        secrets.values.append(code)
        let verified = try await send(
            .post, "\(kii)/users/me/phone-number/verify", json: #"{"verificationCode":"\#(code)"}"#,
            headers: [HTTPField.Name.authorization: "Bearer " + accessToken]
        )
        #expect(verified.status == 200, "\(verified.text)")
        // A request no route answers.
        #expect(try await send(.get, "\(backendless)/users/profile/photo").status == 404)
        return secrets
    }

    fileprivate func recording(_ query: String = "") async throws -> String {
        let reply = try await send(.get, "/_understudy/record" + query)
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("text/x-lua") == true)
        return reply.text
    }
}

@Suite("GET /_understudy/record: the session as a scenario")
struct RecordRouteTests {
    @Test("a session over HTTP records as a scenario file that `understudy run` passes, with no secret in it")
    func sessionReplays() async throws {
        try await withServer { _, client in
            let secrets = try await client.recordedSession()
            let file = try await client.recording()
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.count == 1)
            for outcome in result.outcomes {
                #expect(outcome.status == .passed, "\(outcome.message ?? "") \(outcome.location ?? "")\n\(file)")
            }
            for secret in secrets.values { #expect(!file.contains(secret), "the file holds \(secret)") }
            // Each part of the session is there, as the Lua call it was.
            #expect(file.contains("expect.error(3003, backendless.users.login(\"bond@mi6.test\", \"password2xxxxx\"))"), "\(file)")
            #expect(file.contains("backendless.settings.email_confirmation = true"))
            #expect(file.contains("backendless.clock.advance(3600)"))
            #expect(file.contains("backendless.faults.inject{ op = \"users.login\", code = 3036, times = 1 }"))
            #expect(!file.contains("devices.unregister\", code = 5001"), "a fault that never fired is left out")
            #expect(file.contains("backendless.users.confirm_email("))
            #expect(file.contains("kii.users.verify_phone("))
            #expect(file.contains("backendless.devices.register{"))
            #expect(file.contains("no route answered it (404); nearest route:"))
        }
    }

    @Test("the same session on two fresh servers records byte-identical files")
    func sameSessionSameFile() async throws {
        let first = try await recordOnFreshServer()
        let second = try await recordOnFreshServer()
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    private func recordOnFreshServer() async throws -> String {
        let file = Mutex("")
        try await withServer(ServerOptions(port: 0)) { _, client in
            _ = try await client.recordedSession()
            let text = try await client.recording()
            file.withLock { $0 = text }
        }
        return file.withLock { $0 }
    }

    @Test("changing one expected code in the recorded file makes it fail")
    func changedCodeFails() async throws {
        try await withServer { _, client in
            _ = try await client.recordedSession()
            let file = try await client.recording()
            let changed = file.replacing("expect.error(3087,", with: "expect.error(3003,")
            #expect(changed != file)
            let result = runScenarios(changed, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .failed)
            #expect(result.outcomes.first?.message?.contains("3087") == true, "\(result.outcomes.first?.message ?? "")")
        }
    }

    @Test("one scenario per X-Understudy-Test, the rest named by ?name=, a polling loop collapsed")
    func splitByTest() async throws {
        try await withServer { _, client in
            var signup = HTTPFields()
            signup[HTTPField.Name("X-Understudy-Test")!] = "sign-up works"
            #expect(try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"a@b.test","password":"pw-123"}"#, headers: signup).status == 200)
            #expect(try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"a@b.test","password":"pw-123"}"#, headers: signup).status == 200)
            for _ in 0..<5 { #expect(try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"x@b.test","password":"nope1"}"#).json("code") == 3003) }
            let file = try await client.recording("?name=polling")
            #expect(file.contains(#"scenario("sign-up works", { tags = { "recorded" } }, function()"#))
            #expect(file.contains(#"scenario("polling", { tags = { "recorded" } }, function()"#))
            #expect(file.contains("for _ = 1, 5 do"), "\(file)")
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.map(\.status) == [.passed, .passed], "\(result.outcomes.map { $0.message ?? "" })")
        }
    }

    @Test("tests that build on each other (a user, token and id issued in one test used in the next) each replay green, for both flavours")
    func testsThatBuildOnEachOther() async throws {
        try await withServer { _, client in
            func named(_ test: String, _ extra: HTTPFields = [:]) -> HTTPFields {
                var fields = extra
                fields[HTTPField.Name("X-Understudy-Test")!] = test
                return fields
            }
            // Backendless: one test registers, the next logs in, a third updates with the token the second got.
            let registered = try await client.send(
                .post, "\(backendless)/users/register", json: #"{"email":"chain@b.test","password":"Chain-pw1"}"#, headers: named("register")
            )
            let objectID = try #require(registered.json("objectId")?.stringValue)
            let login = try await client.send(
                .post, "\(backendless)/users/login", json: #"{"login":"chain@b.test","password":"Chain-pw1"}"#, headers: named("login")
            )
            let token = try #require(login.json("user-token")?.stringValue)
            var userToken = HTTPFields()
            userToken[HTTPField.Name("user-token")!] = token
            let updated = try await client.send(
                .put, "\(backendless)/users/\(objectID)", json: #"{"rank":"captain"}"#, headers: named("update", userToken)
            )
            #expect(updated.status == 200, "\(updated.text)")
            // A control action between tests (no test header) and a scheduled push are history, not every test's.
            _ = try await client.control(.post, "/clock/advance", json: #"{"seconds": 60}"#)
            // Kii: the same shape, interleaved with a test that names none.
            let kiiApp = kiiApp
            let kiiUser = try await client.send(
                .post, "\(kii)/users", json: #"{"loginName":"chain","password":"Chain-pw2"}"#, headers: named("kii sign-up", kiiApp)
            )
            let userID = try #require(kiiUser.json("userID")?.stringValue)
            let kiiLogin = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"grant_type":"password","username":"chain","password":"Chain-pw2"}"#, headers: kiiApp
            )
            let accessToken = try #require(kiiLogin.json("access_token")?.stringValue)
            let lookup = try await client.send(
                .get, "\(kii)/users/\(userID)", headers: named("kii lookup", [HTTPField.Name.authorization: "Bearer " + accessToken])
            )
            #expect(lookup.status == 200, "\(lookup.text)")
            let file = try await client.recording("?name=untagged")
            for secret in [objectID, token, userID, accessToken, "Chain-pw1", "Chain-pw2"] { #expect(!file.contains(secret), "the file holds \(secret)") }
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.count == 6)
            for outcome in result.outcomes {
                #expect(outcome.status == .passed, "\(outcome.declaration.name): \(outcome.message ?? "") \(outcome.location ?? "")\n\(file)")
            }
        }
    }

    @Test("a suite that restores a snapshot before each test records understudy.snapshot / restore, and each test replays green")
    func snapshotsBetweenTests() async throws {
        try await withServer { _, client in
            func named(_ test: String) -> HTTPFields { [HTTPField.Name("X-Understudy-Test")!: test] }
            // Seeded once: a user, and a snapshot of it.
            let seeded = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"seed@b.test","password":"Seed-pw1"}"#)
            #expect(seeded.status == 200, "\(seeded.text)")
            #expect(try await client.control(.post, "/snapshots", json: #"{"name":"seeded"}"#).status == 201)
            // Each test restores first, then registers the same address: it works only because of the restore, and
            // gets the same objectId each time (the generators went back too).
            var ids: [String] = []
            for test in ["first", "second", "third"] {
                #expect(try await client.control(.post, "/snapshots/seeded/restore").status == 200)
                let again = try await client.send(
                    .post, "\(backendless)/users/register", json: #"{"email":"each@b.test","password":"Each-pw1"}"#, headers: named(test)
                )
                #expect(again.status == 200, "\(again.text)")
                ids.append(again.json("objectId")?.stringValue ?? "")
                let count = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"seed@b.test","password":"Seed-pw1"}"#, headers: named(test))
                #expect(count.status == 200, "\(count.text)")
            }
            #expect(Set(ids).count == 1, "\(ids)")
            let file = try await client.recording("?name=seeding")
            #expect(file.contains(#"understudy.snapshot("seeded")"#), "\(file)")
            #expect(file.contains(#"understudy.restore("seeded")"#), "\(file)")
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.count == 4)
            for outcome in result.outcomes {
                #expect(outcome.status == .passed, "\(outcome.declaration.name): \(outcome.message ?? "") \(outcome.location ?? "")\n\(file)")
            }
        }
    }

    @Test("a restore of a snapshot taken before the session began stays a comment; serve's Lua session points snapshots to the control API")
    func snapshotsFromBeforeTheSession() async throws {
        try await withServer { _, client in
            #expect(try await client.control(.post, "/snapshots", json: #"{"name":"old"}"#).status == 201)
            #expect(try await client.control(.post, "/reset").status == 200)
            #expect(try await client.control(.post, "/snapshots/old/restore").status == 200)
            let file = try await client.recording()
            #expect(!file.contains("understudy.restore"), "\(file)")
            #expect(file.contains("a snapshot taken before this session began"), "\(file)")
            let lua = try await client.send(.post, "/_understudy/lua", text: #"understudy.snapshot("x")"#)
            #expect(lua.status == 400, "\(lua.text)")
            #expect(lua.json("message")?.stringValue?.contains("POST /_understudy/snapshots") == true, "\(lua.text)")
        }
    }

    @Test("a Kii administrator token (client credentials) records as admin.token() and the calls made with it replay")
    func kiiAdminToken() async throws {
        try await withServer { _, client in
            let kiiApp = kiiApp
            let user = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"seen","password":"Seen-pw1"}"#, headers: kiiApp)
            let userID = try #require(user.json("userID")?.stringValue)
            let credentials = #"{"grant_type":"client_credentials","client_id":"\#(DefaultApps.kiiAppID)","client_secret":"\#(DefaultApps.kiiAppKey)"}"#
            let admin = try await client.send(.post, "\(kii)/oauth2/token", json: credentials, headers: kiiApp)
            let adminToken = try #require(admin.json("access_token")?.stringValue)
            let lookup = try await client.send(.get, "\(kii)/users/\(userID)", headers: [HTTPField.Name.authorization: "Bearer " + adminToken])
            #expect(lookup.status == 200, "\(lookup.text)")
            let file = try await client.recording()
            #expect(!file.contains(adminToken))
            #expect(file.contains("kii.admin.token()"), "\(file)")
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .passed, "\(result.outcomes.first?.message ?? "")\n\(file)")
        }
    }

    @Test("a provider token a Lua chunk defined stays the literal the chunk wrote, so the social login replays")
    func tokenFromLuaChunk() async throws {
        try await withServer { _, client in
            let chunk = #"understudy.app("kii").social.account{ provider = "facebook", token = "fb-token-4", profile = { id = "fb-4" } }"#
            #expect(try await client.send(.post, "/_understudy/lua", text: chunk).status < 400)
            let kiiApp = kiiApp
            let social = try await client.send(.post, "\(kii)/integration/facebook", json: #"{"accessToken":"fb-token-4"}"#, headers: kiiApp)
            #expect(social.status == 200, "\(social.text)")
            let file = try await client.recording()
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .passed, "\(result.outcomes.first?.message ?? "")\n\(file)")
        }
    }

    @Test("an id a Lua chunk was written with (from an earlier answer) is read from that answer, in the chunk and in comments")
    func chunkWithIssuedID() async throws {
        try await withServer { _, client in
            let kiiApp = kiiApp
            let user = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"owner","password":"Owner-pw1"}"#, headers: kiiApp)
            let userID = try #require(user.json("userID")?.stringValue)
            let chunk = #"understudy.app("kii").groups.create{ name = "crew", owner = "\#(userID)" }"#
            #expect(try await client.send(.post, "/_understudy/lua", text: chunk).status < 400)
            // Refused before its operation ran (no token): a comment, which names the user by the expression.
            #expect(try await client.send(.get, "\(kii)/users/\(userID)/topics/nothing/acl").status >= 400)
            let file = try await client.recording()
            #expect(!file.contains(userID), "\(file)")
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .passed, "\(result.outcomes.first?.message ?? "")\n\(file)")
        }
    }

    @Test("a push scheduled at a fraction of a second past the hour fires in the replay when the clock is set to it, as it did")
    func scheduledAtTheClockSet() async throws {
        try await withServer { _, client in
            let device = #"{"deviceToken":"t-1","deviceId":"phone-1","os":"IOS","channels":["news"]}"#
            #expect(try await client.send(.post, "\(backendless)/messaging/registrations", json: device).status == 200)
            let state = try await client.control(.get, "/state?limit=0")
            let now = try #require(state.json("apps")?[0]?["clock"]?["now"]?.value.numberValue)
            // The app computes the time from its own clock: an hour and half a second ahead of the server's.
            let at = (now + 3600.5) * 1000
            let publish = try await client.send(.post, "\(backendless)/messaging/news", json: #"{"message":"later","publishAt":\#(Int64(at))}"#)
            #expect(publish.status == 200, "\(publish.text)")
            _ = try await client.control(.post, "/clock/set", json: #"{"now": \#(Double(Int64(at)) / 1000)}"#)
            let file = try await client.recording()
            #expect(file.contains("expect.equal(push1.message, \"later\")"), "\(file)")
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .passed, "\(result.outcomes.first?.message ?? "")\n\(file)")
        }
    }

    @Test("a password the app logs in with after a reset by a temporary password comes from the outbox")
    func generatedPasswordFromOutbox() async throws {
        try await withServer { _, client in
            _ = try await client.control(.patch, "/settings?app=backendless", json: #"{"password_recovery": "temporary"}"#)
            #expect(try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"r@b.test","password":"first-pw1"}"#).status == 200)
            #expect(try await client.send(.get, "\(backendless)/users/restorepassword/r@b.test").status == 200)
            let outbox = try await client.control(.get, "/outbox?app=backendless&kind=emails")
            let temporary = try #require(outbox.json("emails")?[0]?["password"]?.stringValue)
            #expect(try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"r@b.test","password":"\#(temporary)"}"#).status == 200)
            let file = try await client.recording()
            #expect(!file.contains(temporary))
            #expect(file.contains("mail1.password"), "\(file)")
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .passed, "\(result.outcomes.first?.message ?? "")\n\(file)")
        }
    }

    @Test("a Lua chunk is replayed as sent, with the session's passwords as placeholders; the session lists it")
    func luaChunk() async throws {
        try await withServer { _, client in
            let chunk = #"understudy.app("backendless").users.register{ email = "c@b.test", password = "chunk-pw9" }"#
            _ = try await client.send(.post, "/_understudy/lua", text: chunk)
            #expect(try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"c@b.test","password":"chunk-pw9"}"#).status == 200)
            let file = try await client.recording()
            #expect(!file.contains("chunk-pw9"))
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .passed, "\(result.outcomes.first?.message ?? "")\n\(file)")
            let session = try await client.control(.get, "/session")
            #expect(session.json("controls")?[0]?["path"] == "/_understudy/lua")
            #expect(session.json("controls")?[0]?["changed"]?[0]?.stringValue?.contains("users: 0 → 1") == true, "\(session.text)")
        }
    }

    @Test("short passwords keep their length, so a length rule answers in the replay as it did in the session")
    func shortPasswords() async throws {
        try await withServer { _, client in
            let kiiApp = kiiApp
            #expect(try await client.send(.post, "\(kii)/users", json: #"{"loginName":"ann","password":"abcd"}"#, headers: kiiApp).status == 201)
            #expect(try await client.send(.post, "\(kii)/users", json: #"{"loginName":"bob","password":"wxyz"}"#, headers: kiiApp).status == 201)
            #expect(try await client.send(.post, "\(kii)/users", json: #"{"loginName":"cy","password":"abc"}"#, headers: kiiApp).status == 400)
            let ann = #"{"grant_type":"password","username":"ann","password":"abcd"}"#
            #expect(try await client.send(.post, "\(kii)/oauth2/token", json: ann, headers: kiiApp).status == 200)
            let wrong = #"{"grant_type":"password","username":"ann","password":"wxyz"}"#
            #expect(try await client.send(.post, "\(kii)/oauth2/token", json: wrong, headers: kiiApp).status == 400)
            let file = try await client.recording()
            for secret in ["\"abcd\"", "\"wxyz\"", "\"abc\""] { #expect(!file.contains(secret)) }
            let result = runScenarios(file, file: "recorded.lua")
            #expect(result.outcomes.first?.status == .passed, "\(result.outcomes.first?.message ?? "")\n\(file)")
        }
    }
}
