/// The fields of one `update`, checked against the rules before anything changes.
struct KiiProfileChange {
    var displayName: String?
    var locale: String?
    var country: String?
    var emailAddress: String?
    var phoneNumber: String?
    var customFields: [Property] = []

    /// Names that may never be sent.
    static let refused: Set<String> = ["userID", "password"]
    /// Names the user record shows and only the service sets (a custom field by that name would hide them).
    static let readOnly: Set<String> = [
        "emailAddressVerified", "phoneNumberVerified", "pendingEmailAddress", "pendingPhoneNumber", "token",
        "disabled", "created", "modified", "createdAt", "modifiedAt", "hasPassword",
    ]
    static let maxCustomFields = 100

    /// The value the user's HTTP record (`KiiRoutes.record`) shows for a field only the service sets; nil for a
    /// field it does not show. Kii's native SDKs (Android, Unity) send the whole record back with `update()`:
    /// such a field sent unchanged is accepted and ignored, only a change is refused.
    static func shownValue(_ name: String, of user: KiiUser) -> Value? {
        switch name {
        case "userID": return .string(user.userID)
        case "emailAddressVerified": return user.emailAddress == nil ? nil : .bool(user.emailAddressVerified)
        case "phoneNumberVerified": return user.phoneNumber == nil ? nil : .bool(user.phoneNumberVerified)
        case "_emailAddressPending": return user.pendingEmailAddress.map(Value.string)
        case "_phoneNumberPending": return user.pendingPhoneNumber.map(Value.string)
        case "_hasPassword": return .bool(user.hasPassword)
        case "_disabled": return .bool(user.disabled)
        default: return nil
        }
    }

    /// True when `field` is a service-set field the record shows, sent back with the value it shows.
    static func isEchoedRecordField(_ field: Property, of user: KiiUser) -> Bool {
        guard let shown = shownValue(field.name, of: user) else { return false }
        return shown == field.value
    }
    static let maxNameLength = 128
    /// The most a user's custom fields may hold, counted as their text and strings' bytes.
    static let maxCustomBytes = 65_536

    init(_ fields: [Property], for user: KiiUser) throws(KiiError) {
        var seen = Set<String>()
        var customBytes = 0
        for field in fields {
            let name = field.name
            guard seen.insert(name).inserted else {
                throw .invalidInput(field: name, value: nil, message: "The field \(name) is sent twice")
            }
            if field.value == .null || Self.isEchoedRecordField(field, of: user) { continue }
            switch name {
            case "displayName":
                let text = try Self.text(field)
                guard (1...50).contains(text.unicodeScalars.count) else {
                    throw .invalidInput(field: name, value: text, message: "displayName must be 1 to 50 characters")
                }
                displayName = text
            case "locale":
                let text = try Self.text(field)
                guard (1...64).contains(text.utf8.count) else {
                    throw .invalidInput(field: name, value: text, message: "locale must be 1 to 64 characters")
                }
                locale = text
            case "country": country = try KiiIdentifiers.country(try Self.text(field))
            case "emailAddress": emailAddress = try KiiIdentifiers.emailAddress(try Self.text(field))
            case "phoneNumber": phoneNumber = try Self.text(field)
            case "loginName":
                let text = try Self.text(field)
                guard let current = user.loginName, text.asciiLowercased() == current else {
                    throw .invalidInput(field: name, value: text, message: "loginName cannot be changed")
                }
            case "internalUserID":
                guard let number = field.value.numberValue, number == Double(user.internalUserID) else {
                    throw .invalidInput(field: name, value: nil, message: "internalUserID cannot be set or changed")
                }
            default:
                if Self.refused.contains(name) || name.hasPrefix("_") {
                    throw .invalidInput(field: name, value: nil, message: "The field \(name) cannot be set by an update")
                }
                if Self.readOnly.contains(name) {
                    throw .invalidInput(field: name, value: nil, message: "The field \(name) is read-only")
                }
                guard (1...Self.maxNameLength).contains(name.utf8.count) else {
                    throw .invalidInput(
                        field: String(name.prefix(Self.maxNameLength)), value: nil,
                        message: "A custom field's name must be 1 to \(Self.maxNameLength) bytes long"
                    )
                }
                customBytes += name.utf8.count + Self.size(of: field.value)
                customFields.append(field)
            }
        }
        if customFields.count > Self.maxCustomFields {
            throw .invalidInput(
                field: "fields", value: nil,
                message: "At most \(Self.maxCustomFields) custom fields are kept, got \(customFields.count)"
            )
        }
        if customBytes > Self.maxCustomBytes {
            throw .invalidInput(
                field: "fields", value: nil,
                message: "The custom fields hold \(customBytes) bytes; at most \(Self.maxCustomBytes) are kept"
            )
        }
    }

