import Testing
import Understudy

/// The domain of contract version 3's pushes: the schedule, firings as the clock moves, limits, templates.
@Suite("Backendless scheduled pushes (domain)")
struct ScheduledPushTests {
    static let start = VirtualClock.start

    func app(devices: [(String, DeviceRegistration.OperatingSystem, Double?)] = [("phone", .ios, nil)]) throws -> BackendlessApp {
        let app = BackendlessApp(seed: 7)
        for (id, os, expiration) in devices {
            _ = try app.registerDevice(token: "t-\(id)", deviceID: id, os: os, expiration: expiration.map(Value.double))
        }
        return app
    }

    @Test("firings due in one move are delivered in time order, each with its own sentAt, and the clock ends at the target")
    func timeOrder() throws {
        let app = try app()
        _ = try app.publish(PushRequest(message: "late", publishAt: Self.start + 120))
        _ = try app.publish(PushRequest(message: "early", publishAt: Self.start + 60))
        _ = try app.publish(PushRequest(message: "tick", publishAt: Self.start + 30, repeatEvery: 50, repeatExpiresAt: Self.start + 130))
        app.moveClock(to: Self.start + 1000)
        #expect(app.outbox.pushes.map(\.message) == ["tick", "early", "tick", "late", "tick"])
        #expect(app.outbox.pushes.map(\.sentAt) == [30, 60, 80, 120, 130].map { Self.start + $0 })
        #expect(app.clock.now == Self.start + 1000)
    }

    @Test("the deliveries of one firing share one publication (message id and headers held once)")
    func sharedPublication() throws {
        let app = try app(devices: [("a", .ios, nil), ("b", .android, nil)])
        _ = try app.publish(PushRequest(message: "m", headers: [("h", "v")]))
        let publications = app.outbox.pushes.compactMap(\.publication)
        #expect(publications.count == 2)
        #expect(publications[0] === publications[1])
    }

    @Test("a device registered between firings receives the later ones; one expiring at a firing time does not get it")
    func recipientsPerFiring() throws {
        let app = try app(devices: [("expiring", .ios, Self.start + 120)])
        _ = try app.publish(PushRequest(message: "m", publishAt: Self.start + 60, repeatEvery: 60, repeatExpiresAt: Self.start + 180))
        app.moveClock(to: Self.start + 90)
        _ = try app.registerDevice(token: "t", deviceID: "late", os: .android)
        app.moveClock(to: Self.start + 180)
        #expect(app.outbox.pushes.map { "\($0.deviceID!)@\(Int($0.sentAt - Self.start))" } == ["expiring@60", "late@120", "late@180"])
    }

    @Test("when allow refuses a firing the clock stays at the last firing delivered and the rest stays scheduled")
    func refusedFiring() throws {
        let app = try app()
        let result = try app.publish(PushRequest(message: "m", publishAt: Self.start + 10, repeatEvery: 10, repeatExpiresAt: Self.start + 1000))
        var allowed = 3
        #expect(throws: ClockMoveStopped.self) {
            try app.moveClock(to: Self.start + 1000) { pushes in
                #expect(pushes == 1)
                allowed -= 1
                return allowed >= 0
            }
        }
        #expect(app.outbox.pushes.count == 3)
        #expect(app.clock.now == Self.start + 30)
        #expect(try app.messageStatus(result.messageID).status == .scheduled)
        app.moveClock(to: Self.start + 1000)
        #expect(app.outbox.pushes.count == 100)
        #expect(try app.messageStatus(result.messageID).status == .published)
    }

    @Test("a faulted publish schedules nothing; cancel drops what is left; 5040 after")
    func faultsAndCancel() throws {
        let app = try app()
        app.faults.inject(Fault(operation: "push.publish", code: .number(5007), times: 1))
        #expect(throws: BackendlessError.self) { try app.publish(PushRequest(message: "m", publishAt: Self.start + 10)) }
        let result = try app.publish(PushRequest(message: "m", publishAt: Self.start + 10))
        try app.cancelMessage(result.messageID)
        app.moveClock(to: Self.start + 100)
        #expect(app.outbox.pushes.isEmpty)
        #expect(try app.messageStatus(result.messageID).status == .cancelled)
        #expect((try? app.cancelMessage(result.messageID)) == nil)
    }

    @Test("template placeholders: every {var} with a value is filled, others stay, braces alone are kept")
    func fill() throws {
        let app = try app()
        app.definePushTemplate(PushTemplate(name: "t", message: "{a} {b} {{a}} {a", title: "x{a}y", headers: [.init("h", "{b}")]))
        _ = try app.pushWithTemplate("t", values: ["a": "1", "b": "2"])
        let push = try #require(app.outbox.pushes.last)
        #expect(push.message == "1 2 {1} {a")
        #expect(push.publication?.title == "x1y")
        #expect(push.publication?.headers.map(\.value) == ["2"])
        #expect(push.publication?.template == "t")
    }
}
