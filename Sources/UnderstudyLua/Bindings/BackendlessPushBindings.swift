internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.push`: publishing (targeted, scheduled, repeated), message status and cancellation, push templates
/// (contract version 3).
enum BackendlessPushBindings {
    static let publish: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.publish) { call throws(LuaMisuse) in
            _ = try call.arguments(of: BackendlessOperation.publish)  // a table of the declared fields
            let app = try call.backendless()
            guard let message = try call.field(1, "message", string: "publication.message") else {
                throw LuaMisuse("publication.message is required (a string)")
            }
            var request = PushRequest(message: message)
            request.channel = try call.field(1, "channel", string: "publication.channel")
            request.headers = try stringPairs(call, field: "headers", "publication.headers") ?? []
            request.broadcast = try broadcast(call)
            request.singlecast = try call.field(1, "singlecast", strings: "publication.singlecast")
            request.deviceIDs = try call.field(1, "device_ids", strings: "publication.device_ids")
            if let policy = try call.field(1, "policy", string: "publication.policy") {
                guard let known = PushPolicy(rawValue: policy) else {
                    throw LuaMisuse("publication.policy must be \"PUSH\", \"PUBSUB\" or \"BOTH\", got \"\(policy)\"")
                }
                request.policy = known
            }
            request.publishAt = try time(call, "publish_at")
            request.repeatExpiresAt = try time(call, "repeat_expires_at")
            if let every = try call.field(1, "repeat_every", value: "publication.repeat_every") {
                // A whole number, also as a float (`3600 / 60` is 60.0 in Lua 5.4).
                let seconds: Double
                switch every {
                case .int(let whole): seconds = Double(whole)
                case .double(let number) where number.rounded(.down) == number: seconds = number
                default: seconds = 0
                }
                guard seconds >= 1, seconds <= VirtualClock.limit else {
                    throw LuaMisuse("publication.repeat_every must be a whole number of seconds, at least 1, got \(every.luaText)")
                }
                request.repeatEvery = seconds
            } else if request.repeatExpiresAt != nil {
                throw LuaMisuse("publication.repeat_expires_at is given without repeat_every")
            }
            return call.answer { () throws(BackendlessError) in try app.publish(request) }
        }
    }

    /// `broadcast`: `"ALL"` or a list of `"IOS"`, `"ANDROID"`, `"WP"`, `"OSX"`; nil when absent.
    private static func broadcast(_ call: LuaCall) throws(LuaMisuse) -> PushBroadcast? {
        let name = "publication.broadcast"
        let type = LuaValues.getField(call.L, 1, "broadcast")
        if type == LUA_TSTRING {
            let text = LuaValues.string(call.L, at: -1)
            us_pop(call.L, 1)
            guard text == "ALL" else { throw LuaMisuse("\(name) must be \"ALL\" or a list of \"IOS\", \"ANDROID\", \"WP\", \"OSX\", got \"\(text ?? "")\"") }
            return .all
        }
        us_pop(call.L, 1)
        guard let names = try call.field(1, "broadcast", strings: name) else { return nil }
        var mask: PushBroadcast = []
        for (offset, os) in names.enumerated() {
            guard PushBroadcast.names.contains(where: { $0.name == os }), let value = PushBroadcast(name: os) else {
                throw LuaMisuse("\(name)[\(offset + 1)] must be \"IOS\", \"ANDROID\", \"WP\" or \"OSX\", got \"\(os)\"")
            }
            mask.insert(value)
        }
        return mask
    }

    /// A time field (seconds on the virtual clock); nil when absent.
    private static func time(_ call: LuaCall, _ key: StaticString) throws(LuaMisuse) -> Double? {
        guard let value = try call.field(1, key, value: "publication.\(key)") else { return nil }
        switch value {
        case .int(let seconds): return Double(seconds)
        case .double(let seconds): return seconds
        default: throw LuaMisuse("publication.\(key) must be a number (seconds on the virtual clock), got \(value.luaText)")
        }
    }

    /// A table of string values by string names (headers, template values); nil when absent.
    private static func stringPairs(
        _ call: LuaCall, field key: StaticString, _ name: String, at index: Int32 = 1
    ) throws(LuaMisuse) -> [(name: String, value: String)]? {
        guard let value = try call.field(index, key, value: name) else { return nil }
        return try pairs(value, name)
    }

    /// A Lua table read as `Value` → sorted name/value pairs of strings.
    static func pairs(_ value: Value, _ name: String) throws(LuaMisuse) -> [(name: String, value: String)] {
        switch value {
        case .object(let members):
            var pairs: [(name: String, value: String)] = []
            for (key, member) in members {
                guard case .string(let text) = member else {
                    throw LuaMisuse("\(name).\(key) must be a string, got \(member.luaText)")
                }
                pairs.append((key, text))
            }
            return pairs.sorted { $0.name < $1.name }
        case .array(let items) where items.isEmpty: return []
        default: throw LuaMisuse("\(name) must be a table of strings by name, got \(value.luaText)")
        }
    }

    static let templateFields = ["name", "message", "title", "subtitle", "headers", "os", "channel"]

    static let defineTemplate: us_swift_fn = { L in
        LuaCall.run(L, "push.templates.define") { call throws(LuaMisuse) in
            let app = try call.backendless()
            try call.table(1, "template")
            try call.rejectUnknownFields(1, known: templateFields, in: "the template")
            guard let name = try call.field(1, "name", string: "template.name"), !name.isEmpty else {
                throw LuaMisuse("template.name is required (a non-empty string)")
            }
            guard let message = try call.field(1, "message", string: "template.message") else {
                throw LuaMisuse("template.message is required (a string)")
            }
            var os = PushTemplate.Audience.all
            if let given = try call.field(1, "os", string: "template.os") {
                guard let audience = PushTemplate.Audience(name: given) else {
                    throw LuaMisuse("template.os must be \"ALL\", \"IOS\" or \"ANDROID\", got \"\(given)\"")
                }
                os = audience
            }
            let headers = try stringPairs(call, field: "headers", "template.headers")
            let template = PushTemplate(
                name: name, message: message, title: try call.field(1, "title", string: "template.title"),
                subtitle: try call.field(1, "subtitle", string: "template.subtitle"),
                headers: headers?.map { PushTemplate.Pair($0.name, $0.value) }, os: os,
                channel: try call.field(1, "channel", string: "template.channel") ?? DeviceRegistry.defaultChannel
            )
            app.definePushTemplate(template)
            return call.pushTrue()
        }
    }

}

extension Value {
    /// The value as a message shows it: a number or string as written, else its kind (`a table`, `a boolean`).
    fileprivate var luaText: String {
        switch self {
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        case .bool(let flag): return String(flag)
        case .null: return "nil"
        case .array, .object: return "a table"
        }
    }
}
