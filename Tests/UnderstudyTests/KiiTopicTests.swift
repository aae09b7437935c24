import Testing
import Understudy

@Suite("Kii topics")
struct KiiTopicTests {
    /// alice with an Android (production) and an iOS (development) installation, subscribed to app topic "news".
    func subscribed(_ app: KiiApp) throws -> (user: KiiUser, android: String, ios: String) {
        let alice = try app.registerUser(username: "alice")
        let android = try app.registerInstallation(userID: alice.userID, type: "ANDROID", token: "fcm").installationID
        let ios = try app.registerInstallation(userID: alice.userID, type: "IOS", token: "apns", development: true).installationID
        _ = try app.createTopic(topicID: "news")
        try app.subscribe(topicID: "news", userID: alice.userID)
        return (alice, android, ios)
    }

    @Test("send delivers one outbox push per installation with the topic, data and message id")
    func send() throws {
        let app = makeKiiApp()
        let (alice, android, ios) = try subscribed(app)
        let result = try app.sendToTopic(topicID: "news", message: KiiTopicMessage(data: [Property("m", "hi")]))
        #expect(result.delivered == [android, ios].sorted())
        #expect(app.outbox.pushes.count == 2)
        let push = try #require(app.outbox.pushes.first)
        #expect(push.topicMessage?.topic == "news" && push.userID == alice.userID && push.topicMessage?.pushMessageID == result.pushMessageID)
        #expect(push.topicMessage?.data == [Property("m", "hi")])
    }

    @Test("push message ids come from the seeded generator: the same seed gives the same ids")
    func deterministicIDs() throws {
        func ids() throws -> [String] {
            let app = makeKiiApp(seed: 99)
            _ = try app.createTopic(topicID: "t")
            return try (0..<3).map { _ in try app.sendToTopic(topicID: "t", message: KiiTopicMessage(data: [Property("m", "x")])).pushMessageID }
        }
        let first = try ids()
        #expect(first == (try ids()))
        #expect(Set(first).count == 3)
    }

    @Test("environment and network filters")
    func filters() throws {
        let app = makeKiiApp()
        let (_, android, ios) = try subscribed(app)
        let data = [Property("m", "x")]
        #expect(try app.sendToTopic(topicID: "news", message: KiiTopicMessage(data: data, development: false)).delivered == [android])
        #expect(try app.sendToTopic(topicID: "news", message: KiiTopicMessage(data: data, production: false)).delivered == [ios])
        #expect(try app.sendToTopic(topicID: "news", message: KiiTopicMessage(data: data, networks: [.jpush])).delivered.isEmpty)
    }

    @Test("the data limit is the compact JSON size: 2048 bytes with IOS, 4096 without")
    func sizeLimit() throws {
        let app = makeKiiApp()
        _ = try app.createTopic(topicID: "t")
        func send(_ length: Int, _ networks: Set<KiiDeviceType> = Set(KiiDeviceType.allCases)) -> String? {
            kiiFailure {
                try app.sendToTopic(topicID: "t", message: KiiTopicMessage(data: [Property("m", .string(String(repeating: "x", count: length)))], networks: networks))
            }?.code
        }
        #expect(send(2040) == nil)
        #expect(send(2041) == "INVALID_INPUT_DATA")
        #expect(send(4088, [.android]) == nil)
        #expect(send(4089, [.android]) == "INVALID_INPUT_DATA")
    }

    @Test("deleting a user removes their topics and their subscriptions")
    func deleteUser() throws {
        let app = makeKiiApp()
        let (alice, _, _) = try subscribed(app)
        _ = try app.createTopic(topicID: "mine", owner: alice.userID)
        let before = app.registrationCount
        try app.delete(userID: alice.userID)
        #expect(app.allTopics.map(\.topic.topicID) == ["news"])
        #expect(app.allTopics.first?.subscribers == [])
        #expect(app.registrationCount < before)
    }

    @Test("topics and subscriptions count towards the memory estimate")
    func counted() throws {
        let app = makeKiiApp()
        let alice = try app.registerUser(username: "alice")
        let before = app.registrationCount
        _ = try app.createTopic(topicID: "a")
        try app.subscribe(topicID: "a", userID: alice.userID)
        #expect(app.registrationCount == before + 2)
        try app.deleteTopic(topicID: "a")
        #expect(app.registrationCount == before)
    }
}
