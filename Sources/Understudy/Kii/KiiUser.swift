/// A Kii user as the service shows it to its owner (`GET /users/me`), never with the password.
package struct KiiUser: Sendable, Hashable {
    /// The user's id: a lower-case UUID layout, e.g. `6eaffe12-b424-8c51-ffb0-fe99548caa00`.
    package var userID: String
    /// The username, lower-cased; nil when the user registered without one. It never changes.
    package var loginName: String?
    /// The email address in force, as given; nil when the user has none.
    package var emailAddress: String?
    /// The phone number in force, in international (E.164) form such as `+819012345678`.
    package var phoneNumber: String?
    /// The two-letter country given at registration (or taken from a `US-2015550123` phone number).
    package var country: String?
    /// False only while `emailAddress` waits for verification.
    package var emailAddressVerified: Bool
    /// False only while `phoneNumber` waits for verification.
    package var phoneNumberVerified: Bool
    /// A changed email address waiting for verification; `emailAddress` stays in force until it is verified.
    package var pendingEmailAddress: String?
    /// A changed phone number (E.164) waiting for verification; `phoneNumber` stays in force until then.
    package var pendingPhoneNumber: String?
    /// The access token, on the user that `register` and `login` return only.
    package var token: String?
    /// Milliseconds since the epoch on the virtual clock when the user registered.
    package var created: Int64
    /// The display name set by `update`; nil when none.
    package var displayName: String? = nil
    /// The locale set by `update`; nil when none.
    package var locale: String? = nil
    /// True while an administrator has disabled the user (`setDisabled`).
    package var disabled: Bool = false
    /// The custom fields set by the last `update`, in the order they were sent.
    package var customFields: [Property] = []
    /// Milliseconds since the epoch on the virtual clock of the last change (`update`); `created` until then.
    package var modified: Int64 = 0
    /// False for a pseudo user (`registerPseudo`) until `putIdentity` gives them an identifier and a password.
    package var hasPassword: Bool = true
    /// Linked provider accounts (contract v4), in link order.
    package var thirdPartyAccounts: [KiiThirdPartyAccount] = []
}

/// A successful login: the user and the new access token.
package struct KiiSession: Sendable, Hashable {
    /// The logged-in user (its `token` is the session's token).
    package var user: KiiUser
    /// The access token: 43 characters from `A-Z a-z 0-9 - _`.
    package var token: String
}

/// A Kii user as the backend stores it, with its verification state. Each change of a stored property (or of its
/// profile's) is noted in the app's `changes` (for a snapshot restore, `KiiApp+Image.swift`): a property added here
/// joins `State` too.
final class KiiStoredUser: ChangeNoting {
    let id: Identifier128
    let userID: String
    /// The username; set once, at sign-up or by a pseudo user's `putIdentity`.
    var loginName: String? { didSet { noteChange() } }
    var password: PasswordHash { didSet { noteChange() } }
    let created: Int64
    var country: String? { didSet { noteChange() } }
    /// Lifecycle state (display name, custom fields, disabled flag, sessions, reset codes), once there is any.
    var extras: KiiProfile? { didSet { noteChange() } }
    /// Where this user's changes are noted: its app's.
    let changes: UserChanges<KiiStoredUser>
    /// True while `changes` lists this user.
    var isNoted = false

    /// The lifecycle state, allocated on first use.
    var profile: KiiProfile {
        if let extras { return extras }
        let created = KiiProfile(owner: self)
        extras = created
        return created
    }

    /// True while an administrator has disabled the user.
    var isDisabled: Bool { extras?.disabled == true }

    /// False for a pseudo user, who has no identifier and no password (yet).
    var hasPassword: Bool { extras?.pseudo != true }

    /// The user's email address: in force, waiting for verification, and its code.
    var email = VerifiableAddress() { didSet { noteChange() } }
    /// The user's phone number (E.164): in force, waiting for verification, and its code.
    var phone = VerifiableAddress() { didSet { noteChange() } }

    init(id: Identifier128, loginName: String?, password: PasswordHash, created: Int64, changes: UserChanges<KiiStoredUser>) {
        self.id = id
        self.userID = id.formatted(uppercase: false)
        self.loginName = loginName
        self.password = password
        self.created = created
        self.changes = changes
    }

    /// Notes this user's change (its profile's too).
    @inline(__always)
    func noteChange() { changes.note(self) }

    func snapshot(token: String? = nil) -> KiiUser {
        KiiUser(
            userID: userID, loginName: loginName, emailAddress: email.current, phoneNumber: phone.current, country: country,
            emailAddressVerified: email.verified, phoneNumberVerified: phone.verified, pendingEmailAddress: email.pending,
            pendingPhoneNumber: phone.pending, token: token, created: created, displayName: extras?.displayName,
            locale: extras?.locale, disabled: isDisabled, customFields: extras?.customFields ?? [],
            modified: extras?.modified ?? created, hasPassword: hasPassword, thirdPartyAccounts: extras?.thirdParty ?? []
        )
    }
}

/// An email address or a phone number as a Kii user holds it, one verification state machine for both: the
/// address in force, a changed one waiting for verification, and the code that verifies it.
struct VerifiableAddress {
    /// The address in force, as given; nil when the user has none.
    var current: String?
    /// False only while `current` waits for verification.
    var verified = true
    /// A changed address waiting for verification; `current` stays in force until it is verified.
    var pending: String?
    /// The code that verifies the pending address, or the current one while it is unverified.
    var code: String?
    /// When `code` was sent, in seconds of virtual time (SMS codes expire; email codes do not).
    var codeSentAt: Double = 0

    /// The address a new code verifies: the pending one, else the current one while unverified.
    var awaitingVerification: String? {
        pending ?? (verified ? nil : current)
    }

    /// Checks `given` against the code sent and, when it is right, puts the waiting address in force (verified).
    /// Returns the address a pending one replaced, for the caller to release from its index.
    ///
    /// Errors: 400 `INVALID_ACCOUNT_STATUS` when nothing waits; 403 `INVALID_VERIFICATION_CODE` for a wrong
    /// code; 410 `PHONE_NUMBER_VERIFICATION_CODE_EXPIRED` when `expiresAfter` seconds have passed since it was sent.
    mutating func verify(_ given: String, accountType: String, expiresAfter ttl: Double?, now: Double) throws(KiiError) -> String? {
        guard awaitingVerification != nil, let expected = code else {
            throw .invalidAccountStatus(accountType: accountType)
        }
        guard given == expected else { throw .invalidVerificationCode(given, accountType: accountType) }
        if let ttl, now - codeSentAt > ttl { throw .phoneCodeExpired(ttl: ttl) }
        var replaced: String?
        if let pending {
            replaced = current
            current = pending
            self.pending = nil
        }
        verified = true
        code = nil
        return replaced
    }

    /// Changes to `address` (checked and free): in force at once when not `verifying`; kept in force when it is
    /// `sameAsCurrent` (dropping a pending change); else pending. Returns true when a code must be sent to it.
    mutating func change(to address: String, verifying: Bool, sameAsCurrent: Bool) -> Bool {
        if !verifying {
            current = address
            verified = true
            pending = nil
            code = nil
            return false
        }
        if sameAsCurrent {
            current = address
            pending = nil
            if verified { code = nil; return false }
            return true
        }
        pending = address
        return true
    }
}
