import AMF
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP

/// What the gateway answered one AMF call: the HTTP status and content type, and the reply message.
struct AMFReply {
    let status: Int
    let contentType: String?
    let message: AMFObject?
    /// The raw reply when it is not AMF (a refused packet).
    let text: String

    var isAcknowledge: Bool { message?.className == "flex.messaging.messages.AcknowledgeMessage" }
    /// The result of an acknowledgement.
    var body: AMFValue? { message?["body"] }
    var faultCode: String? { message?["faultCode"]?.string }
    var faultString: String? { message?["faultString"]?.string }
}

extension TestClientProtocol {
    /// Sends one RemotingMessage as the Java SDK does: `[message]` in a version-3 envelope, the user-token in the
    /// message's headers.
    func amf(_ service: String, _ operation: String, _ arguments: [AMFValue] = [], token: String? = nil, path: String = "\(backendless)/binary") async throws -> AMFReply {
        var headers: [AMFMember] = [AMFMember("application-type", .string("ANDROID")), AMFMember("api-version", .string("1.0"))]
        if let token { headers.append(AMFMember("user-token", .string(token))) }
        let message = AMFValue.object(AMFObject("flex.messaging.messages.RemotingMessage", sealed: [
            AMFMember("timeToLive", .int(0)), AMFMember("headers", .object(AMFObject(sealed: headers))), AMFMember("clientId", .null),
            AMFMember("destination", .string("GenericDestination")), AMFMember("messageId", .null), AMFMember("correlationId", .null),
            AMFMember("source", .string(service.hasPrefix("com.") ? service : "com.backendless.services.\(service)")),
            AMFMember("body", .array(AMFArray(arguments))), AMFMember("operation", .string(operation)),
            AMFMember("messageRefType", .null), AMFMember("timestamp", .int(0)),
        ]))
        let packet = try AMFPacket(bodies: [AMFPacket.Body(target: "null", response: "null", value: .array(AMFArray([message])))]).encoded()
        return try await amf(bytes: packet, path: path)
    }

    func amf(bytes: [UInt8], path: String = "\(backendless)/binary") async throws -> AMFReply {
        let response = try await executeRequest(
            uri: path, method: .post, headers: [.contentType: "application/x-amf"], body: ByteBuffer(bytes: bytes)
        )
        let reply = Array(response.body.readableBytesView)
        let packet = try? AMFPacket.decode(reply)
        return AMFReply(
            status: Int(response.status.code), contentType: response.headers[.contentType], message: packet?.bodies.first?.value.object,
            text: String(decoding: reply, as: UTF8.self)
        )
    }
}

let users = "users.UserService"
let persistence = "persistence.PersistenceService"
let messaging = "messaging.MessagingService"
let devices = "messaging.DeviceRegistrationService"

func userMap(_ email: String, _ password: String = "pw-1", _ extra: [AMFMember] = []) -> AMFValue {
    .object(AMFObject(sealed: [AMFMember("email", .string(email)), AMFMember("password", .string(password)), AMFMember("blUserLocale", .string("en"))] + extra))
}

