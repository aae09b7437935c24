import HTTPTypes
import Testing
import Understudy
import UnderstudyHTTP

/// The control routes the dashboard uses, and how its files are served.
@Suite("Dashboard routes")
struct DashboardRouteTests {
    private func items(_ json: JSON?) -> [JSON] {
        if case .array(let items)? = json { return items }
        return []
    }

    @Test("the page and its scripts are served without the token, under a CSP that forbids inline script")
    func files() async throws {
        try await withServer(ServerOptions(port: 0, controlToken: "s3cret", clockStart: VirtualClock.start)) { _, client in
            let page = try await client.send(.get, "/_understudy/ui/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script type="module" src="/_understudy/ui/main.js"></script>"#))
            let policy = page.header("Content-Security-Policy") ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'") && !policy.contains("unsafe"))
            let script = try await client.send(.get, "/_understudy/ui/main.js")
            #expect(script.status == 200)
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(try await client.send(.get, "/_understudy/ui/secret.txt").status == 404)
            #expect(try await client.send(.get, "/_understudy/users?app=backendless").status == 401)
        }
    }

    @Test("users come newest first in pages, and a search finds them by any identifier")
    func usersPage() async throws {
        let setup = """
            local b = understudy.backendless()
            b.users.seed{ count = 120, email = "user%d@example.com", password = "pw", name = "User %d" }
            """
        try await withServer(setup: setup) { _, client in
            let first = try await client.send(.get, "/_understudy/users?app=backendless&limit=50")
            #expect(first.json("total") == 120)
            #expect(first.json("more") == true)
            #expect(items(first.json("users")).first?["email"] == "user120@example.com")
            let last = try await client.send(.get, "/_understudy/users?app=backendless&limit=50&offset=100&order=newest")
            #expect(items(last.json("users")).count == 20)
            #expect(last.json("more") == false)
            let oldest = try await client.send(.get, "/_understudy/users?app=backendless&limit=1&order=oldest")
            #expect(items(oldest.json("users")).first?["email"] == "user1@example.com")
            let found = try await client.send(.get, "/_understudy/users?app=backendless&search=USER7@")
            #expect(items(found.json("users")).map { $0["email"] } == ["user7@example.com"])
            let byName = try await client.send(.get, "/_understudy/users?app=backendless&search=User%2011&limit=1")
            #expect(byName.json("total") == nil || byName.json("total") == .null)
            #expect(byName.json("more") == true)
            #expect(try await client.send(.get, "/_understudy/users?app=backendless&order=sideways").status == 400)
            #expect(try await client.send(.get, "/_understudy/users?app=nope").status == 404)
        }
    }

    @Test("user actions confirm, disable, enable and delete users of both flavours, and verify a Kii address with its code")
    func actions() async throws {
        try await withServer { _, client in
            _ = try await client.send(.patch, "/_understudy/settings?app=backendless", json: #"{"email_confirmation":true}"#)
            let user = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"a@example.com","password":"pw"}"#)
            let id = user.json("objectId")?.stringValue ?? ""
            let listed = try await client.send(.get, "/_understudy/users?app=backendless")
            #expect(items(listed.json("users")).first?["actions"] == ["confirm_email", "disable", "delete"])
            let confirmed = try await client.send(.post, "/_understudy/users/backendless/\(id)/confirm_email")
            #expect(confirmed.json("userStatus") == "ENABLED")
            let disabled = try await client.send(.post, "/_understudy/users/backendless/\(id)/disable")
            #expect(disabled.json("userStatus") == "DISABLED")
            #expect(disabled.json("actions") == ["enable", "delete"])
            #expect(try await client.send(.post, "/_understudy/users/backendless/\(id)/verify_phone").status == 400)
            #expect(try await client.send(.post, "/_understudy/users/backendless/nobody/enable").status == 404)

            _ = try await client.send(.patch, "/_understudy/settings?app=kii", json: #"{"email_verification":true}"#)
            let kiiUser = try await client.send(
                .post, "\(kii)/users", json: #"{"loginName":"kim","emailAddress":"kim@example.com","password":"secret1"}"#,
                headers: [.authorization: "Basic dW5kZXJzdHVkeS1raWktYXBwOnVuZGVyc3R1ZHkta2lpLWtleQ=="]
            )
            let userID = kiiUser.json("userID")?.stringValue ?? ""
            let verified = try await client.send(.post, "/_understudy/users/kii/\(userID)/verify_email")
            #expect(verified.json("emailAddressVerified") == true)
            #expect(verified.json("actions") == ["disable", "delete"])
            let kiiDisabled = try await client.send(.post, "/_understudy/users/kii/\(userID)/disable")
            #expect(kiiDisabled.json("disabled") == true)
            #expect(kiiDisabled.json("actions") == ["enable", "delete"])

            // Deleting from the page frees the identity: the same email registers again.
            let deleted = try await client.send(.post, "/_understudy/users/backendless/\(id)/delete")
            #expect(deleted.json("deleted") == true)
            #expect(try await client.send(.post, "/_understudy/users/backendless/\(id)/enable").status == 404)
            let again = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"a@example.com","password":"pw"}"#)
            #expect(again.status == 200)
            #expect(try await client.send(.post, "/_understudy/users/kii/\(userID)/delete").json("deleted") == true)
            #expect(items(try await client.send(.get, "/_understudy/users?app=kii").json("users")).isEmpty)
        }
    }

    @Test("the journal tail answers only the entries after a sequence number, with the reply body")
    func journalTail() async throws {
        try await withServer { _, client in
            for email in ["a@example.com", "b@example.com", "a@example.com"] {
                _ = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"\#(email)","password":"pw"}"#)
            }
            let all = try await client.send(.get, "/_understudy/journal/tail")
            #expect(all.json("last_seq") == 3)
            #expect(items(all.json("entries")).count == 3)
            let tail = try await client.send(.get, "/_understudy/journal/tail?after=2")
            let entries = items(tail.json("entries"))
            #expect(entries.map { $0["seq"] } == [3])
            #expect(entries.first?["reply"]?.stringValue?.contains("User already exists") == true)
            let none = try await client.send(.get, "/_understudy/journal/tail?after=3")
            #expect(items(none.json("entries")).isEmpty)
        }
    }

    @Test("the catalogue lists each flavour's operations, codes with meanings, and user actions")
    func catalogue() async throws {
        try await withServer { _, client in
            let reply = try await client.send(.get, "/_understudy/catalogue")
            let apps = items(reply.json("apps"))
            #expect(apps.count == 2)
            let operations = items(apps.first?["operations"])
            let backendlessCodes = items(apps.first?["codes"])
            let kiiCodes = items(apps.last?["codes"])
            #expect(operations.contains("users.register"))
            #expect(backendlessCodes.contains { $0["code"] == 3033 && $0["meaning"] == "Unable to register user. User already exists." })
            #expect(kiiCodes.contains { $0["code"] == "USER_NOT_FOUND" && $0["status"] == 404 })
            #expect(apps.last?["user_actions"] == ["verify_email", "verify_phone", "disable", "enable", "delete"])
        }
    }
}
