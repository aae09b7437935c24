/// Who reads another user's record (`GET users/{user}`, contract v4).
package enum KiiViewer: Sendable, Hashable {
    /// An access token: a user's, or an application administrator's (`oauth2/token` with client credentials).
    case token(String)
    /// The application administrator by its credentials (Basic `appID:appKey`).
    case administrator
    /// The app's headers alone (`X-Kii-AppID`/`X-Kii-AppKey`): an anonymous app.
    case anonymous
}

/// A user's record as a reader may see it: the full record (the user themself, an administrator, or anyone when
/// `expose_full_user_data` is on), or only `userID`, `loginName` and `displayName`, those the user has.
package enum KiiUserView: Sendable, Hashable, Presentable {
    case full(KiiUser)
    case reduced(KiiUser)

    package var user: KiiUser {
        switch self {
        case .full(let user), .reduced(let user): return user
        }
    }

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        switch self {
        case .full(let user): user.present(to: &writer)
        case .reduced(let user):
            writer.write("userID", user.userID)
            if let loginName = user.loginName { writer.write("loginName", loginName) }
            if let displayName = user.displayName { writer.write("displayName", displayName) }
        }
    }
}

extension KiiApp {
    /// What `GET users/{identifier}` answers to `token` (`users.lookup`). `identifier` is a userID, `LOGIN_NAME:`,
    /// `EMAIL:` or `PHONE:` with a value, or a username, an email address or a `+international` phone number; an
    /// address that is not verified finds nobody.
    ///
    /// Errors, in this order: 401 `UNAUTHORIZED` for a token the app never issued; 403 `WRONG_TOKEN` for one that
    /// stopped working; 404 `USER_NOT_FOUND`.
    package func lookup(identifier: String, token: String) throws(KiiError) -> KiiUserView {
        try lookup(identifier: identifier, viewer: .token(token))
    }

    /// `lookup` for any reader (the HTTP adapter's administrator by credentials and anonymous app too).
    package func lookup(identifier: String, viewer: KiiViewer) throws(KiiError) -> KiiUserView {
        var readerID: String?
        var administrator = false
        switch viewer {
        case .administrator: administrator = true
        case .anonymous: break
        case .token(let text):
            if isAdminToken(text) {
                administrator = true
            } else {
                readerID = try user(forToken: text).userID
            }
        }
        let found: KiiStoredUser?
        if let id = Identifier128(parsing: identifier) {
            found = users[id]
        } else {
            found = resolve(identifier)
        }
        guard let found else { throw .userNotFound(identifier) }
        let user = found.snapshot()
        if administrator || readerID == user.userID || settings.exposeFullUserData { return .full(user) }
        return .reduced(user)
    }

    /// The `mfa` grant of `oauth2/token` (`users.login_mfa`): the emulator enrols no user in MFA, so no sign-in is
    /// ever pending and every code is refused as the live service refuses one with nothing pending. Errors: 400
    /// `invalid_grant` "The MFA code is not valid".
    package func loginMFA(totpCode: String?, recoveryCode: String?) throws(KiiError) -> Never {
        throw .mfaCodeNotValid
    }
}
