/// A Kii push topic (contract v3): in the app's scope, or in a user's scope (`owner`).
package struct KiiTopic: Sendable, Hashable, Presentable {
    /// 1 to 64 characters of `A-Z a-z 0-9 _ -`, case-sensitive.
    package var topicID: String
    /// The userID of a user-scope topic's owner; nil for an app-scope topic.
    package var owner: String?

    /// `"APP"` for an app-scope topic, `"APP_AND_USER"` for a user-scope one (Kii's `objectScope` type).
    package var scope: String { owner == nil ? "APP" : "APP_AND_USER" }

    /// `{ topicID, scope, owner? }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("topicID", topicID)
        writer.write("scope", scope)
        if let owner { writer.write("owner", owner) }
    }
}

/// What `topics.send` sends: flat string `data`, the environments and the push networks it may reach.
package struct KiiTopicMessage: Sendable, Hashable, TypedArgument {
    /// The payload: each value must be a string (a `.string` `Value`); checked by `sendToTopic`.
    package var data: [Property]
    /// Reach installations registered with `development = true`; nil (not given) is true.
    package var development: Bool?
    /// Reach production installations (registered without `development`); nil (not given) is true.
    package var production: Bool?
    /// The device types reached; nil (not given) is all four, unless `networksRequired`.
    package var networks: Set<KiiDeviceType>?
    /// Over HTTP a message must name its networks (a `gcm`, `fcm`, `apns`, `jpush` or `mqtt` block): without
    /// any, 400 `INVALID_INPUT_DATA`.
    package var networksRequired = false
    /// Who sends it (contract v4): the topic ACL's `SEND_MESSAGE_TO_TOPIC` must let them.
    package var sender: KiiTopicSender = .byDefault
    /// Over HTTP `mqtt.data`: keys an MQTT client receives over `data`'s.
    package var mqttData: [Property] = []
    /// Over HTTP the send flags (`sendWhen`, `sendOrigin`, `sendAppID`, `sendTopicID`, `sendObjectScope`,
    /// `sendSender`); absent ones take Kii's defaults.
    package var flags: [String: Bool] = [:]

    package init(
        data: [Property], development: Bool? = nil, production: Bool? = nil, networks: Set<KiiDeviceType>? = nil
    ) {
        self.data = data
        self.development = development
        self.production = production
        self.networks = networks
    }

    /// What a fault's `when(args)` sees under `message` (`value`).
    package var faultValue: Value { value }

    /// The arguments a fault's `when` sees under `message`: what was given.
    var value: Value {
        var object: [String: Value] = ["data": Value(properties: data)]
        if case .user(let userID) = sender { object["sender"] = .string(userID) }
        if let development { object["development"] = .bool(development) }
        if let production { object["production"] = .bool(production) }
        if let networks { object["networks"] = .array(KiiDeviceType.allCases.filter(networks.contains).map { .string($0.rawValue) }) }
        return .object(object)
    }

    /// The networks reached.
    var reached: Set<KiiDeviceType> { networks ?? Set(KiiDeviceType.allCases) }

    /// The message of a Lua call, from its declared fields (checked by `misuse`): `data` a table by name (sorted)
    /// or a list (keys `"1"`, `"2"`, ...).
    package init(fields: [String: Value]) {
        switch fields["data"] {
        case .object(let members)?: data = members.map { Property($0.key, $0.value) }.sorted { $0.name < $1.name }
        case .array(let items)?: data = items.enumerated().map { Property(String($0.offset + 1), $0.element) }
        default: data = []
        }
        if case .bool(let flag)? = fields["development"] { development = flag }
        if case .bool(let flag)? = fields["production"] { production = flag }
        if case .array(let names)? = fields["networks"] {
            networks = Set(names.compactMap { $0.stringValue.flatMap(KiiDeviceType.init(rawValue:)) })
        }
        if let sender = fields["sender"]?.stringValue { self.sender = .user(sender) }
    }

    /// What a Lua call's message must be beyond its declared field types: `data` a table, each of `networks` a
    /// device type.
    package static let misuse = MisuseCheck { a throws(CallMisuse) in
        let fields = a.fields("message") ?? [:]
        switch fields["data"] {
        case .object?, .array?, nil: break
        case let other?: throw CallMisuse("message.data must be a table, got \(other.kindName)")
        }
        if case .array(let names)? = fields["networks"] {
            for name in names.compactMap(\.stringValue) where KiiDeviceType(rawValue: name) == nil {
                throw CallMisuse("message.networks holds \"\(name)\": each must be \"ANDROID\", \"IOS\", \"JPUSH\" or \"MQTT\"")
            }
        }
    }
}

