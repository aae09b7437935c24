/// What a Backendless app does when a user asks to recover a password (`settings.password_recovery`): the
/// console's choice between the "password recovery" and "password recovery by link" email templates.
package enum PasswordRecovery: String, Sendable, Hashable, CaseIterable {
    /// The email carries a link to a change-password page; the old password works until the link is used.
    case link
    /// The email carries a new system-generated password, which replaces the old one at once.
    case temporary
    /// Recovery is switched off: `restore_password` answers 3101.
    case off

    /// The setting as scenarios see it: `"link"`, `"temporary"` or `false`.
    package var value: Value {
        switch self {
        case .link: return .string("link")
        case .temporary: return .string("temporary")
        case .off: return .bool(false)
        }
    }

    /// Reads the setting from `"link"`, `"temporary"` or `false`.
    package init(_ value: Value) throws(SettingError) {
        switch value {
        case .string("link"): self = .link
        case .string("temporary"): self = .temporary
        case .bool(false): self = .off
        default:
            throw SettingError(setting: "password_recovery", expected: "\"link\", \"temporary\" or false", got: value)
        }
    }
}
