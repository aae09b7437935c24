#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import HTTPTypes
internal import Understudy

/// The Kii Cloud REST API under `/api/apps/{appID}/` (and the legacy `/api/oauth2/token`): sign-up, login, the
/// user record, email / SMS verification, resending it, and changing the email address or phone number. Errors
/// are `{"errorCode","message","field"?,"value"?}` with the status of `errors.md`; login failures in the OAuth2
/// shape as well.
///
/// Credentials, as the real service takes them:
/// - app credentials: `Authorization: Basic base64(appID:appKey)` (only the app id is checked: Kii's docs say
///   "the password part can be any value"), or the legacy headers `X-Kii-AppID` + `X-Kii-AppKey` (both must
///   match; when sent next to a `Bearer` token they are checked too);
/// - a user: `Authorization: Bearer <access token>` issued by this app.
///
/// Missing or wrong credentials or token are 401 `UNAUTHORIZED`. A token acting on another user's id is also 401
/// `UNAUTHORIZED` (the emulator's choice: Kii documents 401 for "a token that lacks permission"); reading another
/// user's record with `GET …/users/{userID}` is allowed but shows only `userID` and `loginName`, as for a real app
/// whose `exposeFullUserDataToOthers` is off. An unknown app id is 404 `APP_NOT_FOUND`.
///
/// `{user}` in a path is `me` (the token's owner), a userID, or `EMAIL:…`, `PHONE:…`, `LOGIN_NAME:…` (an address
/// counts only once verified, as for login).
enum KiiRoutes {
    static let prefix = "/api/apps/{appID}"

    static func register(in table: inout RouteTable<RouteHandler>) {
        // By hand: sign-up also answers users.register_pseudo; login is OAuth2's token endpoint (grant types, the
        // admin's client credentials, forms, expiresAt) and its legacy route finds the app by its headers; update
        // also answers users.put_identity.
        table.addDeclared(
            KiiOperation.self, handlers: [.login: appLogin, .updateUser: KiiLifecycleRoutes.update, .register: signUp],
            variants: [.login: ["legacy": legacyLogin]]
        )
    }

    // MARK: Plumbing

    /// Who sent a request: the app (app credentials) or one of its users (an access token).
    enum Caller {
        case app
        case user(KiiUser)

        var user: KiiUser? {
            if case .user(let user) = self { return user }
            return nil
        }
    }

    /// Finds the app (404 `APP_NOT_FOUND`; 401 when the legacy endpoint names none), runs `body`, and turns errors
    /// and fired faults into the reply. `appID` defaults to the path's.
    static func serve(
        _ exchange: inout Exchange, _ operation: KiiOperation?, appID: String?? = .none,
        _ body: (KiiApp, inout Exchange) throws -> Reply
    ) -> Reply {
        exchange.flavour = Flavour.kii.rawValue
        exchange.operation = operation?.name
        let id: String? = appID ?? exchange.parameters["appID"]
        exchange.appID = id
        guard let id else {
            return KiiError.unauthorized("The request names no application: send X-Kii-AppID and X-Kii-AppKey").reply
        }
        guard let app = exchange.stage.world.kii(id: id) else {
            var reply = KiiError(status: 404, code: "APP_NOT_FOUND", message: "The application \(id) was not found").reply
            reply.body = reply.body.map { appending($0, "appID", .string(id)) }
            return reply
        }
        return Reply.answer(.kii, app: app) {
            if let operation, operation.isAnsweredByAdapter { try app.checkAdapterFaults(operation, exchange.declaredArguments(of: operation)) }
            return try body(app, &exchange)
        }
    }

    static func appending(_ object: JSON, _ key: String, _ value: JSON) -> JSON {
        guard case .object(var members) = object else { return object }
        members.append(.init(key, value))
        return .object(members)
    }

