internal import CLua
internal import CLuaShim
internal import Understudy

/// Sign-up and login through an OAuth provider (contract version 3): `app.oauth.account{...}` (the console: what
/// the provider answers) and `app.users.login_oauth(provider, token, options?)`. Registered in
/// `BackendlessBindings.pushApp`.
enum BackendlessOAuthBindings {
    static let accountFields = ["provider", "token", "secret", "profile"]

    /// `oauth.account{ provider, token, secret?, profile = { id = ..., ... } }` → `true`; misuse raises.
    static let account: us_swift_fn = { L in
        LuaCall.run(L, "oauth.account") { call throws(LuaMisuse) in
            let app = try call.backendless()
            try call.table(1, "account")
            try call.rejectUnknownFields(1, known: accountFields, in: "the account")
            guard let provider = try call.field(1, "provider", string: "account.provider") else {
                throw LuaMisuse("account.provider is required (the provider code the app's SDK sends, e.g. \"facebook\")")
            }
            guard let token = try call.field(1, "token", string: "account.token") else {
                throw LuaMisuse("account.token is required (the access token the provider accepts)")
            }
            let secret = try call.field(1, "secret", string: "account.secret")
            guard LuaValues.getField(call.L, 1, "profile") == LUA_TTABLE else {
                let found = LuaValues.typeName(call.L, at: -1)
                us_pop(call.L, 1)
                throw LuaMisuse("account.profile must be a table of strings with an id, got \(found)")
            }
            let profile = try stringMap(call, at: lua_gettop(call.L), "account.profile")
            us_pop(call.L, 1)
            do throws(OAuthAccountProblem) {
                try app.defineOAuthAccount(
                    OAuthAccount(provider: provider, token: token, secret: secret, profile: profile.map { Property($0.0, .string($0.1)) })
                )
            } catch {
                throw LuaMisuse("account.\(error.message)")
            }
            // The account counts in the backend's footprint (`consoleBytes`), charged when the call returns.
            return call.pushTrue()
        }
    }

    /// `users.login_oauth(provider, token, options?)` → `session`, or `nil, err`.
    static let login: us_swift_fn = { L in
        LuaCall.run(L, BackendlessOperation.loginOAuth) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: BackendlessOperation.loginOAuth)
            let app = try call.backendless()
            var options: OAuthLoginOptions?
            let table = arguments.table("options")
            if table != 0 {
                var read = OAuthLoginOptions()
                read.guest = try call.field(table, "guest", string: "options.guest")
                read.secret = try call.field(table, "secret", string: "options.secret")
                let type = LuaValues.getField(call.L, table, "fields_mapping")
                if type > LUA_TNIL {
                    guard type == LUA_TTABLE else {
                        us_pop(call.L, 1)
                        throw LuaMisuse("options.fields_mapping must be a table { [profile field] = property }, got \(LuaValues.typeName(call.L, type))")
                    }
                    do throws(LuaMisuse) {
                        read.fieldsMapping = try stringMap(call, at: lua_gettop(call.L), "options.fields_mapping")
                            .map { OAuthFieldMapping($0.0, to: $0.1) }
                    } catch {
                        us_pop(call.L, 1)
                        throw error
                    }
                }
                us_pop(call.L, 1)
                options = read
            }
            return call.answer { () throws(BackendlessError) in
                try app.loginOAuth(provider: arguments.string("provider"), token: arguments.string("token"), options: options)
            }
        }
    }

    /// A table of string keys and string values, sorted by key; raises naming `name` for anything else. Pops
    /// nothing: the table stays where it is.
    static func stringMap(_ call: LuaCall, at index: Int32, _ name: String) throws(LuaMisuse) -> [(String, String)] {
        let L = call.L
        var pairs: [(String, String)] = []
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            guard lua_type(L, -2) == LUA_TSTRING, let key = try? LuaValues.utf8String(L, at: -2) else {
                let found = LuaValues.typeName(L, at: -2)
                us_pop(L, 2)
                throw LuaMisuse("\(name) keys must be strings, got \(found == "string" ? "a key that is not valid UTF-8" : found)")
            }
            guard lua_type(L, -1) == LUA_TSTRING, let value = try? LuaValues.utf8String(L, at: -1) else {
                let found = LuaValues.typeName(L, at: -1)
                us_pop(L, 2)
                throw LuaMisuse("\(name).\(key) must be a string, got \(found == "string" ? "text that is not valid UTF-8" : found)")
            }
            pairs.append((key, value))
            us_pop(L, 1)
        }
        pairs.sort { $0.0 < $1.0 }
        return pairs
    }
}
