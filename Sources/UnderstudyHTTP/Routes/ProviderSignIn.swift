internal import Understudy

/// The replies of Backendless's browser social login (contract version 4): the authorization URL (a JSON string, or
/// a 302 to it), the stand-in provider's sign-in page, and how a sign-in ends (a popup's page posting the session to
/// its opener, a redirect to the app, or the user as JSON). Everything echoed into HTML is escaped; what a script
/// posts is JSON with every `<` written `\u003c`, so no text can close the script.
enum ProviderSignIn {
    // MARK: The authorization URL

    /// The URL as a JSON string, its `{apiKey}` the key the request used; with `redirects`, a 302 to it (same body)
    /// unless the body's `redirect` is false.
    static func authorizationURL(_ url: String, _ app: BackendlessApp, _ exchange: Exchange, redirects: Bool) -> Reply {
        let clientPrefix = "\(app.linkBase)/\(app.settings.appID)/\(app.settings.apiKey)/"
        var url = url
        let key = exchange.parameters["apiKey"]
        if !key.isEmpty, key != app.settings.apiKey, url.hasPrefix(clientPrefix) {
            url = "\(app.linkBase)/\(app.settings.appID)/\(key)/" + url.dropFirst(clientPrefix.count)
        }
        var reply = Reply(body: .string(url))
        guard redirects else { return reply }
        if let members = try? BackendlessRoutes.object(exchange), case .bool(false)? = JSON.object(members)["redirect"] {
            return reply
        }
        reply.status = 302
        reply.headers.append((name: "Location", value: url))
        return reply
    }

    // MARK: The provider's page

