internal import Understudy

extension ControlRoutes {
    /// `GET /_understudy/oauth[?app=]` → `{"accounts": [{flavour, app_id, provider, token, secret, profile, user}]}`:
    /// the OAuth provider accounts the Backendless apps know (`app.oauth.account`), by provider then token, each
    /// with the `objectId` of the user its first login registered (null before that, or once that user is deleted).
    static let oauthAccounts = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var accounts: [JSON] = []
        for app in try request.selectedApps() {
            guard case .backendless(let backendless) = app.flavoured else { continue }
            for account in backendless.oauthAccounts {
                let profile = JSON.object(account.profile.map { .init($0.name, JSON($0.value)) })
                accounts.append(
                    .object(
                        ControlPresentation.identity(app) + [
                            .init("provider", .string(account.provider)), .init("token", .string(account.token)),
                            .init("secret", account.secret.map(JSON.string) ?? .null), .init("profile", profile),
                            .init("user", backendless.oauthUser(of: account).map { .string($0.objectID) } ?? .null),
                        ]
                    )
                )
            }
        }
        return Reply(body: ["accounts": .array(accounts)])
    }
}
