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
            guard app.user(userID: owner) != nil else { throw LuaMisuse("group.owner names no user: \(owner.prefix(64))") }
            for member in members where app.user(userID: member) == nil {
                throw LuaMisuse("group.members holds \(member.prefix(64)), which names no user")
            }
            do throws(KiiError) {
                LuaRecordWriter.push(call.L, try app.createGroup(name: name, owner: owner, members: members))
                return 1
            } catch {
                throw LuaMisuse(error.message)
            }
        }
    }
}

/// `app.users.lookup` and `app.users.login_mfa` (contract v4).
extension KiiV4Bindings {
    /// `lookup(identifier, token)` → the full record, or `{ userID, loginName?, displayName? }`
    static let lookup: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.lookup) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.lookup)
            let app = try call.kii()
            let (identifier, token) = (arguments.string("identifier"), arguments.string("token"))
            return call.answer { () throws(KiiError) in try app.lookup(identifier: identifier, token: token) }
        }
    }

    /// `login_mfa{ totp_code = ? , recovery_code = ? }`: exactly one of the two; never succeeds.
    static let loginMFA: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.loginMFA) { call throws(LuaMisuse) in
            _ = try call.arguments(of: KiiOperation.loginMFA)
            let code = try call.fields(of: KiiOperation.loginMFA, "grant") ?? [:]
            let totp = code["totp_code"]?.stringValue, recovery = code["recovery_code"]?.stringValue
            guard (totp == nil) != (recovery == nil) else {
                throw LuaMisuse("login_mfa needs exactly one of totp_code and recovery_code")
            }
            let app = try call.kii()
            do throws(KiiError) {
                try app.loginMFA(totpCode: totp, recoveryCode: recovery)
            } catch {
                return call.fail(error)
            }
        }
    }
}

/// `app.social.account{...}` (console) and `app.users.login_social`, `link_social`, `unlink_social` (contract v4).
extension KiiV4Bindings {
    static func provider(_ name: String) throws(LuaMisuse) -> KiiSocialProvider {
        guard let provider = KiiSocialProvider(named: name) else {
            throw LuaMisuse("provider must be one of \"facebook\", \"twitter\", \"google\", \"qq\", \"renren\", got \"\(name.prefix(64))\"")
        }
        return provider
    }

    /// `options = { secret?, open_id? }`: only twitter takes `secret`, only qq `open_id`.
    static func socialOptions(_ call: LuaCall, _ operation: KiiOperation, _ provider: KiiSocialProvider) throws(LuaMisuse) -> (String?, String?) {
        let options = try call.fields(of: operation, "options") ?? [:]
        let secret = options["secret"]?.stringValue, openID = options["open_id"]?.stringValue
        if secret != nil, provider != .twitter { throw LuaMisuse("options.secret is for twitter only, not \(provider.rawValue)") }
        if openID != nil, provider != .qq { throw LuaMisuse("options.open_id is for qq only, not \(provider.rawValue)") }
        return (secret, openID)
    }

    static let loginSocial: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.loginSocial) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.loginSocial)
            let provider = try provider(arguments.string("provider"))
            let (secret, openID) = try socialOptions(call, .loginSocial, provider)
            let app = try call.kii()
            let token = arguments.string("token")
            return call.answer { () throws(KiiError) in
                try app.loginSocial(provider: provider, token: token, secret: secret, openID: openID)
            }
        }
    }

    static let linkSocial: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.linkSocial) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.linkSocial)
            let provider = try provider(arguments.string("provider"))
            let (secret, openID) = try socialOptions(call, .linkSocial, provider)
            let app = try call.kii()
            let (token, providerToken) = (arguments.string("token"), arguments.string("provider_token"))
            return call.answer { () throws(KiiError) in
                try app.linkSocial(token: token, provider: provider, providerToken: providerToken, secret: secret, openID: openID)
            }
        }
    }

    static let unlinkSocial: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.unlinkSocial) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.unlinkSocial)
            let provider = try provider(arguments.string("provider"))
            let app = try call.kii()
            let token = arguments.string("token")
            return call.answer { () throws(KiiError) in try app.unlinkSocial(token: token, provider: provider) }
        }
    }

    /// `social.account{ provider, token, secret?, open_id?, profile = { id, ... } }` (console) → `true`.
    static let defineAccount: us_swift_fn = { L in
        LuaCall.run(L, "social.account") { call throws(LuaMisuse) in
            let app = try call.kii()
            try call.table(1, "account")
            try call.rejectUnknownFields(1, known: ["provider", "token", "secret", "open_id", "profile"], in: "account")
            guard let name = try call.field(1, "provider", string: "account.provider") else {
                throw LuaMisuse("account.provider is required (facebook, twitter, google, qq or renren)")
            }
            let provider = try provider(name)
            guard let token = try call.field(1, "token", string: "account.token") else {
                throw LuaMisuse("account.token is required (the provider's access token)")
            }
            let secret = try call.field(1, "secret", string: "account.secret")
            let openID = try call.field(1, "open_id", string: "account.open_id")
            if secret != nil, provider != .twitter { throw LuaMisuse("account.secret is for twitter only, not \(provider.rawValue)") }
            if openID != nil, provider != .qq { throw LuaMisuse("account.open_id is for qq only, not \(provider.rawValue)") }
            guard case .object(let members)? = try call.field(1, "profile", value: "account.profile") else {
                throw LuaMisuse("account.profile is required (a table of strings with id)")
            }
            var profile: [String: String] = [:]
            for (key, value) in members {
                guard case .string(let text) = value else {
                    throw LuaMisuse("account.profile.\(key) must be a string, got \(value.kindName)")
                }
                profile[key] = text
            }
            guard let id = profile["id"], !id.isEmpty else { throw LuaMisuse("account.profile.id is required (a string)") }
            app.defineSocialAccount(KiiSocialAccount(provider: provider, token: token, secret: secret, openID: openID, profile: profile))
            lua_pushboolean(call.L, 1)
            return 1
        }
    }
}
