/// The developer-portal settings of a Kii app that scenarios (and HTTP) can read and flip at any time.
package struct KiiSettings: Sendable, Equatable {
    /// Email verification (`emailAddressVerificationRequired`): a new email address logs in only once verified.
    package var emailVerification = false
    /// SMS verification (`phoneNumberVerificationRequired`): a new phone number logs in only once verified.
    package var phoneVerification = false
    /// How long an SMS verification code lives, in seconds of virtual time (24 hours by default).
    package var smsCodeTTL: Double = 86_400
    /// How long a password-reset PIN (SMS_PIN) lives, in seconds of virtual time (an hour by default).
    package var smsResetPINTTL: Double = 3_600
    /// `exposeFullUserDataToOthers` (contract v4): another user's token reads the full record, not only `userID`,
    /// `loginName` and `displayName`.
    package var exposeFullUserData = false
    /// The application id over HTTP.
    package var appID = "understudy-kii-app"
    /// The application key over HTTP.
    package var appKey = "understudy-kii-key"
    /// A request quota on the virtual clock (`rate_limit`, `rate_limit_seconds`); off by default.
    package var rateLimit = RateLimitSettings()
    /// Phone numbers (E.164) whose SMS codes and reset PINs are fixed (`test_phone_numbers`): number → code.
    package var testPhoneNumbers: [String: String] = [:]

    /// The defaults: both verifications off, SMS codes live 24 hours.
    package init() {}

    /// Every setting name, in the order documentation lists them.
    package static let names = ["email_verification", "phone_verification", "sms_code_ttl", "sms_reset_pin_ttl", "expose_full_user_data", "app_id", "app_key"]
        + RateLimitSettings.names + ["test_phone_numbers"]

    /// The setting's current value, or nil for an unknown name.
    package func value(of name: String) -> Value? {
        switch name {
        case "email_verification": return .bool(emailVerification)
        case "phone_verification": return .bool(phoneVerification)
        case "sms_code_ttl":
            return smsCodeTTL == smsCodeTTL.rounded() && smsCodeTTL < 1e15 ? .int(Int64(smsCodeTTL)) : .double(smsCodeTTL)
        case "sms_reset_pin_ttl":
            return smsResetPINTTL == smsResetPINTTL.rounded() && smsResetPINTTL < 1e15
                ? .int(Int64(smsResetPINTTL)) : .double(smsResetPINTTL)
        case "expose_full_user_data": return .bool(exposeFullUserData)
        case "app_id": return .string(appID)
        case "app_key": return .string(appKey)
        case "rate_limit", "rate_limit_seconds": return rateLimit.value(of: name)
        case "test_phone_numbers": return .object(testPhoneNumbers.mapValues(Value.string))
        default: return nil
        }
    }

    /// Changes one setting from a dynamic value; throws for an unknown name or a value of the wrong kind.
    package mutating func set(_ name: String, to value: Value) throws(SettingError) {
        switch name {
        case "email_verification": emailVerification = try value.boolean(for: name)
        case "phone_verification": phoneVerification = try value.boolean(for: name)
        case "sms_code_ttl": smsCodeTTL = try value.nonNegativeNumber(for: name)
        case "sms_reset_pin_ttl": smsResetPINTTL = try value.nonNegativeNumber(for: name)
        case "expose_full_user_data": exposeFullUserData = try value.boolean(for: name)
        case "app_id": appID = try value.nonEmptyString(for: name)
        case "app_key": appKey = try value.nonEmptyString(for: name)
        case "test_phone_numbers": testPhoneNumbers = try Self.testPhoneNumbers(from: value)
        default:
            guard try rateLimit.set(name, to: value) else { throw SettingError(unknown: name, known: Self.names) }
        }
    }

    /// `{ ["+819012345678"] = "123456" }`: E.164 numbers, each with a code of 4 to 10 digits.
    private static func testPhoneNumbers(from value: Value) throws(SettingError) -> [String: String] {
        guard case .object(let pairs) = value.emptyListAsObject else {
            throw SettingError(setting: "test_phone_numbers", expected: "a table such as { [\"+819012345678\"] = \"123456\" }", got: value)
        }
        var numbers: [String: String] = [:]
        for (number, code) in pairs {
            let digits = number.dropFirst()
            guard number.hasPrefix("+"), (8...16).contains(number.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw SettingError(
                    setting: "test_phone_numbers", expected: "E.164 phone numbers as keys (such as \"+819012345678\"), not \"\(number)\"",
                    got: .string(number)
                )
            }
            guard case .string(let text) = code, (4...10).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw SettingError(setting: "test_phone_numbers[\"\(number)\"]", expected: "a code of 4 to 10 digits as a string", got: code)
            }
            numbers[number] = text
        }
        return numbers
    }
}
