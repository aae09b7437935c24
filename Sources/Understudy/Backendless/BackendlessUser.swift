/// The status of a Backendless user account.
public enum UserStatus: String, Sendable, Hashable {
    case enabled = "ENABLED"
    case disabled = "DISABLED"
    case emailConfirmationPending = "EMAIL_CONFIRMATION_PENDING"
    case guest = "GUEST"
}

/// A user as Backendless returns it: every stored property except the password, plus the system fields.
public struct BackendlessUser: Sendable, Hashable {
    /// The objectId as its 128 bits (`objectID` is its text).
    public var identifier: Identifier128
    /// The stored properties, in registration order (never the password).
    public var properties: [Property]
    public var status: UserStatus
    /// Milliseconds since the epoch on the virtual clock.
    public var created: Int64
    public var updated: Int64?
    public var lastLogin: Int64?
    /// `"BACKENDLESS"` for a user who signed up with a password (and for guests); for a user registered by a
    /// first OAuth login, the provider's code in lower case (`"facebook"`). Such a social user has no password.
    public var socialAccount: String

    /// The `socialAccount` of users who did not come through an OAuth provider.
    public static let backendlessAccount = "BACKENDLESS"

    /// True for a user registered through an OAuth provider: no password, a fixed identity.
    public var isSocial: Bool { socialAccount != Self.backendlessAccount }

    /// The objectId, `6EAFFE12-B424-8C51-FFB0-FE99548CAA00`. Spelled out on each use: presenting a user from Lua
    /// pushes `identifier`'s text without making a string.
    public var objectID: String { identifier.formatted() }
}

/// A logged-in session.
public struct BackendlessSession: Sendable, Hashable {
    public var user: BackendlessUser
    public var token: String
}

/// A user as the backend stores it.
final class StoredUser {
    let objectID: Identifier128
    var properties: [Property]
    var password: PasswordHash?
    var status: UserStatus
    let created: Int64
    var updated: Int64?
    var lastLogin: Int64?
    var failedLogins = 0
    var lockedUntil: Double?
    var sessions: [Identifier128] = []
    /// `BackendlessUser.socialAccount`: the provider code of a social user.
    var socialAccount = BackendlessUser.backendlessAccount

    /// True for a user registered through an OAuth provider.
    var isSocial: Bool { socialAccount != BackendlessUser.backendlessAccount }

    init(objectID: Identifier128, properties: [Property], password: PasswordHash?, status: UserStatus, created: Int64) {
        self.objectID = objectID
        self.properties = properties
        self.password = password
        self.status = status
        self.created = created
    }

    var snapshot: BackendlessUser {
        BackendlessUser(
            identifier: objectID, properties: properties, status: status, created: created, updated: updated,
            lastLogin: lastLogin, socialAccount: socialAccount
        )
    }
}
