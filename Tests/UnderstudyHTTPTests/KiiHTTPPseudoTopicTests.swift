import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP

/// What the Kii JS SDK sends on every call: `x-kii-appid` / `x-kii-appkey`, plus a bearer token when given.
private func sdkHeaders(_ token: String? = nil, contentType: String? = nil) -> HTTPFields {
    var fields = HTTPFields()
    fields[HTTPField.Name("x-kii-appid")!] = DefaultApps.kiiAppID
    fields[HTTPField.Name("x-kii-appkey")!] = DefaultApps.kiiAppKey
    if let token { fields[HTTPField.Name("authorization")!] = "bearer \(token)" }
    if let contentType { fields[.contentType] = contentType }
    return fields
}

/// Basic `appID:appKey`: the application administrator on topic routes.
private let admin: HTTPFields = [
    .authorization: "Basic " + Data("\(DefaultApps.kiiAppID):\(DefaultApps.kiiAppKey)".utf8).base64EncodedString()
]

private let pseudoType = "application/vnd.kii.RegistrationAndAuthorizationRequest+json"
private let updateType = "application/vnd.kii.UserUpdateRequest+json"
private let sendType = "application/vnd.kii.SendPushMessageRequest+json"

extension TestClientProtocol {
    /// `KiiUser.registerAsPseudoUser`: the 201 body.
    fileprivate func pseudo(_ body: String = "{}") async throws -> TestReply {
        try await send(.post, "\(kii)/users", text: body, headers: sdkHeaders(contentType: pseudoType))
    }
}

