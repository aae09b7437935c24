internal import HTTPTypes
internal import Understudy

/// The Kii account lifecycle over HTTP (`lifecycle.md`, "Over HTTP"): password reset (request, complete, and the
/// page the emailed or texted link opens), password change, profile update, deletion and disabling. Push
/// installations are in `KiiInstallationRoutes`, registered from here.
///
/// Credentials as in `KiiRoutes`. App credentials stand in for Kii's app-administrator token, which the emulator
/// does not issue: they may delete a user and read or change a user's status; a user token may not change a status.
enum KiiLifecycleRoutes {
    static func register(in table: inout RouteTable<RouteHandler>) {
        table.add(KiiOperation.requestPasswordReset, requestReset)
        table.add(KiiOperation.completePasswordReset, completeReset)
        table.add(KiiOperation.changePassword, changePassword)
        table.add(KiiOperation.updateUser, update)
        table.add(KiiOperation.deleteUser, delete)
        table.add(KiiOperation.setDisabled, setStatus)
        table.add(KiiOperation.userStatus, getStatus)
        table.add(KiiOperation.openResetLink, resetLinkPage)
        KiiInstallationRoutes.register(in: &table)
        KiiTopicRoutes.register(in: &table)
    }

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

    /// `{}` or `{"notificationMethod": "EMAIL"|"SMS", "smsResetMethod"?: "URL"|"PIN"}` → 204.
    static let requestReset: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .requestPasswordReset) { app, exchange in
            let caller = try KiiRoutes.anyCaller(app, exchange)
            let body = try KiiRoutes.object(exchange)
            let user = try identifier(exchange, caller)
            let method: KiiResetMethod
            switch try KiiRoutes.string(body, "notificationMethod") {
            case nil, "EMAIL"?: method = .email
            case "SMS"?:
                switch try KiiRoutes.string(body, "smsResetMethod") {
                case nil, "URL"?: method = .sms
                case "PIN"?: method = .smsPIN
                case let other?:
                    throw KiiError.invalidInput(field: "smsResetMethod", value: other, message: "smsResetMethod must be URL or PIN")
                }
            case let other?:
                throw KiiError.invalidInput(
                    field: "notificationMethod", value: other, message: "notificationMethod must be EMAIL or SMS"
                )
            }
            try app.requestPasswordReset(identifier: user, method: method)
            return Reply(status: 204)
        }
    }

    /// `{"pinCode", "newPassword"}` → 204.
    static let completeReset: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .completePasswordReset) { app, exchange in
            let caller = try KiiRoutes.anyCaller(app, exchange)
            let body = try KiiRoutes.object(exchange)
            let user = try identifier(exchange, caller)
            let pin = try KiiRoutes.string(body, "pinCode") ?? ""
            let password = try KiiRoutes.string(body, "newPassword") ?? ""
            try app.completePasswordReset(identifier: user, pin: pin, newPassword: password)
            return Reply(status: 204)
        }
    }

    /// `{"oldPassword", "newPassword"}` with the owner's token → 204.
    static let changePassword: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .changePassword) { app, exchange in
            let user = try KiiRoutes.owned(app, exchange).user
            let body = try KiiRoutes.object(exchange)
            let old = try KiiRoutes.requiredString(body, "oldPassword")
            let new = try KiiRoutes.requiredString(body, "newPassword")
            try app.changePassword(userID: user.userID, oldPassword: old, newPassword: new)
            return Reply(status: 204)
        }
    }

    /// The fields to update, with the owner's token → 200 `{"modifiedAt"}`.
    static let update: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .updateUser) { app, exchange in
            let user = try KiiRoutes.owned(app, exchange).user
            let body = KiiPseudoUserRoutes.withoutEchoes(try KiiRoutes.object(exchange), of: user, app: app)
            if KiiPseudoUserRoutes.isPutIdentity(body, user: user, mediaType: exchange.mediaType) {
                exchange.operation = KiiOperation.putIdentity.name
                return try KiiPseudoUserRoutes.putIdentity(app, exchange, body)
            }
            let fields = body.properties ?? []
            let updated = try app.update(userID: user.userID, fields: fields)
            return KiiRoutes.withContentType(
                Reply(body: ["modifiedAt": .integer(updated.modified)]), "application/vnd.kii.UserDataRetrievalResponse+json"
            )
        }
    }

    /// The owner's token or app credentials → 204.
    static let delete: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .deleteUser) { app, exchange in
            let user = try KiiRoutes.owned(app, exchange, appAllowed: true).user
            try app.delete(userID: user.userID)
            return Reply(status: 204)
        }
    }

    /// `{"disabled": true|false}` with app credentials → 204.
    static let setStatus: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .setDisabled) { app, exchange in
            let caller = try KiiRoutes.anyCaller(app, exchange)
            guard case .app = caller else {
                throw KiiError.unauthorized("Only the application administrator (app credentials here) may change a user's status")
            }
            let user = try KiiRoutes.target(app, exchange, caller)
            let body = try KiiRoutes.object(exchange)
            guard case .bool(let disabled)? = body["disabled"] else {
                throw KiiError.invalidInput(
                    field: "disabled", value: body["disabled"].map(JSONWriter.string),
                    message: "disabled is required and must be a boolean"
                )
            }
            try app.setDisabled(userID: user.userID, disabled: disabled)
            return Reply(status: 204)
        }
    }

    /// `{"disabled": bool}` for app credentials or the owner's token.
    static let getStatus: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .userStatus) { app, exchange in
            let user = try KiiRoutes.owned(app, exchange, appAllowed: true).user
            return Reply(body: ["disabled": .bool(user.disabled)])
        }
    }

    /// The page the reset link opens: resets the password ("auto-generate"), sends the new one, and says so; a
    /// used or unknown link gets a page that says it (404).
    static let resetLinkPage: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .openResetLink) { app, exchange in
            let code = exchange.queryItem("code") ?? ""
            do throws(KiiError) {
                try app.openResetLink(code)
                return page(
                    200, "Password reset",
                    "Your password has been reset. A new password has been sent to you; use it to log in."
                )
            } catch {
                return page(
                    error.status, "Password reset failed",
                    error.code == "USER_NOT_FOUND"
                        ? "This password reset link is unknown or has already been used: request a new one."
                        : "The password could not be reset (\(error.code)): \(error.message)",
                    code: error.code
                )
            }
        }
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
