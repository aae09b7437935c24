/// The errors of the account lifecycle (password reset and change, update, deletion, disabling) and of push
/// installations, with the statuses of `lifecycle.md`.
extension KiiError {
    /// 404 `USER_NOT_FOUND` naming the identifier's field (`emailAddress`, `phoneNumber`, `loginName`, `userID`).
    package static func userNotFound(field: String, value: String) -> KiiError {
        KiiError(
            status: 404, code: "USER_NOT_FOUND", message: "User with \(field) \(value) was not found", field: field,
            value: value
        )
    }

    /// 401 `USER_DISABLED`: the user is disabled and may not reset a password or verify an address.
    package static func userDisabled(_ userID: String) -> KiiError {
        KiiError(
            status: 401, code: "USER_DISABLED", message: "The user \(userID) is disabled", field: "userID", value: userID
        )
    }

    /// 409 `INVALID_STATUS`: the address a reset method needs (`email address`, `phone number`) is missing or not
    /// verified.
    package static func invalidStatus(_ address: String, method: String) -> KiiError {
        KiiError(
            status: 409, code: "INVALID_STATUS",
            message: "The user did not have a verified \(address), which the \(method) reset needs"
        )
    }

    /// 400 `INVALID_INPUT_DATA` for a password reset: an empty PIN, or a new password equal to the old one.
    package static func invalidReset(field: String, _ message: String) -> KiiError {
        KiiError(status: 400, code: "INVALID_INPUT_DATA", message: message, field: field)
    }

    /// 403 `INVALID_VERIFICATION_CODE` for a reset PIN: wrong, or no reset by PIN was requested.
    package static func invalidResetPIN(_ pin: String) -> KiiError {
        KiiError(
            status: 403, code: "INVALID_VERIFICATION_CODE",
            message: "The PIN code \(pin) is not valid (wrong, or no password reset by PIN was requested)",
            field: "pinCode", value: pin
        )
    }

    /// 410 `PIN_CODE_EXPIRED`: the right PIN, more than `sms_reset_pin_ttl` seconds after it was texted.
    package static func pinCodeExpired(ttl: Double) -> KiiError {
        let seconds = ttl == ttl.rounded() && abs(ttl) < 1e15 ? String(Int64(ttl)) : String(ttl)
        return KiiError(
            status: 410, code: "PIN_CODE_EXPIRED",
            message: "The password reset PIN code has expired (PIN codes live \(seconds) seconds)"
        )
    }

    /// 404 `USER_NOT_FOUND` for a reset link that is unknown or was already used (or replaced).
    package static let resetLinkUnknown = KiiError(
        status: 404, code: "USER_NOT_FOUND",
        message: "The password reset link is unknown, was already used, or was replaced by a newer request"
    )

    /// 401 `WRONG_PASSWORD`: the old password given to a password change is wrong.
    package static let wrongPassword = KiiError(
        status: 401, code: "WRONG_PASSWORD", message: "The provided password is wrong", field: "oldPassword"
    )

    /// 403 `WRONG_TOKEN`: an access token that stopped working (password change or reset, deletion, disabling)
    /// or that this app never issued.
    package static func wrongToken(_ token: String) -> KiiError {
        KiiError(status: 403, code: "WRONG_TOKEN", message: "The provided token is not valid: \(token)")
    }

    /// 404 `INSTALLATION_NOT_FOUND`: no installation has this id (or this device type and registration id).
    package static func installationNotFound(_ id: String) -> KiiError {
        KiiError(
            status: 404, code: "INSTALLATION_NOT_FOUND", message: "Installation \(id) was not found",
            field: "installationID", value: id
        )
    }

    /// 404 `MQTT_ENDPOINT_NOT_FOUND`: the installation is not an MQTT installation.
    package static func mqttEndpointNotFound(_ id: String) -> KiiError {
        KiiError(
            status: 404, code: "MQTT_ENDPOINT_NOT_FOUND", message: "Installation \(id) is not an MQTT installation",
            field: "installationID", value: id
        )
    }
}