    /// The credentials of the request, checked against `app`: nil when there are none; 401 when they are wrong.
    static func caller(_ app: KiiApp, _ exchange: Exchange) throws(KiiError) -> Caller? {
        let headerID = exchange.header("X-Kii-AppID")
        let headerKey = exchange.header("X-Kii-AppKey")
        var appHeaders = false
        if headerID != nil || headerKey != nil {
            guard headerID == app.settings.appID, headerKey == app.settings.appKey else {
                throw .unauthorized("X-Kii-AppID and X-Kii-AppKey must both name this application")
            }
            appHeaders = true
        }
        guard let authorization = exchange.header("Authorization")?.trimmingSpaces,
            !authorization.isEmpty
        else { return appHeaders ? .app : nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        let credentials = parts.count > 1 ? parts[1].trimmingSpaces : ""
        switch parts[0].lowercased() {
        case "bearer":
            // An application-administrator token (client credentials) acts as the app.
            if app.isAdminToken(credentials) { return .app }
            return .user(try app.user(forToken: credentials))
        case "basic":
            // Only the app id counts: Kii's docs say the key part "can be any value".
            guard let data = Data(base64Encoded: credentials), let text = String(data: data, encoding: .utf8),
                text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
                    == app.settings.appID
            else { throw .unauthorized("The Basic credentials do not name this application (base64 of appID:appKey)") }
            return .app
        default:
            throw .unauthorized("Authorization must be Basic (app credentials) or Bearer (an access token)")
        }
    }

    /// App credentials or an access token, else 401.
    static func anyCaller(_ app: KiiApp, _ exchange: Exchange) throws(KiiError) -> Caller {
        guard let caller = try caller(app, exchange) else {
            throw .unauthorized("The request needs app credentials (Basic or X-Kii-AppID/X-Kii-AppKey) or an access token")
        }
        return caller
    }

    /// The user named by `{user}`: `me`, a userID, or `EMAIL:…`/`PHONE:…`/`LOGIN_NAME:…`.
    static func target(_ app: KiiApp, _ exchange: Exchange, _ caller: Caller?) throws(KiiError) -> KiiUser {
        let name = exchange.parameters["user"]
        if name == "me" {
            guard let user = caller?.user else {
                throw .unauthorized("users/me needs an access token (Authorization: Bearer)")
            }
            return app.user(userID: user.userID) ?? user
        }
        if let colon = name.firstIndex(of: ":") {
            let type = String(name[..<colon])
            let field: String
            switch type {
            case "EMAIL": field = "emailAddress"
            case "PHONE": field = "phoneNumber"
            case "LOGIN_NAME": field = "loginName"
            default:
                throw KiiError(
                    status: 400, code: "ACCOUNT_TYPE_NOT_SUPPORTED",
                    message: "The account type \(type) is not supported; use EMAIL, PHONE or LOGIN_NAME"
                )
            }
            guard let user = app.find(identifier: name) else {
                let value = String(name[name.index(after: colon)...])
                throw KiiError(
                    status: 404, code: "USER_NOT_FOUND", message: "User with \(field) \(value) was not found",
                    field: field, value: value
                )
            }
            return user
        }
        guard let user = app.user(userID: name) else { throw .userNotFound(name) }
        return user
    }

    /// The target for a call that changes it: the owner's token, or (with `appAllowed`) app credentials.
    static func owned(
        _ app: KiiApp, _ exchange: Exchange, appAllowed: Bool = false
    ) throws(KiiError) -> (user: KiiUser, caller: Caller) {
        let caller = try anyCaller(app, exchange)
        let user = try target(app, exchange, caller)
        switch caller {
        case .user(let owner) where owner.userID != user.userID:
            throw .unauthorized("The access token belongs to another user than \(user.userID)")
        case .app where !appAllowed:
            throw .unauthorized("Only the user (Authorization: Bearer) may do this")
        default: return (user, caller)
        }
    }

    /// True for the content types Kii takes: `application/json` and `application/vnd.kii.*+json`.
    static func acceptsJSON(_ type: String) -> Bool {
        type == "application/json" || (type.hasPrefix("application/vnd.kii.") && type.hasSuffix("+json"))
    }

    /// The JSON body as an object; an empty body is an empty object. Refuses other content types and shapes.
    static func object(_ exchange: Exchange) throws(Refusal) -> JSON {
        .object(try exchange.jsonObject(.kii, accepts: acceptsJSON, expected: "application/json or application/vnd.kii.*+json") ?? [])
    }

    /// A string field: nil when absent or null; 400 `INVALID_INPUT_DATA` naming the field for another kind.
    static func string(_ body: JSON, _ field: String) throws(KiiError) -> String? {
        switch body[field] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?:
            throw .invalidInput(
                field: field, value: JSONWriter.string(other), message: "\(field) must be a string, got \(other.kindName)"
            )
        }
    }

