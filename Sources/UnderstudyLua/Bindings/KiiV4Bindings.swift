internal import CLua
internal import CLuaShim
internal import Understudy

/// Contract v4's Kii calls still answered by hand: the console's `app.groups.create` and `app.social.account`,
/// `app.users.login_mfa` (exactly one code, else misuse) and social login (the provider compared without case,
/// options per provider, else misuse). The others (`mqtt_endpoint`, topic ACLs, `groups.member_of` /
/// `owned_by`, `users.lookup`) are their declarations, served by `OperationAdapter`.
enum KiiV4Bindings {
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

/// `app.users.login_mfa` (contract v4).
extension KiiV4Bindings {
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
