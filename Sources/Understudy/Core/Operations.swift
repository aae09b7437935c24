/// The two services Understudy emulates.
package enum Flavour: String, Sendable, CaseIterable, Hashable {
    case backendless
    case kii

    /// `Backendless` or `Kii`, for messages.
    package var displayName: String {
        switch self {
        case .backendless: return "Backendless"
        case .kii: return "Kii"
        }
    }
}

/// One named operation of a flavour, in the contract's words (`users.register`): what `app.faults.inject` names
/// in `op`, what the journal records, and what the Lua bindings and HTTP routes run.
package protocol Operation: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {
    /// The flavour whose apps answer it.
    static var flavour: Flavour { get }
    /// Every fact about it but its rules and its prose (`BackendlessDeclarations.swift`, `KiiDeclarations.swift`).
    var declaration: OperationDeclaration { get }
}

extension Operation {
    /// The contract's name, e.g. `users.register`.
    package var name: String { rawValue }

    /// Every operation's name, in declaration order.
    package static var names: [String] { allCases.map(\.rawValue) }
}

/// The operations of a Backendless app, named as `app.faults.inject{ op = ... }` names them.
package enum BackendlessOperation: String, Operation {
    package static let flavour = Flavour.backendless

    case register = "users.register"
    case login = "users.login"
    case logout = "users.logout"
    case guestLogin = "users.guest_login"
    case confirmEmail = "users.confirm_email"
    case setStatus = "users.set_status"
    case isValidToken = "users.is_valid_token"
    case restorePassword = "users.restore_password"
    case resetPassword = "users.reset_password"
    case resendConfirmation = "users.resend_confirmation"
    case confirmationURL = "users.confirmation_url"
    case getUser = "users.get"
    case updateUser = "users.update"
    case deleteUser = "users.delete"
    case loginOAuth = "users.login_oauth"
    case registerDevice = "devices.register"
    case getDevice = "devices.get"
    case unregisterDevice = "devices.unregister"
    case publish = "push.publish"
    // Contract version 3: scheduled and targeted pushes, templates, the email API (HTTP only).
    case cancelMessage = "push.cancel"
    case pushTemplates = "push.templates"
    case pushWithTemplate = "push.with_template"
    case sendEmail = "email.send"
    // Answered by the HTTP routes alone.
    case appInfo = "app.info"
    case userRoles = "users.roles"
    case describeUsers = "users.describe"
    case verifyPassword = "users.verify_password"
    case messageStatus = "push.message_status"
    // Contract version 4: CloudCode-only user calls, roles, the Data service on the Users table.
    case loginByID = "users.login_by_id"
    case updateStatus = "users.update_status"
    case assignRole = "roles.assign"
    case unassignRole = "roles.unassign"
    case rolesOf = "roles.of"
    case roleUsers = "roles.users"
    case dataSave = "data.save"
    case dataFind = "data.find"
    case dataFindFirst = "data.find_first"
    case dataFindLast = "data.find_last"
    case dataFindByID = "data.find_by_id"
    case dataCount = "data.count"
    case dataRemove = "data.remove"
    case sendTemplate = "email.send_template"
    // Contract version 4: social login in the browser (the authorization URL, the provider's page, the sign-in).
    case oauthURL = "users.oauth_url"
    case oauthAuthorize = "users.oauth_authorize"
    /// Answered over HTTP alone: the stand-in provider's sign-in page (`GET` of an authorization URL).
    case oauthPage = "users.oauth_page"
}

/// The operations of a Kii app, named as `app.faults.inject{ op = ... }` names them.
package enum KiiOperation: String, Operation {
    package static let flavour = Flavour.kii

    case register = "users.register"
    case login = "users.login"
    case verifyEmail = "users.verify_email"
    case verifyPhone = "users.verify_phone"
    case changeEmail = "users.change_email"
    case changePhone = "users.change_phone"
    case getUser = "users.get"
    case resendEmailVerification = "users.resend_email_verification"
    case resendPhoneVerification = "users.resend_phone_verification"
    case requestPasswordReset = "users.request_password_reset"
    case completePasswordReset = "users.complete_password_reset"
    case openResetLink = "users.open_reset_link"
    case changePassword = "users.change_password"
    case updateUser = "users.update"
    case deleteUser = "users.delete"
    case setDisabled = "users.set_disabled"
    case me = "users.me"
    case registerInstallation = "installations.register"
    case getInstallation = "installations.get"
    case listInstallations = "installations.list"
    case unregisterInstallation = "installations.unregister"
    case sendToUser = "push.send_to_user"
    // Answered by the HTTP routes alone.
    case userStatus = "users.status"
    case mqttEndpoint = "installations.mqtt_endpoint"
    // Contract version 3: pseudo users and topics.
    case registerPseudo = "users.register_pseudo"
    case putIdentity = "users.put_identity"
    case createTopic = "topics.create"
    case deleteTopic = "topics.delete"
    case listTopics = "topics.list"
    case subscribe = "topics.subscribe"
    case unsubscribe = "topics.unsubscribe"
    case isSubscribed = "topics.is_subscribed"
    case sendToTopic = "topics.send"
    /// Answered by the HTTP routes alone: whether a topic exists (`HEAD`/`GET {scope}topics/{topicID}`).
    case topicExists = "topics.exists"
    // Contract version 4: topic ACLs and groups.
    case topicACL = "topics.acl"
    case grantTopic = "topics.grant"
    case revokeTopic = "topics.revoke"
    case groupsMemberOf = "groups.member_of"
    case groupsOwnedBy = "groups.owned_by"
    // Contract version 4: other users' records and the MFA grant.
    case lookup = "users.lookup"
    case loginMFA = "users.login_mfa"
    // Contract version 4: social login (KiiSocialConnect).
    case loginSocial = "users.login_social"
    case linkSocial = "users.link_social"
    case unlinkSocial = "users.unlink_social"
}