    /// A required string field: 400 `INVALID_INPUT_DATA` naming the field when absent.
    static func requiredString(_ body: JSON, _ field: String) throws(KiiError) -> String {
        guard let text = try string(body, field) else {
            throw .invalidInput(field: field, value: nil, message: "\(field) is required")
        }
        return text
    }

    /// A stable positive number for the record's `internalUserID`: the first 15 hex digits of the userID.
    static func internalUserID(_ userID: String) -> Int64 {
        let hex = userID.utf8.filter { $0 != UInt8(ascii: "-") }.prefix(15)
        return Int64(String(decoding: hex, as: UTF8.self), radix: 16) ?? 0
    }

    /// The user record as `GET /users/me` shows it (kii-api §1.4): predefined fields, pending addresses as
    /// `_emailAddressPending` / `_phoneNumberPending`, never the password. `displayName` and `locale` only echo a
    /// sign-up's request (the emulator does not store them).
    static func record(_ user: KiiUser, displayName: String? = nil, locale: String? = nil) -> JSON {
        var members: [JSON.Member] = [
            .init("userID", .string(user.userID)), .init("internalUserID", .integer(internalUserID(user.userID))),
        ]
        if let loginName = user.loginName { members.append(.init("loginName", .string(loginName))) }
        if let displayName = displayName ?? user.displayName { members.append(.init("displayName", .string(displayName))) }
        if let country = user.country { members.append(.init("country", .string(country))) }
        if let locale = locale ?? user.locale { members.append(.init("locale", .string(locale))) }
        if let email = user.emailAddress {
            members.append(.init("emailAddress", .string(email)))
            members.append(.init("emailAddressVerified", .bool(user.emailAddressVerified)))
        }
        if let phone = user.phoneNumber {
            members.append(.init("phoneNumber", .string(phone)))
            members.append(.init("phoneNumberVerified", .bool(user.phoneNumberVerified)))
        }
        if let pending = user.pendingEmailAddress { members.append(.init("_emailAddressPending", .string(pending))) }
        if let pending = user.pendingPhoneNumber { members.append(.init("_phoneNumberPending", .string(pending))) }
        members.append(.init("_hasPassword", .bool(user.hasPassword)))
        members.append(.init("_disabled", .bool(user.disabled)))
        if !user.thirdPartyAccounts.isEmpty {
            members.append(.init("_thirdPartyAccounts", .object(user.thirdPartyAccounts.map { account in
                .init(account.provider.rawValue, .object([
                    .init("id", .string(account.id)), .init("type", .string(account.provider.rawValue)),
                    .init("createdAt", .integer(account.createdAt)),
                ]))
            })))
        }
        for field in user.customFields { members.append(.init(field.name, JSON(field.value))) }
        return .object(members)
    }

    /// What another user (or the app) sees of a user.
    static func publicRecord(_ user: KiiUser) -> JSON {
        var members: [JSON.Member] = [.init("userID", .string(user.userID))]
        if let loginName = user.loginName { members.append(.init("loginName", .string(loginName))) }
        if let displayName = user.displayName { members.append(.init("displayName", .string(displayName))) }
        return .object(members)
    }

    static func withContentType(_ reply: Reply, _ type: String) -> Reply {
        var reply = reply
        reply.contentType = type
        return reply
    }

    // MARK: Sign-up and login

