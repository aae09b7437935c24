internal import Understudy

/// Sign-up and login through an OAuth provider over HTTP (contract version 3): the SDKs' `users/social/{provider}/login`
/// (`loginWithOauth2`, `loginWithOauth1`), the REST docs' `users/oauth/{provider}/login`, and the legacy
/// `users/social/facebook|googleplus/sdk/login`. Each runs `users.login_oauth` and answers the user with its
/// `user-token`, as `users/login` does.
enum BackendlessOAuthRoutes {
    static func register(in table: inout RouteTable<RouteHandler>) {
        table.add(
            BackendlessOperation.loginOAuth, login(provider: nil),
            variants: ["facebook": login(provider: "facebook"), "googleplus": login(provider: "googleplus")]
        )
    }

    /// The login of `provider`, or of the path's `{provider}` when nil.
    static func login(provider fixed: String?) -> RouteHandler {
        { exchange in
            BackendlessRoutes.serve(&exchange, .loginOAuth) { app, exchange in
                let body = JSON.object(try BackendlessRoutes.object(exchange) ?? [])
                let request = try OAuthLoginRequest(body)
                let session = try app.loginOAuth(
                    provider: fixed ?? exchange.parameters["provider"], token: request.token, options: request.options
                )
                return Reply(body: BackendlessWire.user(session.user, token: session.token))
            }
        }
    }
}

/// The body of an OAuth login as the SDKs send it: `accessToken`, `accessTokenSecret` (OAuth1), `fieldsMapping`
/// (the Flutter SDK's `fieldsMappings` too) and `guestUser` (an object, a JSON string holding one, as Flutter
/// sends it, or the guest's objectId). A null field is the same as an absent one (the JS SDK sends `"guestUser": null`).
struct OAuthLoginRequest {
    var token: String
    var options: OAuthLoginOptions

    init(_ body: JSON) throws(BackendlessError) {
        token = BackendlessRoutes.text(body["accessToken"]) ?? ""
        options = OAuthLoginOptions()
        options.secret = BackendlessRoutes.text(body["accessTokenSecret"])
        let mapping = Self.present(body["fieldsMapping"]) ?? Self.present(body["fieldsMappings"])
        if let mapping {
            guard case .object(let members) = mapping else { throw Self.wrong("fieldsMapping", "an object", mapping) }
            for member in members {
                guard case .string(let property) = member.value else {
                    throw Self.wrong("fieldsMapping.\(member.key)", "a string", member.value)
                }
                options.fieldsMapping.append(OAuthFieldMapping(member.key, to: property))
            }
        }
        options.guest = try Self.guestObjectID(Self.present(body["guestUser"]))
    }

    /// The value unless it is absent or null.
    static func present(_ value: JSON?) -> JSON? {
        if case .null? = value { return nil }
        return value
    }

    /// The `objectId` of `guestUser`: a user object, a JSON string holding one (Flutter), or the objectId itself.
    /// An object without an `objectId` names no guest.
    static func guestObjectID(_ value: JSON?) throws(BackendlessError) -> String? {
        switch value {
        case nil: return nil
        case .object?: return present(value?["objectId"]).map { BackendlessRoutes.text($0) ?? "" }
        case .string(let text)?:
            if let parsed = try? JSONParser.parse(text), case .object = parsed { return try guestObjectID(parsed) }
            return text
        case let other?: throw wrong("guestUser", "a user object, a JSON string holding one, or an objectId", other)
        }
    }

    static func wrong(_ field: String, _ expected: String, _ got: JSON) -> BackendlessError {
        BackendlessError(code: 8002, message: "Could not parse request with message: \(field) must be \(expected), got \(got.kindName)")
    }
}
