internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.topics.*` (contract v3: Kii push topics, subscriptions and messages to subscribers).
enum KiiTopicBindings {
    /// Adds `topics` to the app table at `table`.
    static func install(_ L: OpaquePointer, app table: Int32, handle: Int64) {
        Binding.table(
            L, handle,
            [
                ("create", create), ("delete", delete), ("list", list), ("subscribe", subscribe),
                ("unsubscribe", unsubscribe), ("is_subscribed", isSubscribed), ("send", send),
            ]
        )
        LuaValues.setField(L, table, "topics")
    }

    /// `create(topicID, owner?)` → `{ topicID, scope, owner? }`
    static let create: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.createTopic) { call throws(LuaMisuse) in
            call.arguments("topicID", "owner")
            let app = try call.kii()
            let topicID = try call.string(1, "topicID")
            let owner = try call.optionalString(2, "owner")
            return call.answer { () throws(KiiError) in try app.createTopic(topicID: topicID, owner: owner) }
        }
    }

    /// `delete(topicID, owner?)` → `true`
    static let delete: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.deleteTopic) { call throws(LuaMisuse) in
            call.arguments("topicID", "owner")
            let app = try call.kii()
            let topicID = try call.string(1, "topicID")
            let owner = try call.optionalString(2, "owner")
            return call.answerTrue { () throws(KiiError) in try app.deleteTopic(topicID: topicID, owner: owner) }
        }
    }

    /// `list(owner?)` → sorted topic ids
    static let list: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.listTopics) { call throws(LuaMisuse) in
            call.arguments("owner")
            let app = try call.kii()
            let owner = try call.optionalString(1, "owner")
            do throws(KiiError) {
                LuaValues.push(call.L, strings: try app.listTopics(owner: owner))
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }

    /// The shape of subscription calls: `(topicID, userID, owner?)`.
    private static func subscriptionCall(
        _ L: OpaquePointer?, _ operation: KiiOperation,
        _ body: @escaping (LuaCall, KiiApp, String, String, String?) -> Int32
    ) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            call.arguments("topicID", "userID", "owner")
            let app = try call.kii()
            let topicID = try call.string(1, "topicID")
            let userID = try call.string(2, "userID")
            let owner = try call.optionalString(3, "owner")
            return body(call, app, topicID, userID, owner)
        }
    }

    static let subscribe: us_swift_fn = { L in
        subscriptionCall(L, .subscribe) { call, app, topicID, userID, owner in
            call.answerTrue { () throws(KiiError) in try app.subscribe(topicID: topicID, userID: userID, owner: owner) }
        }
    }

    static let unsubscribe: us_swift_fn = { L in
        subscriptionCall(L, .unsubscribe) { call, app, topicID, userID, owner in
            call.answerTrue { () throws(KiiError) in try app.unsubscribe(topicID: topicID, userID: userID, owner: owner) }
        }
    }

    /// `is_subscribed(topicID, userID, owner?)` → `true` or `false`
    static let isSubscribed: us_swift_fn = { L in
        subscriptionCall(L, .isSubscribed) { call, app, topicID, userID, owner in
            do throws(KiiError) {
                lua_pushboolean(call.L, try app.isSubscribed(topicID: topicID, userID: userID, owner: owner) ? 1 : 0)
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }

    static let messageFields = ["data", "development", "production", "networks"]

    /// `send(topicID, message, owner?)`: `message = { data, development?, production?, networks? }` →
    /// `{ pushMessageID, delivered = { installationID, ... } }`
    static let send: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.sendToTopic) { call throws(LuaMisuse) in
            call.arguments("topicID", "message", "owner")
            let app = try call.kii()
            let topicID = try call.string(1, "topicID")
            try call.table(2, "message")
            let owner = try call.optionalString(3, "owner")
            try call.rejectUnknownFields(2, known: messageFields, in: "the message")
            let data: [Property]
            switch try call.field(2, "data", value: "message.data") {
            case .object(let members)?: data = members.map { Property($0.key, $0.value) }
            case .array(let items)?:
                data = items.enumerated().map { Property(String($0.offset + 1), $0.element) }
            case let other?: throw LuaMisuse("message.data must be a table, got \(other.kindName)")
            case nil: throw LuaMisuse("message.data is required (a table of strings)")
            }
            var message = KiiTopicMessage(data: data)
            message.development = try flag(call, "development")
            message.production = try flag(call, "production")
            if let names = try call.field(2, "networks", strings: "message.networks") {
                var networks = Set<KiiDeviceType>()
                for name in names {
                    guard let type = KiiDeviceType(rawValue: name) else {
                        throw LuaMisuse("message.networks holds \"\(name)\": each must be \"ANDROID\", \"IOS\", \"JPUSH\" or \"MQTT\"")
                    }
                    networks.insert(type)
                }
                message.networks = networks
            }
            return call.answer { () throws(KiiError) in try app.sendToTopic(topicID: topicID, message: message, owner: owner) }
        }
    }

    /// `message.development` / `message.production`: a boolean, `true` when absent.
    private static func flag(_ call: LuaCall, _ name: StaticString) throws(LuaMisuse) -> Bool {
        switch try call.field(2, name, value: "message.\(name)") {
        case nil: return true
        case .bool(let flag)?: return flag
        case let other?: throw LuaMisuse("message.\(name) must be a boolean, got \(other.kindName)")
        }
    }
}
