/// A Kii user as the service shows it to its owner (`GET /users/me`), never with the password.
public struct KiiUser: Sendable, Hashable {
    /// The user's id: a lower-case UUID layout, e.g. `6eaffe12-b424-8c51-ffb0-fe99548caa00`.
    public var userID: String
    /// The username, lower-cased; nil when the user registered without one. It never changes.
    public var loginName: String?
    /// The email address in force, as given; nil when the user has none.
    public var emailAddress: String?
    /// The phone number in force, in international (E.164) form such as `+819012345678`.
    public var phoneNumber: String?
    /// The two-letter country given at registration (or taken from a `US-2015550123` phone number).
    public var country: String?
    /// False only while `emailAddress` waits for verification.
    public var emailAddressVerified: Bool
    /// False only while `phoneNumber` waits for verification.
    public var phoneNumberVerified: Bool
    /// A changed email address waiting for verification; `emailAddress` stays in force until it is verified.
    public var pendingEmailAddress: String?
    /// A changed phone number (E.164) waiting for verification; `phoneNumber` stays in force until then.
    public var pendingPhoneNumber: String?
    /// The access token, on the user that `register` and `login` return only.
    public var token: String?
    /// Milliseconds since the epoch on the virtual clock when the user registered.
    public var created: Int64
    /// The display name set by `update`; nil when none.
    public var displayName: String? = nil
    /// The locale set by `update`; nil when none.
    public var locale: String? = nil
    /// True while an administrator has disabled the user (`setDisabled`).
    public var disabled: Bool = false
    /// The custom fields set by the last `update`, in the order they were sent.
    public var customFields: [Property] = []
    /// Milliseconds since the epoch on the virtual clock of the last change (`update`); `created` until then.
    public var modified: Int64 = 0
    /// False for a pseudo user (`registerPseudo`) until `putIdentity` gives them an identifier and a password.
    public var hasPassword: Bool = true
}

/// A successful login: the user and the new access token.
public struct KiiSession: Sendable, Hashable {
    /// The logged-in user (its `token` is the session's token).
    public var user: KiiUser
    /// The access token: 43 characters from `A-Z a-z 0-9 - _`.
    public var token: String
}

/// A Kii user as the backend stores it, with its verification state.
final class KiiStoredUser {
    let id: Identifier128
    let userID: String
    /// The username; set once, at sign-up or by a pseudo user's `putIdentity`.
    var loginName: String?
    var password: PasswordHash
    let created: Int64
    var country: String?
    /// Lifecycle state (display name, custom fields, disabled flag, sessions, reset codes), once there is any.
    var extras: KiiProfile?

    /// The lifecycle state, allocated on first use.
    var profile: KiiProfile {
        if let extras { return extras }
        let created = KiiProfile()
        extras = created
        return created
    }

    /// True while an administrator has disabled the user.
    var isDisabled: Bool { extras?.disabled == true }

    /// False for a pseudo user, who has no identifier and no password (yet).
    var hasPassword: Bool { extras?.pseudo != true }

    var email: String?
    var emailVerified = true
    var pendingEmail: String?
    /// The code that verifies the pending email, or the current one while it is unverified.
    var emailCode: String?

    var phone: String?
    var phoneVerified = true
    var pendingPhone: String?
    /// The code that verifies the pending phone, or the current one while it is unverified.
    var phoneCode: String?
    /// When `phoneCode` was texted, in seconds of virtual time.
    var phoneCodeSentAt: Double = 0

    init(id: Identifier128, loginName: String?, password: PasswordHash, created: Int64) {
        self.id = id
        self.userID = id.formatted(uppercase: false)
        self.loginName = loginName
        self.password = password
        self.created = created
    }

    /// The address a new email code verifies: the pending one, else the current one while unverified.
    var emailAwaitingVerification: String? {
        pendingEmail ?? (emailVerified ? nil : email)
    }

    /// The number a new SMS code verifies: the pending one, else the current one while unverified.
    var phoneAwaitingVerification: String? {
        pendingPhone ?? (phoneVerified ? nil : phone)
    }

    func snapshot(token: String? = nil) -> KiiUser {
        KiiUser(
            userID: userID, loginName: loginName, emailAddress: email, phoneNumber: phone, country: country,
            emailAddressVerified: emailVerified, phoneNumberVerified: phoneVerified, pendingEmailAddress: pendingEmail,
            pendingPhoneNumber: pendingPhone, token: token, created: created, displayName: extras?.displayName,
            locale: extras?.locale, disabled: isDisabled, customFields: extras?.customFields ?? [],
            modified: extras?.modified ?? created, hasPassword: hasPassword
        )
    }
}
