internal import HTTPTypes
internal import Understudy

/// The Backendless messaging API under `/{appId}/{apiKey}/messaging/` (contract version 3): publishing with the
/// SDKs' delivery options, message status and cancellation, push templates and the email API. Every accepted
/// publish answers `{"status": "scheduled", "messageId", "errorMessage": null}`, as the live server does;
/// `GET messaging/{messageId}` then gives the real status.
enum BackendlessPushRoutes {
    /// What every accepted publish, template push and email answers.
    static func accepted(_ messageID: String) -> Reply {
        Reply(body: ["status": "scheduled", "messageId": .string(messageID), "errorMessage": nil])
    }

    static func refusal(_ field: String, _ expected: String, got value: JSON) -> Refusal {
        Refusal(reply: ServerFailures.wrongBody(.backendless, expected: "an object whose \(field) is \(expected)", got: value.kindName))
    }

    // MARK: Publish

    /// A publish as the SDKs send it: the path's `{channel}` and the body's fields.
    static func publication(_ body: JSON?, channel: String) throws -> PushRequest {
        let body = body ?? .object([])
        let message: String
        switch body["message"] {
        case .string(let text)?: message = text
        case nil, .null?:
            throw Refusal(reply: ServerFailures.wrongBody(.backendless, expected: "an object with a message", got: "none"))
        case let other?: message = JSONWriter.string(other)
        }
        var request = PushRequest(message: message, channel: channel)
        request.headers = try headers(body["headers"])
        request.policy = try policy(body)
        request.broadcast = try broadcast(body["pushBroadcast"])
        switch body["pushSinglecast"] {
        case nil, .null?: break
        case .array(let items)?:
            var ids: [String] = []
            for item in items {
                guard let id = BackendlessRoutes.text(item) else { throw refusal("pushSinglecast", "a list of device ids", got: item) }
                ids.append(id)
            }
            request.singlecast = ids
        case .string(let id)?: request.singlecast = [id]
        case let other?: throw refusal("pushSinglecast", "a list of device ids", got: other)
        }
        request.publishAt = try milliseconds(body, "publishAt")
        request.repeatExpiresAt = try milliseconds(body, "repeatExpiresAt")
        switch body["repeatEvery"] {
        case nil, .null?: break
        case .integer(let seconds)?: request.repeatEvery = Double(seconds)
        case .number(let seconds)?: request.repeatEvery = seconds  // 1.5: 5003 from the domain
        case let other?: throw refusal("repeatEvery", "a number of seconds", got: other)
        }
        // The SDKs send 0 for an unset time (the RT echo does too): absent.
        if request.publishAt == 0 { request.publishAt = nil }
        if request.repeatExpiresAt == 0, request.repeatEvery == nil || request.repeatEvery == 0 {
            request.repeatExpiresAt = nil
            request.repeatEvery = nil
        }
        return request
    }

    /// The time in milliseconds at `field`, as seconds; nil when absent; 8002 naming the field when it is not a
    /// number (`"tomorrow"`, `"1893457800000"`).
    static func milliseconds(_ body: JSON, _ field: String) throws(Refusal) -> Double? {
        switch body[field] {
        case nil, .null?: return nil
        case .integer(let number)?: return Double(number) / 1000
        case .number(let number)?: return number / 1000
        case let other?: throw refusal(field, "a time in milliseconds", got: other)
        }
    }

    /// `headers`: an object of strings (numbers and booleans are taken as their text).
    static func headers(_ value: JSON?) throws(Refusal) -> [(name: String, value: String)] {
        switch value {
        case nil, .null?: return []
        case .object(let members)?:
            var headers: [(name: String, value: String)] = []
            for member in members {
                if case .null = member.value { continue }
                guard let text = BackendlessRoutes.text(member.value) else {
                    throw refusal("headers.\(member.key)", "a string", got: member.value)
                }
                headers.append((member.key, text))
            }
            return headers
        case let other?: throw refusal("headers", "an object of strings", got: other)
        }
    }