/// Who sends a topic message: the default (the administrator for an app-scope topic, the owner for a user-scope
/// one), the administrator, or a user.
package enum KiiTopicSender: Sendable, Hashable {
    case byDefault
    case administrator
    case user(String)
}

/// What every outbox push of one `topics.send` shares: the topic, the checked `data` and the message id, held
/// once however many installations it reaches.
package final class KiiTopicPush: Sendable, Hashable {
    package let topic: String
    /// The payload, sorted by key; every value a string.
    package let data: [Property]
    package let pushMessageID: String
    /// The JSON an MQTT client receives (contract v4).
    package let payload: String

    package init(topic: String, data: [Property], pushMessageID: String, payload: String = "") {
        self.topic = topic
        self.data = data
        self.pushMessageID = pushMessageID
        self.payload = payload
    }

    package static func == (lhs: KiiTopicPush, rhs: KiiTopicPush) -> Bool {
        lhs === rhs || (lhs.topic == rhs.topic && lhs.pushMessageID == rhs.pushMessageID && lhs.data == rhs.data)
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(pushMessageID) }
}

/// What `topics.send` answers: the message id and the installations reached, sorted.
package struct KiiTopicDelivery: Sendable, Hashable, Presentable {
    package var pushMessageID: String
    package var delivered: [String]

    /// `{ pushMessageID, delivered = { installationID, ... } }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("pushMessageID", pushMessageID)
        writer.write("delivered", strings: delivered)
    }
}

/// Every topic of an app by scope, with the userIDs subscribing to each.
struct KiiTopicStore {
    struct Key: Hashable {
        /// The owner's userID; empty for the app scope.
        var owner: String
        var topicID: String
    }

    /// Subscribers (userIDs) of each topic.
    var topics: [Key: Set<String>] = [:]
    /// Each topic's ACL: subjects by action (contract v4). Changed through `create`, `grant`, `revoke`,
    /// `replaceACL`, `delete` and `removeAll(of:)`, which keep `aclBytes`.
    private(set) var acls: [Key: [KiiTopicAction: Set<String>]] = [:]
    /// What the ACL entries hold (`HeldBytes`: an entry and its subject's text each, the entries a new topic
    /// starts with too), kept as entries come and go: the memory cap counts it.
    private(set) var aclBytes = 0

    /// What one ACL entry holds.
    static func heldBytes(ofEntry subject: String) -> Int { HeldBytes.perEntry + HeldBytes.of(subject) }

    private static func heldBytes(of acl: [KiiTopicAction: Set<String>]?) -> Int {
        acl?.values.reduce(0) { total, subjects in subjects.reduce(total) { $0 + heldBytes(ofEntry: $1) } } ?? 0
    }
    /// The topic ids of each scope (owner, empty for the app scope).
    var scopes: [String: Set<String>] = [:]
    /// How many subscriptions all topics hold.
    private(set) var subscriptionCount = 0

    /// Topics and subscriptions, counted as push registrations towards the memory cap.
    var registrationCount: Int { topics.count + subscriptionCount }

    mutating func create(_ key: Key) {
        topics[key] = []
        if key.owner.isEmpty {
            replaceACL(key, [.subscribe: [KiiTopicAction.anyAuthenticatedUser], .send: []])
        } else {
            replaceACL(key, [.subscribe: ["UserID:\(key.owner)"], .send: ["UserID:\(key.owner)"]])
        }
        scopes[key.owner, default: []].insert(key.topicID)
    }