    /// By hand: one route, two operations. Under the RegistrationAndAuthorization media type a body with no
    /// identity is `users.register_pseudo`; anything else is `users.register`, whose reply's media type and
    /// `_accessToken` follow the request's media type (the journal name follows which operation ran).
    static let signUp: RouteHandler = { exchange in
        serve(&exchange, .register) { app, exchange in
            _ = try anyCaller(app, exchange)
            let body = try object(exchange)
            let authorizing = exchange.mediaType?.lowercased() == KiiPseudoUserRoutes.registrationAndAuthorization
            if authorizing, KiiPseudoUserRoutes.isPseudoRegistration(body) {
                exchange.operation = KiiOperation.registerPseudo.name
                return try KiiPseudoUserRoutes.registerPseudo(app, body)
            }
            // Type checks come first, then the domain's rules. Every other member of the body is a custom field
            // (any JSON value); a reserved name is 400 (contract v4).
            let loginName = try string(body, "loginName")
            let email = try string(body, "emailAddress")
            let phone = try string(body, "phoneNumber")
            let country = try string(body, "country")
            let password = try string(body, "password")
            let locale = try string(body, "locale")
            let displayName = try string(body, "displayName")
            var fields: [Property] = []
            if case .object(let members) = body {
                for member in members where !signUpFields.contains(member.key) {
                    fields.append(Property(member.key, member.value.value))
                }
            }
            let user = try app.register(
                username: loginName, email: email, phone: phone, country: country, password: password,
                displayName: displayName, locale: locale, fields: fields
            )
            var created = record(user)
            if authorizing, let token = user.token { created = appending(created, "_accessToken", .string(token)) }
            var reply = Reply(status: 201, body: created)
            reply.contentType = authorizing
                ? "application/vnd.kii.RegistrationAndAuthorizationResponse+json" : "application/vnd.kii.RegistrationResponse+json"
            reply.headers.append(
                (name: "Location", value: "\(app.linkBase)/api/apps/\(app.settings.appID)/users/\(user.userID)")
            )
            return reply
        }
    }

    /// The members of a sign-up body that are not custom fields.
    static let signUpFields: Set<String> = [
        "loginName", "emailAddress", "phoneNumber", "country", "password", "locale", "displayName",
    ]

    /// An OAuth2 error other than `invalid_grant` (which `KiiError.reply` shapes itself).
    static func oauthError(_ code: String, _ message: String) -> Refusal {
        var reply = Reply(
            status: 400,
            body: [
                "errorCode": .string(code), "message": .string(message), "error": .string(code),
                "error_description": .string(message),
            ]
        )
        reply.code = .string(code)
        return Refusal(reply: reply)
    }

    /// `application/x-www-form-urlencoded` fields as a JSON object of strings.
    static func formFields(_ bytes: [UInt8]) -> JSON {
        .object(FormEncoding.pairs(String(decoding: bytes, as: UTF8.self)).map { .init($0.name, .string($0.value)) })
    }