    /// `publishPolicy` (`PUSH`, `PUBSUB`, `BOTH`, or the Flutter SDK's index 0-2), else the legacy `pushPolicy`
    /// (`ONLY` = PUSH, `ALSO` = BOTH); `BOTH` when neither is given.
    static func policy(_ body: JSON) throws(Refusal) -> PushPolicy {
        switch body["publishPolicy"] {
        case nil, .null?: break
        case .string(let name)?:
            guard let policy = PushPolicy(rawValue: name.uppercased()) else {
                throw refusal("publishPolicy", "PUSH, PUBSUB or BOTH", got: .string(name))
            }
            return policy
        case .integer(let index)? where (0...2).contains(index):
            return [PushPolicy.push, .pubsub, .both][Int(index)]
        case let other?: throw refusal("publishPolicy", "PUSH, PUBSUB or BOTH", got: other)
        }
        switch body["pushPolicy"] {
        case nil, .null?: return .both
        case .string(let name)? where name.uppercased() == "ONLY": return .push
        case .string(let name)? where name.uppercased() == "ALSO": return .both
        case let other?: throw refusal("pushPolicy", "ONLY or ALSO", got: other)
        }
    }

    /// `pushBroadcast` as a bit mask (IOS 1, ANDROID 2, WP 4, OSX 8, ALL 15) or as names joined by `|`:
    /// `FOR_IOS|FOR_ANDROID`, `FOR_ALL`, `FOR_NONE`, or plain `IOS|ANDROID`, `ALL`.
    static func broadcast(_ value: JSON?) throws(Refusal) -> PushBroadcast? {
        switch value {
        case nil, .null?: return nil
        case .integer(let mask)? where (0...15).contains(mask): return PushBroadcast(rawValue: Int(mask))
        case .string(let text)?:
            if let mask = Int(text), (0...15).contains(mask) { return PushBroadcast(rawValue: mask) }
            var broadcast: PushBroadcast = []
            for part in text.split(separator: "|", omittingEmptySubsequences: false) {
                var name = part.filter { $0 != " " }.uppercased()
                if name.hasPrefix("FOR_") { name.removeFirst(4) }
                switch name {
                case "ALL": broadcast = .all
                case "NONE": continue
                default:
                    guard let os = PushBroadcast(name: name) else {
                        throw refusal("pushBroadcast", "a mask (IOS 1, ANDROID 2, WP 4, OSX 8, ALL 15) or names such as FOR_IOS|FOR_ANDROID", got: .string(text))
                    }
                    broadcast.insert(os)
                }
            }
            return broadcast
        case let other?:
            throw refusal("pushBroadcast", "a mask (IOS 1, ANDROID 2, WP 4, OSX 8, ALL 15) or names such as FOR_IOS|FOR_ANDROID", got: other)
        }
    }

    // MARK: Status, cancel

    // MARK: Templates

    // MARK: Email

    /// The email API's `bodyparts`: `{ textmessage?, htmlmessage? }` with only the parts given.
    static func bodyParts(_ body: JSON) throws(Refusal) -> Value {
        var parts: [String: Value] = [:]
        switch body["bodyparts"] {
        case nil, .null?: break
        case .object(let members)?:
            let given = JSON.object(members)
            for key in ["textmessage", "htmlmessage"] {
                switch given[key] {
                case nil, .null?: continue
                case .string(let content)?: parts[key] = .string(content)
                case let other?: throw refusal("bodyparts.\(key)", "a string", got: other)
                }
            }
        case let other?: throw refusal("bodyparts", "an object with textmessage and htmlmessage", got: other)
        }
        return .object(parts)
    }

    /// The email API's `to`: a list of addresses or one; at least one.
    static func recipients(_ body: JSON) throws(Refusal) -> [String] {
        var recipients: [String] = []
        switch body["to"] {
        case .array(let items)?:
            for item in items {
                guard case .string(let address) = item, !address.isEmpty else { throw refusal("to", "a list of addresses", got: item) }
                recipients.append(address)
            }
        case .string(let address)? where !address.isEmpty: recipients = [address]
        case let other: throw refusal("to", "a list of addresses", got: other ?? .null)
        }
        guard !recipients.isEmpty else { throw refusal("to", "a list of at least one address", got: .array([])) }
        return recipients
    }
}
