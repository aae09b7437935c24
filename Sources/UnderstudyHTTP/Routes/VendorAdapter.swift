internal import Understudy

/// The one HTTP handler of every declared route whose operation names its domain method: it finds the app (the
/// flavour's `serve`), makes the route's guards, reads the declared arguments where the route carries them (with
/// the flavour's rules for a body field, or the route's named resolver), calls the method
/// (`OperationDeclaration.perform`, faults first) and presents the outcome: the flavour's presentation of the
/// result, or the route's named presenter. A flavour's error becomes its own reply.
enum VendorAdapter {
    /// The handler of `route`, one of `operation`'s.
    static func handler<Op: Operation>(_ operation: Op, _ route: RouteDeclaration) -> RouteHandler {
        let declaration = operation.declaration
        guard let performer = declaration.perform else { preconditionFailure("\(declaration.name) names no domain method") }
        if let operation = operation as? BackendlessOperation {
            return { exchange in
                BackendlessRoutes.serve(&exchange, operation) { app, exchange in
                    try answer(app, &exchange, declaration, route, performer)
                }
            }
        }
        let operation = operation as! KiiOperation
        return { exchange in
            KiiRoutes.serve(&exchange, operation) { app, exchange in
                try answer(app, &exchange, declaration, route, performer)
            }
        }
    }

    /// Guards, arguments, the method, the reply.
    static func answer(
        _ app: any EmulatedApp, _ exchange: inout Exchange, _ declaration: OperationDeclaration, _ route: RouteDeclaration,
        _ performer: Performer
    ) throws -> Reply {
        var request = RequestArguments(exchange: exchange, app: app)
        for check in route.guards {
            if check == .readsBody { _ = try request.body() } else { try guardRoute(check, app, exchange) }
        }
        var values = [ArgumentValue](repeating: .absent, count: declaration.arguments.count)
        var resolved = 0
        // The route's resolvers first, in its order (its owner check before the body, say), then the others.
        for entry in route.resolvers {
            guard let index = declaration.argumentNames.firstIndex(of: entry.name) else { continue }
            let argument = declaration.arguments[index]
            values[index] = try request.resolve(entry.resolver, argument, from: route.source(of: argument))
            resolved |= 1 << index
        }
        for (index, argument) in declaration.arguments.enumerated() where resolved & (1 << index) == 0 {
            values[index] = try request.read(argument, from: route.source(of: argument))
        }
        // A route that takes JSON refuses a body it cannot read even when no argument comes from it.
        if route.body == .json { _ = try request.body() }
        let arguments = CallArguments(names: declaration.argumentNames, values: values)
        let outcome = try performer.run(app, arguments, Unlimited())
        return try VendorPresenters.reply(outcome, route.reply, app, arguments, exchange)
    }

    static func guardRoute(_ check: RouteGuard, _ app: any EmulatedApp, _ exchange: Exchange) throws {
        switch (check, app.flavoured) {
        case (.liveUserToken, .backendless(let app)): try BackendlessLifecycleRoutes.caller(exchange, app)
        case (.credentials, .kii(let app)): _ = try KiiRoutes.anyCaller(app, exchange)
        case (.topicCaller, .kii(let app)): _ = try KiiTopicRoutes.caller(app, exchange)
        case (.appCredentials, .kii(let app)):
            guard case .app = try KiiRoutes.anyCaller(app, exchange) else {
                throw KiiError.unauthorized("Only the application administrator (app credentials here) may change a user's status")
            }
        default: preconditionFailure("the guard \(check) is not \(app.flavour.rawValue)'s")
        }
    }
}

/// One request's arguments as the vendor sends them: the body read once, when an argument first needs it.
struct RequestArguments {
    let exchange: Exchange
    let app: any EmulatedApp
    private var parsed: JSON??

    init(exchange: Exchange, app: any EmulatedApp) {
        self.exchange = exchange
        self.app = app
    }

    /// The body as the flavour reads it: Backendless a JSON object or nothing (other content types refused), Kii
    /// a JSON object (an empty body is an empty object).
    mutating func body() throws -> JSON? {
        if let parsed { return parsed }
        let body: JSON?
        switch app.flavour {
        case .backendless: body = try BackendlessRoutes.object(exchange).map(JSON.object)
        case .kii: body = try KiiRoutes.object(exchange)
        }
        parsed = .some(body)
        return body
    }

