#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import HTTPTypes
internal import Understudy

/// Kii topics over HTTP (contract v3), under `/api/apps/{appID}/` with `{scope}` empty (the app's) or
/// `users/{user}/` (`{user}` a userID, `me`, or `LOGIN_NAME:`/`EMAIL:`/`PHONE:` as elsewhere):
/// `PUT`/`HEAD`/`GET`/`DELETE {scope}topics/{topicID}`, `GET {scope}topics`, `PUT`/`GET`/`DELETE
/// {scope}topics/{topicID}/push/subscriptions/users/{userID}`, `POST …/push/subscriptions/users` (the token's user)
/// and `POST {scope}topics/{topicID}/push/messages`.
///
/// Who may do what: the application administrator (Basic `appID:appKey`, or a token from `oauth2/token` with
/// client credentials) may do everything. A user's token may create, delete and send to topics in its own scope,
/// read and list any topic, and subscribe, check and unsubscribe itself. Anything else is 401 `UNAUTHORIZED`, as
/// is a request with only `X-Kii-AppID`/`X-Kii-AppKey` (an anonymous app, not an administrator).
enum KiiTopicRoutes {
    /// The routes of `KiiDeclarations` (each in the app scope and under `users/{user}`).
    static func register(in table: inout RouteTable<RouteHandler>) {
        table.add(KiiOperation.sendToTopic, send)
    }

    // MARK: Callers and scopes

    /// Who sent a topic request.
    enum Caller {
        /// The application administrator.
        case admin
        /// A user's access token.
        case user(KiiUser)
    }

    /// The caller: an administrator or a user; 401 `UNAUTHORIZED` for none, wrong credentials, or the app's
    /// headers alone (`X-Kii-AppID`/`X-Kii-AppKey` are an anonymous app, as on the live service, not an
    /// administrator). The administrator is Basic `appID:appKey` (the key must match here) or an administrator
    /// token (`oauth2/token` with client credentials).
    static func caller(_ app: KiiApp, _ exchange: Exchange) throws(KiiError) -> Caller {
        switch try KiiRoutes.caller(app, exchange) {
        case .user(let user)?: return .user(user)
        case .app?:
            let authorization = exchange.header("Authorization")?.trimmingSpaces ?? ""
            let parts = authorization.split(separator: " ", maxSplits: 1)
            let credentials = parts.count > 1 ? parts[1].trimmingSpaces : ""
            switch parts.first?.lowercased() {
            case "bearer"?: return .admin  // `KiiRoutes.caller` takes a bearer token as the app only for an administrator's
            case "basic"?:
                if let data = Data(base64Encoded: credentials), let text = String(data: data, encoding: .utf8),
                    text == "\(app.settings.appID):\(app.settings.appKey)"
                {
                    return .admin
                }
                throw .unauthorized("Topics need the application administrator: Basic base64(appID:appKey) with the app's key, or an admin token")
            default:
                throw .unauthorized("Topics need an access token or the application administrator (X-Kii-AppID/X-Kii-AppKey alone are anonymous)")
            }
        case nil:
            throw .unauthorized("Topics need an access token (Authorization: Bearer) or the application administrator")
        }
    }

    /// The scope's owner: nil for the app scope, else the userID `{user}` names (404 `USER_NOT_FOUND`).
    static func owner(_ app: KiiApp, _ exchange: Exchange, _ caller: Caller) throws(KiiError) -> String? {
        guard exchange.parameters.names.contains("user") else { return nil }
        let named: KiiRoutes.Caller
        switch caller {
        case .admin: named = .app
        case .user(let user): named = .user(user)
        }
        return try KiiRoutes.target(app, exchange, named).userID
    }

    /// 401 unless the caller is the administrator or the scope's owner (for the app scope: the administrator).
    static func requireOwnerOrAdmin(_ caller: Caller, owner: String?, _ action: String) throws(KiiError) {
        switch caller {
        case .admin: return
        case .user(let user) where owner != nil && user.userID == owner: return
        case .user:
            throw .unauthorized(
                owner == nil
                    ? "Not authorized to \(action): an app-scope topic needs the application administrator"
                    : "Not authorized to \(action): only the topic's owner (or the administrator) may"
            )
        }
    }

