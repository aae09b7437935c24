#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import HTTPTypes
internal import Understudy

/// The Backendless routes an app calls after sign-up (contract version 2): app info, password recovery and the
/// change-password page its link opens, resending the confirmation, reading, updating and deleting a user, the
/// user's roles and the Users table's columns, password verification (CloudCode only) and a message's status.
/// Registered from `BackendlessRoutes.register`.
enum BackendlessLifecycleRoutes {
    // MARK: Plumbing

    /// 3064 when the request carries a `user-token` header that is not a live session (the SDKs send the token
    /// they hold with every call). Returns the token's user, nil when there is no header.
    @discardableResult
    static func caller(_ exchange: Exchange, _ app: BackendlessApp) throws(BackendlessError) -> BackendlessUser? {
        guard let token = exchange.header("user-token"), !token.isEmpty else { return nil }
        return try app.user(forToken: token)
    }

    /// A path segment percent-decoded, strictly.
    enum PathText {
        case text(String)
        /// Percent-encoded bytes that are not UTF-8.
        case notUTF8
        /// A `%` not followed by two hex digits: the text is not percent-encoded (it is taken as it is).
        case notEncoded
    }

    static func decode(_ raw: Substring) -> PathText {
        switch FormEncoding.percentDecoded(ArraySlice(raw.utf8), plusIsSpace: false) {
        case .text(let text): return .text(text)
        case .brokenEscape: return .notEncoded
        case .notUTF8: return .notUTF8
        }
    }

    /// The `{identity}` of the path, URL-decoded. A `%` that starts no escape leaves the text as sent; escapes
    /// that decode to bytes that are not UTF-8 answer 8002. With `rawFallback` (the JS SDK sends the identity
    /// of `resendconfirmation` unencoded), the text as sent is used when only it names a user.
    static func identity(_ exchange: Exchange, _ app: BackendlessApp, rawFallback: Bool = false) throws(BackendlessError) -> String {
        let raw = exchange.parameters.raw("identity")
        switch decode(raw) {
        case .notEncoded: return String(raw)
        case .notUTF8:
            throw .unparsableRequest("the identity in the path is not valid UTF-8 once URL-decoded")
        case .text(let text):
            if rawFallback, text != raw, app.find(identity: text) == nil, app.find(identity: String(raw)) != nil {
                return String(raw)
            }
            return text
        }
    }

    // MARK: Password recovery, confirmation

    /// `GET users/changepassword/{token}`: the recovery link's page. Not derived (issue 28): an HTML page for a
    /// browser that performs nothing (it reads the link's state), not a reply of `users.reset_password`.
    static let changePasswordPage: RouteHandler = { exchange in
        BackendlessRoutes.serve(&exchange, .resetPassword) { app, exchange in
            let token = exchange.parameters["token"]
            guard let state = app.recoveryLinkState(token) else { return RecoveryPage.invalid(used: false) }
            if state.used { return RecoveryPage.invalid(used: true) }
            return RecoveryPage.form(identity: state.identity)
        }
    }

    /// `POST users/changepassword/{token}`: the recovery page's form. Not derived (issue 28): every answer, the
    /// operation's errors included, is the HTML page again (a 415 or an unreadable form too), not the flavour's reply.
    static let changePassword: RouteHandler = { exchange in
        BackendlessRoutes.serve(&exchange, .resetPassword) { app, exchange in
            let token = exchange.parameters["token"]
            guard let state = app.recoveryLinkState(token) else { return RecoveryPage.invalid(used: false) }
            if state.used { return RecoveryPage.invalid(used: true) }
            if let type = exchange.mediaType, type != "application/x-www-form-urlencoded" {
                return RecoveryPage.form(identity: state.identity, problem: "The form must be sent as application/x-www-form-urlencoded, not \(type).", status: 415)
            }
            guard let form = RecoveryPage.fields(exchange.body) else {
                return RecoveryPage.form(identity: state.identity, problem: "The form could not be read: it is not valid URL-encoded UTF-8.")
            }
            let password = form["password"] ?? ""
            guard password == form["confirm"] ?? password else {
                return RecoveryPage.form(identity: state.identity, problem: "The two passwords differ. Nothing was changed.")
            }
            do throws(BackendlessError) {
                try app.resetPassword(linkOrToken: token, newPassword: password)
            } catch {
                if error.code == 3092 { return RecoveryPage.invalid(used: true) }
                var page = RecoveryPage.form(identity: state.identity, problem: "\(error.message) (code \(error.code)). Nothing was changed.", status: error.httpStatus)
                page.code = .int(Int64(error.code))
                return page
            }
            return RecoveryPage.done(identity: state.identity)
        }
    }

    // MARK: Users

}

extension RouteParameters {
    /// The value of parameter `name` exactly as the path carried it (not decoded); empty when there is none.
    func raw(_ name: String) -> Substring {
        guard let index = names.firstIndex(where: { $0 == name }) else { return "" }
        return values[index]
    }
}
