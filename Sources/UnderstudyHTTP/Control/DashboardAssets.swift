/// The dashboard's files, compiled into the binary from Sources/UnderstudyHTTP/Dashboard (Package.swift lists
/// them), with their content types and the headers every one is served with.
enum DashboardAssets {
    /// The page's Content-Security-Policy: scripts, styles and requests from this server only, no inline script,
    /// no framing. Every string from the apps is put in the page as text, so it can never become markup.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// File name → (bytes, content type).
    static let files: [String: (bytes: [UInt8], type: String)] = [
        "index.html": (PackageResources.index_html, "text/html; charset=utf-8"),
        "dashboard.css": (PackageResources.dashboard_css, "text/css; charset=utf-8"),
        "main.js": (PackageResources.main_js, javaScript),
        "api.js": (PackageResources.api_js, javaScript),
        "dom.js": (PackageResources.dom_js, javaScript),
        "apps.js": (PackageResources.apps_js, javaScript),
        "users.js": (PackageResources.users_js, javaScript),
        "outbox.js": (PackageResources.outbox_js, javaScript),
        "devices.js": (PackageResources.devices_js, javaScript),
        "faults.js": (PackageResources.faults_js, javaScript),
        "journal.js": (PackageResources.journal_js, javaScript),
        "lua.js": (PackageResources.lua_js, javaScript),
        "oauth.js": (PackageResources.oauth_js, javaScript),
        "kii.js": (PackageResources.kii_js, javaScript),
        "coverage.js": (PackageResources.coverage_js, javaScript),
        "roles.js": (PackageResources.roles_js, javaScript),
        "world.js": (PackageResources.world_js, javaScript),
        "record.js": (PackageResources.record_js, javaScript),
    ]

    static let javaScript = "text/javascript; charset=utf-8"

    /// The reply for file `name`: its bytes with the CSP and no-sniff headers; nil for a file the dashboard lacks.
    static func reply(for name: String) -> Reply? {
        guard let file = files[name] else { return nil }
        var reply = Reply.text(String(decoding: file.bytes, as: UTF8.self), contentType: file.type)
        reply.headers = [
            ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-cache"),
        ]
        return reply
    }
}