    /// The token request: `{"username","password"[,"grant_type":"password"][,"expiresAt"]}`. `username` takes
    /// every form the domain's login reads (username, email, `+…`, `EMAIL:…`, `PHONE:+…`, `PHONE:JP-…`,
    /// `LOGIN_NAME:…`). `expiresAt` (epoch milliseconds) only shortens the `expires_in` answered: the emulator's
    /// tokens never expire.
    static func login(_ app: KiiApp, _ exchange: inout Exchange, formAllowed: Bool) throws -> Reply {
        let body: JSON
        if formAllowed, exchange.mediaType == "application/x-www-form-urlencoded" {
            body = formFields(exchange.body)
        } else {
            body = try object(exchange)
        }
        let grant = try string(body, "grant_type")
        let clientCredentials = grant == "client_credentials" || (grant == nil && body["client_id"] != nil)
        // Client credentials are credentials of their own; any other login needs the app's.
        if !clientCredentials { _ = try anyCaller(app, exchange) }
        if clientCredentials {
            // The application administrator (`Kii.authenticateAsAppAdmin`).
            let token = try app.adminToken(
                clientID: try string(body, "client_id") ?? "", clientSecret: try string(body, "client_secret") ?? ""
            )
            // Recorded (`GET /_understudy/record`) as the console call a scenario gets the same token with.
            app.faults.capturer?.note(ConsoleCall.adminToken.rawValue, result: .value(.string(token)))
            return Reply(
                body: [
                    "id": .string(app.settings.appID), "access_token": .string(token),
                    "expires_in": .integer(2_147_483_647), "token_type": "Bearer",
                ]
            )
        }
        if grant == "mfa" {
            // Contract v4: the MFA grant, refused as the live service refuses a code with nothing pending.
            exchange.operation = KiiOperation.loginMFA.name
            var grant: [String: Value] = [:]
            for name in ["totp_code", "recovery_code"] {
                if let code = try string(body, name) { grant[name] = .string(code) }
            }
            _ = try app.perform(.loginMFA, ["grant": .value(.object(grant))])
        }
        if let grant, grant != "password" {
            throw oauthError(
                "unsupported_grant_type", "The grant_type \(grant) is not supported by the emulator; use password"
            )
        }
        let username = try string(body, "username") ?? ""
        let password = try string(body, "password") ?? ""
        var expiresIn: Int64 = 2_147_483_647
        if let expiresAt = body["expiresAt"] {
            let milliseconds: Int64?
            switch expiresAt {
            case .integer(let number): milliseconds = number
            case .number(let number) where number.isFinite && abs(number) < 9e18: milliseconds = Int64(number)
            case .string(let text) where Int64(text) != nil: milliseconds = Int64(text)
            case .null: milliseconds = nil
            default:
                throw KiiError.invalidInput(
                    field: "expiresAt", value: JSONWriter.string(expiresAt),
                    message: "expiresAt must be a number of milliseconds since the epoch"
                )
            }
            if let milliseconds {
                let (difference, overflow) = milliseconds.subtractingReportingOverflow(app.clock.milliseconds)
                if !overflow { expiresIn = min(expiresIn, max(0, difference / 1000)) }
            }
        }
        guard let session = try app.perform(.login, ["identifier": .string(username), "password": .string(password)])
            .record(as: KiiSession.self)
        else { throw KiiError.unauthorized("no session") }
        return Reply(
            body: [
                "id": .string(session.user.userID), "access_token": .string(session.token),
                "expires_in": .integer(expiresIn), "token_type": "Bearer",
            ]
        )
    }

    /// By hand: OAuth2's token endpoint. Grant types, the admin's client credentials, JSON or form bodies and
    /// `expiresAt` pick among session kinds whose replies are OAuth2's, not the operation's presentation.
    static let appLogin: RouteHandler = { exchange in
        serve(&exchange, .login) { app, exchange in try login(app, &exchange, formAllowed: true) }
    }

    /// The legacy endpoint: the app comes from `X-Kii-AppID` (or, failing that, from Basic credentials).
    /// By hand: the app is found from headers, not the path, before any declared argument can be read.
    static let legacyLogin: RouteHandler = { exchange in
        var appID = exchange.header("X-Kii-AppID")
        if appID == nil, let authorization = exchange.header("Authorization"),
            authorization.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingSpaces),
            let text = String(data: data, encoding: .utf8)
        {
            appID = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        }
        return serve(&exchange, .login, appID: .some(appID)) { app, exchange in
            try login(app, &exchange, formAllowed: false)
        }
    }

    // MARK: Records

    /// Whether the request is the application administrator by its credentials: Basic `appID:appKey` with the
    /// app's key (an admin token is checked by the domain).
    static func isAdministratorByCredentials(_ app: KiiApp, _ exchange: Exchange) -> Bool {
        let authorization = exchange.header("Authorization")?.trimmingSpaces ?? ""
        guard authorization.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(authorization.dropFirst("basic ".count).trimmingSpaces)),
            let text = String(data: data, encoding: .utf8)
        else { return false }
        return text == "\(app.settings.appID):\(app.settings.appKey)"
    }

    // MARK: Verification

    /// `{"verificationStatus":"VERIFIED"}`: the emulator's reply to a successful verification (the real
    /// service's value is not documented).
    static let verified = withContentType(
        Reply(body: ["verificationStatus": "VERIFIED"]), "application/vnd.kii.AddressVerificationResponse+json"
    )
}

extension StringProtocol {
    /// The text without the spaces and tabs (Unicode's space separators) around it.
    var trimmingSpaces: String {
        let isSpace = { (scalar: Unicode.Scalar) in scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, isSpace(first) { scalars.removeFirst() }
        while let last = scalars.last, isSpace(last) { scalars.removeLast() }
        return String(scalars)
    }
}
