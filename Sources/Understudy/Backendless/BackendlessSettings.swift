/// The console settings of a Backendless app that scenarios can flip at any time.
package struct BackendlessSettings: Sendable, Equatable {
    /// What the multiple-login setting allows.
    package enum MultipleLogins: Sendable, Equatable {
        /// Any number of sessions per user.
        case allow
        /// A second login fails (3002) while a session exists.
        case deny
        /// At most this many sessions (3044 beyond).
        case limit(Int)
    }

    /// A schema rule for a user property.
    package struct PropertyRule: Sendable, Equatable {
        package var required: Bool
        package var maxLength: Int?

        package init(required: Bool = false, maxLength: Int? = nil) {
            self.required = required
            self.maxLength = maxLength
        }
    }

    /// The longest string a property holds without its own `max_length` (a Backendless STRING column).
    package static let defaultMaxLength = 500

    /// The user property marked as identity.
    package var identity = "email"
    /// The registration toggle.
    package var registration = true
    /// New users must confirm their email before logging in.
    package var emailConfirmation = false
    /// Unknown properties are accepted (and become columns).
    package var dynamicProperties = true
    /// Extra schema for user properties.
    package var properties: [String: PropertyRule] = [:]
    /// The login toggle.
    package var logins = true
    /// Failed logins in a row before the account locks; 0 turns the lockout off.
    package var lockoutAfter = 0
    /// How long a lock lasts, in minutes of virtual time.
    package var lockoutMinutes: Double = 30
    package var multipleLogins: MultipleLogins = .allow
    /// The application id over HTTP.
    package var appID = "UNDERSTUDY-APP"
    /// The REST API key over HTTP.
    package var apiKey = "UNDERSTUDY-REST-KEY"
    /// The CloudCode API key over HTTP (contract version 4): requests under `/{appId}/{cloudcode_key}/` are made
    /// with it, and the calls the vendor restricts to Code Runner accept them.
    package var cloudCodeKey = "UNDERSTUDY-CLOUDCODE-KEY"
    /// What `restore_password` emails: a link to the change-password page, a temporary password, or nothing (3101).
    package var passwordRecovery: PasswordRecovery = .link
    /// A request quota on the virtual clock (`rate_limit`, `rate_limit_seconds`); off by default.
    package var rateLimit = RateLimitSettings()

    package init() {}

    /// Every setting name, in the order documentation lists them.
    package static let names = [
        "identity", "registration", "email_confirmation", "dynamic_properties", "properties", "logins",
        "lockout_after", "lockout_minutes", "multiple_logins", "app_id", "api_key", "password_recovery", "cloudcode_key",
    ] + RateLimitSettings.names

    /// The setting's current value, or nil for an unknown name.
    package func value(of name: String) -> Value? {
        switch name {
        case "identity": return .string(identity)
        case "registration": return .bool(registration)
        case "email_confirmation": return .bool(emailConfirmation)
        case "dynamic_properties": return .bool(dynamicProperties)
        case "properties":
            var object: [String: Value] = [:]
            for (property, rule) in properties {
                var fields: [String: Value] = ["required": .bool(rule.required)]
                if let maxLength = rule.maxLength { fields["max_length"] = .int(Int64(maxLength)) }
                object[property] = .object(fields)
            }
            return .object(object)
        case "logins": return .bool(logins)
        case "lockout_after": return .int(Int64(lockoutAfter))
        case "lockout_minutes": return lockoutMinutes == lockoutMinutes.rounded() ? .int(Int64(lockoutMinutes)) : .double(lockoutMinutes)
        case "multiple_logins":
            switch multipleLogins {
            case .allow: return .string("allow")
            case .deny: return .string("deny")
            case .limit(let count): return .int(Int64(count))
            }
        case "app_id": return .string(appID)
        case "api_key": return .string(apiKey)
        case "password_recovery": return passwordRecovery.value
        case "rate_limit", "rate_limit_seconds": return rateLimit.value(of: name)
        case "cloudcode_key": return .string(cloudCodeKey)
        default: return nil
        }
    }

    /// Changes one setting from a dynamic value.
    package mutating func set(_ name: String, to value: Value) throws(SettingError) {
        switch name {
        case "identity": identity = try value.nonEmptyString(for: name)
        case "registration": registration = try value.boolean(for: name)
        case "email_confirmation": emailConfirmation = try value.boolean(for: name)
        case "dynamic_properties": dynamicProperties = try value.boolean(for: name)
        case "properties": properties = try Self.propertyRules(from: value)
        case "logins": logins = try value.boolean(for: name)
        case "lockout_after": lockoutAfter = try value.count(for: name)
        case "lockout_minutes": lockoutMinutes = try value.nonNegativeNumber(for: name)
        case "multiple_logins":
            switch value {
            case .string("allow"): multipleLogins = .allow
            case .string("deny"): multipleLogins = .deny
            case .int, .double:
                let count = try value.count(for: name)
                guard count >= 1 else {
                    throw SettingError(setting: name, expected: "\"allow\", \"deny\" or a number of sessions of at least 1", got: value)
                }
                multipleLogins = .limit(count)
            default:
                throw SettingError(setting: name, expected: "\"allow\", \"deny\" or a number of sessions", got: value)
            }
        case "app_id": appID = try value.nonEmptyString(for: name)
        case "api_key": apiKey = try value.nonEmptyString(for: name)
        case "password_recovery": passwordRecovery = try PasswordRecovery(value)
        case "cloudcode_key": cloudCodeKey = try value.nonEmptyString(for: name)
        default:
            guard try rateLimit.set(name, to: value) else { throw SettingError(unknown: name, known: Self.names) }
        }
    }

    private static func propertyRules(from value: Value) throws(SettingError) -> [String: PropertyRule] {
        guard case .object(let object) = value.emptyListAsObject else {
            throw SettingError(setting: "properties", expected: "a table such as { name = { required = true, max_length = 50 } }", got: value)
        }
        var rules: [String: PropertyRule] = [:]
        for (property, ruleValue) in object {
            guard case .object(let fields) = ruleValue.emptyListAsObject else {
                throw SettingError(setting: "properties.\(property)", expected: "a table with required and max_length", got: ruleValue)
            }
            var rule = PropertyRule()
            for (field, fieldValue) in fields {
                switch field {
                case "required": rule.required = try fieldValue.boolean(for: "properties.\(property).required")
                case "max_length": rule.maxLength = try fieldValue.count(for: "properties.\(property).max_length")
                default:
                    throw SettingError(
                        unknown: "properties.\(property).\(field)", known: ["required", "max_length"]
                    )
                }
            }
            rules[property] = rule
        }
        return rules
    }
}

