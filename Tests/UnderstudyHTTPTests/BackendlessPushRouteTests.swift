import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// The Backendless messaging routes of contract version 3, as the SDKs call them.
@Suite("Backendless scheduled and targeted pushes over HTTP")
struct BackendlessPushRouteTests {
    static let start = Int64(VirtualClock.start)

    /// Registers `id` on `channels` with `os`.
    func device(_ client: any TestClientProtocol, _ id: String, _ os: String = "IOS", channels: String = #"["news"]"#) async throws {
        let reply = try await client.send(
            .post, "\(backendless)/messaging/registrations",
            json: #"{"deviceToken":"t-\#(id)","deviceId":"\#(id)","os":"\#(os)","channels":\#(channels)}"#
        )
        #expect(reply.status == 200)
    }

    func keys(_ json: JSON) -> [String] {
        guard case .object(let members) = json else { return [] }
        return members.map(\.key).sorted()
    }

    func pushes(_ server: UnderstudyServer) -> [String] {
        server.withStage { stage in
            stage.world.backendless(id: DefaultApps.backendlessAppID)!.outbox.pushes.map { "\($0.deviceID ?? "-") \($0.message)" }
        }
    }

    @Test("pushBroadcast as a mask, as FOR_ names and as plain names reaches only those operating systems")
    func broadcastForms() async throws {
        try await withServer { server, client in
            try await device(client, "i", "IOS")
            try await device(client, "a", "ANDROID")
            let forms: [(String, [String])] = [
                ("1", ["i"]), ("2", ["a"]), ("15", ["a", "i"]), ("4", []), (#""FOR_IOS""#, ["i"]),
                (#""FOR_IOS|FOR_ANDROID""#, ["a", "i"]), (#""FOR_ALL""#, ["a", "i"]), (#""FOR_NONE""#, []),
                (#""ANDROID""#, ["a"]), (#""IOS|ANDROID""#, ["a", "i"]), (#""ALL""#, ["a", "i"]),
            ]
            for (form, expected) in forms {
                let before = pushes(server).count
                let reply = try await client.send(
                    .post, "\(backendless)/messaging/news", json: #"{"message":"m","pushBroadcast":\#(form)}"#
                )
                #expect(reply.status == 200, "\(form)")
                #expect(reply.json("status") == "scheduled")
                let sent = pushes(server).dropFirst(before).map { String($0.prefix(1)) }.sorted()
                #expect(sent == expected, "pushBroadcast \(form)")
            }
            let bad = try await client.send(.post, "\(backendless)/messaging/news", json: #"{"message":"m","pushBroadcast":"FOR_BLACKBERRY"}"#)
            #expect(bad.status == 400)
            #expect(bad.json("message")?.stringValue?.contains("pushBroadcast") == true)
        }
    }

    @Test("publishPolicy PUBSUB and legacy pushPolicy; headers land on each push")
    func policiesAndHeaders() async throws {
        try await withServer { server, client in
            try await device(client, "i")
            _ = try await client.send(.post, "\(backendless)/messaging/news", json: #"{"message":"none","publishPolicy":"PUBSUB"}"#)
            _ = try await client.send(.post, "\(backendless)/messaging/news", json: #"{"message":"only","pushPolicy":"ONLY"}"#)
            _ = try await client.send(
                .post, "\(backendless)/messaging/news", json: #"{"message":"h","headers":{"ios-alert":"Hi","ios-badge":1}}"#
            )
            #expect(pushes(server) == ["i only", "i h"])
            let headers = server.withStage { stage in
                stage.world.backendless(id: DefaultApps.backendlessAppID)!.outbox.pushes.last!.publication!.headers.map { "\($0.name)=\($0.value)" }
            }
            #expect(headers == ["ios-alert=Hi", "ios-badge=1"])
        }
    }

    @Test("publishAt schedules: status scheduled until the control API moves the clock past it, then published")
    func scheduled() async throws {
        try await withServer { server, client in
            try await device(client, "i")
            let at = (Self.start + 3600) * 1000
            let reply = try await client.send(.post, "\(backendless)/messaging/news", json: #"{"message":"later","publishAt":\#(at)}"#)
            let id = try #require(reply.json("messageId")?.stringValue)
            #expect(id.hasPrefix("message:"))
            #expect(try await client.send(.get, "\(backendless)/messaging/\(id)").json("status") == "scheduled")
            #expect(pushes(server) == [])
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":3600}"#)
            #expect(pushes(server) == ["i later"])
            let status = try await client.send(.get, "\(backendless)/messaging/\(id)")
            #expect(status.json("status") == "published")
            #expect(status.json("errorMessage") == .null)
            #expect(try await client.send(.get, "\(backendless)/messaging/message:never").json("status") == "unknown")
        }
    }

    @Test("a repeating message fires every repeatEvery seconds until repeatExpiresAt; DELETE cancels the rest")
    func repeatAndCancel() async throws {
        try await withServer { server, client in
            try await device(client, "i")
            let body = #"{"message":"tick","publishAt":\#((Self.start + 60) * 1000),"repeatEvery":60,"repeatExpiresAt":\#((Self.start + 600) * 1000)}"#
            let id = try #require(try await client.send(.post, "\(backendless)/messaging/news", json: body).json("messageId")?.stringValue)
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":150}"#)
            #expect(pushes(server).count == 2)
            let cancel = try await client.send(.delete, "\(backendless)/messaging/\(id)")
            #expect(cancel.status == 200)
            #expect(cancel.json("status") == "cancelled")
            #expect(cancel.json("messageId") == .string(id))
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":3600}"#)
            #expect(pushes(server).count == 2)
            let again = try await client.send(.delete, "\(backendless)/messaging/\(id)")
            #expect(again.status == 400)
            #expect(again.json("code") == 5040)
            #expect(again.json("message") == "Can't cancel message. Already cancelled or there is no such message")
            let journal = try await client.send(.get, "/_understudy/journal").text
            for operation in ["push.publish", "push.cancel"] {
                #expect(journal.contains("\"\(operation)\""), "the journal names \(operation)")
            }
        }
    }

    @Test("5030 for a publishAt in the past, checked before 5003 for bad repeat settings")
    func dateErrors() async throws {
        try await withServer { _, client in
            let past = (Self.start - 10) * 1000
            let future = (Self.start + 10) * 1000
            let cases: [(String, Int64, String)] = [
                (#"{"message":"m","publishAt":\#(past)}"#, 5030, "Invalid publish date"),
                (#"{"message":"m","publishAt":\#(past),"repeatEvery":0}"#, 5030, "Invalid publish date"),
                (#"{"message":"m","publishAt":\#(future),"repeatEvery":60}"#, 5003, "Invalid expiration date"),
                (#"{"message":"m","repeatEvery":0.5,"repeatExpiresAt":\#(future)}"#, 5003, "Invalid expiration date"),
                (#"{"message":"m","repeatExpiresAt":\#(future)}"#, 5003, "Invalid expiration date"),
                (#"{"message":"m","publishAt":\#(future),"repeatEvery":1,"repeatExpiresAt":\#(future)}"#, 5003, "Invalid expiration date"),
            ]
            for (body, code, message) in cases {
                let reply = try await client.send(.post, "\(backendless)/messaging/news", json: body)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.json("code") == .integer(code), "\(body)")
                #expect(reply.json("message") == .string(message), "\(body)")
            }
        }
    }

    @Test("a time or repeat field that is not a number is a body of the wrong shape: 8002 naming the field")
    func timeFieldsOfTheWrongShape() async throws {
        try await withServer { _, client in
            let future = (Self.start + 10) * 1000
            for (field, value) in [("publishAt", #""tomorrow""#), ("publishAt", #""1893457800000""#), ("publishAt", "true"),
                                   ("repeatEvery", #""60""#), ("repeatEvery", "[60]"), ("repeatExpiresAt", #"{"at":1}"#)] {
                var fields = ["publishAt": "\(future)", "repeatEvery": "60", "repeatExpiresAt": "\(future + 600_000)"]
                fields[field] = value
                let body = #"{"message":"m","# + fields.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}"
                let reply = try await client.send(.post, "\(backendless)/messaging/news", json: body)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.json("code") == .integer(8002), "\(body): \(reply.text)")
                #expect(reply.text.contains(field), "\(body): \(reply.text)")
            }
        }
    }

    @Test("push templates: listed by device type (any case), sent with templateValues, 24002 for an unknown name")
    func templates() async throws {
        try await withServer(
            setup: """
                local app = understudy.backendless()
                app.push.templates.define{ name = "hi", message = "Hi {name}", title = "For {name}", os = "IOS", channel = "news" }
                app.push.templates.define{ name = "all", message = "Everyone" }
                app.push.templates.define{ name = "droid", message = "Android", os = "ANDROID" }
                """
        ) { server, client in
            try await device(client, "i", "IOS")
            try await device(client, "a", "ANDROID")
            let ios = try await client.send(.get, "\(backendless)/messaging/pushtemplates/ios")
            #expect(ios.status == 200)
            #expect(ios.json.map(keys) == ["all", "hi"])
            #expect(ios.json("hi", "title") == "For {name}")
            #expect(ios.json("hi", "os") == "IOS")
            let every = try await client.send(.get, "\(backendless)/messaging/pushtemplates")
            #expect(every.json.map(keys) == ["all", "droid", "hi"])
            #expect(try await client.send(.get, "\(backendless)/messaging/pushtemplates/ANDROID").json.map(keys) == ["all", "droid"])

            let sent = try await client.send(.post, "\(backendless)/messaging/push/hi", json: #"{"templateValues":{"name":"Ann"}}"#)
            #expect(sent.status == 200)
            #expect(sent.json("status") == "scheduled")
            #expect(sent.json("errorMessage") == .null)
            let title = server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)!.outbox.pushes.last?.publication?.title }
            #expect(title == "For Ann")
            #expect(pushes(server) == ["i Hi Ann"])
            let empty = try await client.send(.post, "\(backendless)/messaging/push/all", json: "{}")
            #expect(empty.status == 200)
            let unknown = try await client.send(.post, "\(backendless)/messaging/push/nope", json: "{}")
            #expect(unknown.status == 400)
            #expect(unknown.json("code") == 24002)
            #expect(unknown.json("message") == "Push Template with name 'nope' doesn't exist.")
        }
    }

    @Test("POST messaging/email is the email API: one custom email per recipient, not a channel named email")
    func email() async throws {
        try await withServer { server, client in
            let reply = try await client.send(
                .post, "\(backendless)/messaging/email",
                json: #"{"subject":"Hello","bodyparts":{"textmessage":"Plain","htmlmessage":"<b>Rich</b>"},"to":["a@x.io","b@x.io"]}"#
            )
            #expect(reply.status == 200)
            #expect(reply.json("status") == "scheduled")
            let id = try #require(reply.json("messageId")?.stringValue)
            let emails = server.withStage { stage in
                stage.world.backendless(id: DefaultApps.backendlessAppID)!.outbox.emails.map { "\($0.to) \($0.kind.rawValue) \($0.subject) \($0.body ?? "") \($0.html ?? "")" }
            }
            #expect(emails == ["a@x.io custom Hello Plain <b>Rich</b>", "b@x.io custom Hello Plain <b>Rich</b>"])
            #expect(try await client.send(.get, "\(backendless)/messaging/\(id)").json("status") == "published")
            let channels = server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)!.channelNames }
            #expect(!channels.contains("email"))
            let noTo = try await client.send(.post, "\(backendless)/messaging/email", json: #"{"subject":"Hello","to":[]}"#)
            #expect(noTo.status == 400)
        }
    }

    @Test("a clock move that would pass --max-memory is refused with 409 LIMIT_REACHED and moves no clock")
    func clockMoveLimit() async throws {
        let options = ServerOptions(port: 0, limits: ScenarioLimits(maxMemory: 1024 * 1024), clockStart: VirtualClock.start)
        try await withServer(options) { server, client in
            for index in 0..<100 { try await device(client, "d\(index)") }
            let body = #"{"message":"tick","repeatEvery":1,"repeatExpiresAt":\#((Self.start + 86_400) * 1000)}"#
            _ = try await client.send(.post, "\(backendless)/messaging/news", json: body)
            let delivered = pushes(server).count  // the first firing, at once
            let reply = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":86400}"#)
            #expect(reply.status == 409)
            #expect(reply.json("error") == "LIMIT_REACHED")
            #expect(reply.json("message")?.stringValue?.contains("--max-memory") == true)
            #expect(pushes(server).count == delivered, "nothing delivered")
            let now = server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)!.clock.now }
            #expect(now == VirtualClock.start, "the clock did not move")
            let small = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":2}"#)
            #expect(small.status == 200, "\(small.text)")
            #expect(pushes(server).count == delivered + 200)
        }
    }

    @Test("a clock move of several apps refused by a limit moves none of them (all or nothing)")
    func clockMoveAllOrNothing() async throws {
        let options = ServerOptions(port: 0, limits: ScenarioLimits(maxMemory: 1024 * 1024), clockStart: VirtualClock.start)
        try await withServer(options, setup: """
            local other = understudy.backendless{ app_id = "OTHER", api_key = "OTHER-KEY" }
            understudy.kii()
            for i = 1, 100 do other.devices.register{ device_id = "d" .. i, token = "t" .. i, os = "IOS", channels = { "news" } } end
            other.push.publish{ channel = "news", message = "tick", publish_at = other.clock.now() + 10, repeat_every = 1, repeat_expires_at = other.clock.now() + 86400 }
            """) { server, client in
            for set in [#"{"now":\#(Self.start + 86_400)}"#] {
                let before = server.withStage { $0.world.apps.map(\.clock.now) }
                let refused = try await client.send(.post, "/_understudy/clock/set", json: set)
                #expect(refused.status == 409, "\(refused.text)")
                let advanced = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":86400}"#)
                #expect(advanced.status == 409, "\(advanced.text)")
                #expect(server.withStage { $0.world.apps.map(\.clock.now) } == before, "no clock moved")
                #expect(server.withStage { $0.world.apps.map(\.outbox.pushes.count) }.allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("a clock move delivers a firing to a device that expires later in the same move (the limit check looks ahead without dropping it)")
    func clockMoveDeliversBeforeExpiry() async throws {
        try await withServer(setup: """
            local app = understudy.backendless()
            app.devices.register{ device_id = "alice-phone", token = "a1", os = "IOS", channels = { "news" }, expiration = app.clock.now() + 3600 }
            app.push.publish{ channel = "news", message = "Tick", publish_at = app.clock.now() + 1800, repeat_every = 1800, repeat_expires_at = app.clock.now() + 10800 }
            """) { server, client in
            let moved = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":5400}"#)
            #expect(moved.status == 200, "\(moved.text)")
            let sent = server.withStage { $0.world.apps.flatMap { $0.outbox.pushes.map(\.sentAt) } }
            #expect(sent == [Double(Self.start) + 1800], "the first firing reaches alice-phone, live until start + 3600; later ones reach nobody")
        }
    }

    @Test("the dashboard's listing shows scheduled messages with their next firing and templates; its cancel takes no fault")
    func dashboardMessages() async throws {
        try await withServer(setup: """
            local app = understudy.backendless()
            app.push.templates.define{ name = "hi", message = "Hi {name}", os = "IOS" }
            app.faults.inject{ op = "push.cancel", code = 5040 }
            """
        ) { server, client in
            let at = (Self.start + 60) * 1000
            let id = try #require(try await client.send(
                .post, "\(backendless)/messaging/news", json: #"{"message":"soon","publishAt":\#(at),"repeatEvery":60,"repeatExpiresAt":\#(at + 600_000)}"#
            ).json("messageId")?.stringValue)
            let listing = try await client.send(.get, "/_understudy/devices")
            guard case .array(let messages)? = listing.json("scheduled_messages"), let first = messages.first else {
                Issue.record("no scheduled_messages: \(listing.text)")
                return
            }
            #expect(first["messageId"] == .string(id))
            #expect(first["next_firing"] == .integer(Self.start + 60))
            #expect(first["repeat_every"] == .integer(60))
            guard case .array(let templates)? = listing.json("push_templates") else { return }
            #expect(templates.first?["name"] == "hi")
            #expect(try await client.send(.delete, "\(backendless)/messaging/\(id)").json("code") == 5040, "the injected fault")
            let cancel = try await client.send(.post, "/_understudy/messages/\(DefaultApps.backendlessAppID)/\(id)/cancel")
            #expect(cancel.status == 200)
            #expect(cancel.json("cancelled") == true)
            let again = try await client.send(.post, "/_understudy/messages/\(DefaultApps.backendlessAppID)/\(id)/cancel")
            #expect(again.status == 409)
            #expect(again.json("error") == "NOT_SCHEDULED")
            _ = server
        }
    }

    @Test("serve's clock starts at the real time by default, and a reset sets it to the real time again")
    func realTimeClock() async throws {
        let before = Date().timeIntervalSince1970
        try await withServer(ServerOptions(port: 0)) { server, client in
            let now = server.withStage { $0.world.apps[0].clock.now }
            #expect(now >= before.rounded(.down) - 1 && now <= Date().timeIntervalSince1970 + 1)
            _ = try await client.send(.post, "/_understudy/clock/advance", json: #"{"seconds":86400}"#)
            _ = try await client.send(.post, "/_understudy/reset", json: "{}")
            let reset = server.withStage { $0.world.apps[0].clock.now }
            #expect(abs(reset - Date().timeIntervalSince1970) < 5)
        }
        try await withServer(ServerOptions(port: 0, clockStart: 1_000)) { server, client in
            _ = try await client.send(.post, "/_understudy/reset", json: "{}")
            #expect(server.withStage { $0.world.apps.map(\.clock.now) } == [1_000, 1_000])
        }
    }
}
