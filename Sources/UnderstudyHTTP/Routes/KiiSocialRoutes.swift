internal import Understudy

/// Kii social login over HTTP (contract v4, `KiiSocialConnect`): `POST integration/{provider}` signs in with a
/// provider's token (app credentials), `POST users/{user}/{provider}/link` and `…/unlink` (the user's token)
/// link and unlink an account. Bodies: `{ accessToken, accessTokenSecret? (twitter), openID? (qq), expiresAt? }`.
enum KiiSocialRoutes {
    static func register(in table: inout RouteTable<RouteHandler>) {
        table.add(KiiOperation.loginSocial, login)
        table.add(KiiOperation.linkSocial, link)
        table.add(KiiOperation.unlinkSocial, unlink)
    }

    /// The path's provider (compared without case); 400 `INVALID_INPUT_DATA` for another.
    static func provider(_ exchange: Exchange) throws(KiiError) -> KiiSocialProvider {
        let name = exchange.parameters["provider"]
        guard let provider = KiiSocialProvider(named: name) else {
            throw KiiError.invalidInput(
                field: "provider", value: String(name.prefix(64)),
                message: "provider must be facebook, twitter, google, qq or renren, got \(name.prefix(64))"
            )
        }
        return provider
    }

    /// `{accessToken, accessTokenSecret?, openID?}`; `accessToken` is required (400 naming it).
    static func credentials(_ exchange: Exchange) throws -> (token: String, secret: String?, openID: String?) {
        let body = try KiiRoutes.object(exchange)
        let token = try KiiRoutes.requiredString(body, "accessToken")
        return (token, try KiiRoutes.string(body, "accessTokenSecret"), try KiiRoutes.string(body, "openID"))
    }

    /// 200 `{"id", "access_token", "expires_in", "token_type": "Bearer", "new_user_created"}`, or 400
    /// `invalid_grant` with the OAuth2 fields.
    static let login: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .loginSocial) { app, exchange in
            _ = try KiiRoutes.anyCaller(app, exchange)
            let provider = try provider(exchange)
            let (token, secret, openID) = try credentials(exchange)
            let login = try app.loginSocial(provider: provider, token: token, secret: secret, openID: openID)
            return Reply(body: [
                "id": .string(login.user.userID), "access_token": .string(login.token),
                "expires_in": .integer(2_147_483_647), "token_type": "Bearer",
                "new_user_created": .bool(login.newUserCreated),
            ])
        }
    }

    /// The user's own access token (`{user}` must be theirs, or `me`).
    static func session(_ app: KiiApp, _ exchange: Exchange) throws(KiiError) -> String {
        let authorization = exchange.header("Authorization")?.trimmingSpaces ?? ""
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw KiiError.unauthorized("Linking needs the user's access token (Authorization: Bearer)")
        }
        let token = parts[1].trimmingSpaces
        let user = try app.user(forToken: token)
        let named = exchange.parameters["user"]
        if named != "me", named != user.userID {
            throw KiiError.unauthorized("The access token belongs to another user than \(named)")
        }
        return token
    }

    static let link: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .linkSocial) { app, exchange in
            let token = try session(app, exchange)
            let provider = try provider(exchange)
            let (providerToken, secret, openID) = try credentials(exchange)
            _ = try app.linkSocial(token: token, provider: provider, providerToken: providerToken, secret: secret, openID: openID)
            return Reply(status: 204)
        }
    }

    static let unlink: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .unlinkSocial) { app, exchange in
            let token = try session(app, exchange)
            _ = try app.unlinkSocial(token: token, provider: try provider(exchange))
            return Reply(status: 204)
        }
    }
}