    /// `argument` read plainly from `source`.
    mutating func read(_ argument: ArgumentDeclaration, from source: HTTPSource) throws -> ArgumentValue {
        switch source {
        case .path(let name): return .string(exchange.parameters[name])
        case .query(let name): return exchange.queryItem(name).map(ArgumentValue.string) ?? .absent
        case .header(let name):
            if let value = exchange.header(name) { return .string(value) }
            return argument.optional ? .absent : .string("")
        case .bodyField(let name): return try field(argument, named: name)
        case .body:
            switch app.flavoured {
            case .backendless:
                // Properties to change: a list or an object is refused by name.
                guard case .object(let members)? = try body() else { return .properties([]) }
                var properties: [Property] = []
                properties.reserveCapacity(members.count)
                for member in members {
                    switch member.value {
                    case .array, .object: throw BackendlessError.unsupportedValue(member.key, kind: member.value.kindName)
                    default: properties.append(Property(member.key, member.value.value))
                    }
                }
                return .properties(properties)
            case .kii:
                guard case .object(let members)? = try body() else { return .absent }
                return .properties(members.map { Property($0.key, $0.value.value) })
            }
        case .resolved, .none: return .absent
        }
    }

    /// A member of the body, read by the flavour's rules: Backendless takes a number or boolean as its text, Kii
    /// refuses anything but a string (400 `INVALID_INPUT_DATA` naming the field, also when a required one is
    /// absent).
    mutating func field(_ argument: ArgumentDeclaration, named name: String) throws -> ArgumentValue {
        let body = try body()
        switch app.flavour {
        case .backendless:
            return BackendlessRoutes.text(body?[name]).map(ArgumentValue.string) ?? .absent
        case .kii:
            let object = body ?? .object([])
            if case .boolean = argument.type {
                guard case .bool(let flag)? = object[name] else {
                    if argument.optional, object[name] == nil || object[name] == .null { return .absent }
                    throw KiiError.invalidInput(
                        field: name, value: object[name].map(JSONWriter.string), message: "\(name) is required and must be a boolean"
                    )
                }
                return .bool(flag)
            }
            if argument.optional { return try KiiRoutes.string(object, name).map(ArgumentValue.string) ?? .absent }
            return .string(try KiiRoutes.requiredString(object, name))
        }
    }

