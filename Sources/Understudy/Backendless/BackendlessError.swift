/// An error as Backendless answers it: a numeric code and the server's message.
public struct BackendlessError: Error, Sendable, Hashable {
    /// The Backendless error code, e.g. 3033.
    public var code: Int
    /// The server's wording, naming the property or value where there is one.
    public var message: String
    /// The HTTP status the real service sends with it.
    public var httpStatus: Int

    public init(code: Int, message: String, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus ?? Self.defaultStatus(for: code)
    }

    /// 401 for bad credentials and tokens, 403 for a disabled registration, 404 for unknown devices, else 400.
    public static func defaultStatus(for code: Int) -> Int {
        switch code {
        case 3003, 3064: return 401
        case 3009: return 403
        case 5000, 5001: return 404
        default: return 400
        }
    }

    /// The catalogue's message for a code, used when a fault names only the code.
    public static func catalogueMessage(for code: Int) -> String {
        switch code {
        case 1000: return "Entity with the specified ID cannot be found"
        case 2002: return "Unable to find application. Check application id and/or API key."
        case 3002:
            return "User is already logged in from another device/computer. The application is configured to disable multiple concurrent logins with the same user credentials."
        case 3003: return "Invalid login or password"
        case 3006: return "Login or password is missing or null"
        case 3009: return "User registration is disabled."
        case 3010: return "Dynamic property definition is disabled."
        case 3011: return "Property 'password' is required"
        case 3018: return "User with the same identity already exists"
        case 3020: return "Cannot perform password recovery. Unable to find a user with the specified identity."
        case 3024: return "Unable to update user account due to error: injected fault"
        case 3025: return "Unable to perform password recovery due to error: injected fault"
        case 3029: return "Cannot modify properties of another user"
        case 3030: return "Unable to locate user account - invalid user id"
        case 3014: return "Unable to register user. External registration failed with message: injected fault"
        case 3021: return "Unable to register user due to error: injected fault"
        case 3033: return "Unable to register user. User already exists."
        case 3034: return "Unable to login. User login is disabled."
        case 3036: return "Unable to login. User account is locked out due to too many failed logins."
        case 3038: return "Some of required parameters are null"
        case 3039: return "\"objectId\" is a reserved system property and is not allowed when registering a user."
        case 3040: return "Provided email has wrong format."
        case 3045: return "Required properties in the provided object do not contain values."
        case 3050: return "Password should be string"
        case 3052: return "External authentication failed with message 'Invalid access token'"
        case 3072: return "Social user cannot use password"
        case 3075: return "Cannot request password restoration for a user, authorized using a social network"
        case 3096: return "Identity for social user cannot be changed"
        case 3043: return "Unable to register user. There are the same properties in request."
        case 3044: return "Unable to login. Multiple login limit for the same user account has been reached"
        case 3064: return "Not existing user token. Relogin user to update your user token"
        case 3078:
            return "You can not register user without the 'email' property value while 'Require Email Confirmation' is enabled"
        case 3087: return "Unable to login. User email is not confirmed."
        case 3090: return "User account is disabled"
        case 3092: return "The link is not valid: it is unknown or was already used."
        case 3101: return "Password recovery is disabled"
        case 3102: return "User has already confirmed the email address. Email confirmation will not be sent."
        case 3103:
            return "Unable to send email confirmation. The \"Require Email Confirmation\" option must be enabled in Backendless Console (see the Users > Registration screen)"
        case 3104: return "Unable to send email confirmation - user account with the email cannot be found."
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

    /// The catalogue's error for `code`: its message and status.
    public static func catalogue(_ code: Int) -> BackendlessError {
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
        BackendlessError(
            code: 3010,
            message: "Dynamic property definition is disabled. Unable to add the new property '\(property)'."
        )
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
            message: "Invalid value range: the value of '\(property)' is longer than \(limit) characters"
        )
    }
    static let userAlreadyExists = catalogue(3033)
    static func full(_ limit: Int) -> BackendlessError {
        BackendlessError(code: 3021, message: "Unable to register user due to error: the emulator holds its maximum of \(limit) users")
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
        BackendlessError(
            code: 3064,
            message: "Not existing user token - \(token). Relogin user to update your user token"
        )
    }
    // Devices
    static func invalidChannelName(_ name: String) -> BackendlessError {
        BackendlessError(code: 5044, message: "Channel name contains invalid character: '\(name)'")
    }
    static func devicesFull(_ capacity: Int) -> BackendlessError {
        BackendlessError(code: 5043, message: "Could not register channel: the emulator holds its maximum of \(capacity) devices")
    }

    /// Over HTTP, `PUT users/{objectId}` with a property whose value is an array or object (`kind`): 3024.
    public static func unsupportedValue(_ property: String, kind: String) -> BackendlessError {
        BackendlessError(
            code: 3024,
            message: "Unable to update user account due to error: property '\(property)' must be a string, number, boolean or null, got \(kind)"
        )
    }

    static func unknownObjectID(_ objectID: String) -> BackendlessError {
        BackendlessError(code: 1000, message: "Entity with the specified ID cannot be found: Id - \(objectID)")
    }
}

extension BackendlessError: CustomStringConvertible {
    public var description: String { "\(code): \(message)" }
}
