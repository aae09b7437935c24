/// An error as Kii Cloud answers it: the HTTP status, the `errorCode` string and a message naming the offending
/// field or value, plus `field` and `value` where the real service sends them.
package struct KiiError: Error, Sendable, Hashable {
    /// The HTTP status, e.g. 409.
    package var status: Int
    /// Kii's `errorCode`, e.g. `USER_ALREADY_EXISTS`.
    package var code: String
    /// The server's wording, naming the field or value where there is one.
    package var message: String
    /// The field at fault (`loginName`, `emailAddress`, `phoneNumber`, `password`, `country`, `userID`).
    package var field: String?
    /// The offending value, where the service reports it.
    package var value: String?
    /// For a rate-limited call: whole seconds of virtual time until the quota's window ends (`Retry-After`).
    package var retryAfter: Int?

    /// An error with every part given.
    package init(status: Int, code: String, message: String, field: String? = nil, value: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.value = value
    }

    /// 429 `TOO_MANY_REQUESTS`: the app's rate limit (`rate_limit` calls per `rate_limit_seconds` of virtual
    /// time) is spent.
    package static func tooManyRequests(retryAfter: Int) -> KiiError {
        var error = KiiError(status: 429, code: "TOO_MANY_REQUESTS", message: "Too many requests: the app's rate limit is reached")
        error.retryAfter = retryAfter
        return error
    }

    /// The error an injected fault answers with: its status (400 when none), its code as text, its message.
    package init(fault: Fault) {
        let code: String
        switch fault.code {
        case .text(let text)?: code = text
        case .number(let number)?: code = String(number)
        case nil: code = "UNDEFINED_ERROR"
        }
        self.init(status: fault.status ?? 400, code: code, message: fault.message ?? "Injected fault")
    }

    // MARK: 400 INVALID_INPUT_DATA

    /// 400 `INVALID_INPUT_DATA`: `field` breaks its rule; `message` says which rule.
    package static func invalidInput(field: String, value: String?, message: String) -> KiiError {
        KiiError(status: 400, code: "INVALID_INPUT_DATA", message: message, field: field, value: value)
    }

    /// 400 `INVALID_INPUT_DATA`: none of username, email address and phone number was given.
    package static let noIdentifier = KiiError(
        status: 400, code: "INVALID_INPUT_DATA",
        message: "There are validation errors: at least one of loginName, emailAddress or phoneNumber is required"
    )

    /// 400 `INVALID_INPUT_DATA`: a registration without a username whose addresses could not log in because the
    /// named verification setting(s) are on.
    package static func verificationCombination(_ settings: [String]) -> KiiError {
        let names = settings.joined(separator: " and ")
        let advice = settings.count == 1 ? "turn \(names) off" : "turn email_verification or phone_verification off"
        return KiiError(
            status: 400, code: "INVALID_INPUT_DATA",
            message: "A user without a loginName cannot be registered while \(names) \(settings.count == 1 ? "is" : "are") on: an unverified address cannot log in (give a loginName, or \(advice))"
        )
    }

    /// 400 `INVALID_INPUT_DATA`: the phone number is valid but not a mobile number (a landline, toll-free, ...).
    package static func notMobile(_ number: String) -> KiiError {
        invalidInput(
            field: "phoneNumber", value: number,
            message: "phoneNumber \(number) is not a mobile phone number; only mobile numbers are accepted"
        )
    }

    // MARK: Other codes

    /// 400 `PASSWORD_TOO_SHORT`: a password of fewer than 4 characters.
    package static let passwordTooShort = KiiError(
        status: 400, code: "PASSWORD_TOO_SHORT", message: "The password must be at least 4 characters long",
        field: "password"
    )

    /// 409 `USER_ALREADY_EXISTS`: `field` (`loginName`, `emailAddress` or `phoneNumber`) is taken by another user.
    package static func userAlreadyExists(field: String, value: String) -> KiiError {
        KiiError(
            status: 409, code: "USER_ALREADY_EXISTS", message: "User with \(field) \(value) already exists",
            field: field, value: value
        )
    }

    /// 400 `invalid_grant`: a login with an unknown identifier, a wrong password or an unverified address.
    package static let invalidGrant = KiiError(
        status: 400, code: "invalid_grant", message: "The user was not found or a wrong password was provided"
    )

    /// 400 `invalid_grant`: no account of the provider accepts the token (contract v4's social login).
    package static func socialTokenRefused(_ provider: String) -> KiiError {
        KiiError(status: 400, code: "invalid_grant", message: "The \(provider) access token is not valid")
    }

    /// 400 `invalid_grant`: the `mfa` grant's code (contract v4: no sign-in is ever pending).
    package static let mfaCodeNotValid = KiiError(status: 400, code: "invalid_grant", message: "The MFA code is not valid")

    /// 404 `USER_NOT_FOUND`: no user has this userID.
    package static func userNotFound(_ userID: String) -> KiiError {
        KiiError(
            status: 404, code: "USER_NOT_FOUND", message: "User with userID \(userID) was not found",
            field: "userID", value: userID
        )
    }

    /// 403 `INVALID_VERIFICATION_CODE`: the code does not match the one sent for the address.
    package static func invalidVerificationCode(_ code: String, accountType: String) -> KiiError {
        KiiError(
            status: 403, code: "INVALID_VERIFICATION_CODE",
            message: "The verification code \(code) is not valid for the \(accountType)", field: "verificationCode",
            value: code
        )
    }

    /// 400 `INVALID_ACCOUNT_STATUS`: the address (`email address` / `phone number`) has nothing waiting for
    /// verification.
    package static func invalidAccountStatus(accountType: String) -> KiiError {
        KiiError(
            status: 400, code: "INVALID_ACCOUNT_STATUS",
            message: "The \(accountType) is already verified (nothing waits for verification)"
        )
    }

    /// 410 `PHONE_NUMBER_VERIFICATION_CODE_EXPIRED`: the SMS code is older than the `sms_code_ttl` setting.
    package static func phoneCodeExpired(ttl: Double) -> KiiError {
        let seconds = ttl == ttl.rounded() && abs(ttl) < 1e15 ? String(Int64(ttl)) : String(ttl)
        return KiiError(
            status: 410, code: "PHONE_NUMBER_VERIFICATION_CODE_EXPIRED",
            message: "The phone number verification code has expired (codes live \(seconds) seconds)"
        )
    }

    /// 401 `UNAUTHORIZED`: over HTTP, missing or wrong app credentials or access token.
    package static func unauthorized(_ message: String = "The access token or app credentials are missing or wrong") -> KiiError {
        KiiError(status: 401, code: "UNAUTHORIZED", message: message)
    }

    /// 401 `UNAUTHORIZED`: over HTTP, an access token this app never issued.
    package static func unknownToken(_ token: String) -> KiiError {
        unauthorized("The access token \(token) is not valid")
    }

    /// 503 `RESOURCE_TEMPORARILY_UNAVAILABLE`: the emulator holds as many users as its capacity allows.
    package static func capacityReached(_ maxUsers: Int) -> KiiError {
        KiiError(
            status: 503, code: "RESOURCE_TEMPORARILY_UNAVAILABLE",
            message: "Unable to register user: the emulator holds its maximum of \(maxUsers) users"
        )
    }
}

extension KiiError: CustomStringConvertible {
    /// `409 USER_ALREADY_EXISTS: User with loginName bond007 already exists`.
    package var description: String { "\(status) \(code): \(message)" }
}
