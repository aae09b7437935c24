/// What a stored Kii user carries beyond sign-up: the fields `update` sets, the disabled flag, the live access
/// tokens, and the state of a password reset. Allocated on first use (a first login, say), so that users seeded in
/// bulk, who never log in, cost nothing more. A change of any property is noted as its owner's.
final class KiiProfile {
    var displayName: String? { didSet { owner?.noteChange() } }
    var locale: String? { didSet { owner?.noteChange() } }
    var disabled = false { didSet { owner?.noteChange() } }
    /// True for a pseudo user until `putIdentity` (contract v3).
    var pseudo = false { didSet { owner?.noteChange() } }
    /// Custom fields, in the order the last `update` sent them.
    var customFields: [Property] = [] { didSet { owner?.noteChange() } }
    /// Linked provider accounts, in link order (contract v4).
    var thirdParty: [KiiThirdPartyAccount] = [] { didSet { owner?.noteChange() } }
    /// Milliseconds on the virtual clock of the last `update`; nil until one.
    var modified: Int64? { didSet { owner?.noteChange() } }
    /// The user's live access tokens (ended all at once by a password change, reset, deletion or disabling).
    var tokens: [String] = [] { didSet { owner?.noteChange() } }
    /// The PIN of a reset requested by `SMS_PIN`, and when it was texted (seconds of virtual time).
    var resetPIN: String? { didSet { owner?.noteChange() } }
    var resetPINSentAt: Double = 0 { didSet { owner?.noteChange() } }
    /// The code of the reset link last sent, and whether it went by SMS (else by email).
    var resetLinkCode: String? { didSet { owner?.noteChange() } }
    var resetLinkBySMS = false { didSet { owner?.noteChange() } }
    /// The user whose profile this is (it holds the profile).
    private(set) weak var owner: KiiStoredUser?

    init(owner: KiiStoredUser) {
        self.owner = owner
    }
}

/// The app-wide state of the lifecycle: ended tokens, open reset links and push installations.
struct KiiLifecycleState {
    /// Tokens that stopped working: they answer 403 `WRONG_TOKEN` rather than 401.
    var endedTokens: Set<String> = []
    /// The user each open reset-link code belongs to.
    var resetLinks: [String: KiiStoredUser] = [:]
    /// Every push installation.
    var installations = KiiInstallationStore()
}

/// How `requestPasswordReset` reaches the user.
package enum KiiResetMethod: String, Sendable, CaseIterable {
    /// An email with a link (the default).
    case email = "EMAIL"
    /// An SMS with a link.
    case sms = "SMS"
    /// An SMS with a PIN, for `completePasswordReset`.
    case smsPIN = "SMS_PIN"
}