    /// `argument` worked out by `resolver`.
    mutating func resolve(_ resolver: ArgumentResolver, _ argument: ArgumentDeclaration, from source: HTTPSource) throws -> ArgumentValue {
        switch (resolver, app.flavoured) {
        case (.backendlessIdentity(let rawFallback), .backendless(let app)):
            return .string(try BackendlessLifecycleRoutes.identity(exchange, app, rawFallback: rawFallback))
        case (.backendlessNewUserProperties, .backendless):
            guard case .object(let members)? = try body() else { return .absent }
            var properties: [Property] = []
            properties.reserveCapacity(members.count)
            for member in members { properties.append(Property(member.key, try BackendlessRoutes.propertyValue(member))) }
            return .properties(properties)
        case (.kiiUser, .kii(let app)):
            return .string(try KiiRoutes.target(app, exchange, nil).userID)
        case (.kiiOwner(let appAllowed), .kii(let app)):
            return .string(try KiiRoutes.owned(app, exchange, appAllowed: appAllowed).user.userID)
        case (.kiiAnyUser, .kii(let app)):
            return .string(try KiiRoutes.target(app, exchange, try KiiRoutes.anyCaller(app, exchange)).userID)
        case (.kiiIdentifier, .kii(let app)):
            return .string(try KiiLifecycleRoutes.identifier(exchange, try KiiRoutes.caller(app, exchange)))
        case (.kiiResetMethod, .kii):
            let body = try body() ?? .object([])
            switch try KiiRoutes.string(body, "notificationMethod") {
            case nil, "EMAIL"?: return .string(KiiResetMethod.email.rawValue)
            case "SMS"?:
                switch try KiiRoutes.string(body, "smsResetMethod") {
                case nil, "URL"?: return .string(KiiResetMethod.sms.rawValue)
                case "PIN"?: return .string(KiiResetMethod.smsPIN.rawValue)
                case let other?:
                    throw KiiError.invalidInput(field: "smsResetMethod", value: other, message: "smsResetMethod must be URL or PIN")
                }
            case let other?:
                throw KiiError.invalidInput(field: "notificationMethod", value: other, message: "notificationMethod must be EMAIL or SMS")
            }
        case (.kiiTextOrEmpty, .kii):
            guard case .bodyField(let name) = source else { return .string("") }
            return .string(try KiiRoutes.string(try body() ?? .object([]), name) ?? "")
        case (.kiiTopicOwner(let mustOwn), .kii(let app)):
            let caller = try KiiTopicRoutes.caller(app, exchange)
            let owner = try KiiTopicRoutes.owner(app, exchange, caller)
            if let action = mustOwn { try KiiTopicRoutes.requireOwnerOrAdmin(caller, owner: owner, action) }
            return owner.map(ArgumentValue.string) ?? .absent
        case (.kiiSubscriber, .kii(let app)):
            return .string(try KiiTopicRoutes.subscriber(app, exchange, try KiiTopicRoutes.caller(app, exchange)))
        case (.kiiInstallation, .kii(let app)):
            return .string(try KiiInstallationRoutes.installation(app, exchange).installationID)
        case (.bearerToken, .kii(let app)):
            guard try KiiRoutes.caller(app, exchange)?.user != nil, let authorization = exchange.header("Authorization") else {
                throw KiiError.unauthorized("users/me needs an access token (Authorization: Bearer)")
            }
            return .string(authorization.trimmingSpaces.dropFirst("bearer ".count).trimmingSpaces)
        case (.kiiOwnUserID, .kii(let app)):
            let caller = try KiiTopicRoutes.caller(app, exchange)
            guard case .string(let userID) = try read(argument, from: source) else {
                throw KiiError.invalidInput(field: argument.name, value: nil, message: "\(source.description) is required (a userID)")
            }
            if case .user(let user) = caller, user.userID != userID {
                throw KiiError.unauthorized("Not authorized to read another user's groups: the token belongs to \(user.userID)")
            }
            return .string(userID)
        case (.kiiOwnToken, .kii(let app)):
            let authorization = exchange.header("Authorization")?.trimmingSpaces ?? ""
            guard authorization.lowercased().hasPrefix("bearer ") else {
                throw KiiError.unauthorized("This call needs the user's access token (Authorization: Bearer)")
            }
            let token = String(authorization.dropFirst("bearer ".count).trimmingSpaces)
            let user = try app.user(forToken: token)
            let named = exchange.parameters["user"]
            if named != "me", named != user.userID {
                throw KiiError.unauthorized("The access token belongs to another user than \(named.prefix(64))")
            }
            return .string(token)
        case (.kiiProvider, .kii):
            let name = exchange.parameters["provider"]
            guard let provider = KiiSocialProvider(named: name) else {
                throw KiiError.invalidInput(
                    field: "provider", value: String(name.prefix(64)),
                    message: "provider must be facebook, twitter, google, qq or renren, got \(name.prefix(64))"
                )
            }
            return .string(provider.rawValue)
        case (.kiiSocialOptions, .kii):
            let body = try body() ?? .object([])
            let provider = KiiSocialProvider(named: exchange.parameters["provider"])
            var options: [String: Value] = [:]
            if let secret = try KiiRoutes.string(body, "accessTokenSecret"), provider == .twitter { options["secret"] = .string(secret) }
            if let openID = try KiiRoutes.string(body, "openID"), provider == .qq { options["open_id"] = .string(openID) }
            return options.isEmpty ? .absent : .value(.object(options))
        case (.bearerTokenIfAny, .kii):
            let authorization = exchange.header("Authorization")?.trimmingSpaces ?? ""
            guard authorization.lowercased().hasPrefix("bearer ") else { return .absent }
            return .string(authorization.dropFirst("bearer ".count).trimmingSpaces)
        case (.constant(let value), _):
            return .string(value)
        default:
            preconditionFailure("the resolver \(resolver) is not \(app.flavour.rawValue)'s")
        }
    }
}

