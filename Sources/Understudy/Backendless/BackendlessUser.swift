/// The status of a Backendless user account.
package enum UserStatus: String, Sendable, Hashable {
    case enabled = "ENABLED"
    case disabled = "DISABLED"
    case emailConfirmationPending = "EMAIL_CONFIRMATION_PENDING"
    case guest = "GUEST"
}

/// A user as Backendless returns it: every stored property except the password, plus the system fields.
package struct BackendlessUser: Sendable, Hashable {
    /// The objectId as its 128 bits (`objectID` is its text).
    package var identifier: Identifier128
    /// The stored properties, in registration order (never the password).
    package var properties: [Property]
    package var status: UserStatus
    /// Milliseconds since the epoch on the virtual clock.
    package var created: Int64
    package var updated: Int64?
    package var lastLogin: Int64?
    /// `"BACKENDLESS"` for a user who signed up with a password (and for guests); for a user registered by a
    /// first OAuth login, the provider's code in lower case (`"facebook"`). Such a social user has no password.
    package var socialAccount: String

    /// The `socialAccount` of users who did not come through an OAuth provider.
    package static let backendlessAccount = "BACKENDLESS"

    /// True for a user registered through an OAuth provider: no password, a fixed identity.
    package var isSocial: Bool { socialAccount != Self.backendlessAccount }

    /// The objectId, `6EAFFE12-B424-8C51-FFB0-FE99548CAA00`. Spelled out on each use: presenting a user from Lua
    /// pushes `identifier`'s text without making a string.
    package var objectID: String { identifier.formatted() }
}

/// A logged-in session.
package struct BackendlessSession: Sendable, Hashable {
    package var user: BackendlessUser
    package var token: String
}

/// A user as the backend stores it. Each change of a stored property is noted in the app's `changes` (for a
/// snapshot restore, `BackendlessApp+Image.swift`): a property added here joins `State` too.
final class StoredUser: ChangeNoting {
    let objectID: Identifier128
    var properties: [Property] { didSet { noteChange() } }
    var password: PasswordHash? { didSet { noteChange() } }
    var status: UserStatus { didSet { noteChange() } }
    let created: Int64
    var updated: Int64? { didSet { noteChange() } }
    var lastLogin: Int64? { didSet { noteChange() } }
    var failedLogins = 0 { didSet { noteChange() } }
    var lockedUntil: Double? { didSet { noteChange() } }
    var sessions: [Identifier128] = [] { didSet { noteChange() } }
    /// Set when the user is deleted: `registrationOrder` still lists it until the next page drops it, and the
    /// Data service skips it without a lookup.
    var isDeleted = false { didSet { noteChange() } }
    /// `BackendlessUser.socialAccount`: the provider code of a social user.
    var socialAccount = BackendlessUser.backendlessAccount { didSet { noteChange() } }
    /// Where this user's changes are noted: its app's.
    let changes: UserChanges<StoredUser>
    /// True while `changes` lists this user.
    var isNoted = false

    /// True for a user registered through an OAuth provider.
    var isSocial: Bool { socialAccount != BackendlessUser.backendlessAccount }

    init(
        objectID: Identifier128, properties: [Property], password: PasswordHash?, status: UserStatus, created: Int64,
        changes: UserChanges<StoredUser>
    ) {
        self.objectID = objectID
        self.properties = properties
        self.password = password
        self.status = status
        self.created = created
        self.changes = changes
    }

    @inline(__always)
    private func noteChange() { changes.note(self) }

    var snapshot: BackendlessUser {
        BackendlessUser(
            identifier: objectID, properties: properties, status: status, created: created, updated: updated,
            lastLogin: lastLogin, socialAccount: socialAccount
        )
    }
}