    /// Gives a topic this ACL (a new topic's, an imported one's), crediting the one it had.
    mutating func replaceACL(_ key: Key, _ acl: [KiiTopicAction: Set<String>]) {
        aclBytes += Self.heldBytes(of: acl) - Self.heldBytes(of: acls.updateValue(acl, forKey: key))
    }

    /// Adds an entry; false when the action lists the subject already.
    mutating func grant(_ key: Key, _ action: KiiTopicAction, _ subject: String) -> Bool {
        guard acls[key, default: [:]][action, default: []].insert(subject).inserted else { return false }
        aclBytes += Self.heldBytes(ofEntry: subject)
        return true
    }

    /// Removes an entry; false when the action did not list the subject.
    mutating func revoke(_ key: Key, _ action: KiiTopicAction, _ subject: String) -> Bool {
        guard acls[key]?[action]?.remove(subject) != nil else { return false }
        aclBytes -= Self.heldBytes(ofEntry: subject)
        return true
    }

    /// Deletes a topic with its subscriptions and every entry of its ACL (credited back).
    mutating func delete(_ key: Key) {
        guard let subscribers = topics.removeValue(forKey: key) else { return }
        aclBytes -= Self.heldBytes(of: acls.removeValue(forKey: key))
        subscriptionCount -= subscribers.count
        scopes[key.owner]?.remove(key.topicID)
        if scopes[key.owner]?.isEmpty == true { scopes[key.owner] = nil }
    }

    /// Adds a subscriber; false when they already subscribe.
    mutating func subscribe(_ key: Key, _ userID: String) -> Bool {
        guard topics[key]?.insert(userID).inserted == true else { return false }
        subscriptionCount += 1
        return true
    }

    /// Removes a subscriber; false when they did not subscribe.
    mutating func unsubscribe(_ key: Key, _ userID: String) -> Bool {
        guard topics[key]?.remove(userID) != nil else { return false }
        subscriptionCount -= 1
        return true
    }

    /// Drops a deleted user's topics and subscriptions.
    mutating func removeAll(of userID: String) {
        for topicID in scopes[userID] ?? [] { delete(Key(owner: userID, topicID: topicID)) }
        for key in Array(topics.keys) where topics[key]?.contains(userID) == true { _ = unsubscribe(key, userID) }
        let subject = "UserID:\(userID)"
        for key in Array(acls.keys) {
            for action in KiiTopicAction.allCases { _ = revoke(key, action, subject) }
        }
    }
}

/// Topics (`PUT {scope}topics/{topicID}`, ...), subscriptions (`.../push/subscriptions/users/{userID}`) and push
/// messages to a topic's subscribers (`POST .../push/messages`). A topic lives in the app's scope (`owner` nil)
/// or in a user's; the two scopes are separate namespaces. An unknown `owner` or `userID` answers 404
/// `USER_NOT_FOUND` before any check of the topic itself.
extension KiiApp {
    /// The longest topic id.
    package static let maxTopicIDLength = 64
    /// The most a topic message's `data`, encoded as compact JSON, may hold (FCM/GCM).
    package static let maxPushDataBytes = 4096
    /// The same when IOS (APNs) is among the networks.
    package static let maxPushDataBytesIOS = 2048
    /// Keys FCM/GCM reserve: `data` may not use them (nor any key starting with `google.`).
    package static let reservedPushKeys: Set<String> = [
        "from", "registration_ids", "collapse_key", "data", "delay_while_idle", "time_to_live",
        "restricted_package_name", "dry_run",
    ]