    /// The subscriber a subscription path names (`{subscriber}`, or the token's user for `POST …/users`); 401
    /// unless it is the caller's own user or the caller is the administrator.
    static func subscriber(_ app: KiiApp, _ exchange: Exchange, _ caller: Caller) throws(KiiError) -> String {
        guard exchange.parameters.names.contains("subscriber") else {
            guard case .user(let user) = caller else {
                throw .unauthorized("POST …/push/subscriptions/users subscribes the token's user: send a user's access token")
            }
            return user.userID
        }
        let name = exchange.parameters["subscriber"]
        let userID: String
        if name == "me" {
            guard case .user(let user) = caller else { throw .unauthorized("users/me needs an access token (Authorization: Bearer)") }
            userID = user.userID
        } else if name.contains(":") {
            guard let user = app.find(identifier: name) else { throw .userNotFound(name) }
            userID = user.userID
        } else {
            userID = name
        }
        if case .user(let user) = caller, user.userID != userID {
            throw .unauthorized("Not authorized to manage another user's subscription: the token belongs to \(user.userID)")
        }
        return userID
    }

    // MARK: Subscriptions

    // MARK: Messages

    /// The networks each `SendPushMessageRequest` block names (`gcm` and `fcm` are both Android).
    static let networkBlocks: [(name: String, type: KiiDeviceType)] = [
        ("gcm", .android), ("fcm", .android), ("apns", .ios), ("jpush", .jpush), ("mqtt", .mqtt),
    ]

    /// The send flags a message may carry (`sendWhen`, ...): booleans, Kii's defaults when absent.
    static let sendFlags = ["sendWhen", "sendOrigin", "sendAppID", "sendTopicID", "sendObjectScope", "sendSender"]

    /// `{ data, sendToDevelopment?, sendToProduction?, gcm|fcm|apns|jpush|mqtt: { enabled, data? }, send* }` →
    /// 201 `{"pushMessageID"}`. The topic's ACL decides who may send (the token's user is the sender); the
    /// administrator may always send.
    static let send: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .sendToTopic) { app, exchange in
            let caller = try caller(app, exchange)
            let owner = try owner(app, exchange, caller)
            let body = try KiiRoutes.object(exchange)
            let data: [Property]
            switch body["data"] {
            case .object(let members)?: data = members.map { Property($0.key, $0.value.value) }
            case let other:
                throw KiiError.invalidPushData("data is required and must be an object of strings, got \(other?.kindName ?? "nothing")")
            }
            var networks = Set<KiiDeviceType>()
            var anyBlock = false
            for (name, type) in networkBlocks {
                guard let block = body[name], block != .null else { continue }
                anyBlock = true
                guard case .object = block else {
                    throw KiiError.invalidPushData(field: name, "\(name) must be an object such as {\"enabled\": true}")
                }
                if block["enabled"] == .bool(true) { networks.insert(type) }
            }
            // No block at all is 400, after the fault, owner and topic checks (the domain's).
            var message = KiiTopicMessage(
                data: data, development: try flag(body, "sendToDevelopment"), production: try flag(body, "sendToProduction"),
                networks: anyBlock ? networks : nil
            )
            message.networksRequired = true
            switch caller {
            case .admin: message.sender = .administrator
            case .user(let user): message.sender = .user(user.userID)
            }
            if case .object(let members)? = body["mqtt"]?["data"] {
                for member in members {
                    guard case .string(let text) = member.value else {
                        throw KiiError.invalidPushData(field: "mqtt.data.\(member.key)", "mqtt.data.\(member.key) must be a string, got \(member.value.kindName)")
                    }
                    message.mqttData.append(Property(member.key, .string(text)))
                }
            }
            for name in sendFlags {
                if let value = try flag(body, name) { message.flags[name] = value }
            }
            let delivery = try app.sendToTopic(topicID: exchange.parameters["topic"], message: message, owner: owner)
            return KiiRoutes.withContentType(
                Reply(status: 201, body: ["pushMessageID": .string(delivery.pushMessageID)]),
                "application/vnd.kii.SendPushMessageResponse+json"
            )
        }
    }

    /// `sendToDevelopment` / `sendToProduction`: a boolean, nil when absent or null (the domain's default: true).
    static func flag(_ body: JSON, _ name: String) throws(KiiError) -> Bool? {
        switch body[name] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let other?: throw KiiError.invalidInput(field: name, value: nil, message: "\(name) must be a boolean, got \(other.kindName)")
        }
    }

    // MARK: ACLs (contract v4)

    /// `{"userID": id}`, `{"groupID": id}` or `{"thingID": id}` for a subject.
    static func subjectJSON(_ subject: String) -> JSON {
        for (prefix, key) in [("UserID:", "userID"), ("GroupID:", "groupID"), ("ThingID:", "thingID")] where subject.hasPrefix(prefix) {
            return .object([.init(key, .string(String(subject.dropFirst(prefix.count))))])
        }
        return .object([.init("userID", .string(subject))])
    }
}
