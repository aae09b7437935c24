import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

@Suite("Backendless OAuth login over HTTP")
struct BackendlessOAuthRouteTests {
    /// A Backendless app whose Facebook accepts `fb-1` (Bond) and whose Twitter accepts `tw-1` with secret `s3cret`.
    static let setup = """
        local app = understudy.backendless()
        app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "10001", email = "bond@mi6.co.uk", name = "James" } }
        app.oauth.account{ provider = "twitter", token = "tw-1", secret = "s3cret", profile = { id = "t-7", name = "Q" } }
        """

    @Test("what loginWithOauth2 sends registers the user on the first call and logs the same user in on the next, with a user-token")
    func sdkLoginRegistersThenLogsIn() async throws {
        try await withServer(setup: Self.setup) { server, client in
            let body = #"{"accessToken":"fb-1","fieldsMapping":{"email":"email","name":"name"},"guestUser":null}"#
            let first = try await client.send(.post, "\(backendless)/users/social/facebook/login", json: body)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json("email") == "bond@mi6.co.uk")
            #expect(first.json("name") == "James")
            #expect(first.json("socialAccount") == "facebook")
            #expect(first.json("userStatus") == "ENABLED")
            #expect(first.json("___class") == "Users")
            let token = try #require(first.json("user-token")?.stringValue)
            let id = try #require(first.json("objectId")?.stringValue)

            let valid = try await client.send(.get, "\(backendless)/users/isvalidusertoken/\(token)")
            #expect(valid.json == .bool(true))
            let again = try await client.send(.post, "\(backendless)/users/oauth/FACEBOOK/login", json: #"{"accessToken":"fb-1"}"#)
            #expect(again.json("objectId")?.stringValue == id)
            #expect(again.json("user-token")?.stringValue != token)
            let count = server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)?.userCount }
            #expect(count == 1)
            let journal = try await client.send(.get, "/_understudy/journal?op=users.login_oauth")
            guard case .array(let entries)? = journal.json("entries") else {
                Issue.record("journal: \(journal.text)")
                return
            }
            #expect(entries.count == 2)
        }
    }

    @Test("the legacy Facebook and Google+ SDK logins are OAuth logins of those providers")
    func legacySdkRoutes() async throws {
        try await withServer(setup: Self.setup + "\napp.oauth.account{ provider = 'googleplus', token = 'g-1', profile = { id = 'g' } }") { _, client in
            let facebook = try await client.send(.post, "\(backendless)/users/social/facebook/sdk/login", json: #"{"accessToken":"fb-1","fieldsMapping":{"name":"name"}}"#)
            #expect(facebook.json("socialAccount") == "facebook")
            #expect(facebook.json("name") == "James")
            let google = try await client.send(.post, "\(backendless)/users/social/googleplus/sdk/login", json: #"{"accessToken":"g-1"}"#)
            #expect(google.json("socialAccount") == "googleplus")
            let wrongProvider = try await client.send(.post, "\(backendless)/users/social/googleplus/sdk/login", json: #"{"accessToken":"fb-1"}"#)
            #expect(wrongProvider.json("code") == 3052)
        }
    }

    @Test("loginWithOauth1 sends accessTokenSecret: the account's secret is required")
    func oauth1Secret() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let missing = try await client.send(.post, "\(backendless)/users/social/twitter/login", json: #"{"accessToken":"tw-1"}"#)
            #expect(missing.status == 400)
            #expect(missing.json("code") == 3052)
            #expect(missing.json("message") == "External authentication failed with message 'Invalid access token'")
            let ok = try await client.send(
                .post, "\(backendless)/users/social/twitter/login", json: #"{"accessToken":"tw-1","accessTokenSecret":"s3cret","fieldsMapping":{"name":"name"}}"#
            )
            #expect(ok.json("socialAccount") == "twitter")
            #expect(ok.json("name") == "Q")
        }
    }

    @Test("guestUser converts the guest, as the JS SDK's user object or as Flutter's JSON string", arguments: [false, true])
    func guestConversion(asString: Bool) async throws {
        try await withServer(setup: Self.setup) { _, client in
            let guest = try await client.send(.post, "\(backendless)/users/register/guest")
            let id = try #require(guest.json("objectId")?.stringValue)
            let token = try #require(guest.json("user-token")?.stringValue)
            let object = #"{"objectId":"\#(id)","user-token":"\#(token)","userStatus":"GUEST","___class":"Users"}"#
            let guestUser = asString ? JSONWriter.string(.string(object)) : object
            let reply = try await client.send(
                .post, "\(backendless)/users/social/facebook/login",
                json: #"{"accessToken":"fb-1","fieldsMappings":{"email":"email"},"guestUser":\#(guestUser)}"#
            )
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json("objectId")?.stringValue == id)
            #expect(reply.json("userStatus") == "ENABLED")
            #expect(reply.json("email") == "bond@mi6.co.uk", "fieldsMappings (Flutter's spelling) maps too")
        }
    }

    @Test("a guestUser that is not a guest answers 3039 (also a bare objectId); one without an objectId names no guest")
    func guestErrors() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let bare = try await client.send(
                .post, "\(backendless)/users/social/facebook/login", json: #"{"accessToken":"fb-1","guestUser":"not json"}"#
            )
            #expect(bare.json("code") == 3039)
            let notAGuest = try await client.send(
                .post, "\(backendless)/users/social/facebook/login", json: #"{"accessToken":"fb-1","guestUser":{"objectId":"nobody"}}"#
            )
            #expect(notAGuest.json("code") == 3039)
            let anonymous = try await client.send(
                .post, "\(backendless)/users/social/facebook/login", json: #"{"accessToken":"fb-1","guestUser":{"___class":"Users"}}"#
            )
            #expect(anonymous.status == 200)
        }
    }

    @Test("a body the login cannot read answers 8002 naming the field")
    func malformedBodies() async throws {
        try await withServer(setup: Self.setup) { _, client in
            for (body, field) in [
                (#"{"accessToken":"fb-1","fieldsMapping":["email"]}"#, "fieldsMapping must be an object, got array"),
                (#"{"accessToken":"fb-1","fieldsMapping":{"email":1}}"#, "fieldsMapping.email must be a string, got number"),
                (#"{"accessToken":"fb-1","guestUser":7}"#, "guestUser must be a user object, a JSON string holding one, or an objectId, got number"),
            ] {
                let reply = try await client.send(.post, "\(backendless)/users/social/facebook/login", json: body)
                #expect(reply.status == 400)
                #expect(reply.json("code") == 8002)
                #expect(reply.json("message") == .string("Could not parse request with message: " + field))
            }
            let none = try await client.send(.post, "\(backendless)/users/social/facebook/login")
            #expect(none.json("code") == 3052, "no body: no token the provider accepts")
        }
    }

    @Test("a social user's update with a password answers 3072 over HTTP, and a password user shows socialAccount BACKENDLESS")
    func socialUserOverHTTP() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let login = try await client.send(.post, "\(backendless)/users/social/facebook/login", json: #"{"accessToken":"fb-1"}"#)
            let id = try #require(login.json("objectId")?.stringValue)
            let token = try #require(login.json("user-token")?.stringValue)
            let update = try await client.send(
                .put, "\(backendless)/users/\(id)", json: #"{"password":"pw"}"#, headers: [HTTPField.Name("user-token")!: token]
            )
            #expect(update.json("code") == 3072)
            let registered = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"m@mi6.co.uk","password":"pw"}"#)
            #expect(registered.json("socialAccount") == "BACKENDLESS")
        }
    }

    @Test("GET /_understudy/oauth lists the accounts by provider and token, with the user each first login registered")
    func controlListing() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let login = try await client.send(.post, "\(backendless)/users/social/facebook/login", json: #"{"accessToken":"fb-1"}"#)
            let reply = try await client.send(.get, "/_understudy/oauth")
            guard case .array(let accounts)? = reply.json("accounts") else {
                Issue.record("GET /_understudy/oauth answered \(reply.text)")
                return
            }
            #expect(accounts.map { $0["provider"]?.stringValue } == ["facebook", "twitter"])
            #expect(accounts[0]["user"] == login.json("objectId"))
            #expect(accounts[0]["profile"]?["email"] == "bond@mi6.co.uk")
            #expect(accounts[0]["secret"] == .null)
            #expect(accounts[1]["user"] == .null)
            #expect(accounts[1]["secret"] == "s3cret")
            #expect(accounts[1]["app_id"] == .string(DefaultApps.backendlessAppID))
        }
    }
}
