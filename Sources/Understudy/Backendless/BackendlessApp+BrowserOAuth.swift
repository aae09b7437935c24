/// Social login in the browser (contract version 4): the app asks for a provider's authorization URL
/// (`users.oauth_url`), the browser opens it (the emulator stands in for the provider's sign-in page,
/// `users.oauth_page`), the user signs in there with a scripted provider account (`users.oauth_authorize`), and the
/// flow ends as the request asked: in a popup that posts the session to its opener, by a redirect to the app's
/// `redirect_after_login_url` with `userId` and `userToken`, or with the user as JSON. The login itself is
/// version 3's `users.login_oauth` (`loginOAuth`), with the URL's `fields_mapping`.
extension BackendlessApp {
    /// `oauth.authorization_url(provider, options?)`: a new authorization request and the URL of its sign-in page,
    /// `{linkBase}/{appId}/{apiKey}/users/oauth/{provider}/authorize?state={state}` (provider lower-cased, a state
    /// of 32 letters and digits from the seeded generator). Every provider code gets one.
    package func authorizationURL(provider: String, options: OAuthURLOptions) -> String {
        let request = OAuthAuthorizationRequest(
            state: random.nextLettersAndDigits(32), provider: provider.lowercasedIfNeeded(), options: options
        )
        oauth.requests[request.state] = request
        oauth.requestBytes += request.heldBytes
        return authorizationURL(of: request)
    }

    /// The URL of a request's sign-in page, under the client key.
    func authorizationURL(of request: OAuthAuthorizationRequest) -> String {
        "\(linkBase)/\(settings.appID)/\(settings.apiKey)/users/oauth/\(request.provider)/authorize?state=\(request.state)"
    }

    /// The request a URL of `authorizationURL` names, while it can still be used; nil for a URL no request made,
    /// one already used, or one whose path names another provider. Changes nothing (`GET {url}` does nothing).
    package func authorizationRequest(url: String) -> OAuthAuthorizationRequest? {
        guard let named = OAuthAuthorizationRequest.parse(url), let request = oauth.requests[named.state],
            request.provider == named.provider
        else { return nil }
        return request
    }

    /// The stand-in provider's sign-in page for a URL (`users.oauth_page`, HTTP only): the request and the
    /// provider accounts a scenario defined for its provider. Errors: a fault; 3080 for a URL no request made or one
    /// already used.
    package func providerPage(url: String) throws(BackendlessError) -> OAuthProviderPage {
        guard let request = authorizationRequest(url: url) else { throw .wrongAuthorizationURL }
        return OAuthProviderPage(request: request, accounts: oauth.sortedAccounts.filter { $0.provider == request.provider })
    }

    /// `oauth.authorize(url, token, options?)`: the user signs in on the page of `url` with the provider account
    /// whose access token is `token`. Logs in as `users.login_oauth` does, with the request's `fields_mapping`; a
    /// success uses the URL up, a failure leaves it usable. Errors, in order: a fault; 3080 a URL no request made
    /// or one already used; then `loginOAuth`'s (3034; 3052; on a first login 3009, 3014, 3021; later 3090, 3036).
    package func authorize(url: String, token: String, secret: String?) throws(BackendlessError) -> OAuthSignIn {
        guard let request = authorizationRequest(url: url) else { throw .wrongAuthorizationURL }
        let session = try logInThroughProvider(
            provider: request.provider, token: token,
            options: OAuthLoginOptions(fieldsMapping: request.fieldsMapping, secret: secret)
        )
        oauth.requests[request.state] = nil
        oauth.requestBytes -= request.heldBytes
        return OAuthSignIn(session: session, redirect: request.redirect(for: session), popup: request.popup)
    }
}

/// The options of `oauth.authorization_url` (over HTTP: the body of `request_url`).
package struct OAuthURLOptions: Sendable, Hashable {
    /// Profile field → user property, applied at the account's first login, in this order.
    package var fieldsMapping: [OAuthFieldMapping] = []
    /// The scopes asked of the provider: kept with the request, not checked.
    package var permissions: [String] = []
    /// Where the browser goes after a successful sign-in (with `userId` and `userToken`).
    package var redirectAfterLogin: String?
    /// The sign-in ends in a popup that posts the session to its opener (wins over `redirectAfterLogin`).
    package var popup = false

    package init() {}

    /// The options from a call's declared fields (`fields_mapping`, `permissions`, `redirect_after_login_url`,
    /// `popup`), as the adapters read and checked them; nil gives the defaults.
    package init(fields: [String: Value]?) {
        guard let fields else { return }
        if case .object(let mapping)? = fields["fields_mapping"] {
            for key in mapping.keys.sorted() {
                if let property = mapping[key]?.stringValue { fieldsMapping.append(OAuthFieldMapping(key, to: property)) }
            }
        }
        if case .array(let scopes)? = fields["permissions"] {
            for scope in scopes { if let text = scope.stringValue { permissions.append(text) } }
        }
        redirectAfterLogin = fields["redirect_after_login_url"]?.stringValue
        if case .bool(let flag)? = fields["popup"] { popup = flag }
    }
}

