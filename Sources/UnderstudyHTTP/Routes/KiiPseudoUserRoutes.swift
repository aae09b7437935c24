#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import HTTPTypes
internal import Understudy

/// Kii pseudo users over HTTP (contract v3): `POST users` with `RegistrationAndAuthorizationRequest` and no
/// credentials registers one (201 with `_accessToken` and `"_hasPassword": false`); `POST users/{userID}` (or
/// `users/me`) holding a `password` is `putIdentity` (200 `{"modifiedAt"}`). The routes are `KiiRoutes.signUp`
/// and `KiiLifecycleRoutes.update`, which hand these requests over.
enum KiiPseudoUserRoutes {
    /// `application/vnd.kii.RegistrationAndAuthorizationRequest+json`, lower-cased as `Exchange.mediaType` is.
    static let registrationAndAuthorization = "application/vnd.kii.registrationandauthorizationrequest+json"
    /// `application/vnd.kii.UserUpdateRequest+json`, lower-cased.
    static let userUpdateRequest = "application/vnd.kii.userupdaterequest+json"
    /// The body names that carry an identity (the rest are fields).
    static let identityNames: Set<String> = ["loginName", "emailAddress", "phoneNumber", "country", "password"]

    /// True for a sign-up body with no identifier and no password (null counts as absent).
    static func isPseudoRegistration(_ body: JSON) -> Bool {
        ["loginName", "emailAddress", "phoneNumber", "password"].allSatisfy { body[$0] == nil || body[$0] == .null }
    }

    /// 201 with the record, `_accessToken` and `"_hasPassword": false`.
    static func registerPseudo(_ app: KiiApp, _ body: JSON) throws -> Reply {
        let fields = (body.properties ?? []).filter { $0.value != .null }
        let user = try app.registerPseudo(fields: fields)
        var record = KiiRoutes.record(user)
        if let token = user.token { record = KiiRoutes.appending(record, "_accessToken", .string(token)) }
        var reply = Reply(status: 201, body: record)
        reply.contentType = "application/vnd.kii.RegistrationAndAuthorizationResponse+json"
        reply.headers.append(
            (name: "Location", value: "\(app.linkBase)/api/apps/\(app.settings.appID)/users/\(user.userID)")
        )
        return reply
    }

    /// The body without what the service itself returned and the SDK sends back unchanged (fine point 16): a
    /// `_`-name, `userID` or `internalUserID` equal to the user's record, and `_accessToken` holding a live token
    /// of the user. Another value stays, for the rules to refuse.
    static func withoutEchoes(_ body: JSON, of user: KiiUser, app: KiiApp) -> JSON {
        guard case .object(let members) = body, case .object(let shown) = KiiRoutes.record(user) else { return body }
        return .object(members.filter { member in
            let name = member.key
            guard name.hasPrefix("_") || name == "userID" || name == "internalUserID" else { return true }
            if name == "_accessToken", case .string(let token) = member.value { return !app.isLiveToken(token, of: user.userID) }
            if name == "userID" { return member.value != .string(user.userID) }
            if name == "internalUserID" {
                // JavaScript reads the 18-digit number as a double and sends back its nearest value.
                return member.value.value.numberValue != Double(user.internalUserID)
            }
            return shown.first { $0.key == name }?.value != member.value
        })
    }

    /// True for an update that is `putIdentity`: it holds a `password`, and the user is pseudo, or the request is
    /// a `UserUpdateRequest` that also holds an identifier (a normal user's then answers 409 `INVALID_STATUS`; a
    /// normal user's update with a password and no identifier stays an update, refused with 400 as in version 2).
    static func isPutIdentity(_ body: JSON, user: KiiUser, mediaType: String?) -> Bool {
        func given(_ name: String) -> Bool { body[name] != nil && body[name] != .null }
        guard given("password") else { return false }
        if !user.hasPassword { return true }
        return mediaType == userUpdateRequest && (given("loginName") || given("emailAddress") || given("phoneNumber"))
    }

    /// `putIdentity` with the caller's token: identifiers and the password from their names, the rest as fields
    /// (the update merge rule) → 200 `{"modifiedAt"}`.
    static func putIdentity(_ app: KiiApp, _ exchange: Exchange, _ body: JSON) throws -> Reply {
        let authorization = exchange.header("Authorization") ?? ""
        let token = authorization.split(separator: " ", maxSplits: 1).last.map { $0.trimmingSpaces } ?? ""
        let identity = KiiIdentity(
            username: try KiiRoutes.string(body, "loginName"), email: try KiiRoutes.string(body, "emailAddress"),
            phone: try KiiRoutes.string(body, "phoneNumber"), country: try KiiRoutes.string(body, "country"),
            password: try KiiRoutes.string(body, "password"),
            fields: (body.properties ?? []).filter { !identityNames.contains($0.name) }
        )
        let user = try app.putIdentity(token: token, identity: identity)
        return KiiRoutes.withContentType(
            Reply(body: ["modifiedAt": .integer(user.modified)]), "application/vnd.kii.UserDataRetrievalResponse+json"
        )
    }
}
