import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP

/// Kii routes the generic HTTP adapter answers from their declarations (issue 28), which were hand-written
/// handlers: a route handing over to another operation (`GET groups?owner=`), a HEAD reply, a resolver that refuses
/// `verified: true`, the installation's 201 with its `Location`, and the reset link's HTML page.
@Suite("Kii routes answered from their declarations")
struct KiiDeclaredRouteTests {
    private static let app: HTTPFields = [
        .authorization: "Basic " + Data("\(DefaultApps.kiiAppID):\(DefaultApps.kiiAppKey)".utf8).base64EncodedString()
    ]

    private static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    /// Signs a user up and logs in: its userID and token.
    private static func user(_ client: any TestClientProtocol, _ name: String) async throws -> (id: String, token: String) {
        let signUp = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"\#(name)","password":"secret1"}"#, headers: app)
        #expect(signUp.status == 201, "\(signUp.text)")
        let login = try await client.send(.post, "\(kii)/oauth2/token", json: #"{"username":"\#(name)","password":"secret1"}"#, headers: app)
        return (try #require(signUp.json("userID")?.stringValue), try #require(login.json("access_token")?.stringValue))
    }

    /// The `name` of each group a reply lists.
    private static func groupNames(_ reply: TestReply) -> [String] {
        guard case .array(let items)? = reply.json("groups") else { return [] }
        return items.compactMap { $0["name"]?.stringValue }
    }

    private static func operations(_ server: UnderstudyServer) -> [String?] {
        server.withStage { $0.world.journal.entries() }.map(\.operation)
    }

    @Test("GET groups?owner= answers groups.owned_by, ?is_member= groups.member_of: each its own groups, journalled by name")
    func groupsHandOver() async throws {
        try await withServer { server, client in
            let alice = try await Self.user(client, "alice")
            let bob = try await Self.user(client, "bob")
            try server.withStage { stage in
                let app = stage.world.kii(id: DefaultApps.kiiAppID)!
                _ = try app.createGroup(name: "alices", owner: alice.id, members: [bob.id])
                _ = try app.createGroup(name: "bobs", owner: bob.id)
            }
            let owned = try await client.send(.get, "\(kii)/groups?owner=\(alice.id)", headers: Self.bearer(alice.token))
            #expect(owned.status == 200, "\(owned.text)")
            #expect(owned.header("Content-Type")?.hasPrefix("application/vnd.kii.GroupsRetrievalResponse+json") == true)
            #expect(Self.groupNames(owned) == ["alices"])
            let member = try await client.send(.get, "\(kii)/groups/?is_member=\(bob.id)", headers: Self.bearer(bob.token))
            #expect(member.status == 200, "\(member.text)")
            #expect(Set(Self.groupNames(member)) == ["alices", "bobs"])
            // Another user's groups: the owner query is checked as the member query is.
            let other = try await client.send(.get, "\(kii)/groups?owner=\(bob.id)", headers: Self.bearer(alice.token))
            #expect(other.status == 401, "\(other.text)")
            #expect(Array(Self.operations(server).suffix(3)) == ["groups.owned_by", "groups.member_of", "groups.owned_by"])
        }
    }

    @Test("HEAD of a topic answers 200 or 404 with no body; GET answers {} or TOPIC_NOT_FOUND")
    func topicExists() async throws {
        try await withServer { server, client in
            let created = try await client.send(.put, "\(kii)/topics/news", headers: Self.app)
            #expect(created.status == 204, "\(created.text)")
            let head = try await client.send(.head, "\(kii)/topics/news", headers: Self.app)
            #expect(head.status == 200)
            #expect(head.text.isEmpty)
            let missing = try await client.send(.head, "\(kii)/topics/nothing", headers: Self.app)
            #expect(missing.status == 404)
            #expect(missing.text.isEmpty)
            let get = try await client.send(.get, "\(kii)/topics/news", headers: Self.app)
            #expect(get.status == 200)
            #expect(get.json == .object([]))
            let getMissing = try await client.send(.get, "\(kii)/topics/nothing", headers: Self.app)
            #expect(getMissing.json("errorCode") == "TOPIC_NOT_FOUND")
            // The app's headers alone are anonymous: 401 before the topic is looked up.
            var anonymous = HTTPFields()
            anonymous[HTTPField.Name("X-Kii-AppID")!] = DefaultApps.kiiAppID
            anonymous[HTTPField.Name("X-Kii-AppKey")!] = DefaultApps.kiiAppKey
            #expect(try await client.send(.get, "\(kii)/topics/news", headers: anonymous).status == 401)
            #expect(Self.operations(server).last == "topics.exists")
        }
    }

    @Test("changing the email: the owner first, then emailAddress, then verified (true is 401, another kind 400)")
    func changeEmailOrder() async throws {
        try await withServer { _, client in
            let alice = try await Self.user(client, "alice")
            let bob = try await Self.user(client, "bob")
            let path = "\(kii)/users/\(alice.id)/email-address"
            let another = try await client.send(.put, path, json: #"{"emailAddress":"a@example.com","verified":true}"#, headers: Self.bearer(bob.token))
            #expect(another.status == 401)
            #expect(another.json("message")?.stringValue?.contains("another user") == true, "\(another.text)")
            let noAddress = try await client.send(.put, path, json: #"{"verified":true}"#, headers: Self.bearer(alice.token))
            #expect(noAddress.status == 400)
            #expect(noAddress.json("field") == "emailAddress", "\(noAddress.text)")
            let verified = try await client.send(.put, path, json: #"{"emailAddress":"a@example.com","verified":true}"#, headers: Self.bearer(alice.token))
            #expect(verified.status == 401)
            #expect(verified.json("message")?.stringValue?.contains("administrator") == true, "\(verified.text)")
            let odd = try await client.send(.put, path, json: #"{"emailAddress":"a@example.com","verified":"yes"}"#, headers: Self.bearer(alice.token))
            #expect(odd.status == 400)
            #expect(odd.json("field") == "verified", "\(odd.text)")
            let changed = try await client.send(.put, path, json: #"{"emailAddress":"a@example.com","verified":false}"#, headers: Self.bearer(alice.token))
            #expect(changed.status == 204, "\(changed.text)")
            #expect(changed.text.isEmpty)
        }
    }

    @Test("registering an installation: 201 with its Location; another user's userID is 401; app credentials need userID")
    func installationCreated() async throws {
        try await withServer { server, client in
            let alice = try await Self.user(client, "alice")
            let bob = try await Self.user(client, "bob")
            let created = try await client.send(
                .post, "\(kii)/installations", json: #"{"deviceType":"ANDROID","installationRegistrationID":"fcm-1"}"#,
                headers: Self.bearer(alice.token)
            )
            #expect(created.status == 201, "\(created.text)")
            #expect(created.header("Content-Type")?.hasPrefix("application/vnd.kii.InstallationCreationResponse+json") == true)
            let id = try #require(created.json("installationID")?.stringValue)
            #expect(created.json("installationRegistrationID") == "fcm-1")
            #expect(created.header("Location")?.hasSuffix("/api/apps/\(DefaultApps.kiiAppID)/installations/\(id)") == true)
            let read = try await client.send(.get, "\(kii)/installations/ANDROID:fcm-1", headers: Self.bearer(alice.token))
            #expect(read.status == 200, "\(read.text)")
            #expect(read.header("Content-Type")?.hasPrefix("application/vnd.kii.InstallationRetrievalResponse+json") == true)
            #expect(read.json("userID")?.stringValue == alice.id)
            #expect(try await client.send(.get, "\(kii)/installations/\(id)", headers: Self.bearer(bob.token)).status == 401)
            let forBob = try await client.send(
                .post, "\(kii)/installations", json: #"{"deviceType":"IOS","installationRegistrationID":"apns-1","userID":"\#(bob.id)"}"#,
                headers: Self.bearer(alice.token)
            )
            #expect(forBob.status == 401, "\(forBob.text)")
            let noUser = try await client.send(.post, "\(kii)/installations", json: #"{"deviceType":"MQTT"}"#, headers: Self.app)
            #expect(noUser.status == 400)
            #expect(noUser.json("field") == "userID", "\(noUser.text)")
            let mqtt = try await client.send(
                .post, "\(kii)/installations", json: #"{"deviceType":"MQTT","installationRegistrationID":"","userID":"\#(bob.id)"}"#,
                headers: Self.app
            )
            #expect(mqtt.status == 201, "\(mqtt.text)")
            #expect(Self.operations(server).suffix(5).allSatisfy { $0?.hasPrefix("installations.") == true })
        }
    }

    @Test("the reset link's page: HTML for a used or unknown code too, with the error's status")
    func resetLinkPage() async throws {
        try await withServer { _, client in
            let unknown = try await client.send(.get, "\(kii)/password-reset?code=123")
            #expect(unknown.status == 404)
            #expect(unknown.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(unknown.text.contains("unknown or has already been used"))
            let none = try await client.send(.get, "\(kii)/password-reset")
            #expect(none.status == 404)
            #expect(none.text.contains("<h1>Password reset failed</h1>"))
        }
    }
}
