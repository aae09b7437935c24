public import Understudy

/// One HTTP request of an example, to send to `understudy serve` (as curl shows it).
public struct ExampleRequest: Sendable {
    public var method: String
    /// The path from the server's root, `/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY/users/register`.
    public var path: String
    public var headers: [(name: String, value: String)]
    public var body: String?

    public init(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: String? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The curl command against a server at `base` (`http://127.0.0.1:8080`), printing the body and the status.
    public func curl(base: String = "http://127.0.0.1:8080") -> String {
        var command = "curl -s -w ' %{http_code}\\n' -X \(method) '\(base)\(path)'"
        for header in headers { command += " -H '\(header.name): \(header.value)'" }
        if let body { command += " -d '\(body)'" }
        return command
    }
}

/// How to produce a catalogued code: a minimal scenario by its real trigger (or by injection when that is the
/// only way in Lua) and HTTP requests whose last one answers it from `understudy serve` (started with no script,
/// after `POST /_understudy/reset`). `understudy explain` prints them; a test runs both.
public struct CodeExample: Sendable {
    /// A scenario file with one scenario that passes only when the code is produced.
    public var scenario: String?
    /// Requests in order; the last answers the code.
    public var requests: [ExampleRequest]

    static let bl = "/\("UNDERSTUDY-APP")/\("UNDERSTUDY-REST-KEY")"
    static let kii = "/api/apps/understudy-kii-app"
    static let json = [(name: "Content-Type", value: "application/json")]
    static let text = [(name: "Content-Type", value: "text/plain")]
    /// A `POST /_understudy/lua` that defines Q's Facebook account (token `fb-q`, `secret` when given) on the
    /// served Backendless app.
    static func oauthAccount(secret: String? = nil) -> ExampleRequest {
        let secretField = secret.map { #", secret = "\#($0)""# } ?? ""
        return ExampleRequest(
            "POST", "/_understudy/lua", headers: text,
            body: #"understudy.app("backendless").oauth.account{ provider = "facebook", token = "fb-q"\#(secretField), profile = { id = "1007", email = "q@mi6.co.uk" } }"#
        )
    }
    /// Q's first (or later) login with the Facebook token, the email mapped.
    static let oauthLogin = ExampleRequest(
        "POST", bl + "/users/social/facebook/login", headers: json, body: #"{"accessToken":"fb-q","fieldsMapping":{"email":"email"}}"#
    )
    /// The objectId and user-token `oauthLogin` gets as the first login of a freshly reset server (seed 1): the
    /// examples of a social user's update use them.
    static let oauthUser = "48770E42-9E61-8BB3-C9BD-B19542392698"
    static let oauthToken = "7E4FBF00-3155-495C-65BD-678D9726C2FB"
    static func socialUpdate(_ body: String) -> [ExampleRequest] {
        [
            oauthAccount(), oauthLogin,
            ExampleRequest("PUT", bl + "/users/" + oauthUser, headers: json + [(name: "user-token", value: oauthToken)], body: body),
        ]
    }
    static let kiiApp = json + [(name: "Authorization", value: "Basic dW5kZXJzdHVkeS1raWktYXBwOnVuZGVyc3R1ZHkta2lpLWtleQ==")]

    /// The example for a catalogued code; nil when none is written yet.
    public static func example(for entry: ErrorCatalogue.Entry) -> CodeExample? {
        let scenario = scenarios[entry.flavour.rawValue + ":" + entry.code] ?? injectionScenario(entry)
        let requests = http[entry.flavour.rawValue + ":" + entry.code] ?? injectionRequests(entry) ?? []
        if scenario == nil && requests.isEmpty { return nil }
        return CodeExample(scenario: scenario.map { wrap(entry, $0) }, requests: requests)
    }

    private static func wrap(_ entry: ErrorCatalogue.Entry, _ body: String) -> String {
        let check = entry.flavour == .backendless ? entry.code : "{ status = \(entry.status), code = \"\(entry.code)\" }"
        let indented = body.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        return """
            scenario("\(entry.flavour.rawValue) \(entry.code)", function()
              local app = understudy.\(entry.flavour.rawValue)(\(settings[entry.flavour.rawValue + ":" + entry.code] ?? ""))
            \(indented.replacingAll("¤", with: "expect.error(\(check), "))
            end)

            """
    }

    /// Codes reachable only by injection: a fault on the first operation that answers them.
    private static func injectionScenario(_ entry: ErrorCatalogue.Entry) -> String? {
        guard entry.reach == .injectionOnly else { return nil }
        let code = entry.flavour == .backendless ? entry.code : "\"\(entry.code)\", status = \(entry.status)"
        let call = entry.flavour == .backendless
            ? "app.users.register{ email = \"q@mi6.co.uk\", password = \"gadgets4U\" }"
            : "app.users.register{ username = \"bond007\", password = \"123ABC\" }"
        return "app.faults.inject{ op = \"users.register\", code = \(code), times = 1 }\n¤\(call))"
    }

    private static func injectionRequests(_ entry: ErrorCatalogue.Entry) -> [ExampleRequest]? {
        guard entry.reach == .injectionOnly else { return nil }
        if entry.flavour == .backendless {
            return [
                ExampleRequest("POST", "/_understudy/faults", body: #"{"app":"backendless","op":"users.register","code":\#(entry.code),"times":1}"#),
                ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"q@mi6.co.uk","password":"gadgets4U"}"#),
            ]
        }
        return [
            ExampleRequest("POST", "/_understudy/faults", body: #"{"app":"kii","op":"users.register","code":"\#(entry.code)","status":\#(entry.status),"times":1}"#),
            ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"loginName":"bond007","password":"123ABC"}"#),
        ]
    }

    /// Settings given to the backend of the scenario, by `flavour:code`.
    static let settings: [String: String] = [
        "backendless:3002": #"{ multiple_logins = "deny" }"#,
        "backendless:3009": "{ registration = false }",
        "backendless:3010": "{ dynamic_properties = false }",
        "backendless:3012": "{ properties = { codename = { required = true } } }",
        "backendless:3034": "{ logins = false }",
        "backendless:3036": "{ lockout_after = 1 }",
        "backendless:3041": "{ properties = { codename = { required = true } } }",
        "backendless:3044": "{ multiple_logins = 1 }",
        "backendless:3078": "{ email_confirmation = true, identity = \"name\" }",
        "backendless:3087": "{ email_confirmation = true }",
        "backendless:3101": "{ password_recovery = false }",
        "backendless:3102": "{ email_confirmation = true }",
        "backendless:3104": "{ email_confirmation = true }",
        "backendless:3075": #"{ password_recovery = "link" }"#,
        "kii:INVALID_VERIFICATION_CODE": "{ email_verification = true }",
        "kii:PHONE_NUMBER_VERIFICATION_CODE_EXPIRED": "{ phone_verification = true }",
        "kii:INVALID_STATUS": "{ email_verification = true }",
    ]

    /// Q's first login through Facebook, for the codes of a social user: `session` is the social user's.
    private static let oauth = """
        app.oauth.account{ provider = "facebook", token = "fb-q", profile = { id = "1007", email = "q@mi6.co.uk" } }
        local session = expect.ok(app.users.login_oauth("facebook", "fb-q", { fields_mapping = { email = "email" } }))
        """

    /// The scenario bodies by `flavour:code`; `¤` stands for `expect.error(CODE, ` (closed by the line's `)`).
    static let scenarios: [String: String] = [
        "backendless:1000": #"¤app.users.confirm_email("no-such-id"))"#,
        "backendless:3002": """
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
            ¤app.users.login("q@mi6.co.uk", "gadgets4U"))
            """,
        "backendless:3003": #"¤app.users.login("nobody@mi6.co.uk", "secret"))"#,
        "backendless:3006": #"¤app.users.login("", "secret"))"#,
        "backendless:3009": #"¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })"#,
        "backendless:3010": #"¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U", rank = "Q" })"#,
        "backendless:3011": #"¤app.users.register{ email = "q@mi6.co.uk" })"#,
        "backendless:3012": #"¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })"#,
        "backendless:3013": #"¤app.users.register{ password = "gadgets4U" })"#,
        "backendless:3033": """
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            ¤app.users.register{ email = "Q@MI6.CO.UK", password = "other" })
            """,
        "backendless:3034": #"¤app.users.login("q@mi6.co.uk", "gadgets4U"))"#,
        "backendless:3036": """
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            expect.error(3003, app.users.login("q@mi6.co.uk", "wrong"))
            ¤app.users.login("q@mi6.co.uk", "gadgets4U"))
            """,
        "backendless:3038": "¤app.users.register{})",
        "backendless:3039": #"¤app.users.register{ objectId = "not-a-guest", email = "q@mi6.co.uk", password = "gadgets4U" })"#,
        "backendless:3040": #"¤app.users.register{ email = "not-an-email", password = "gadgets4U" })"#,
        "backendless:3041": #"¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U", codename = "" })"#,
        "backendless:3043": #"¤app.users.register{ email = "q@mi6.co.uk", Email = "q@mi6.co.uk", password = "gadgets4U" })"#,
        "backendless:3044": """
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
            ¤app.users.login("q@mi6.co.uk", "gadgets4U"))
            """,
        "backendless:3064": #"¤app.users.logout("no-such-token"))"#,
        "backendless:3078": #"¤app.users.register{ name = "Q", password = "gadgets4U" })"#,
        "backendless:3087": """
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            ¤app.users.login("q@mi6.co.uk", "gadgets4U"))
            """,
        "backendless:3090": """
            local user = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            expect.ok(app.users.set_status(user.objectId, "DISABLED"))
            ¤app.users.login("q@mi6.co.uk", "gadgets4U"))
            """,
        "backendless:5001": #"¤app.devices.unregister("no-such-device"))"#,
        "backendless:5004": #"¤app.devices.register{ token = "a1b2", device_id = "phone-1", os = "IOS", expiration = app.clock.now() })"#,
        "backendless:5011": #"¤app.devices.register{ token = "a1b2", os = "IOS" })"#,
        "backendless:5044": #"¤app.devices.register{ token = "a1b2", device_id = "phone-1", os = "IOS", channels = { "no spaces" } })"#,
        "backendless:8000": #"¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U", name = string.rep("n", 501) })"#,
        "backendless:3101": #"¤app.users.restore_password("q@mi6.co.uk"))"#,
        "backendless:3020": #"¤app.users.restore_password("nobody@mi6.co.uk"))"#,
        "backendless:3025": """
            app.settings.identity = "name"
            expect.ok(app.users.register{ name = "Q", password = "gadgets4U" })
            ¤app.users.restore_password("Q"))
            """,
        "backendless:3092": #"¤app.users.reset_password("no-such-link", "newPassw0rd"))"#,
        "backendless:3103": #"¤app.users.resend_confirmation("q@mi6.co.uk"))"#,
        "backendless:3104": #"¤app.users.resend_confirmation("nobody@mi6.co.uk"))"#,
        "backendless:3102": """
            local user = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            expect.ok(app.users.confirm_email(user.objectId))
            ¤app.users.resend_confirmation("q@mi6.co.uk"))
            """,
        "backendless:3030": """
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
            ¤app.users.update("no-such-id", { name = "Q" }, session.token))
            """,
        "backendless:3029": """
            local m = expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "gadgets4U" })
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
            ¤app.users.update(m.objectId, { name = "M" }, session.token))
            """,
        "backendless:3018": """
            expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "gadgets4U" })
            local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
            ¤app.users.update(q.objectId, { email = "m@mi6.co.uk" }, session.token))
            """,
        "backendless:3045": """
            local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
            ¤app.users.update(q.objectId, { password = "" }, session.token))
            """,
        "backendless:3050": """
            local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
            ¤app.users.update(q.objectId, { password = 12345 }, session.token))
            """,
        "backendless:3014": """
            expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
            app.oauth.account{ provider = "facebook", token = "fb-q", profile = { id = "1007", email = "q@mi6.co.uk" } }
            ¤app.users.login_oauth("facebook", "fb-q", { fields_mapping = { email = "email" } }))
            """,
        "backendless:3052": #"¤app.users.login_oauth("facebook", "no-such-token"))"#,
        "backendless:3072": """
            \(oauth)
            ¤app.users.update(session.user.objectId, { password = "gadgets4U" }, session.token))
            """,
        "backendless:3075": """
            \(oauth)
            ¤app.users.restore_password("q@mi6.co.uk"))
            """,
        "backendless:3096": """
            \(oauth)
            ¤app.users.update(session.user.objectId, { email = "m@mi6.co.uk" }, session.token))
            """,
        "kii:INVALID_INPUT_DATA": #"¤app.users.register{ password = "123ABC" })"#,
        "kii:PASSWORD_TOO_SHORT": #"¤app.users.register{ username = "bond007", password = "12" })"#,
        "kii:USER_ALREADY_EXISTS": """
            expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
            ¤app.users.register{ username = "BOND007", password = "123ABC" })
            """,
        "kii:invalid_grant": #"¤app.users.login("nobody", "123ABC"))"#,
        "kii:USER_NOT_FOUND": #"¤app.users.verify_email("no-such-user", "123456"))"#,
        "kii:INVALID_VERIFICATION_CODE": """
            local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
            ¤app.users.verify_email(user.userID, "000000"))
            """,
        "kii:INVALID_ACCOUNT_STATUS": """
            local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
            ¤app.users.verify_email(user.userID, "123456"))
            """,
        "kii:PHONE_NUMBER_VERIFICATION_CODE_EXPIRED": """
            local user = expect.ok(app.users.register{ username = "bond007", phone = "+819012345678", password = "123ABC" })
            local code = app.outbox.last_sms().code
            app.clock.advance(24 * 3600 + 1)
            ¤app.users.verify_phone(user.userID, code))
            """,
        "kii:USER_DISABLED": """
            local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
            expect.ok(app.users.set_disabled(user.userID, true))
            ¤app.users.request_password_reset(user.userID))
            """,
        "kii:INVALID_STATUS": """
            local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
            ¤app.users.request_password_reset(user.userID, "EMAIL"))
            """,
        "kii:PIN_CODE_EXPIRED": """
            local user = expect.ok(app.users.register{ username = "bond007", phone = "+819012345678", password = "123ABC" })
            expect.ok(app.users.request_password_reset(user.userID, "SMS_PIN"))
            local pin = app.outbox.last_sms().code
            app.clock.advance(3601)
            ¤app.users.complete_password_reset(user.userID, pin, "newPassw0rd"))
            """,
        "kii:WRONG_PASSWORD": """
            local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
            ¤app.users.change_password(user.userID, "wrong", "newPassw0rd"))
            """,
        "kii:INSTALLATION_NOT_FOUND": #"¤app.installations.unregister("no-such-installation"))"#,
        "kii:WRONG_TOKEN": #"¤app.users.me("no-such-token"))"#,
    ]

    /// The HTTP requests by `flavour:code`.
    static let http: [String: [ExampleRequest]] = [
        "backendless:2002": [ExampleRequest("POST", "/WRONG-APP/WRONG-KEY/users/register", headers: json, body: #"{"email":"q@mi6.co.uk","password":"gadgets4U"}"#)],
        "backendless:3003": [ExampleRequest("POST", bl + "/users/login", headers: json, body: #"{"login":"nobody@mi6.co.uk","password":"secret"}"#)],
        "backendless:3009": [
            ExampleRequest("PATCH", "/_understudy/settings?app=backendless", body: #"{"registration":false}"#),
            ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"q@mi6.co.uk","password":"gadgets4U"}"#),
        ],
        "backendless:3011": [ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"q@mi6.co.uk"}"#)],
        "backendless:3033": [
            ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"q@mi6.co.uk","password":"gadgets4U"}"#),
            ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"q@mi6.co.uk","password":"gadgets4U"}"#),
        ],
        "backendless:3040": [ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"not-an-email","password":"gadgets4U"}"#)],
        "backendless:3064": [ExampleRequest("GET", bl + "/users/logout", headers: [(name: "user-token", value: "no-such-token")])],
        "backendless:5000": [ExampleRequest("GET", bl + "/messaging/registrations/no-such-device")],
        "backendless:5001": [ExampleRequest("DELETE", bl + "/messaging/registrations/no-such-device")],
        "backendless:5011": [ExampleRequest("POST", bl + "/messaging/registrations", headers: json, body: #"{"deviceToken":"a1b2","os":"IOS"}"#)],
        "backendless:8002": [ExampleRequest("POST", bl + "/users/register", headers: json, body: "not json")],
        "backendless:3101": [
            ExampleRequest("PATCH", "/_understudy/settings?app=backendless", body: #"{"password_recovery":false}"#),
            ExampleRequest("GET", bl + "/users/restorepassword/q@mi6.co.uk"),
        ],
        "backendless:3020": [ExampleRequest("GET", bl + "/users/restorepassword/nobody@mi6.co.uk")],
        "backendless:3025": [
            ExampleRequest("PATCH", "/_understudy/settings?app=backendless", body: #"{"identity":"name"}"#),
            ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"name":"Q","password":"gadgets4U"}"#),
            ExampleRequest("GET", bl + "/users/restorepassword/Q"),
        ],
        "backendless:3103": [ExampleRequest("POST", bl + "/users/resendconfirmation/q@mi6.co.uk")],
        "backendless:3104": [
            ExampleRequest("PATCH", "/_understudy/settings?app=backendless", body: #"{"email_confirmation":true}"#),
            ExampleRequest("POST", bl + "/users/resendconfirmation/nobody@mi6.co.uk"),
        ],
        "backendless:3024": [
            ExampleRequest("PUT", bl + "/users/no-such-id", headers: json + [(name: "user-token", value: "no-such-token")], body: #"{"tags":["a"]}"#),
        ],
        "backendless:3122": [ExampleRequest("POST", bl + "/users/verifypassword", headers: json, body: #"{"password":"gadgets4U"}"#)],
        "backendless:5005": [ExampleRequest("POST", bl + "/messaging/registrations", headers: json, body: #"{"deviceToken":"a1b2","deviceId":"phone-1","os":"WINDOWS"}"#)],
        "backendless:5006": [ExampleRequest("POST", bl + "/messaging/registrations", headers: json)],
        "backendless:3014": [
            ExampleRequest("POST", bl + "/users/register", headers: json, body: #"{"email":"q@mi6.co.uk","password":"gadgets4U"}"#),
            oauthAccount(),
            oauthLogin,
        ],
        "backendless:3052": [
            oauthAccount(secret: "s3cret"),
            ExampleRequest("POST", bl + "/users/social/facebook/login", headers: json, body: #"{"accessToken":"fb-q","accessTokenSecret":"wrong"}"#),
        ],
        "backendless:3072": socialUpdate(#"{"password":"gadgets4U"}"#),
        "backendless:3096": socialUpdate(#"{"email":"m@mi6.co.uk"}"#),
        "backendless:3075": [
            oauthAccount(),
            oauthLogin,
            ExampleRequest("GET", bl + "/users/restorepassword/q@mi6.co.uk"),
        ],
        "kii:USER_DISABLED": [
            ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"loginName":"bond007","emailAddress":"james@mi6.co.uk","password":"123ABC"}"#),
            ExampleRequest("PUT", kii + "/users/LOGIN_NAME:bond007/status", headers: kiiApp, body: #"{"disabled":true}"#),
            ExampleRequest("POST", kii + "/users/LOGIN_NAME:bond007/password/request-reset", headers: kiiApp, body: "{}"),
        ],
        "kii:INVALID_STATUS": [
            ExampleRequest("PATCH", "/_understudy/settings?app=kii", body: #"{"email_verification":true}"#),
            ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"loginName":"bond007","emailAddress":"james@mi6.co.uk","password":"123ABC"}"#),
            ExampleRequest("POST", kii + "/users/LOGIN_NAME:bond007/password/request-reset", headers: kiiApp, body: "{}"),
        ],
        "kii:INSTALLATION_NOT_FOUND": [ExampleRequest("GET", kii + "/installations/no-such-installation", headers: kiiApp)],
        "kii:PASSWORD_TOO_SHORT": [ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"loginName":"bond007","password":"12"}"#)],
        "kii:INVALID_INPUT_DATA": [ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"password":"123ABC"}"#)],
        "kii:USER_ALREADY_EXISTS": [
            ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"loginName":"bond007","password":"123ABC"}"#),
            ExampleRequest("POST", kii + "/users", headers: kiiApp, body: #"{"loginName":"bond007","password":"123ABC"}"#),
        ],
        "kii:invalid_grant": [ExampleRequest("POST", kii + "/oauth2/token", headers: kiiApp, body: #"{"username":"nobody","password":"123ABC"}"#)],
        "kii:USER_NOT_FOUND": [ExampleRequest("POST", kii + "/users/no-such-user/email-address/verify", headers: kiiApp, body: #"{"verificationCode":"123456"}"#)],
        "kii:UNAUTHORIZED": [ExampleRequest("GET", kii + "/users/me", headers: [(name: "Authorization", value: "Bearer no-such-token")])],
        "kii:APP_NOT_FOUND": [ExampleRequest("POST", "/api/apps/no-such-app/users", headers: kiiApp, body: #"{"loginName":"bond007","password":"123ABC"}"#)],
        "kii:unsupported_grant_type": [ExampleRequest("POST", kii + "/oauth2/token", headers: kiiApp, body: #"{"username":"bond007","password":"123ABC","grant_type":"client_credentials"}"#)],
        "kii:INVALID_JSON": [ExampleRequest("POST", kii + "/users", headers: kiiApp, body: "not json")],
        "kii:ACCOUNT_TYPE_NOT_SUPPORTED": [ExampleRequest("GET", kii + "/users/FAX:12345", headers: kiiApp)],
        "kii:UNSUPPORTED_MEDIA_TYPE": [ExampleRequest("POST", kii + "/users", headers: [(name: "Content-Type", value: "text/plain")] + [kiiApp[1]], body: #"{"loginName":"bond007","password":"123ABC"}"#)],
    ]
}