    /// The sign-in page: the accounts a scenario defined for the provider (one button each), then a form for any
    /// access token (and an OAuth1 secret). Both post to the page's own URL.
    static func page(_ page: OAuthProviderPage) -> Reply {
        let provider = displayName(page.request.provider)
        var body = "<main>\n<h1>Sign in with \(HTML.escape(provider))</h1>\n"
        body += "<p class=\"note\">Understudy stands in for \(HTML.escape(provider))'s sign-in page: an account a scenario defined with <code>app.oauth.account</code> signs in with its access token.</p>\n"
        if !page.accounts.isEmpty {
            body += "<section aria-labelledby=\"accounts\">\n<h2 id=\"accounts\">Accounts of this provider</h2>\n<ul class=\"accounts\">\n"
            for account in page.accounts {
                body += "<li><form method=\"post\">"
                body += "<input type=\"hidden\" name=\"accessToken\" value=\"\(HTML.escape(account.token))\">"
                if let secret = account.secret {
                    body += "<input type=\"hidden\" name=\"accessTokenSecret\" value=\"\(HTML.escape(secret))\">"
                }
                body += "<button type=\"submit\">Continue as \(HTML.escape(label(account)))</button></form></li>\n"
            }
            body += "</ul>\n</section>\n"
        }
        body += """
            <section aria-labelledby="token">
            <h2 id="token">Sign in with an access token</h2>
            <form method="post">
              <p><label for="accessToken">Access token</label>
              <input id="accessToken" name="accessToken" required autocomplete="off"></p>
              <p><label for="accessTokenSecret">Access token secret (OAuth 1 providers such as Twitter)</label>
              <input id="accessTokenSecret" name="accessTokenSecret" autocomplete="off"></p>
              <p><button type="submit">Sign in</button></p>
            </form>
            </section>

            """
        body += "<p class=\"ending\">\(ending(of: page.request))</p>\n"
        if !page.request.permissions.isEmpty {
            body += "<p>The app asks for: \(page.request.permissions.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ")).</p>\n"
        }
        return html(title: "Sign in with \(provider)", body + "</main>\n", status: 200)
    }

    /// What happens after the sign-in, in words.
    private static func ending(of request: OAuthAuthorizationRequest) -> String {
        if request.popup { return "After the sign-in this window sends the session to the app that opened it." }
        if let redirect = request.redirectAfterLogin {
            return "After the sign-in the browser goes back to <code>\(HTML.escape(redirect))</code> with <code>userId</code> and <code>userToken</code>."
        }
        return "After the sign-in the server answers the user and its <code>user-token</code> as JSON."
    }

    /// How the page names an account: its profile's `name` and `email`, else its `id`.
    private static func label(_ account: OAuthAccount) -> String {
        let name = account.profile[named: "name"]?.stringValue
        let email = account.profile[named: "email"]?.stringValue
        switch (name, email) {
        case (let name?, let email?): return "\(name) (\(email))"
        case (let name?, nil): return name
        case (nil, let email?): return email
        case (nil, nil): return account.profileID
        }
    }

    /// The provider as people know it (`googleplus` is Google).
    static func displayName(_ provider: String) -> String {
        switch provider {
        case "facebook": return "Facebook"
        case "googleplus", "google": return "Google"
        case "twitter": return "Twitter"
        case "github": return "GitHub"
        case "linkedin": return "LinkedIn"
        case "apple": return "Apple"
        default: return provider.prefix(1).uppercased() + provider.dropFirst()
        }
    }

    // MARK: The end of a sign-in

    /// A popup's page posting the user and its `user-token`; a 302 to the app's page with `userId` and
    /// `userToken`; or the user as JSON.
    static func ending(_ signIn: OAuthSignIn) -> Reply {
        let user = BackendlessWire.user(signIn.session.user, token: signIn.session.token)
        if signIn.popup {
            return posting(user, heading: "Signed in", text: "You are signed in. This window sends the session to the app that opened it.", status: 200)
        }
        if let redirect = signIn.redirect {
            var reply = Reply(status: 302)
            reply.headers.append((name: "Location", value: redirect))
            return reply
        }
        return Reply(body: user)
    }

    /// A popup's sign-in that failed: the page posts `{"fault": message}`, with the error's status and code.
    static func popupFailure(_ error: BackendlessError) -> Reply {
        var reply = posting(
            .object([.init("fault", .string(error.message))]), heading: "Sign-in failed",
            text: "\(error.message) (Backendless error \(error.code)). This window tells the app that opened it.",
            status: error.httpStatus
        )
        reply.code = .int(Int64(error.code))
        return reply
    }

    /// A page whose script posts `message` (as JSON text) to the window that opened it, or to the page holding
    /// it in a frame (the JS SDK's container for Google).
    private static func posting(_ message: JSON, heading: String, text: String, status: Int) -> Reply {
        let literal = JSONWriter.string(message).replacingAll("<", with: "\\u003c")
        let body = """
            <main>
            <h1>\(HTML.escape(heading))</h1>
            <p role="status">\(HTML.escape(text))</p>
            </main>
            <script>
            (function () {
              var message = JSON.stringify(\(literal));
              var target = window.opener || (window.parent !== window ? window.parent : null);
              if (target) { target.postMessage(message, "*"); }
            }());
            </script>

            """
        return html(title: heading, body, status: status)
    }

    private static func html(title: String, _ body: String, status: Int) -> Reply {
        Reply.text(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · Understudy</title>
            <style>
            body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 34rem; padding: 0 1rem; color: #1d2125; }
            h1 { font-size: 1.5rem; } h2 { font-size: 1.1rem; margin-top: 1.5rem; }
            .note, .ending { color: #4a5056; }
            ul.accounts { list-style: none; padding: 0; } ul.accounts li { margin: .4rem 0; }
            label { display: block; font-weight: 600; }
            input { font: inherit; padding: .35rem .5rem; width: 100%; box-sizing: border-box; }
            button { font: inherit; padding: .4rem 1rem; cursor: pointer; }
            </style>
            </head>
            <body>
            \(body)</body>
            </html>

            """, status: status, contentType: "text/html; charset=utf-8"
        )
    }
}

extension String {
    /// Every `target` replaced with `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 8)
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
