internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.register_pseudo` and `app.users.put_identity` (contract v3: Kii pseudo users).
enum KiiPseudoUserBindings {
    /// The functions added to `app.users`.
    static let userFunctions: [(StaticString, us_swift_fn)] = [
        ("register_pseudo", registerPseudo), ("put_identity", putIdentity),
    ]

    /// `register_pseudo(fields?)`: `fields` a table of strings, numbers and booleans.
    static let registerPseudo: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.registerPseudo) { call throws(LuaMisuse) in
            call.arguments("fields")
            let app = try call.kii()
            var fields: [Property] = []
            if !call.isNil(1) {
                try call.table(1, "fields")
                fields = try call.properties(1)
            }
            return call.answer { () throws(KiiError) in try app.registerPseudo(fields: fields) }
        }
    }

    static let identityFields = ["username", "email", "phone", "country", "password", "fields"]

    /// `put_identity(token, identity)`: `identity = { username?, email?, phone?, country?, password, fields? }`.
    static let putIdentity: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.putIdentity) { call throws(LuaMisuse) in
            call.arguments("token", "identity")
            let app = try call.kii()
            let token = try call.string(1, "token")
            try call.table(2, "identity")
            try call.rejectUnknownFields(2, known: identityFields, in: "the identity")
            var identity = KiiIdentity(
                username: try call.field(2, "username", string: "identity.username"),
                email: try call.field(2, "email", string: "identity.email"),
                phone: try call.field(2, "phone", string: "identity.phone"),
                country: try call.field(2, "country", string: "identity.country"),
                password: try call.field(2, "password", string: "identity.password")
            )
            _ = LuaValues.getField(call.L, 2, "fields")
            switch lua_type(call.L, -1) {
            case LUA_TNIL: break
            case LUA_TTABLE: identity.fields = try call.properties(-1)
            default: throw LuaMisuse("identity.fields must be a table, got \(call.typeName(-1))")
            }
            us_pop(call.L, 1)
            return call.answer { () throws(KiiError) in try app.putIdentity(token: token, identity: identity) }
        }
    }
}
