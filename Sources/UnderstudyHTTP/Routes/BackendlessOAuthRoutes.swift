internal import Understudy

/// The body of an OAuth login as the SDKs send it: `accessToken`, `accessTokenSecret` (OAuth1), `fieldsMapping`
/// (the Flutter SDK's `fieldsMappings` too) and `guestUser` (an object, a JSON string holding one, as Flutter
/// sends it, or the guest's objectId). A null field is the same as an absent one (the JS SDK sends `"guestUser": null`).
struct OAuthLoginRequest {
    var token: String
    var options: OAuthLoginOptions

    init(_ body: JSON) throws(BackendlessError) {
        token = BackendlessRoutes.text(body["accessToken"]) ?? ""
        options = OAuthLoginOptions()
        options.secret = BackendlessRoutes.text(body["accessTokenSecret"])
        let mapping = Self.present(body["fieldsMapping"]) ?? Self.present(body["fieldsMappings"])
        if let mapping {
            guard case .object(let members) = mapping else { throw Self.wrong("fieldsMapping", "an object", mapping) }
            for member in members {
                guard case .string(let property) = member.value else {
                    throw Self.wrong("fieldsMapping.\(member.key)", "a string", member.value)
                }
                options.fieldsMapping.append(OAuthFieldMapping(member.key, to: property))
            }
        }
        options.guest = try Self.guestObjectID(Self.present(body["guestUser"]))
    }

    /// The value unless it is absent or null.
    static func present(_ value: JSON?) -> JSON? {
        if case .null? = value { return nil }
        return value
    }

    /// The `objectId` of `guestUser`: a user object, a JSON string holding one (Flutter), or the objectId itself.
    /// An object without an `objectId` names no guest.
    static func guestObjectID(_ value: JSON?) throws(BackendlessError) -> String? {
        switch value {
        case nil: return nil
        case .object?: return present(value?["objectId"]).map { BackendlessRoutes.text($0) ?? "" }
        case .string(let text)?:
            if let parsed = try? JSONParser.parse(text), case .object = parsed { return try guestObjectID(parsed) }
            return text
        case let other?: throw wrong("guestUser", "a user object, a JSON string holding one, or an objectId", other)
        }
    }

    static func wrong(_ field: String, _ expected: String, _ got: JSON) -> BackendlessError {
        .unparsableRequest("\(field) must be \(expected), got \(got.kindName)")
    }
}
