internal import CLua
internal import CLuaShim
internal import Understudy

/// Contract v4's Kii calls: `app.installations.mqtt_endpoint`, topic ACLs (`app.topics.acl`, `grant`, `revoke`)
/// and groups (`app.groups.create`, `member_of`, `owned_by`). The arguments are read as `KiiDeclarations`
/// declares them.
enum KiiV4Bindings {
    /// `mqtt_endpoint(installationID)` → `{ installationID, username, password, mqttTopic, host, portTCP, ... }`
    static let mqttEndpoint: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.mqttEndpoint) { call throws(LuaMisuse) in
            let id = try call.arguments(of: KiiOperation.mqttEndpoint).string("installationID")
            let app = try call.kii()
            return call.answer { () throws(KiiError) in try app.mqttEndpoint(installationID: id) }
        }
    }

    /// `acl(topicID, owner?)` → `{ SUBSCRIBE_TO_TOPIC = {...}, SEND_MESSAGE_TO_TOPIC = {...} }`
    static let topicACL: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.topicACL) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.topicACL)
            let app = try call.kii()
            return call.answer { () throws(KiiError) in
                try app.topicACL(topicID: arguments.string("topicID"), owner: arguments.optionalString("owner"))
            }
        }
    }

    /// `grant` / `revoke(topicID, action, subject, owner?)` → `true`
    private static func aclChange(_ L: OpaquePointer?, _ operation: KiiOperation) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: operation)
            let app = try call.kii()
            guard let action = KiiTopicAction(rawValue: arguments.string("action")) else {
                throw LuaMisuse("action must be \"SUBSCRIBE_TO_TOPIC\" or \"SEND_MESSAGE_TO_TOPIC\"")
            }
            let (topicID, subject, owner) = (arguments.string("topicID"), arguments.string("subject"), arguments.optionalString("owner"))
            return call.answerTrue { () throws(KiiError) in
                if operation == .grantTopic {
                    try app.grantTopic(topicID: topicID, action: action, subject: subject, owner: owner)
                } else {
                    try app.revokeTopic(topicID: topicID, action: action, subject: subject, owner: owner)
                }
            }
        }
    }

    static let grant: us_swift_fn = { L in aclChange(L, .grantTopic) }
    static let revoke: us_swift_fn = { L in aclChange(L, .revokeTopic) }

    /// `member_of(userID)` / `owned_by(userID)` → `{ { groupID, name, owner }, ... }` in creation order
    private static func groupList(_ L: OpaquePointer?, _ operation: KiiOperation) -> Int32 {
        LuaCall.run(L, operation) { call throws(LuaMisuse) in
            let userID = try call.arguments(of: operation).string("userID")
            let app = try call.kii()
            do throws(KiiError) {
                let groups = operation == .groupsMemberOf
                    ? try app.groupsMemberOf(userID: userID) : try app.groupsOwnedBy(userID: userID)
                SharedBindings.pushList(call.L, groups) { L, item in LuaRecordWriter.push(L, item) }
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }

    static let memberOf: us_swift_fn = { L in groupList(L, .groupsMemberOf) }
    static let ownedBy: us_swift_fn = { L in groupList(L, .groupsOwnedBy) }

    /// `groups.create{ name, owner, members? }` (console) → `{ groupID, name, owner, members }`; misuse raises.
    static let createGroup: us_swift_fn = { L in
        LuaCall.run(L, "groups.create") { call throws(LuaMisuse) in
            let app = try call.kii()
            try call.table(1, "group")
            try call.rejectUnknownFields(1, known: ["name", "owner", "members"], in: "group")
            guard let name = try call.field(1, "name", string: "group.name") else {
                throw LuaMisuse("group.name is required (a string)")
            }
            guard let owner = try call.field(1, "owner", string: "group.owner") else {
                throw LuaMisuse("group.owner is required (a userID)")
            }
            let members = try call.field(1, "members", strings: "group.members") ?? []
            do throws(KiiError) {
                LuaRecordWriter.push(call.L, try app.createGroup(name: name, owner: owner, members: members))
                return 1
            } catch {
                throw LuaMisuse("groups.create: \(error.message)")
            }
        }
    }
}