/// The replies of declared routes: the flavour's presentation of a result, or a route's named presenter.
enum VendorPresenters {
    static func reply(
        _ outcome: Outcome, _ presenter: ReplyPresenter?, _ app: any EmulatedApp, _ arguments: CallArguments, _ exchange: Exchange
    ) throws -> Reply {
        guard let presenter else { return Reply(body: json(outcome, app.flavour)) }
        switch presenter {
        case .status(let status): return Reply(status: status)
        case .field(let name): return Reply(body: .object([.init(name, json(outcome, app.flavour))]))
        case .backendlessDeviceList:
            guard let registration = outcome.record(as: DeviceRegistration.self) else { throw BackendlessError.catalogue(5000) }
            return Reply(body: [BackendlessWire.device(registration)])
        case .backendlessDeletionTime:
            return Reply(body: ["deletionTime": .integer(app.clock.milliseconds)])
        case .backendlessUserOrNotFound:
            guard let user = outcome.record(as: BackendlessUser.self) else {
                throw BackendlessError.entityNotFound(arguments.string("objectId"))
            }
            return Reply(body: BackendlessWire.user(user))
        case .backendlessRegistrationID:
            guard let registration = outcome.record(as: DeviceRegistration.self) else { return Reply(body: json(outcome, app.flavour)) }
            return Reply(body: ["registrationId": .string(registration.registrationID)])
        case .backendlessEmailConfirmed:
            guard let user = outcome.record(as: BackendlessUser.self) else { return Reply(body: json(outcome, app.flavour)) }
            return Reply(
                body: [
                    "message": "The email address is confirmed.", "objectId": .string(user.objectID),
                    "userStatus": .string(user.status.rawValue),
                ]
            )
        case .backendlessMessageStatus:
            guard let report = outcome.record(as: MessageStatusReport.self) else { return Reply(body: json(outcome, app.flavour)) }
            return Reply(body: ["status": .string(report.status.rawValue), "messageId": .string(report.messageID), "errorMessage": nil])
        case .backendlessCancelled:
            return Reply(body: ["status": "cancelled", "messageId": .string(arguments.string("messageId"))])
        case .kiiVerified: return KiiRoutes.verified
        case .kiiTopicList:
            guard case .value(.array(let ids)) = outcome else { return Reply(body: json(outcome, app.flavour)) }
            return KiiRoutes.withContentType(
                Reply(body: ["topics": .array(ids.map { .object([.init("topicID", JSON($0))]) })]),
                "application/vnd.kii.TopicsRetrievalResponse+json"
            )
        case .kiiSubscribedOrNotFound:
            guard case .value(.bool(true)) = outcome else {
                throw KiiError.subscriptionNotFound(topicID: arguments.string("topicID"), userID: arguments.string("userID"))
            }
            return Reply(status: 204)
        case .kiiUserView:
            guard case .kii(let app) = app.flavoured, let view = outcome.record(as: KiiUserView.self) else {
                return Reply(body: json(outcome, app.flavour))
            }
            if case .reduced(let user) = view, !KiiRoutes.isAdministratorByCredentials(app, exchange) {
                return Reply(body: KiiRoutes.publicRecord(user))
            }
            return Reply(body: KiiRoutes.record(view.user))
        case .kiiMqttEndpoint:
            var reply = KiiRoutes.withContentType(Reply(body: json(outcome, app.flavour)), "application/vnd.kii.MQTTEndpointResponse+json")
            reply.headers.append(("X-MQTT-TTL", String(KiiMqttEndpoint.ttl)))
            return reply
        case .kiiTopicACL:
            guard let acl = outcome.record(as: KiiTopicACL.self) else { return Reply(body: json(outcome, app.flavour)) }
            return KiiRoutes.withContentType(
                Reply(
                    body: [
                        "SUBSCRIBE_TO_TOPIC": .array(acl.subscribe.map(KiiTopicRoutes.subjectJSON)),
                        "SEND_MESSAGE_TO_TOPIC": .array(acl.send.map(KiiTopicRoutes.subjectJSON)),
                    ]
                ),
                "application/json"
            )
        case .kiiSocialLogin:
            guard let login = outcome.record(as: KiiSocialLogin.self) else { return Reply(body: json(outcome, app.flavour)) }
            return Reply(
                body: [
                    "id": .string(login.user.userID), "access_token": .string(login.token), "expires_in": .integer(2_147_483_647),
                    "token_type": "Bearer", "new_user_created": .bool(login.newUserCreated),
                ]
            )
        case .kiiGroupList:
            return KiiRoutes.withContentType(
                Reply(body: .object([.init("groups", json(outcome, app.flavour))])), "application/vnd.kii.GroupsRetrievalResponse+json"
            )
        }
    }

    /// The flavour's presentation of an outcome: a Backendless user and session in the wire shape
    /// (`BackendlessWire`), a Kii user as its record (`KiiRoutes.record`), another record as it presents itself.
    static func json(_ outcome: Outcome, _ flavour: Flavour) -> JSON {
        switch outcome {
        case .record(let record): return json(record, flavour)
        case .nothing: return .null
        case .done: return .bool(true)
        case .text(let text): return .string(text)
        case .value(let value): return JSON(value)
        case .records(let records): return .array(records.map { json($0, flavour) })
        case .recordsByName(let records): return .object(records.map { JSON.Member($0.name, json($0.record, flavour)) })
        }
    }

    static func json(_ record: any Presentable, _ flavour: Flavour) -> JSON {
        switch record {
        case let user as BackendlessUser: return BackendlessWire.user(user)
        case let session as BackendlessSession: return BackendlessWire.user(session.user, token: session.token)
        case let user as KiiUser: return KiiRoutes.record(user)
        default: return JSONRecordWriter.json(record)
        }
    }
}
