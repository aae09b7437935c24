internal import AMF
internal import Understudy

/// The messages the gateway answers and the conversions between the REST JSON and AMF values, in the shapes the
/// Backendless SDKs accept (the reference notes' "pitfalls": an `ErrorMessage` with exactly-typed members, the
/// class aliases the SDK casts to, dates as AMF dates, no externalizable types).
enum AMFReplies {
    static let acknowledgeMessage = "flex.messaging.messages.AcknowledgeMessage"
    static let errorMessage = "flex.messaging.messages.ErrorMessage"
    static let commandMessage = "flex.messaging.messages.CommandMessage"

    /// A success: `body` holds the result (null included: the SDK needs the member).
    static func acknowledge(_ body: AMFValue, correlation: AMFValue) -> AMFValue {
        .object(AMFObject(acknowledgeMessage, sealed: [
            AMFMember("body", body), AMFMember("correlationId", correlation), AMFMember("clientId", .null),
            AMFMember("destination", .null), AMFMember("headers", .object(AMFObject())), AMFMember("messageId", .null),
            AMFMember("timestamp", .int(0)), AMFMember("timeToLive", .int(0)),
        ]))
    }

    /// A fault: the code as a string, the message, an empty detail and an anonymous `extendedData` object (the
    /// SDK casts each; anything else reaches the app as "Internal client exception").
    static func error(code: String, message: String, extendedData: [AMFMember] = [], correlation: AMFValue) -> AMFValue {
        .object(AMFObject(errorMessage, sealed: [
            AMFMember("faultCode", .string(code)), AMFMember("faultString", .string(message)),
            AMFMember("faultDetail", .string("")), AMFMember("extendedData", .object(AMFObject(sealed: extendedData))),
            AMFMember("correlationId", correlation), AMFMember("body", .null),
        ]))
    }

    /// The fault for a REST error reply: its `code`, `message` and `errorData`.
    static func error(_ reply: Reply, correlation: AMFValue) -> AMFValue {
        let body = reply.body
        let code: String
        switch body?["code"] {
        case .integer(let number)?: code = String(number)
        case .string(let text)?: code = text
        default:
            switch reply.code {
            case .int(let number)?: code = String(number)
            case .string(let text)?: code = text
            default: code = String(reply.status)
            }
        }
        let message = body?["message"]?.stringValue ?? reply.bodyText
        var extended: [AMFMember] = []
        if case .object(let members)? = body?["errorData"] { extended = members.map { AMFMember($0.key, amf($0.value)) } }
        return error(code: code, message: message, extendedData: extended, correlation: correlation)
    }

    // MARK: Results

    static let userAlias = "Users"
    static let userPropertyAlias = "com.backendless.services.users.property.UserProperty"
    static let deviceRegistrationAlias = "com.backendless.management.DeviceRegistrationDto"
    static let messageStatusAlias = "com.backendless.messaging.MessageStatus"
    /// The user properties that are times (milliseconds over REST, dates over AMF).
    static let userDates: Set<String> = ["created", "updated", "lastLogin"]

    static func result(_ json: JSON?, as kind: AMFResult) -> AMFValue {
        guard let json else { return .null }
        switch kind {
        case .void: return .null
        case .plain: return amf(json)
        case .member(let name): return json[name].map(amf) ?? .null
        case .user: return user(json)
        case .users:
            guard case .array(let items) = json else { return amf(json) }
            return .array(AMFArray(items.map(user)))
        case .channelsLeft: return .int(0)
        case .userProperties:
            guard case .array(let columns) = json else { return amf(json) }
            return .array(AMFArray(columns.map { column in
                .object(AMFObject(userPropertyAlias, sealed: [
                    AMFMember("name", column["name"].map(amf) ?? .null),
                    AMFMember("required", .bool(column["required"] == .bool(true))),
                    AMFMember("type", column["type"].map(amf) ?? .string("UNKNOWN")),
                    AMFMember("identity", .bool(column["identity"] == .bool(true))),
                ]))
            }))
        case .deviceRegistration:
            guard case .array(let items) = json, let first = items.first, case .object(let members) = first else { return .null }
            return .object(AMFObject(deviceRegistrationAlias, sealed: members.map { member in
                if member.key == "expiration", case .integer(let milliseconds) = member.value { return AMFMember("expiration", .date(Double(milliseconds))) }
                return AMFMember(member.key, amf(member.value))
            }))
        case .messageStatus:
            let status = json["status"]?.stringValue?.uppercased()
            return .object(AMFObject(messageStatusAlias, sealed: [
                AMFMember("messageId", json["messageId"].map(amf) ?? .null),
                AMFMember("status", status.map(AMFValue.string) ?? .null),
                AMFMember("errorMessage", json["errorMessage"].map(amf) ?? .null),
            ]))
        }
    }

    /// A REST user as the SDKs' `Users` object: every member, times as dates.
    static func user(_ json: JSON) -> AMFValue {
        guard case .object(let members) = json else { return amf(json) }
        return .object(AMFObject(userAlias, sealed: members.map { member in
            if userDates.contains(member.key), case .integer(let milliseconds) = member.value {
                return AMFMember(member.key, .date(Double(milliseconds)))
            }
            return AMFMember(member.key, amf(member.value))
        }))
    }

    // MARK: Conversions

    /// JSON as AMF: integers in 29 bits as integers, objects anonymous, arrays dense.
    static func amf(_ json: JSON) -> AMFValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .number(number)
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let items): return .array(AMFArray(items.map(amf)))
        case .object(let members): return .object(AMFObject(sealed: members.map { AMFMember($0.key, amf($0.value)) }))
        }
    }

    /// An AMF value as the JSON a REST client would send: dates as milliseconds, objects and associative arrays
    /// as objects, vectors and byte arrays as arrays.
    static func json(_ value: AMFValue) -> JSON {
        switch value {
        case .undefined, .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .integer(Int64(number))
        case .double(let number):
            if number.rounded() == number, abs(number) < 9e15 { return .integer(Int64(number)) }
            return .number(number)
        case .string(let text), .xml(let text), .xmlDocument(let text): return .string(text)
        case .date(let milliseconds):
            return milliseconds.isFinite && abs(milliseconds) < 9e15 ? .integer(Int64(milliseconds.rounded())) : .null
        case .array(let array):
            if array.dense.isEmpty, !array.associative.isEmpty { return .object(array.associative.map { JSON.Member($0.name, json($0.value)) }) }
            return .array(array.dense.map(json))
        case .object(let object): return .object(object.members.map { JSON.Member($0.name, json($0.value)) })
        case .byteArray(let bytes): return .array(bytes.map { .integer(Int64($0)) })
        case .vectorInt(let items, _): return .array(items.map { .integer(Int64($0)) })
        case .vectorUInt(let items, _): return .array(items.map { .integer(Int64($0)) })
        case .vectorDouble(let items, _): return .array(items.map { json(.double($0)) })
        case .vectorObject(_, let items, _): return .array(items.map(json))
        case .dictionary(let dictionary):
            return .object(dictionary.entries.map { JSON.Member(text($0.key) ?? "", json($0.value)) })
        }
    }

    /// A value as path or header text; nil for null.
    static func text(_ value: AMFValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return number.rounded() == number && abs(number) < 9e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return String(flag)
        default: return nil
        }
    }
}