@Suite("Kii pseudo users and topics over HTTP")
struct KiiHTTPPseudoTopicTests {
    @Test("registerAsPseudoUser: 201 with _accessToken and _hasPassword false; the token reads users/me")
    func registerPseudo() async throws {
        try await withServer { _, client in
            let reply = try await client.pseudo(#"{"displayName":"anon","score":3}"#)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.json("_hasPassword") == .bool(false))
            #expect(reply.json("loginName") == nil)
            let token = try #require(reply.json("_accessToken")?.stringValue)
            let me = try await client.send(.get, "\(kii)/users/me", headers: sdkHeaders(token))
            #expect(me.status == 200)
            #expect(me.json("_hasPassword") == .bool(false))
            #expect(me.json("score") == .integer(3))
        }
    }

    @Test("the same content type with credentials registers a normal user and returns _accessToken")
    func registerAndAuthorize() async throws {
        try await withServer { _, client in
            let reply = try await client.pseudo(#"{"loginName":"bond007","password":"123ABC"}"#)
            #expect(reply.status == 201)
            #expect(reply.json("_hasPassword") == .bool(true))
            let token = try #require(reply.json("_accessToken")?.stringValue)
            #expect(try await client.send(.get, "\(kii)/users/me", headers: sdkHeaders(token)).json("loginName") == .string("bond007"))
        }
    }

    @Test("putIdentity as the JS SDK sends it (the refreshed record, internalUserID and _accessToken echoed): 200 modifiedAt")
    func putIdentity() async throws {
        try await withServer { _, client in
            let created = try await client.pseudo(#"{"score":3}"#)
            let token = try #require(created.json("_accessToken")?.stringValue)
            let userID = try #require(created.json("userID")?.stringValue)
            guard case .integer(let internalID)? = created.json("internalUserID") else {
                Issue.record("no internalUserID in \(created.text)")
                return
            }
            // JavaScript holds the 18-digit id as a double and writes it back rounded.
            let echoed = String(format: "%.0f", Double(internalID))
            let body = #"{"internalUserID":\#(echoed),"_accessToken":"\#(token)","score":3,"loginName":"bond007","password":"123ABC"}"#
            let reply = try await client.send(.post, "\(kii)/users/\(userID)", text: body, headers: sdkHeaders(token, contentType: updateType))
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json("modifiedAt") != nil)
            let me = try await client.send(.get, "\(kii)/users/me", headers: sdkHeaders(token))
            #expect(me.json("_hasPassword") == .bool(true))
            #expect(me.json("loginName") == .string("bond007"))
            #expect(me.json("score") == .integer(3))
            let again = try await client.send(.post, "\(kii)/users/me", text: body, headers: sdkHeaders(token, contentType: updateType))
            #expect(again.status == 409)
            #expect(again.json("errorCode") == .string("INVALID_STATUS"))
        }
    }

    @Test("an echoed _-name with another value is still 400 INVALID_INPUT_DATA")
    func changedEcho() async throws {
        try await withServer { _, client in
            let created = try await client.pseudo()
            let token = try #require(created.json("_accessToken")?.stringValue)
            let body = #"{"_accessToken":"not-mine","loginName":"bond007","password":"123ABC"}"#
            let reply = try await client.send(.post, "\(kii)/users/me", text: body, headers: sdkHeaders(token, contentType: updateType))
            #expect(reply.status == 400)
            #expect(reply.json("field") == .string("_accessToken"))
        }
    }

    @Test("app-scope topics need the administrator: the app's credentials or a client-credentials token")
    func adminTopics() async throws {
        try await withServer { _, client in
            let token = try #require(try await client.pseudo().json("_accessToken")?.stringValue)
            #expect(try await client.send(.put, "\(kii)/topics/news", headers: sdkHeaders(token)).status == 401)
            #expect(try await client.send(.put, "\(kii)/topics/news", headers: [:]).status == 401)
            // The SDK with no user logged in sends only the app's headers: anonymous, as on the live service.
            #expect(try await client.send(.put, "\(kii)/topics/first", headers: sdkHeaders()).status == 401)
            let login = try await client.send(
                .post, "\(kii)/oauth2/token",
                json: #"{"client_id":"\#(DefaultApps.kiiAppID)","client_secret":"\#(DefaultApps.kiiAppKey)"}"#
            )
            let adminToken = try #require(login.json("access_token")?.stringValue)
            var bearer = HTTPFields()
            bearer[.authorization] = "Bearer \(adminToken)"
            #expect(try await client.send(.put, "\(kii)/topics/news", headers: bearer).status == 204)
            let twice = try await client.send(.put, "\(kii)/topics/news", headers: admin)
            #expect(twice.status == 409)
            #expect(twice.json("errorCode") == .string("TOPIC_ALREADY_EXISTS"))
            let wrong = try await client.send(.post, "\(kii)/oauth2/token", json: #"{"client_id":"\#(DefaultApps.kiiAppID)","client_secret":"nope"}"#)
            #expect(wrong.status == 401)
        }
    }

    @Test("exists, subscribe, isSubscribed, send and unsubscribe as the SDK calls them")
    func subscribeAndSend() async throws {
        try await withServer { server, client in
            let created = try await client.pseudo()
            let token = try #require(created.json("_accessToken")?.stringValue)
            let userID = try #require(created.json("userID")?.stringValue)
            _ = try await client.send(.put, "\(kii)/topics/news", headers: admin)
            let head = try await client.send(.head, "\(kii)/topics/news", headers: sdkHeaders(token))
            #expect(head.status == 200)
            let missing = try await client.send(.head, "\(kii)/topics/none", headers: sdkHeaders(token))
            #expect(missing.status == 404)
            #expect(missing.text.isEmpty)
            let subscription = "\(kii)/topics/news/push/subscriptions/users/\(userID)"
            #expect(try await client.send(.get, subscription, headers: sdkHeaders(token)).json("errorCode") == .string("PUSH_SUBSCRIPTION_NOT_FOUND"))
            #expect(try await client.send(.put, subscription, headers: sdkHeaders(token)).status == 204)
            #expect(try await client.send(.get, subscription, headers: sdkHeaders(token)).status == 204)
            _ = try await client.send(
                .post, "\(kii)/installations", json: #"{"installationRegistrationID":"fcm-1","deviceType":"ANDROID"}"#,
                headers: sdkHeaders(token)
            )
            let message = #"{"data":{"m":"hi"},"gcm":{"enabled":true},"apns":{"enabled":true},"jpush":{"enabled":true},"mqtt":{"enabled":true}}"#
            let byUser = try await client.send(.post, "\(kii)/topics/news/push/messages", text: message, headers: sdkHeaders(token, contentType: sendType))
            #expect(byUser.status == 401, "only the administrator sends to an app-scope topic")
            var adminSend = admin
            adminSend[.contentType] = sendType
            let sent = try await client.send(.post, "\(kii)/topics/news/push/messages", text: message, headers: adminSend)
            #expect(sent.status == 201)
            let id = try #require(sent.json("pushMessageID")?.stringValue)
            let push = try #require(server.withStage { $0.world.kii(id: DefaultApps.kiiAppID)!.outbox.pushes.last })
            #expect(push.topicMessage?.pushMessageID == id && push.topicMessage?.topic == "news" && push.userID == userID)
            let noNetwork = try await client.send(.post, "\(kii)/topics/news/push/messages", text: #"{"data":{"m":"hi"}}"#, headers: adminSend)
            #expect(noNetwork.status == 400)
            #expect(try await client.send(.delete, subscription, headers: sdkHeaders(token)).status == 204)
            #expect(try await client.send(.delete, subscription, headers: sdkHeaders(token)).status == 404)
        }
    }

    @Test("user-scope topics: the owner creates, lists and sends; another user gets 401 and cannot subscribe another")
    func userScope() async throws {
        try await withServer { _, client in
            let alice = try await client.pseudo()
            let bob = try await client.pseudo()
            let aliceToken = try #require(alice.json("_accessToken")?.stringValue)
            let bobToken = try #require(bob.json("_accessToken")?.stringValue)
            let bobID = try #require(bob.json("userID")?.stringValue)
            #expect(try await client.send(.put, "\(kii)/users/me/topics/diary", headers: sdkHeaders(aliceToken)).status == 204)
            let aliceID = try #require(alice.json("userID")?.stringValue)
            #expect(try await client.send(.put, "\(kii)/users/\(aliceID)/topics/other", headers: sdkHeaders(bobToken)).status == 401)
            let list = try await client.send(.get, "\(kii)/users/\(aliceID)/topics", headers: sdkHeaders(bobToken))
            #expect(list.json("topics") == .array([.object([.init("topicID", .string("diary"))])]))
            let others = try await client.send(.put, "\(kii)/users/\(aliceID)/topics/diary/push/subscriptions/users/\(bobID)", headers: sdkHeaders(aliceToken))
            #expect(others.status == 401, "a token subscribes only its own user")
            let own = try await client.send(.post, "\(kii)/users/\(aliceID)/topics/diary/push/subscriptions/users", headers: sdkHeaders(bobToken))
            #expect(own.status == 401)
            #expect(own.json("errorCode") == .string("UNAUTHORIZED"))
            let unknown = try await client.send(.get, "\(kii)/users/nobody/topics", headers: sdkHeaders(bobToken))
            #expect(unknown.json("errorCode") == .string("USER_NOT_FOUND"))
        }
    }

    @Test("the dashboard's devices list shows each topic with its scope and subscribers")
    func dashboardTopics() async throws {
        try await withServer { server, client in
            try server.withStage { stage in
                let app = stage.world.kii(id: DefaultApps.kiiAppID)!
                let user = try app.registerPseudo()
                _ = try app.createTopic(topicID: "news")
                try app.subscribe(topicID: "news", userID: user.userID)
            }
            let reply = try await client.send(.get, "/_understudy/devices")
            guard case .array(let topics)? = reply.json("topics"), let topic = topics.first else {
                Issue.record("no topics in \(reply.text)")
                return
            }
            #expect(topic["topicID"] == .string("news"))
            #expect(topic["scope"] == .string("APP"))
            guard case .array(let subscribers)? = topic["subscribers"] else {
                Issue.record("no subscribers in \(reply.text)")
                return
            }
            #expect(subscribers.count == 1)
        }
    }

    @Test("the journal names the v3 operations a request ran: register_pseudo and put_identity, though their routes are sign-up and update")
    func journalNames() async throws {
        try await withServer { _, client in
            let created = try await client.pseudo()
            let token = try #require(created.json("_accessToken")?.stringValue)
            _ = try await client.send(
                .post, "\(kii)/users/me", text: #"{"loginName":"bond007","password":"123ABC"}"#,
                headers: sdkHeaders(token, contentType: updateType)
            )
            _ = try await client.send(.put, "\(kii)/topics/news", headers: admin)
            for op in ["users.register_pseudo", "users.put_identity", "topics.create"] {
                let journal = try await client.send(.get, "/_understudy/journal?op=\(op)")
                guard case .array(let entries)? = journal.json("entries") else {
                    Issue.record("\(op): \(journal.text)")
                    continue
                }
                #expect(entries.count == 1, "\(op): \(journal.text)")
            }
        }
    }
}
