internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.topics.*` (contract v3: Kii push topics, subscriptions and messages to subscribers). The arguments are
/// read as `KiiDeclarations` declares them.
enum KiiTopicBindings {
    /// `send(topicID, message, owner?)`: `message = { data, development?, production?, networks? }` →
    /// `{ pushMessageID, delivered = { installationID, ... } }`
    static let send: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.sendToTopic) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.sendToTopic)
            let app = try call.kii()
            let table = arguments.table("message")
            let data: [Property]
            switch try call.field(table, "data", value: "message.data") {
            case .object(let members)?: data = members.map { Property($0.key, $0.value) }.sorted { $0.name < $1.name }
            case .array(let items)?:
                data = items.enumerated().map { Property(String($0.offset + 1), $0.element) }
            case let other?: throw LuaMisuse("message.data must be a table, got \(other.kindName)")
            case nil: throw LuaMisuse("message.data is required (a table of strings)")
            }
            var message = KiiTopicMessage(data: data)
            message.development = try flag(call, table, "development")
            message.production = try flag(call, table, "production")
            if let names = try call.field(table, "networks", strings: "message.networks") {
                var networks = Set<KiiDeviceType>()
                for name in names {
                    guard let type = KiiDeviceType(rawValue: name) else {
                        throw LuaMisuse("message.networks holds \"\(name)\": each must be \"ANDROID\", \"IOS\", \"JPUSH\" or \"MQTT\"")
                    }
                    networks.insert(type)
                }
                message.networks = networks
            }
            if let sender = try call.field(table, "sender", value: "message.sender") {
                guard case .string(let userID) = sender else {
                    throw LuaMisuse("message.sender must be a userID (a string), got \(sender.kindName)")
                }
                message.sender = .user(userID)
            }
            let topicID = arguments.string("topicID")
            let owner = arguments.optionalString("owner")
            return call.answer { () throws(KiiError) in try app.sendToTopic(topicID: topicID, message: message, owner: owner) }
        }
    }

    /// `message.development` / `message.production`: a boolean, or nil when absent.
    private static func flag(_ call: LuaCall, _ table: Int32, _ name: StaticString) throws(LuaMisuse) -> Bool? {
        switch try call.field(table, name, value: "message.\(name)") {
        case nil: return nil
        case .bool(let flag)?: return flag
        case let other?: throw LuaMisuse("message.\(name) must be a boolean, got \(other.kindName)")
        }
    }
}
