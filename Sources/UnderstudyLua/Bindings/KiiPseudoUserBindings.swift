internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.users.register_pseudo` and `app.users.put_identity` (contract v3: Kii pseudo users).
enum KiiPseudoUserBindings {
    /// `put_identity(token, identity)`: `identity = { username?, email?, phone?, country?, password, fields? }`.
    static let putIdentity: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.putIdentity) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: KiiOperation.putIdentity)
            let app = try call.kii()
            let token = arguments.string("token")
            let table = arguments.table("identity")
            var identity = KiiIdentity(
                username: try call.field(table, "username", string: "identity.username"),
                email: try call.field(table, "email", string: "identity.email"),
                phone: try call.field(table, "phone", string: "identity.phone"),
                country: try call.field(table, "country", string: "identity.country"),
                password: try call.field(table, "password", string: "identity.password")
            )
            _ = LuaValues.getField(call.L, table, "fields")
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
