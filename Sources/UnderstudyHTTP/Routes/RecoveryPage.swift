internal import Understudy

/// The change-password page a Backendless recovery link opens: a small HTML form that really resets the password,
/// and the pages that say it worked or why it cannot. Everything echoed into the HTML is escaped.
enum RecoveryPage {
    /// The form, with `problem` shown above it when a submission was refused.
    static func form(identity: String, problem: String? = nil, status: Int? = nil) -> Reply {
        var body = "<h1>Choose a new password</h1>\n<p>For <strong>\(HTML.escape(identity))</strong>.</p>\n"
        if let problem { body += "<p class=\"problem\" role=\"alert\">\(HTML.escape(problem))</p>\n" }
        return page(body + formHTML, status: status ?? (problem == nil ? 200 : 400))
    }

    private static let formHTML = """
        <form method="post">
          <p><label for="password">New password</label>
          <input type="password" id="password" name="password" required autocomplete="new-password"></p>
          <p><label for="confirm">Repeat the new password</label>
          <input type="password" id="confirm" name="confirm" required autocomplete="new-password"></p>
          <p><button type="submit">Change password</button></p>
        </form>

        """

    /// The link is unknown, or was already used (410).
    static func invalid(used: Bool) -> Reply {
        if used {
            var reply = page(
                "<h1>This link was already used</h1>\n<p>The password was already changed with this link. To change it again, ask for a new password-recovery email.</p>\n",
                status: 410
            )
            reply.code = .int(3092)
            return reply
        }
        var reply = page(
            "<h1>This link is not valid</h1>\n<p>No password-recovery link of this app has this address. Ask for a new password-recovery email.</p>\n",
            status: 404
        )
        reply.code = .int(3092)
        return reply
    }

    /// The password was changed.
    static func done(identity: String) -> Reply {
        page(
            "<h1>Your password has been changed</h1>\n<p>You can now log in as <strong>\(HTML.escape(identity))</strong> with the new password.</p>\n",
            status: 200
        )
    }

    private static func page(_ body: String, status: Int) -> Reply {
        Reply.text(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Change password</title></head>
            <body>
            \(body)</body>
            </html>

            """, status: status, contentType: "text/html; charset=utf-8"
        )
    }

    /// The fields of an `application/x-www-form-urlencoded` body (the first of a repeated name); nil when an
    /// escape is broken or the bytes are not UTF-8.
    static func fields(_ body: [UInt8]) -> [String: String]? {
        guard let pairs = FormEncoding.strictPairs(body) else { return nil }
        return Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
