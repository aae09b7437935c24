/// The operating systems a Backendless publish can be aimed at (`broadcast`), as the SDKs' bit mask:
/// IOS 1, ANDROID 2, WP 4, OSX 8, ALL 15. Devices register as IOS or ANDROID only, so WP and OSX match none.
package struct PushBroadcast: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let ios = PushBroadcast(rawValue: 1)
    package static let android = PushBroadcast(rawValue: 2)
    package static let wp = PushBroadcast(rawValue: 4)
    package static let osx = PushBroadcast(rawValue: 8)
    package static let all: PushBroadcast = [.ios, .android, .wp, .osx]

    /// The contract's names, in mask order.
    package static let names: [(name: String, value: PushBroadcast)] = [
        ("IOS", .ios), ("ANDROID", .android), ("WP", .wp), ("OSX", .osx),
    ]

    /// The operating system a name stands for (`IOS`, `ANDROID`, `WP`, `OSX`, compared without case); nil otherwise.
    package init?(name: String) {
        let upper = name.uppercased()
        guard let found = Self.names.first(where: { $0.name == upper }) else { return nil }
        self = found.value
    }

    /// Whether a device of that operating system is aimed at.
    package func includes(_ os: DeviceRegistration.OperatingSystem) -> Bool {
        switch os {
        case .ios: return contains(.ios)
        case .android: return contains(.android)
        }
    }

    /// As a fault's `when(args)` sees it: `"ALL"` or the list of names.
    package var value: Value {
        if self == .all { return .string("ALL") }
        return .array(Self.names.filter { contains($0.value) }.map { .string($0.name) })
    }
}

/// Where a Backendless message goes: push only, pub/sub only (no subscribers exist in the emulator), or both.
package enum PushPolicy: String, Sendable, Hashable, CaseIterable {
    case push = "PUSH"
    case pubsub = "PUBSUB"
    case both = "BOTH"

    /// Whether the message reaches devices.
    var pushes: Bool { self != .pubsub }
}

/// What the deliveries of one message share, held once however many outbox pushes refer to it: the message id,
/// the headers and, for a template's message, its name and filled title and subtitle.
package final class PushPublication: Sendable, Hashable {
    package let messageID: String
    /// Header names and values, sorted by name.
    package let headers: [(name: String, value: String)]
    package let template: String?
    package let title: String?
    package let subtitle: String?

    package init(
        messageID: String, headers: [(name: String, value: String)], template: String? = nil, title: String? = nil,
        subtitle: String? = nil
    ) {
        self.messageID = messageID
        self.headers = headers.sorted { $0.name < $1.name }
        self.template = template
        self.title = title
        self.subtitle = subtitle
    }

    package static func == (lhs: PushPublication, rhs: PushPublication) -> Bool {
        lhs === rhs
            || (lhs.messageID == rhs.messageID && lhs.template == rhs.template && lhs.title == rhs.title
                && lhs.subtitle == rhs.subtitle && lhs.headers.elementsEqual(rhs.headers, by: { $0 == $1 }))
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(messageID) }

    /// The fields an outbox push adds: `headers, messageId, template?, title?, subtitle?`.
    func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("headers", pairs: headers)
        writer.write("messageId", messageID)
        if let template { writer.write("template", template) }
        if let title { writer.write("title", title) }
        if let subtitle { writer.write("subtitle", subtitle) }
    }
}

/// A Backendless publish as the caller asked for it (`app.push.publish{...}`, `POST messaging/{channel}`), before
/// the domain checks it. Absent fields are nil.
package struct PushRequest: TypedArgument {
    package var channel: String?
    package var message: String
    package var headers: [(name: String, value: String)]
    /// nil: not given. Given with `singlecast`, a device in either receives it.
    package var broadcast: PushBroadcast?
    /// Device ids; only those of the channel's devices receive it.
    package var singlecast: [String]?
    /// The emulator's own targeting (version 1): these devices, on whatever channel; the pushes carry no channel.
    package var deviceIDs: [String]?
    package var policy: PushPolicy
    /// Seconds on the virtual clock.
    package var publishAt: Double?
    /// Seconds between firings (a whole number ≥ 1; anything else answers 5003).
    package var repeatEvery: Double?
    /// Seconds on the virtual clock: the last time a repeating message may fire.
    package var repeatExpiresAt: Double?

    package init(
        message: String, channel: String? = nil, headers: [(name: String, value: String)] = [],
        broadcast: PushBroadcast? = nil, singlecast: [String]? = nil, deviceIDs: [String]? = nil,
        policy: PushPolicy = .both, publishAt: Double? = nil, repeatEvery: Double? = nil, repeatExpiresAt: Double? = nil
    ) {
        self.message = message
        self.channel = channel
        self.headers = headers
        self.broadcast = broadcast
        self.singlecast = singlecast
        self.deviceIDs = deviceIDs
        self.policy = policy
        self.publishAt = publishAt
        self.repeatEvery = repeatEvery
        self.repeatExpiresAt = repeatExpiresAt
    }

    /// The arguments a fault's `when(args)` sees, by the contract's field names.
    package var faultValue: Value { faultArguments }

    /// The arguments a fault's `when(args)` sees, by the contract's field names.
    var faultArguments: Value {
        var object: [String: Value] = ["message": .string(message), "policy": .string(policy.rawValue)]
        object["channel"] = channel.map(Value.string)
        var headerObject: [String: Value] = [:]
        for header in headers { headerObject[header.name] = .string(header.value) }
        object["headers"] = .object(headerObject)
        object["broadcast"] = broadcast?.value
        object["singlecast"] = singlecast.map { .array($0.map(Value.string)) }
        object["device_ids"] = deviceIDs.map { .array($0.map(Value.string)) }
        object["publish_at"] = publishAt.map(Value.double)
        object["repeat_every"] = repeatEvery.map { $0.rounded(.down) == $0 && abs($0) < 1e15 ? Value.int(Int64($0)) : Value.double($0) }
        object["repeat_expires_at"] = repeatExpiresAt.map(Value.double)
        return .object(object)
    }
}

/// What `publish` and `with_template` answer: `{ messageId, status, delivered }`.
package struct PublishResult: Sendable, Hashable, Presentable {
    package var messageID: String
    package var status: MessageStatus
    /// The devices a firing reached during the call itself, sorted.
    package var delivered: [String]

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("messageId", messageID)
        writer.write("status", status.rawValue)
        writer.write("delivered", strings: delivered)
    }
}

/// Where a message stands. The emulator never produces `failed` (the SDKs know it); `unknown` answers an id
/// never issued.
package enum MessageStatus: String, Sendable, Hashable, CaseIterable {
    case scheduled
    case published
    case cancelled
    case failed
    case unknown
}

/// `push.status`'s answer: `{ messageId, status, errorMessage }` (`errorMessage` is always absent: null over HTTP).
package struct MessageStatusReport: Sendable, Hashable, Presentable {
    package var messageID: String
    package var status: MessageStatus

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("messageId", messageID)
        writer.write("status", status.rawValue)
        writer.write("errorMessage", null: ())
    }
}