/// A setting was given a value of the wrong kind, or does not exist.
package struct SettingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting's name as given.
    package var setting: String
    /// True when the flavour has no setting of that name (rather than a wrong value for one it has).
    package var isUnknown: Bool
    package var description: String

    package init(setting: String, expected: String, got value: Value) {
        self.setting = setting
        isUnknown = false
        description = "setting '\(setting)' must be \(expected), got \(value.kindName)"
    }

    package init(unknown setting: String, known: [String]) {
        self.setting = setting
        isUnknown = true
        description = "unknown setting '\(setting)'\(NearestName.suggestion(for: setting, among: known, quote: "'")) (known settings: \(known.joined(separator: ", ")))"
    }
}

extension Value {
    func boolean(for setting: String) throws(SettingError) -> Bool {
        guard case .bool(let flag) = self else { throw SettingError(setting: setting, expected: "true or false", got: self) }
        return flag
    }

    func nonEmptyString(for setting: String) throws(SettingError) -> String {
        guard case .string(let text) = self, !text.isEmpty else {
            throw SettingError(setting: setting, expected: "a non-empty string", got: self)
        }
        return text
    }

    func count(for setting: String) throws(SettingError) -> Int {
        switch self {
        case .int(let number) where number >= 0: return Int(number)
        case .double(let number) where number >= 0 && number == number.rounded() && number < 1e15: return Int(number)
        default: throw SettingError(setting: setting, expected: "a whole number of at least 0", got: self)
        }
    }

    /// A duration (minutes, seconds): at least 0 and at most `VirtualClock.limit`, so that added to any time the
    /// clock shows it still converts to milliseconds.
    func nonNegativeNumber(for setting: String) throws(SettingError) -> Double {
        guard let number = numberValue, number >= 0, number <= VirtualClock.limit else {
            throw SettingError(setting: setting, expected: "a number from 0 to 10^15", got: self)
        }
        return number
    }
}