/// One authorization request: what its URL's `state` names until a sign-in uses it up.
package struct OAuthAuthorizationRequest: Sendable, Hashable {
    package var state: String
    /// The provider code, lower-cased.
    package var provider: String
    package var fieldsMapping: [OAuthFieldMapping]
    package var permissions: [String]
    /// Nil when the request is a popup's (popup wins) or names none.
    package var redirectAfterLogin: String?
    package var popup: Bool

    init(state: String, provider: String, options: OAuthURLOptions) {
        self.state = state
        self.provider = provider
        fieldsMapping = options.fieldsMapping
        permissions = options.permissions
        popup = options.popup
        redirectAfterLogin = options.popup ? nil : options.redirectAfterLogin
    }

    /// What the request holds, for the memory account.
    var heldBytes: Int {
        var bytes = HeldBytes.perRegistration + state.utf8.count + provider.utf8.count
        if let redirectAfterLogin { bytes += redirectAfterLogin.utf8.count }
        for entry in fieldsMapping { bytes += entry.profileField.utf8.count + entry.property.utf8.count }
        for scope in permissions { bytes += scope.utf8.count }
        return bytes
    }

    /// Where the browser goes after `session` signed in: the request's `redirectAfterLogin` with
    /// `userId={objectId}&userToken={token}` appended (after `?`, or `&` when it has a query already); nil for none.
    func redirect(for session: BackendlessSession) -> String? {
        guard let base = redirectAfterLogin else { return nil }
        let query = "userId=\(session.user.objectID)&userToken=\(session.token)"
        let (head, fragment) = base.splitOnce(at: "#")
        let joiner = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return head + joiner + query + (fragment.map { "#" + $0 } ?? "")
    }

    /// The state and provider a sign-in page URL names: `…/users/oauth/{provider}/authorize?…state=…`; nil when
    /// the URL is not one.
    static func parse(_ url: String) -> (state: String, provider: String)? {
        let (path, query) = url.splitOnce(at: "?")
        guard let query else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let last = segments.count - 1
        guard segments.count >= 4, segments[last] == "authorize", segments[last - 2] == "oauth", segments[last - 3] == "users",
            !segments[last - 1].isEmpty
        else { return nil }
        let provider = String(segments[last - 1]).lowercasedIfNeeded()
        for pair in query.split(separator: "&") where pair.hasPrefix("state=") {
            return (String(pair.dropFirst("state=".count)), provider)
        }
        return nil
    }
}

/// The stand-in provider's sign-in page: the request it signs in for, and the provider accounts a scenario defined
/// for its provider (the page offers each).
package struct OAuthProviderPage: Sendable {
    package var request: OAuthAuthorizationRequest
    package var accounts: [OAuthAccount]
}

/// A successful sign-in on the provider page: the session, and how the flow ends.
package struct OAuthSignIn: Sendable, Hashable {
    package var session: BackendlessSession
    /// The app's page with `userId` and `userToken`, for a request made with `redirect_after_login_url`.
    package var redirect: String?
    /// The request was a popup's: the page posts the session to its opener.
    package var popup: Bool
}

extension OAuthSignIn: Presentable {
    /// `{ user, token, redirect? }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("user", record: session.user)
        writer.write("token", session.token)
        writer.write("redirect", redirect)
    }
}

extension OAuthProviderPage: Presentable {
    /// `{ provider, state, popup, redirect_after_login_url?, permissions, accounts }` (accounts: their profile ids).
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("provider", request.provider)
        writer.write("state", request.state)
        writer.write("popup", request.popup)
        writer.write("redirect_after_login_url", request.redirectAfterLogin)
        writer.write("permissions", strings: request.permissions)
        writer.write("accounts", strings: accounts.map(\.profileID))
    }
}

extension BackendlessError {
    /// 3080: a sign-in page URL no `authorization_url` made, one already used, or one whose path names another
    /// provider.
    static let wrongAuthorizationURL = catalogue(3080)
}

extension SeededGenerator {
    /// `count` letters and digits (`A-Z`, `a-z`, `0-9`).
    package mutating func nextLettersAndDigits(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count { bytes[index] = alphabet[Int(next() % UInt64(alphabet.count))] }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// The text before the first `separator` and, when there is one, the text after it.
    func splitOnce(at separator: Character) -> (String, String?) {
        guard let index = firstIndex(of: separator) else { return (self, nil) }
        return (String(self[..<index]), String(self[self.index(after: index)...]))
    }
}
