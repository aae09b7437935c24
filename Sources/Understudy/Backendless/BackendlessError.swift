/// An error as Backendless answers it: a numeric code and the server's message.
package struct BackendlessError: Error, Sendable, Hashable {
    /// The Backendless error code, e.g. 3033.
    package var code: Int
    /// The server's wording, naming the property or value where there is one.
    package var message: String
    /// The HTTP status the real service sends with it.
    package var httpStatus: Int
    /// For a rate-limited call: whole seconds of virtual time until the quota's window ends (`Retry-After`).
    package var retryAfter: Int?

    package init(code: Int, message: String, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus ?? Self.defaultStatus(for: code)
    }

    /// 999: the app's rate limit (`rate_limit` calls per `rate_limit_seconds` of virtual time) is spent. The
    /// number and wording are Backendless's for its per-plan API-call limit (docs/decisions.md); the status is 429.
    package static func rateLimited(retryAfter: Int) -> BackendlessError {
        var error = BackendlessError(code: 999, message: "Cannot process request - request per second limit has been exhausted", httpStatus: 429)
        error.retryAfter = retryAfter
        return error
    }

    /// 401 for bad credentials and tokens, 403 for a disabled registration, 404 for unknown devices, else 400.
    package static func defaultStatus(for code: Int) -> Int {
        switch code {
        case 1000: return 404
        case 3003, 3064: return 401
        case 3009: return 403
        case 5000, 5001: return 404
        default: return 400
        }
    }

    /// The catalogue's message for a code, used when a fault names only the code.
    package static func catalogueMessage(for code: Int) -> String {
        switch code {
        case 1000: return "Entity with the specified ID cannot be found"
        case 1006: return "Column does not exist in table 'Users'"
        case 2002: return "Unable to find application. Check application id and/or API key."
        case 2003: return "Role does not support for this operation"
        case 2005: return "Could not find role"
        case 2007: return "Could not assign system role"
        case 2008: return "Could not unassign system role"
        case 2011: return "Assigning/unassigning a role can be done only from server code"
        case 2014: return "Login by object id is allowed only for Code Runner API key"
        case 3054: return "Operation allowed only for BL logic."
        case 3057: return "Could not find user by id or identity"
        case 3080: return "Wrong or unsupported authorized user redirect URL"
        case 3081: return "Could not get roles for the user."
        case 3085: return "Unable to disable user. User is already disabled."
        case 3086: return "Unable to enable user. User is already enabled."
        case 19000: return "Invalid where clause: " + injectedDetail
        case 3002:
            return "User is already logged in from another device/computer. The application is configured to disable multiple concurrent logins with the same user credentials."
        case 3003: return "Invalid login or password"
        case 3006: return "Login or password is missing or null"
        case 3009: return "User registration is disabled."
        case 3010: return "Dynamic property definition is disabled."
        case 3011: return "Property 'password' is required"
        case 3018: return "User with the same identity already exists"
        case 3020: return recoveryUserNotFoundText + "."
        case 3024: return updateFailed(injectedDetail).message
        case 3025: return recoveryFailed(injectedDetail).message
        case 3029: return "Cannot modify properties of another user"
        case 3030: return "Unable to locate user account - invalid user id"
        case 3014: return externalRegistrationFailed(BackendlessError(code: 0, message: injectedDetail)).message
        case 3021: return registrationFailed(injectedDetail).message
        case 3033: return "Unable to register user. User already exists."
        case 3034: return "Unable to login. User login is disabled."
        case 3036: return "Unable to login. User account is locked out due to too many failed logins."
        case 3038: return "Some of required parameters are null"
        case 3039: return "\"objectId\" is a reserved system property and is not allowed when registering a user."
        case 3040: return "Provided email has wrong format."
        case 3045: return emptyValuesText + "."
        case 3050: return "Password should be string"
        case 3052: return "External authentication failed with message 'Invalid access token'"
        case 3072: return "Social user cannot use password"
        case 3075: return "Cannot request password restoration for a user, authorized using a social network"
        case 3096: return "Identity for social user cannot be changed"
        case 3043: return "Unable to register user. There are the same properties in request."
        case 3044: return "Unable to login. Multiple login limit for the same user account has been reached"
        case 3064: return "\(unknownTokenText.head). \(unknownTokenText.tail)"
        case 3078:
            return "You can not register user without the 'email' property value while 'Require Email Confirmation' is enabled"
        case 3087: return "Unable to login. User email is not confirmed."
        case 3090: return "User account is disabled"
        case 3092: return "The link is not valid: it is unknown or was already used."
        case 3101: return "Password recovery is disabled"
        case 3102: return "User has already confirmed the email address. Email confirmation will not be sent."
        case 3103:
            return "Unable to send email confirmation. The \"Require Email Confirmation\" option must be enabled in Backendless Console (see the Users > Registration screen)"
        case 3104: return confirmationUserNotFoundText + "."
        case 3122: return "Password verification allowed only from CloudCode"
        case 5000: return "Unable to retrieve device. Invalid device ID."
        case 5001: return "Unable to cancel device registration. Invalid device ID"
        case 5004: return "Unable to register device. Invalid expiration date."
        case 5006: return "Unable to register device. Wrong json format."
        case 5011: return "Unable to register device, deviceId cannot be null"
        case 5044: return "Channel name contains invalid character"
        case 8000: return "Invalid value range"
        default: return scheduledPushMessage(for: code) ?? "Injected fault \(code)"
        }
    }

    /// What an injected fault's message says where the real one names a cause (3014, 3021, 3024, 3025).
    static let injectedDetail = "injected fault"
    /// 3020's words, closed by "." in the catalogue and by the identity the domain names.
    static let recoveryUserNotFoundText = "Cannot perform password recovery. Unable to find a user with the specified identity"
    /// 3104's words, closed by "." in the catalogue and by the identity the domain names.
    static let confirmationUserNotFoundText = "Unable to send email confirmation - user account with the email cannot be found"
    /// 3045's words, closed by "." in the catalogue and by the properties the domain names.
    static let emptyValuesText = "Required properties in the provided object do not contain values"
    /// 3064's words, around the token the domain names.
    static let unknownTokenText = (head: "Not existing user token", tail: "Relogin user to update your user token")

    /// The catalogue's error for `code`: its message and status.
    package static func catalogue(_ code: Int) -> BackendlessError {
        BackendlessError(code: code, message: catalogueMessage(for: code))
    }

    // Registration
    static let missingParameters = catalogue(3038)
    static let registrationDisabled = catalogue(3009)
    static let reservedObjectID = catalogue(3039)
    static let duplicateProperties = catalogue(3043)
    static let passwordRequired = catalogue(3011)
    static func missingIdentity(_ property: String) -> BackendlessError {
        BackendlessError(code: 3013, message: "Unable to register user. Missing identity value for '\(property)'")
    }
    static let emailRequiredForConfirmation = catalogue(3078)
    static let wrongEmailFormat = catalogue(3040)
    static func dynamicPropertiesDisabled(_ property: String) -> BackendlessError {
        BackendlessError(code: 3010, message: catalogueMessage(for: 3010) + " Unable to add the new property '\(property)'.")
    }
    static func requiredProperty(_ property: String) -> BackendlessError {
        BackendlessError(code: 3012, message: "Unable to register user. Property '\(property)' is required")
    }
    static func missingRequiredValue(_ property: String) -> BackendlessError {
        BackendlessError(
            code: 3041,
            message: "Unable to register user. Missing required property value for '\(property)'"
        )
    }
    static func valueTooLong(_ property: String, limit: Int) -> BackendlessError {
        BackendlessError(
            code: 8000,
            message: catalogueMessage(for: 8000) + ": the value of '\(property)' is longer than \(limit) characters"
        )
    }
    static let userAlreadyExists = catalogue(3033)
    /// 3021: a registration the backend could not carry out, for the reason `detail` gives.
    static func registrationFailed(_ detail: String) -> BackendlessError {
        BackendlessError(code: 3021, message: "Unable to register user due to error: \(detail)")
    }
    static func full(_ limit: Int) -> BackendlessError {
        registrationFailed("the emulator holds its maximum of \(limit) users")
    }
    /// 3033 for the `number`th seeded user whose identity value (`identityKey`) is taken.
    static func seededUserExists(_ number: Int, _ identityKey: String) -> BackendlessError {
        BackendlessError(code: 3033, message: userAlreadyExists.message + " (seeded user \(number): \(identityKey))")
    }

    // Login and sessions
    static let invalidLogin = catalogue(3003)
    static let emptyLogin = catalogue(3006)
    static let loginsDisabled = catalogue(3034)
    static let lockedOut = catalogue(3036)
    static let emailNotConfirmed = catalogue(3087)
    static let accountDisabled = catalogue(3090)
    static let alreadyLoggedIn = catalogue(3002)
    static let loginLimitReached = catalogue(3044)
    static func unknownToken(_ token: String) -> BackendlessError {
        BackendlessError(code: 3064, message: "\(unknownTokenText.head) - \(token). \(unknownTokenText.tail)")
    }
    // Devices
    static func invalidChannelName(_ name: String, _ problem: ChannelNameProblem? = nil) -> BackendlessError {
        switch problem {
        case .empty?:
            return BackendlessError(code: 5044, message: "Channel name is empty")
        case .tooLong(let characters, let limit)?:
            let shown = name.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(name.unicodeScalars.prefix(40))) + "…" : name
            return BackendlessError(code: 5044, message: "Channel name is too long: \(characters) characters, at most \(limit) allowed: '\(shown)'")
        case .invalidCharacter?, nil:
            return BackendlessError(code: 5044, message: catalogueMessage(for: 5044) + ": '\(name)'")
        }
    }
    static func devicesFull(_ capacity: Int) -> BackendlessError {
        BackendlessError(code: 5043, message: "Could not register channel: the emulator holds its maximum of \(capacity) devices")
    }

    /// Over HTTP, `PUT users/{objectId}` with a property whose value is an array or object (`kind`): 3024.
    package static func unsupportedValue(_ property: String, kind: String) -> BackendlessError {
        updateFailed("property '\(property)' must be a string, number, boolean or null, got \(kind)")
    }
    /// 3024: an update the backend could not carry out, for the reason `detail` gives.
    static func updateFailed(_ detail: String) -> BackendlessError {
        BackendlessError(code: 3024, message: "Unable to update user account due to error: \(detail)")
    }
    /// 3025: a password recovery the backend could not carry out, for the reason `detail` gives.
    static func recoveryFailed(_ detail: String) -> BackendlessError {
        BackendlessError(code: 3025, message: "Unable to perform password recovery due to error: \(detail)")
    }

    static func unknownObjectID(_ objectID: String) -> BackendlessError {
        BackendlessError(code: 1000, message: catalogueMessage(for: 1000) + ": Id - \(objectID)")
    }
    /// 3092 for a confirmation link nobody was sent.
    package static let invalidConfirmationLink = BackendlessError(
        code: 3092, message: "Unable to confirm email. The confirmation link is not valid."
    )
    /// 5005 over HTTP: a device registration body with a field of the wrong type, as `detail` says.
    package static func wrongDeviceJSON(_ detail: String) -> BackendlessError {
        BackendlessError(code: 5005, message: "Wrong json format for device registration: \(detail)")
    }
    /// 8002 over HTTP: a request the server could not read, as `detail` says.
    package static func unparsableRequest(_ detail: String) -> BackendlessError {
        BackendlessError(code: 8002, message: "Could not parse request with message: \(detail)")
    }
}

extension BackendlessError: CustomStringConvertible {
    package var description: String { "\(code): \(message)" }
}