    /// True for 1 to 64 characters of `A-Z a-z 0-9 _ -`.
    static func isTopicID(_ text: String) -> Bool {
        let bytes = text.utf8
        guard (1...maxTopicIDLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default: return false
            }
        }
    }

    /// The store key of a topic: an unknown owner is 404 `USER_NOT_FOUND`.
    private func topicKey(_ topicID: String, owner: String?) throws(KiiError) -> KiiTopicStore.Key {
        guard let owner else { return KiiTopicStore.Key(owner: "", topicID: topicID) }
        return KiiTopicStore.Key(owner: try storedUser(owner).userID, topicID: topicID)
    }

    /// The key of an existing topic: 404 `TOPIC_NOT_FOUND` otherwise.
    private func existingTopic(_ key: KiiTopicStore.Key) throws(KiiError) -> KiiTopicStore.Key {
        guard topicStore.topics[key] != nil else { throw .topicNotFound(key.topicID) }
        return key
    }

    private static func optional(_ text: String?) -> Value { text.map(Value.string) ?? .null }

    /// Creates a topic in the app's scope (`owner` nil: an administrator's action) or in `owner`'s.
    /// Errors, in this order: 400 `INVALID_INPUT_DATA` (a bad id); 404 `USER_NOT_FOUND`; 409
    /// `TOPIC_ALREADY_EXISTS`.
    package func createTopic(topicID: String, owner: String? = nil) throws(KiiError) -> KiiTopic {
        guard Self.isTopicID(topicID) else { throw .invalidTopicID(topicID) }
        let key = try topicKey(topicID, owner: owner)
        guard topicStore.topics[key] == nil else { throw .topicAlreadyExists(topicID) }
        topicStore.create(key)
        return KiiTopic(topicID: topicID, owner: key.owner.isEmpty ? nil : key.owner)
    }

    /// Deletes a topic and its subscriptions. Errors: 404 `USER_NOT_FOUND` (owner); 404 `TOPIC_NOT_FOUND`.
    package func deleteTopic(topicID: String, owner: String? = nil) throws(KiiError) {
        topicStore.delete(try existingTopic(try topicKey(topicID, owner: owner)))
    }

    /// The topic ids of a scope, in byte order. Errors: 404 `USER_NOT_FOUND` (owner).
    package func listTopics(owner: String? = nil) throws(KiiError) -> [String] {
        let scope = try topicKey("", owner: owner).owner
        return (topicStore.scopes[scope] ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// True when the topic exists (no fault, no error: what the dashboard and `HEAD topics/{id}` read).
    package func topicExists(topicID: String, owner: String? = nil) -> Bool {
        topicStore.topics[KiiTopicStore.Key(owner: owner ?? "", topicID: topicID)] != nil
    }

    /// Subscribes `userID` to a topic. Anyone may subscribe to an app-scope topic; only its owner to a
    /// user-scope one. Errors, in this order: 404 `USER_NOT_FOUND` (owner, then userID); 404 `TOPIC_NOT_FOUND`;
    /// 401 `UNAUTHORIZED`; 409 `PUSH_SUBSCRIPTION_ALREADY_EXISTS`.
    package func subscribe(topicID: String, userID: String, owner: String? = nil) throws(KiiError) {
        let scope = try topicKey(topicID, owner: owner)
        let subscriber = try storedUser(userID).userID
        let key = try existingTopic(scope)
        guard topicAllows(.subscribe, key, userID: subscriber) else {
            throw .notTopicOwner(topicID: topicID, userID: subscriber)
        }
        guard topicStore.subscribe(key, subscriber) else {
            throw .subscriptionAlreadyExists(topicID: topicID, userID: subscriber)
        }
    }

    /// Ends a subscription. Errors, in this order: 404 `USER_NOT_FOUND` (owner, then userID); 404
    /// `TOPIC_NOT_FOUND`; 404 `PUSH_SUBSCRIPTION_NOT_FOUND`.
    package func unsubscribe(topicID: String, userID: String, owner: String? = nil) throws(KiiError) {
        let scope = try topicKey(topicID, owner: owner)
        let subscriber = try storedUser(userID).userID
        let key = try existingTopic(scope)
        guard topicStore.unsubscribe(key, subscriber) else {
            throw .subscriptionNotFound(topicID: topicID, userID: subscriber)
        }
    }

    /// Whether `userID` subscribes to the topic. Errors: 404 `USER_NOT_FOUND` (owner, then userID); 404
    /// `TOPIC_NOT_FOUND`.
    package func isSubscribed(topicID: String, userID: String, owner: String? = nil) throws(KiiError) -> Bool {
        let scope = try topicKey(topicID, owner: owner)
        let subscriber = try storedUser(userID).userID
        return topicStore.topics[try existingTopic(scope)]?.contains(subscriber) == true
    }

    /// Every topic, app scope first, each scope's ids in byte order, with their subscribers sorted (for the
    /// dashboard and the control API).
    package var allTopics: [(topic: KiiTopic, subscribers: [String])] {
        topicStore.topics.map { key, subscribers in
            (KiiTopic(topicID: key.topicID, owner: key.owner.isEmpty ? nil : key.owner), subscribers.sorted())
        }
        .sorted { left, right in
            let leftOwner = left.topic.owner ?? "", rightOwner = right.topic.owner ?? ""
            if leftOwner != rightOwner { return leftOwner.utf8.lexicographicallyPrecedes(rightOwner.utf8) }
            return left.topic.topicID.utf8.lexicographicallyPrecedes(right.topic.topicID.utf8)
        }
    }

    /// Sends a message to every installation of every subscribed, enabled user whose `deviceType` is among
    /// `message.networks` and whose environment (`development` or production) the message allows: one outbox
    /// push `{ installation_id, user, topic, data, pushMessageID }` each, in installation-id order.
    ///
    /// Errors, in this order: 404 `USER_NOT_FOUND` (owner); 404 `TOPIC_NOT_FOUND`; 400 `INVALID_INPUT_DATA`
    /// (`data` empty, a value that is not a string, a reserved key, over 4096 bytes as compact JSON, over 2048
    /// when IOS is among the networks).
    package func sendToTopic(topicID: String, message: KiiTopicMessage, owner: String? = nil) throws(KiiError) -> KiiTopicDelivery {
        try checkFaults(.sendToTopic, [.string(topicID), message.value, Self.optional(owner)])
        let key = try existingTopic(try topicKey(topicID, owner: owner))
        var senderID: String?
        switch message.sender {
        case .byDefault: senderID = key.owner.isEmpty ? nil : key.owner
        case .administrator: senderID = nil
        case .user(let userID): senderID = try storedUser(userID).userID
        }
        if let senderID, !topicAllows(.send, key, userID: senderID) {
            throw .unauthorized("The user \(senderID) may not send a message to topic \(topicID): the topic's ACL does not let them")
        }
        let data = try Self.checkedPushData(message)
        let payload = try mqttPayload(message, data: data, key: key, sender: senderID)
        let pushMessageID = newPushMessageID()
        var targets: [KiiInstallation] = []
        let development = message.development ?? true, production = message.production ?? true
        if development || production {
            for userID in topicStore.topics[key] ?? [] {
                guard let id = Identifier128(parsing: userID), let user = users[id], !user.isDisabled else { continue }
                for installation in lifecycle.installations.owned(by: userID)
                where message.reached.contains(installation.deviceType)
                    && (installation.development ? development : production)
                {
                    targets.append(installation)
                }
            }
        }
        targets.sort { $0.installationID < $1.installationID }
        // A push per installation reached, admitted before any is delivered.
        let growth = HeldBytes.sum(targets.count * HeldBytes.perRecord, 2 * HeldBytes.perRecord + 4096)
        guard admitsGrowth(growth) else { throw .memoryCapReached(growth) }
        let shared = KiiTopicPush(topic: topicID, data: data, pushMessageID: pushMessageID, payload: payload)
        for installation in targets {
            var push = Outbox.Push(
                installationID: installation.installationID, userID: installation.userID, message: "", sentAt: clock.now
            )
            push.topicMessage = shared
            if installation.deviceType == .mqtt { push.payload = payload }
            outbox.deliver(push)
        }
        publishMqtt(payload, to: targets)
        return KiiTopicDelivery(pushMessageID: pushMessageID, delivered: targets.map(\.installationID))
    }

    /// The JSON an MQTT client receives: `data` (with `mqtt.data` over it), then the meta keys the flags keep.
    /// 400 `INVALID_INPUT_DATA` when it holds more than 4096 bytes and MQTT is among the networks.
    private func mqttPayload(
        _ message: KiiTopicMessage, data: [Property], key: KiiTopicStore.Key, sender: String?
    ) throws(KiiError) -> String {
        var fields: [String: MqttPayload.Field] = [:]
        for property in data + message.mqttData {
            switch property.value {
            case .string(let text): fields[property.name] = .text(text)
            default: continue  // `data` holds only strings; the HTTP adapter refuses others in `mqtt.data`
            }
        }
        func flag(_ name: String, _ standard: Bool) -> Bool { message.flags[name] ?? standard }
        if flag("sendTopicID", true) { fields["topic"] = .text(key.topicID) }
        if flag("sendObjectScope", true) {
            fields["objectScopeType"] = .text(key.owner.isEmpty ? "APP" : "APP_AND_USER")
            fields["objectScopeAppID"] = .text(appID)
            if !key.owner.isEmpty { fields["objectScopeUserID"] = .text(key.owner) }
        }
        if flag("sendSender", true), let sender { fields["sender"] = .text(sender) }
        if flag("sendWhen", false) { fields["when"] = .number(Int64((clock.now * 1000).rounded(.down))) }
        if flag("sendOrigin", false) { fields["origin"] = .text("EXPLICIT") }
        if flag("sendAppID", false) { fields["appID"] = .text(appID) }
        let payload = MqttPayload.json(fields)
        if message.reached.contains(.mqtt), payload.utf8.count > Self.maxMqttPayloadBytes {
            throw .invalidPushData(
                "The MQTT payload holds \(payload.utf8.count) bytes with its meta keys; at most \(Self.maxMqttPayloadBytes) may be sent"
            )
        }
        return payload
    }

    /// `data` checked (flat strings, no reserved key, within the size limit) and sorted by key.
    static func checkedPushData(_ message: KiiTopicMessage) throws(KiiError) -> [Property] {
        if message.networksRequired && message.networks == nil {
            throw .invalidPushData(field: "gcm", "A push message needs at least one of gcm, fcm, apns, jpush and mqtt")
        }
        if message.networks?.isEmpty == true {
            throw .invalidPushData(field: "networks", "No push network is enabled: enable at least one of ANDROID (gcm/fcm), IOS (apns), JPUSH, MQTT")
        }
        if message.data.isEmpty { throw .invalidPushData("data must hold at least one key") }
        var seen = Set<String>()
        for property in message.data.sorted(by: { $0.name < $1.name }) {
            let key = property.name
            guard seen.insert(key).inserted else { throw .invalidPushData(field: "data.\(key)", "data.\(key) is sent twice") }
            guard case .string = property.value else {
                throw .invalidPushData(
                    field: "data.\(key)", "data.\(key) must be a string (data is flat), got \(property.value.kindName)"
                )
            }
            if reservedPushKeys.contains(key) || key.hasPrefix("google.") {
                throw .invalidPushData(field: "data.\(key)", "data.\(key) is a key the push services reserve")
            }
        }
        let limit = message.reached.contains(.ios) ? maxPushDataBytesIOS : maxPushDataBytes
        let size = compactJSONSize(message.data)
        if size > limit {
            throw .invalidPushData(
                "data holds \(size) bytes as JSON; at most \(limit) may be sent"
                    + (limit == maxPushDataBytesIOS ? " when IOS is among the networks" : "")
            )
        }
        return message.data.sorted { $0.name < $1.name }
    }

    /// The UTF-8 size of `{"key":"value",...}` as compact JSON writes it (`JSON.stringify`'s escapes).
    static func compactJSONSize(_ data: [Property]) -> Int {
        func quoted(_ text: String) -> Int {
            var size = 2
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: size += 2
                case 0..<0x20: size += 6
                default: size += 1
                }
            }
            return size
        }
        var size = 2 + max(0, data.count - 1)
        for property in data {
            guard case .string(let value) = property.value else { continue }
            size += quoted(property.name) + 1 + quoted(value)
        }
        return size
    }

    private static let pushMessageAlphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// A push message id from the seeded generator: 24 characters of `0-9 a-z`.
    private func newPushMessageID() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        for _ in 0..<24 { bytes.append(Self.pushMessageAlphabet[Int(topicSecrets.next() % 36)]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
