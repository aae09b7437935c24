import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP

/// What Kii's native SDKs (Android, Unity) and Java's own HTTP client send that a JavaScript SDK does not.
@Suite("Native clients: Kii's Android and Unity SDKs, Java's HttpClient")
struct NativeClientTests {
    private static let appAuth: HTTPFields = [
        .authorization: "Basic " + Data("\(DefaultApps.kiiAppID):key".utf8).base64EncodedString()
    ]

    private static func bearer(_ token: String, _ extra: [(String, String)] = []) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Bearer \(token)"]
        for (name, value) in extra { fields[HTTPField.Name(name)!] = value }
        return fields
    }

    /// Signs up and logs in a Kii user; returns the access token.
    private static func kiiUser(_ client: some TestClientProtocol, _ name: String = "native1") async throws -> String {
        let signUp = try await client.send(
            .post, "\(kii)/users", json: #"{"loginName":"\#(name)","emailAddress":"\#(name)@example.com","password":"secret1"}"#, headers: appAuth
        )
        #expect(signUp.status == 201, "\(signUp.text)")
        let login = try await client.send(.post, "\(kii)/oauth2/token", json: #"{"username":"\#(name)","password":"secret1"}"#, headers: appAuth)
        return try #require(login.json("access_token")?.stringValue)
    }

    @Test("update() sending the whole record back (emailAddressVerified, _hasPassword, userID...) is accepted; a change is refused")
    func echoedRecord() async throws {
        try await withServer { _, client in
            let token = try await Self.kiiUser(client)
            let record = try await client.send(.get, "\(kii)/users/me", headers: Self.bearer(token))
            guard case .object(var members)? = record.json else { Issue.record("record: \(record.text)"); return }
            members.append(JSON.Member("score", .integer(3)))
            let update = Self.bearer(token, [("Content-Type", "application/vnd.kii.UserUpdateRequest+json")])
            let echoed = try await client.send(.post, "\(kii)/users/me", json: JSONWriter.string(.object(members)), headers: update)
            #expect(echoed.status == 200, "the SDK's update of its own record: \(echoed.text)")
            #expect(try await client.send(.get, "\(kii)/users/me", headers: Self.bearer(token)).json("score") == .integer(3))

            let verified = try #require(record.json("emailAddressVerified"))
            let flipped = verified == .bool(true) ? "false" : "true"
            for (field, value) in [("emailAddressVerified", flipped), ("_hasPassword", "false"), ("_disabled", "true"), ("userID", #""someone-else""#)] {
                let changed = try await client.send(.post, "\(kii)/users/me", json: #"{"\#(field)":\#(value)}"#, headers: update)
                #expect(changed.status == 400, "changing \(field): \(changed.text)")
                #expect(changed.json("errorCode") == "INVALID_INPUT_DATA")
                #expect(changed.json("field")?.stringValue == field)
            }
        }
    }

    @Test("Unity's transport: POST with X-HTTP-Method-Override or a _method stub reaches every method's route; X-HTTP-Status-Code on each reply")
    func unityTransport() async throws {
        try await withServer { _, client in
            let token = try await Self.kiiUser(client, "unity1")
            // GET as POST + header + stub body (no Content-Type, as Unity's WWW sends it).
            let me = try await client.send(.post, "\(kii)/users/me", text: #"{"_method":"GET"}"#, headers: Self.bearer(token, [("X-HTTP-Method-Override", "GET")]))
            #expect(me.status == 200, "\(me.text)")
            #expect(me.json("loginName") == "unity1")
            #expect(me.header("X-HTTP-Status-Code") == "200")
            // A 404 the game must see as a 404.
            let missing = try await client.send(.post, "\(kii)/users/LOGIN_NAME:nobody", text: #"{"_method":"GET"}"#, headers: Self.bearer(token, [("X-HTTP-Method-Override", "GET")]))
            #expect(missing.status == 404)
            #expect(missing.header("X-HTTP-Status-Code") == "404")
            // A route nobody declares: still Kii's shape and the header.
            let unknown = try await client.send(.post, "\(kii)/nowhere", text: #"{"_method":"GET"}"#, headers: Self.bearer(token, [("X-HTTP-Method-Override", "GET")]))
            #expect(unknown.status == 404)
            #expect(unknown.header("X-HTTP-Status-Code") == "404")
            // The stub alone names the method (no header).
            let stubOnly = try await client.send(.post, "\(kii)/users/me", text: #"{"_method":"GET"}"#, headers: Self.bearer(token))
            #expect(stubOnly.status == 200, "\(stubOnly.text)")
            #expect(stubOnly.json("loginName") == "unity1")
            // Topics: a game asks IsSubscribed (404, then 204), subscribes with a body-less POST (the stub as
            // application/X-Dummy-Content), meets 409 subscribing again, unsubscribes with DELETE.
            let created = try await client.send(.post, "\(kii)/users/me/topics/scores", text: #"{"_method":"PUT"}"#, headers: Self.bearer(token, [("X-HTTP-Method-Override", "PUT")]))
            #expect(created.status == 204, "\(created.text)")
            let subscription = "\(kii)/users/me/topics/scores/push/subscriptions/users"
            let get = Self.bearer(token, [("X-HTTP-Method-Override", "GET")])
            let notYet = try await client.send(.post, subscription + "/me", text: #"{"_method":"GET"}"#, headers: get)
            #expect(notYet.status == 404 && notYet.header("X-HTTP-Status-Code") == "404", "\(notYet.text)")
            let dummy = Self.bearer(token, [("Content-Type", "application/X-Dummy-Content")])
            let subscribed = try await client.send(.post, subscription, text: #"{"_method":"POST"}"#, headers: dummy)
            #expect(subscribed.status == 204, "\(subscribed.text)")
            let again = try await client.send(.post, subscription, text: #"{"_method":"POST"}"#, headers: dummy)
            #expect(again.status == 409 && again.header("X-HTTP-Status-Code") == "409", "\(again.text)")
            let now = try await client.send(.post, subscription + "/me", text: #"{"_method":"GET"}"#, headers: get)
            #expect(now.status == 204 && now.header("X-HTTP-Status-Code") == "204", "\(now.text)")
            let deleted = try await client.send(.post, subscription + "/me", text: #"{"_method":"DELETE"}"#, headers: Self.bearer(token, [("X-HTTP-Method-Override", "DELETE")]))
            #expect(deleted.status == 204, "\(deleted.text)")
        }
    }

    @Test("Connection: Upgrade + Upgrade: h2c is answered in HTTP/1.1 and the next request on the connection at once")
    func h2cUpgradeDeclined() async throws {
        try await withLiveServer { _, client in
            let port = try #require(client.port)
            for path in ["\(backendless)/users/userroles", "/_understudy/routes"] {
                let connection = try #require(RawConnection(port: port))
                let upgrade = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\nUpgrade: h2c\r\nUser-Agent: Java-http-client/17\r\n\r\n"
                connection.send(upgrade)
                let first = await connection.reply(within: 5_000)
                #expect(first.hasPrefix("HTTP/1.1 200"), "\(path): \(first)")
                let started = ContinuousClock.now
                connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let second = await connection.reply(within: 5_000)
                #expect(second.hasPrefix("HTTP/1.1 200"), "\(path): the second request on the connection: \(second)")
                #expect(ContinuousClock.now - started < .seconds(3), "the second reply took \(ContinuousClock.now - started)")
            }
        }
    }
}