@Suite("The AMF gateway (Backendless native SDKs)")
struct AMFGatewayTests {
    @Test("register answers a Users object with dates; a second register is fault 3033 with REST's message, over HTTP 200")
    func register() async throws {
        try await withServer { _, client in
            let first = try await client.amf(users, "register", [userMap("ann@example.com")])
            #expect(first.status == 200)
            #expect(first.contentType == "application/x-amf")
            #expect(first.isAcknowledge)
            let user = try #require(first.body?.object)
            #expect(user.className == "Users")
            #expect(user["email"] == .string("ann@example.com"))
            #expect(user["password"] == nil)
            #expect(user["blUserLocale"] == .string("en"))
            guard case .date? = user["created"] else { Issue.record("created is \(String(describing: user["created"]))"); return }
            #expect(user["objectId"]?.string?.isEmpty == false)

            let again = try await client.amf(users, "register", [userMap("ann@example.com")])
            let rest = try await client.send(.post, "\(backendless)/users/register", json: #"{"email":"ann@example.com","password":"pw-1"}"#)
            #expect(again.status == 200)
            #expect(again.message?.className == "flex.messaging.messages.ErrorMessage")
            #expect(again.faultCode == "3033")
            #expect(again.faultString == rest.json("message")?.stringValue)
            #expect(again.message?["faultDetail"] == .string(""))
            #expect(again.message?["extendedData"] == .object(AMFObject()))
        }
    }

    @Test("login carries the user-token; a wrong password is 3003; the token checks, logs out and is then invalid")
    func loginLifecycle() async throws {
        try await withServer { server, client in
            _ = try await client.amf(users, "register", [userMap("bob@example.com")])
            let wrong = try await client.amf(users, "login", [.string("bob@example.com"), .string("nope")])
            #expect(wrong.faultCode == "3003")
            let login = try await client.amf(users, "login", [.string("bob@example.com"), .string("pw-1")])
            let token = try #require(login.body?.object?["user-token"]?.string)
            #expect(login.body?.object?.className == "Users")
            #expect(try await client.amf(users, "isValidUserToken", [.string(token)]).body == .bool(true))
            let logout = try await client.amf(users, "logout", token: token)
            #expect(logout.isAcknowledge && logout.body == .null)
            #expect(try await client.amf(users, "isValidUserToken", [.string(token)]).body == .bool(false))
            // The journal names each call's operation as for REST, its body the JSON the call stands for.
            let entries = server.withStage { $0.world.journal.entries(matching: JournalFilter(path: "binary")) }
            #expect(entries.map(\.operation) == ["users.register", "users.login", "users.login", "users.is_valid_token", "users.logout", "users.is_valid_token"])
            #expect(entries.map(\.status).allSatisfy { $0 == 200 })
            #expect(entries[1].code == .int(3003))
            guard case .object(let body)? = entries[2].json else { Issue.record("the login's body: \(String(describing: entries[2].json))"); return }
            #expect(body["login"] == .string("bob@example.com"))
            #expect(body["password"] == .string("[redacted]"), "the password is never journaled")
        }
    }

    @Test("update, recovery, confirmation, describe, roles, guest login and findById answer the shapes the SDK casts")
    func lifecycle() async throws {
        try await withServer(setup: "understudy.backendless{ email_confirmation = true }") { _, client in
            let registered = try await client.amf(users, "register", [userMap("cy@example.com")])
            let objectID = try #require(registered.body?.object?["objectId"]?.string)
            // Email confirmation on: login is 3087 until confirmed, as over REST.
            #expect(try await client.amf(users, "login", [.string("cy@example.com"), .string("pw-1")]).faultCode == "3087")
            let resend = try await client.amf(users, "resendEmailConfirmation", [.string("cy@example.com")])
            #expect(resend.isAcknowledge && resend.body == .null)
            let restore = try await client.amf(users, "restorePassword", [.string("cy@example.com")])
            #expect(restore.isAcknowledge)
            let outbox = try await client.send(.get, "/_understudy/outbox")
            #expect(outbox.text.contains("cy@example.com"))
            #expect(try await client.amf(users, "restorePassword", [.string("nobody@example.com")]).faultCode == "3020")

            let properties = try await client.amf(users, "describeUserClass")
            guard case .array(let columns)? = properties.body else { Issue.record("describeUserClass: \(properties.text)"); return }
            #expect(!columns.dense.isEmpty)
            #expect(columns.dense.allSatisfy { $0.object?.className == "com.backendless.services.users.property.UserProperty" })
            #expect(columns.dense.contains { $0.object?["name"] == .string("email") && $0.object?["identity"] == .bool(true) })

            guard case .array(let roles)? = try await client.amf(users, "getUserRoles").body else { Issue.record("roles"); return }
            #expect(!roles.dense.isEmpty && roles.dense.allSatisfy { $0.string != nil })

            let guest = try await client.amf(users, "loginAsGuest")
            #expect(guest.body?.object?["userStatus"] == .string("GUEST"))
            let guestToken = try #require(guest.body?.object?["user-token"]?.string)
            let guestID = try #require(guest.body?.object?["objectId"]?.string)
            let updated = try await client.amf(
                users, "update", [.object(AMFObject("Users", sealed: [AMFMember("objectId", .string(guestID)), AMFMember("nick", .string("g"))]))],
                token: guestToken
            )
            #expect(updated.body?.object?["nick"] == .string("g"), "\(updated.faultString ?? "")")
            let noSession = try await client.amf(users, "update", [.object(AMFObject(sealed: [AMFMember("objectId", .string(objectID))]))], token: "stale")
            #expect(noSession.faultCode == "3064")

            let found = try await client.amf(users, "findById", [.string(objectID), .array(AMFArray())])
            #expect(found.body?.object?.className == "Users")
            #expect(found.body?.object?["email"] == .string("cy@example.com"))
            let data = try await client.amf(persistence, "findById", [.string("Users"), .string(objectID), .array(AMFArray())])
            #expect(data.body?.object?["objectId"] == .string(objectID))
            let missing = try await client.amf(persistence, "findById", [.string("Users"), .string("nobody"), .array(AMFArray())])
            let restMissing = try await client.send(.get, "\(backendless)/data/Users/nobody")
            guard case .integer(let restCode)? = restMissing.json("code") else { Issue.record("REST: \(restMissing.text)"); return }
            #expect(missing.faultCode == String(restCode))
            #expect(missing.faultString == restMissing.json("message")?.stringValue)
            #expect(try await client.amf(persistence, "findById", [.string("Orders"), .string(objectID)]).faultCode == "404")
            let removed = try await client.amf(persistence, "remove", [.string("Users"), .object(AMFObject("Users", sealed: [AMFMember("objectId", .string(objectID))]))])
            if case .int? = removed.body {} else if case .double? = removed.body {} else { Issue.record("remove: \(removed.text)") }
        }
    }

    @Test("devices and publishing: a registration id string, a typed registration, a typed MessageStatus")
    func messagingCalls() async throws {
        try await withServer { _, client in
            let dto = AMFValue.object(AMFObject("com.backendless.management.DeviceRegistrationDto", sealed: [
                AMFMember("id", .string("")), AMFMember("deviceToken", .string("tok")), AMFMember("deviceId", .string("dev-1")),
                AMFMember("os", .string("ANDROID")), AMFMember("osVersion", .string("33")), AMFMember("expiration", .null),
                AMFMember("channels", .array(AMFArray([.string("default")]))),
            ]))
            let registered = try await client.amf(devices, "registerDevice", [dto])
            #expect(registered.body?.string?.isEmpty == false, "\(registered.faultString ?? registered.text)")
            let device = try await client.amf(devices, "getDeviceRegistrationByDeviceId", [.string("dev-1")])
            #expect(device.body?.object?.className == "com.backendless.management.DeviceRegistrationDto")
            #expect(device.body?.object?["deviceToken"] == .string("tok"))
            let publishOptions = AMFValue.object(AMFObject("com.backendless.services.messaging.PublishOptions", sealed: [
                AMFMember("publisherId", .null), AMFMember("headers", .object(AMFObject(sealed: [AMFMember("k", .string("v"))]))),
                AMFMember("subtopic", .null), AMFMember("ANDROID_TICKER_TEXT_TAG", .string("android-ticker-text")),
            ]))
            let deliveryOptions = AMFValue.object(AMFObject("com.backendless.services.messaging.DeliveryOptions", sealed: [
                AMFMember("pushBroadcast", .int(15)), AMFMember("pushSinglecast", .array(AMFArray())), AMFMember("publishPolicy", .string("PUSH")),
                AMFMember("publishAt", .null), AMFMember("repeatEvery", .int(0)), AMFMember("repeatExpiresAt", .null),
            ]))
            let published = try await client.amf(messaging, "publish", [.string("default"), .string("hello"), publishOptions, deliveryOptions])
            let status = try #require(published.body?.object, "\(published.faultString ?? published.text)")
            #expect(status.className == "com.backendless.messaging.MessageStatus")
            #expect(status["status"]?.string == status["status"]?.string?.uppercased())
            let messageID = try #require(status["messageId"]?.string)
            let again = try await client.amf(messaging, "getMessageStatus", [.string(messageID)])
            #expect(again.body?.object?["messageId"] == .string(messageID))
            let unregistered = try await client.amf(devices, "unregisterDevice", [.string("dev-1")])
            #expect(unregistered.body == .bool(true))
            #expect(try await client.amf(devices, "unregisterDevice", [.string("dev-1")]).faultCode == "5001")
        }
    }

    @Test("the Data service on Users over AMF: find with a query, first, last, count, create, update, as over REST")
    func dataService() async throws {
        try await withServer { server, client in
            for name in ["ann", "bob", "cy"] { _ = try await client.amf(users, "register", [userMap("\(name)@example.com")]) }
            let query = AMFValue.object(AMFObject("com.backendless.services.persistence.BackendlessDataQuery", sealed: [
                AMFMember("pageSize", .int(2)), AMFMember("offset", .int(0)), AMFMember("whereClause", .string("email LIKE '%example.com'")),
                AMFMember("properties", .array(AMFArray())), AMFMember("excludeProperties", .array(AMFArray())), AMFMember("groupBy", .array(AMFArray())),
                AMFMember("havingClause", .string("")), AMFMember("distinct", .bool(false)), AMFMember("DEFAULT_PAGE_SIZE", .int(10)),
                AMFMember("queryOptions", .object(AMFObject("QueryOptions", sealed: [AMFMember("sortBy", .array(AMFArray([.string("email DESC")]))), AMFMember("related", .array(AMFArray()))]))),
            ]))
            let found = try await client.amf(persistence, "find", [.string("Users"), query])
            guard case .array(let page)? = found.body else { Issue.record("find: \(found.faultString ?? found.text)"); return }
            #expect(page.dense.map { $0.object?["email"]?.string } == ["cy@example.com", "bob@example.com"])
            #expect(page.dense.allSatisfy { $0.object?.className == "Users" })
            #expect(try await client.amf(persistence, "count", [.string("Users"), query]).body == .int(3))
            #expect(try await client.amf(persistence, "count", [.string("Users")]).body == .int(3))
            // first and last: REST's records (find's order).
            for (method, route) in [("first", "first"), ("last", "last")] {
                let record = try await client.amf(persistence, method, [.string("Users")]).body?.object
                let rest = try await client.send(.get, "\(backendless)/data/Users/\(route)")
                #expect(record?["objectId"]?.string == rest.json("objectId")?.stringValue && record?.className == "Users", "\(method)")
            }
            // A where clause REST refuses is the same fault over AMF.
            let bad = AMFValue.object(AMFObject(sealed: [AMFMember("whereClause", .string("email ==="))]))
            let refused = try await client.amf(persistence, "find", [.string("Users"), bad])
            let rest = try await client.send(.post, "\(backendless)/data/Users/find", json: #"{"where":"email ==="}"#)
            guard case .integer(let restCode)? = rest.json("code") else { Issue.record("REST: \(rest.text)"); return }
            #expect(refused.faultCode == String(restCode) && refused.faultString == rest.json("message")?.stringValue, "\(refused.text) vs \(rest.text)")

            // save: create without an objectId (a new user), update with one.
            let created = try await client.amf(persistence, "create", [.string("Users"), .object(AMFObject("Users", sealed: [
                AMFMember("___class", .string("Users")), AMFMember("email", .string("dee@example.com")), AMFMember("password", .string("pw-1")),
            ]))])
            let id = try #require(created.body?.object?["objectId"]?.string, "\(created.faultString ?? created.text)")
            let updated = try await client.amf(persistence, "update", [.string("Users"), .object(AMFObject("Users", sealed: [
                AMFMember("___class", .string("Users")), AMFMember("objectId", .string(id)), AMFMember("nick", .string("D")),
            ]))])
            #expect(updated.body?.object?["nick"] == .string("D"), "\(updated.faultString ?? updated.text)")
            #expect(try await client.amf(persistence, "find", [.string("Orders"), query]).faultCode == "1009")
            let operations = server.withStage { $0.world.journal.entries(matching: JournalFilter(path: "binary")) }.map(\.operation)
            #expect(operations.suffix(9) == ["data.find", "data.count", "data.count", "data.find_first", "data.find_last", "data.find", "data.save", "data.save", "data.find"], "\(operations)")
        }
    }

    @Test("login by objectId needs the CloudCode key (2014 under the client key, as over REST); unregistering with channels answers an int")
    func loginByIDAndUnregister() async throws {
        try await withServer { server, client in
            let registered = try await client.amf(users, "register", [userMap("eve@example.com")])
            let id = try #require(registered.body?.object?["objectId"]?.string)
            let refused = try await client.amf(users, "login", [.string(id)])
            let rest = try await client.send(.post, "\(backendless)/users/login", json: #"{"objectId":"\#(id)"}"#)
            #expect(refused.faultCode == "2014" && refused.faultString == rest.json("message")?.stringValue, "\(refused.text)")
            let cloudCode = "/\(DefaultApps.backendlessAppID)/UNDERSTUDY-CLOUDCODE-KEY/binary"
            let login = try await client.amf(users, "login", [.string(id)], path: cloudCode)
            #expect(login.body?.object?["objectId"] == .string(id), "\(login.faultString ?? login.text)")
            #expect(login.body?.object?["user-token"]?.string?.isEmpty == false)
            let operations = server.withStage { $0.world.journal.entries(matching: JournalFilter(path: "binary")) }.map(\.operation)
            #expect(operations.suffix(2) == ["users.login_by_id", "users.login_by_id"])

            let dto = AMFValue.object(AMFObject("com.backendless.management.DeviceRegistrationDto", sealed: [
                AMFMember("deviceToken", .string("tok")), AMFMember("deviceId", .string("dev-2")), AMFMember("os", .string("ANDROID")),
                AMFMember("channels", .array(AMFArray([.string("default"), .string("news")]))),
            ]))
            _ = try await client.amf(devices, "registerDevice", [dto])
            let unregistered = try await client.amf(devices, "unregisterDevice", [.string("dev-2"), .array(AMFArray([.string("news")]))])
            #expect(unregistered.body == .int(0), "\(unregistered.text)")
            #expect(try await client.amf(devices, "unregisterDevice", [.string("dev-2"), .array(AMFArray())]).faultCode == "5001")
        }
    }

    @Test("a fault injected on users.login reaches the SDK as its fault, with its delay")
    func injectedFault() async throws {
        let setup = """
            local app = understudy.backendless{}
            app.users.register{ email = "dee@example.com", password = "pw-1" }
            app.faults.inject{ op = "users.login", code = 3036, times = 1 }
            """
        try await withServer(setup: setup) { _, client in
            let faulted = try await client.amf(users, "login", [.string("dee@example.com"), .string("pw-1")])
            #expect(faulted.status == 200)
            #expect(faulted.faultCode == "3036")
            #expect(faulted.faultString?.isEmpty == false)
            #expect(try await client.amf(users, "login", [.string("dee@example.com"), .string("pw-1")]).isAcknowledge)
        }
    }

    @Test("calls batched in one AMF packet behind a call whose fault drops the connection are not run; the journal shows the drop")
    func nothingRunsAfterADropInABatch() async throws {
        let setup = """
            local app = understudy.backendless{}
            app.users.register{ email = "dee@example.com", password = "pw-1" }
            app.faults.inject{ op = "users.login", drop = true, times = 1 }
            """
        try await withServer(setup: setup) { server, client in
            func message(_ operation: String, _ arguments: [AMFValue]) -> AMFValue {
                .array(AMFArray([.object(AMFObject("flex.messaging.messages.RemotingMessage", sealed: [
                    AMFMember("headers", .object(AMFObject(sealed: []))), AMFMember("messageId", .null),
                    AMFMember("source", .string("com.backendless.services.\(users)")), AMFMember("body", .array(AMFArray(arguments))),
                    AMFMember("operation", .string(operation)),
                ]))]))
            }
            let calls = [
                message("register", [userMap("one@example.com")]), message("login", [.string("dee@example.com"), .string("pw-1")]),
                message("register", [userMap("three@example.com")]), message("register", [userMap("four@example.com")]),
            ]
            let packet = try AMFPacket(bodies: calls.map { AMFPacket.Body(target: "null", response: "null", value: $0) }).encoded()
            _ = try? await client.amf(bytes: packet)
            let emails = server.withStage { stage in
                stage.world.backendless(id: DefaultApps.backendlessAppID)?.allUsers.compactMap { $0.properties[named: "email"] } ?? []
            }
            #expect(Set(emails) == [.string("dee@example.com"), .string("one@example.com")], "only the calls up to the drop ran: \(emails)")
            let journal = server.withStage { $0.world.journal.entries(matching: JournalFilter()) }
            #expect(journal.last?.operation == "users.login" && journal.last?.connectionDropped == true, "\(journal.map { ($0.operation, $0.connectionDropped) })")
        }
    }

    @Test("calls the emulator does not know, a wrong key and bytes that are not AMF")
    func refusals() async throws {
        try await withServer { _, client in
            let unknown = try await client.amf(users, "teleport")
            #expect(unknown.status == 200 && unknown.faultCode == "404")
            #expect(unknown.faultString == "Understudy does not emulate UserService.teleport over AMF")
            let unknownService = try await client.amf("com.example.Nope", "x")
            #expect(unknownService.faultCode == "404")
            let wrongKey = try await client.amf(users, "logout", path: "/\(DefaultApps.backendlessAppID)/WRONG/binary")
            #expect(wrongKey.status == 200 && wrongKey.faultCode == "2002", "\(wrongKey.text)")
            let garbage = try await client.amf(bytes: Array("not amf".utf8))
            #expect(garbage.status == 400)
            #expect(garbage.text.contains("8002"))
            let deep = [UInt8]([0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x11]) + Array(repeating: [UInt8]([0x09, 0x03, 0x01]), count: 50_000).flatMap { $0 }
            #expect(try await client.amf(bytes: deep).status == 400)
            // A ping (CommandMessage) is acknowledged.
            let ping = AMFValue.object(AMFObject("flex.messaging.messages.CommandMessage", sealed: [AMFMember("operation", .int(5)), AMFMember("messageId", .string("m1"))]))
            let pinged = try await client.amf(bytes: try AMFPacket(bodies: [AMFPacket.Body(target: "null", response: "/1", value: .array(AMFArray([ping])))]).encoded())
            #expect(pinged.isAcknowledge)
            #expect(pinged.message?["correlationId"] == .string("m1"))
            // The custom-domain path serves the only Backendless app.
            let customDomain = try await client.amf(users, "describeUserClass", path: "/api/binary")
            #expect(customDomain.isAcknowledge, "\(customDomain.text)")
        }
    }
}