    /// Names a sign-up's `fields` may not use (contract v4): the sign-up's own fields and the record's reserved names.
    static let signUpRefused: Set<String> = [
        "loginName", "emailAddress", "phoneNumber", "password", "displayName", "country", "locale", "userID",
        "internalUserID", "hasPassword", "thirdPartyAccounts", "emailAddressVerified", "phoneNumberVerified", "token",
    ]

    /// A sign-up's `displayName`, `locale` and custom fields (contract v4), checked: `displayName` 1-50
    /// characters, `locale` 1-64 bytes, custom fields by the update's name rules, no reserved name (400
    /// `INVALID_INPUT_DATA` naming the field).
    static func signUp(displayName: String?, locale: String?, fields: [Property]) throws(KiiError) -> KiiProfileChange {
        var change = KiiProfileChange()
        if let displayName {
            guard (1...50).contains(displayName.unicodeScalars.count) else {
                throw .invalidInput(field: "displayName", value: displayName, message: "displayName must be 1 to 50 characters")
            }
            change.displayName = displayName
        }
        if let locale {
            guard (1...64).contains(locale.utf8.count) else {
                throw .invalidInput(field: "locale", value: locale, message: "locale must be 1 to 64 characters")
            }
            change.locale = locale
        }
        var seen = Set<String>()
        var customBytes = 0
        for field in fields {
            let name = field.name
            guard seen.insert(name).inserted else {
                throw .invalidInput(field: name, value: nil, message: "The field \(name) is sent twice")
            }
            if signUpRefused.contains(name) || readOnly.contains(name) || name.hasPrefix("_") {
                throw .invalidInput(field: name, value: nil, message: "The field \(name) is reserved: it cannot be a custom field")
            }
            guard (1...maxNameLength).contains(name.utf8.count) else {
                throw .invalidInput(
                    field: String(name.prefix(maxNameLength)), value: nil,
                    message: "A custom field's name must be 1 to \(maxNameLength) bytes long"
                )
            }
            if field.value == .null { continue }
            customBytes += name.utf8.count + size(of: field.value)
            change.customFields.append(field)
        }
        if change.customFields.count > maxCustomFields {
            throw .invalidInput(
                field: "fields", value: nil, message: "At most \(maxCustomFields) custom fields are kept, got \(change.customFields.count)"
            )
        }
        if customBytes > maxCustomBytes {
            throw .invalidInput(
                field: "fields", value: nil, message: "The custom fields hold \(customBytes) bytes; at most \(maxCustomBytes) are kept"
            )
        }
        return change
    }

    private init() {}

    private static func text(_ field: Property) throws(KiiError) -> String {
        guard case .string(let text) = field.value else {
            throw .invalidInput(
                field: field.name, value: nil, message: "\(field.name) must be a string, got \(field.value.kindName)"
            )
        }
        return text
    }

    /// A rough size: strings by their bytes, other scalars 8, containers the sum of their parts.
    private static func size(of value: Value) -> Int {
        switch value {
        case .string(let text): return text.utf8.count
        case .array(let items): return items.reduce(2) { $0 + size(of: $1) }
        case .object(let members): return members.reduce(2) { $0 + $1.key.utf8.count + size(of: $1.value) }
        default: return 8
        }
    }
}
