internal import HTTPTypes
internal import Understudy

/// The Kii account lifecycle over HTTP (`lifecycle.md`, "Over HTTP"): password reset (request, complete, and the
/// page the emailed or texted link opens), password change, profile update, deletion and disabling. Push
/// installations are in `KiiInstallationRoutes`, registered from here.
///
/// Credentials as in `KiiRoutes`. App credentials stand in for Kii's app-administrator token, which the emulator
/// does not issue: they may delete a user and read or change a user's status; a user token may not change a status.
enum KiiLifecycleRoutes {
    /// What the domain's reset calls take for `{user}`: the token's userID for `me`, else the path's value
    /// (`EMAIL:`, `PHONE:`, `LOGIN_NAME:` or a userID). Another prefix: 400 `ACCOUNT_TYPE_NOT_SUPPORTED`.
    static func identifier(_ exchange: Exchange, _ caller: KiiRoutes.Caller?) throws(KiiError) -> String {
        let name = exchange.parameters["user"]
        if name == "me" {
            guard let user = caller?.user else { throw .unauthorized("users/me needs an access token (Authorization: Bearer)") }
            return user.userID
        }
        if let colon = name.firstIndex(of: ":") {
            let type = name[..<colon]
            guard ["EMAIL", "PHONE", "LOGIN_NAME"].contains(type) else {
                throw KiiError(
                    status: 400, code: "ACCOUNT_TYPE_NOT_SUPPORTED",
                    message: "The account type \(type) is not supported; use EMAIL, PHONE or LOGIN_NAME"
                )
            }
        }
        return name
    }

    /// The fields to update, with the owner's token → 200 `{"modifiedAt"}`.
    /// By hand: one route, two operations. A pseudo user's body that names an identity (by media type and body) is
    /// `users.put_identity`; any other is `users.update`, after the fields the SDKs echo back are dropped.
    static let update: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .updateUser) { app, exchange in
            let user = try KiiRoutes.owned(app, exchange).user
            let body = KiiPseudoUserRoutes.withoutEchoes(try KiiRoutes.object(exchange), of: user, app: app)
            if KiiPseudoUserRoutes.isPutIdentity(body, user: user, mediaType: exchange.mediaType) {
                exchange.operation = KiiOperation.putIdentity.name
                return try KiiPseudoUserRoutes.putIdentity(app, exchange, body)
            }
            let fields = body.properties ?? []
            // The declared call, faults included (this route also answers users.put_identity, so it stays by hand).
            guard let updated = try app.perform(.updateUser, ["userID": .string(user.userID), "fields": .properties(fields)])
                .record(as: KiiUser.self)
            else { throw KiiError.userNotFound(user.userID) }
            return KiiRoutes.withContentType(
                Reply(body: ["modifiedAt": .integer(updated.modified)]), "application/vnd.kii.UserDataRetrievalResponse+json"
            )
        }
    }

    /// The page the reset link opens (`ReplyPresenter.kiiResetLinkPage`): the password was reset ("auto-generate")
    /// and the new one sent; a used or unknown link (`failed`) gets a page that says it (404).
    static func resetLinkPage(failed error: KiiError?) -> Reply {
        guard let error else {
            return page(200, "Password reset", "Your password has been reset. A new password has been sent to you; use it to log in.")
        }
        return page(
            error.status, "Password reset failed",
            error.code == "USER_NOT_FOUND"
                ? "This password reset link is unknown or has already been used: request a new one."
                : "The password could not be reset (\(error.code)): \(error.message)",
            code: error.code
        )
    }

    /// A small HTML page; everything echoed is escaped, `%` included (no reply carries a bare `%`).
    static func page(_ status: Int, _ title: String, _ text: String, code: String? = nil) -> Reply {
        var reply = Reply.text(
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>\(HTML.escape(title))</title></head>"
                + "<body><h1>\(HTML.escape(title))</h1><p>\(HTML.escape(text))</p></body></html>\n",
            status: status, contentType: "text/html; charset=utf-8"
        )
        reply.code = code.map(Value.string)
        return reply
    }

}
