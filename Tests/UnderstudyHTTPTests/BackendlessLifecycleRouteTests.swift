import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

@Suite("Backendless account lifecycle over HTTP")
struct BackendlessLifecycleRouteTests {
    let alice = #"{"email":"alice@example.com","password":"wonderland","name":"Alice"}"#

    /// Registers Alice and logs her in: her objectId and user-token.
    func aliceSession(_ client: some TestClientProtocol) async throws -> (id: String, token: String) {
        _ = try await client.send(.post, "\(backendless)/users/register", json: alice)
        let login = try await client.send(
            .post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"wonderland"}"#
        )
        return (try #require(login.json("objectId")?.stringValue), try #require(login.json("user-token")?.stringValue))
    }

    func lastLink(_ server: UnderstudyServer) -> String? {
        server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)?.outbox.emails.last?.link }
    }

    @Test("GET info answers what the JS SDK reads at start")
    func info() async throws {
        try await withServer { _, client in
            let reply = try await client.send(.get, "\(backendless)/info")
            #expect(reply.status == 200)
            #expect(reply.json("loggers") == .array([]))
            #expect(reply.json("rtURL") == .null)
            let stale = try await client.send(.get, "\(backendless)/info", headers: [HTTPField.Name("user-token")!: "gone"])
            #expect(stale.json("code") == 3064)
        }
    }

    @Test("restorepassword URL-decodes the identity, answers an empty 200, and its link opens a page that resets")
    func recoveryThroughThePage() async throws {
        try await withServer { server, client in
            _ = try await client.send(.post, "\(backendless)/users/register", json: alice)
            let reply = try await client.send(.get, "\(backendless)/users/restorepassword/alice%40example.com")
            #expect(reply.status == 200)
            #expect(reply.text.isEmpty)
            let link = try #require(lastLink(server))
            let path = String(link.dropFirst("http://127.0.0.1:0".count))
            let page = try await client.send(.get, path)
            #expect(page.status == 200)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.text.contains(#"<label for="password">"#))
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let mismatch = try await client.send(.post, path, text: "password=a&confirm=b", headers: form)
            #expect(mismatch.status == 400)
            let done = try await client.send(.post, path, text: "password=new+pass%21&confirm=new+pass%21", headers: form)
            #expect(done.status == 200)
            #expect(done.text.contains("changed"))
            let login = try await client.send(
                .post, "\(backendless)/users/login", json: #"{"login":"alice@example.com","password":"new pass!"}"#
            )
            #expect(login.status == 200)
            let again = try await client.send(.get, path)
            #expect(again.status == 410)
            #expect(again.text.contains("already used"))
            let reuse = try await client.send(.post, path, text: "password=x&confirm=x", headers: form)
            #expect(reuse.status == 410)
        }
    }

    @Test("the recovery page escapes what it echoes")
    func pageEscapes() async throws {
        try await withServer(setup: "understudy.backendless{ identity = 'name' }") { server, client in
            _ = try await client.send(
                .post, "\(backendless)/users/register",
                json: #"{"name":"<script>x</script>","email":"e@example.com","password":"pw"}"#
            )
            _ = try await client.send(.get, "\(backendless)/users/restorepassword/%3Cscript%3Ex%3C%2Fscript%3E")
            let link = try #require(lastLink(server))
            let page = try await client.send(.get, String(link.dropFirst("http://127.0.0.1:0".count)))
            #expect(page.text.contains("&lt;script&gt;"))
            #expect(!page.text.contains("<script>"))
        }
    }

    @Test("restorepassword errors: 3020 for an unknown identity, 8002 for one that is not UTF-8")
    func recoveryErrors() async throws {
        try await withServer { server, client in
            let unknown = try await client.send(.get, "\(backendless)/users/restorepassword/bob%40example.com")
            #expect(unknown.json("code") == 3020)
            let notUTF8 = try await client.send(.get, "\(backendless)/users/restorepassword/%FF%FE")
            #expect(notUTF8.status == 400)
            #expect(notUTF8.json("code") == 8002)
            #expect(server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)?.outbox.emails.count } == 0)
        }
    }

    @Test("resendconfirmation takes the identity raw or encoded; createEmailConfirmationURL answers a working link")
    func confirmation() async throws {
        try await withServer(setup: "understudy.backendless{ email_confirmation = true }") { server, client in
            _ = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"a+b@example.com","password":"pw"}"#)
            let raw = try await client.send(.post, "\(backendless)/users/resendconfirmation/a+b@example.com")
            #expect(raw.status == 200)
            #expect(raw.text.isEmpty)
            let encoded = try await client.send(.post, "\(backendless)/users/resendconfirmation/a%2Bb%40example.com")
            #expect(encoded.status == 200)
            #expect(server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)?.outbox.emails.count } == 3)
            let url = try await client.send(.post, "\(backendless)/users/createEmailConfirmationURL/a%2Bb%40example.com")
            let link = try #require(url.json("confirmationURL")?.stringValue)
            let confirmed = try await client.send(.get, String(link.dropFirst("http://127.0.0.1:0".count)))
            #expect(confirmed.json("userStatus") == "ENABLED")
            let again = try await client.send(.post, "\(backendless)/users/resendconfirmation/a+b@example.com")
            #expect(again.json("code") == 3102)
        }
    }

    @Test("PUT users/{objectId} updates with the user-token; bad input changes nothing")
    func update() async throws {
        try await withServer { _, client in
            let (id, token) = try await aliceSession(client)
            let auth: HTTPFields = [HTTPField.Name("user-token")!: token]
            let sdkBody = #"{"name":"Ally","objectId":"\#(id)","___class":"Users","ownerId":"\#(id)","updated":null,"socialAccount":"BACKENDLESS","user-token":"\#(token)"}"#
            let reply = try await client.send(.put, "\(backendless)/users/\(id)", json: sdkBody, headers: auth)
            #expect(reply.status == 200)
            #expect(reply.json("name") == "Ally")
            #expect(reply.json("password") == nil)
            #expect(reply.json("user-token") == nil)
            let cases: [(body: String, headers: HTTPFields, code: Int64, status: Int)] = [
                (#"{"name":"X"}"#, [:], 3064, 401),
                (#"{"name":"X"}"#, [HTTPField.Name("user-token")!: "gone"], 3064, 401),
                (#"{"name":["X"]}"#, auth, 3024, 400),
                (#"{"name":"#, auth, 8002, 400),
                ("[1]", auth, 8002, 400),
                (#"{"bio":"\#(String(repeating: "x", count: 501))"}"#, auth, 8000, 400),
                (#"{"email":"not-an-email"}"#, auth, 3040, 400),
                (#"{"password":""}"#, auth, 3045, 400),
            ]
            for item in cases {
                let failed = try await client.send(.put, "\(backendless)/users/\(id)", json: item.body, headers: item.headers)
                #expect(failed.status == item.status, "\(item.body)")
                #expect(failed.json("code") == .integer(item.code), "\(item.body): \(failed.text)")
            }
            let read = try await client.send(.get, "\(backendless)/data/Users/\(id)", headers: auth)
            #expect(read.json("name") == "Ally")
            #expect(read.json("bio") == nil)
            #expect(read.json("email") == "alice@example.com")
        }
    }

    @Test("GET and DELETE data/Users/{objectId}: 1000 with 404 for an unknown id; a deleted user's token answers 3064")
    func readAndDelete() async throws {
        try await withServer { _, client in
            let (id, token) = try await aliceSession(client)
            let unknown = try await client.send(.get, "\(backendless)/data/Users/nope")
            #expect(unknown.status == 404)
            #expect(unknown.json("code") == 1000)
            #expect(unknown.json("message") == "Entity with ID nope not found")
            let deleted = try await client.send(.delete, "\(backendless)/data/Users/\(id)")
            #expect(deleted.status == 200)
            #expect(deleted.json("deletionTime") == 1_893_456_000_000)
            let gone = try await client.send(.get, "\(backendless)/data/Users/\(id)")
            #expect(gone.status == 404)
            let stale = try await client.send(
                .put, "\(backendless)/users/\(id)", json: #"{"name":"X"}"#, headers: [HTTPField.Name("user-token")!: token]
            )
            #expect(stale.json("code") == 3064)
            let again = try await client.send(.post, "\(backendless)/users/register", json: alice)
            #expect(again.status == 200)
        }
    }

    @Test("roles, Users columns, verifypassword (3122, both spellings) and a message's status")
    func smallRoutes() async throws {
        try await withServer { _, client in
            let (_, token) = try await aliceSession(client)
            let anonymous = try await client.send(.get, "\(backendless)/users/userroles")
            #expect(anonymous.json == ["NotAuthenticatedUser", "RestUser"])
            let roles = try await client.send(.get, "\(backendless)/users/userroles", headers: [HTTPField.Name("user-token")!: token])
            #expect(roles.json == ["AuthenticatedUser", "RestUser"])
            let columns = try await client.send(.get, "\(backendless)/users/userclassprops")
            guard case .array(let items)? = columns.json else {
                Issue.record("userclassprops answered \(columns.text)")
                return
            }
            let email = items.first { $0["name"] == "email" }
            #expect(email?["identity"] == true)
            #expect(items.contains { $0["name"] == "name" })
            // Contract version 4 lists the password column (required, never an identity).
            #expect(items.first { $0["name"] == "password" }?["required"] == true)
            for path in ["verifypassword", "verifypassowrd"] {
                let verify = try await client.send(.post, "\(backendless)/users/\(path)", json: #"{"password":"wonderland"}"#)
                #expect(verify.json("code") == 3122)
            }
            let published = try await client.send(.post, "\(backendless)/messaging/default", json: #"{"message":"hi"}"#)
            let messageID = try #require(published.json("messageId")?.stringValue)
            let status = try await client.send(.get, "\(backendless)/messaging/\(messageID)")
            #expect(status.json("status") == "published")
            #expect(status.json("messageId") == .string(messageID))
            let unknown = try await client.send(.get, "\(backendless)/messaging/message:6052643A-F96C-4253-BCF0-F606A4BBB794")
            #expect(unknown.status == 200)
            #expect(unknown.json("status") == "unknown")
        }
    }
}
