internal import HTTPTypes
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
        // The operations the route hands over to, each answered as its own declared route.
        let handovers = route.handovers.map { handover -> (HandoverCondition, RouteHandler) in
            guard let other = Op.allCases.first(where: { $0.name == handover.operation }) else {
                preconditionFailure("\(declaration.name) hands over to \(handover.operation), which is not \(Op.flavour.rawValue)'s")
            }
            return (handover.condition, handler(other, handover.route))
        }
        let answering: RouteHandler
        if let operation = operation as? BackendlessOperation {
            answering = { exchange in
                BackendlessRoutes.serve(&exchange, operation) { app, exchange in
                    try answer(app, &exchange, declaration, route, performer)
                }
            }
        } else {
            let operation = operation as! KiiOperation
            answering = { exchange in
                KiiRoutes.serve(&exchange, operation) { app, exchange in
                    try answer(app, &exchange, declaration, route, performer)
                }
            }
        }
        guard !handovers.isEmpty || route.method == .head else { return answering }
        return { exchange in
            for (condition, handler) in handovers where condition.holds(for: exchange) { return handler(&exchange) }
            var reply = answering(&exchange)
            if exchange.method == .head {
                // A HEAD reply carries no body.
                reply.body = nil
                reply.text = nil
            }
            return reply
        }
    }

    /// Guards, arguments, the method, the reply.
    static func answer(
        _ app: any EmulatedApp, _ exchange: inout Exchange, _ declaration: OperationDeclaration, _ route: RouteDeclaration,
        _ performer: Performer
    ) throws -> Reply {
        var request = RequestArguments(exchange: exchange, app: app, route: route)
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
        let outcome: Outcome
        do {
            outcome = try performer.run(app, arguments, Unlimited())
        } catch let error as BackendlessError {
            if let reply = VendorPresenters.failure(error, route.reply, app, arguments) { return reply }
            throw error
        } catch let error as KiiError where route.reply == .kiiResetLinkPage {
            return KiiLifecycleRoutes.resetLinkPage(failed: error)
        }
        return try VendorPresenters.reply(outcome, route.reply, app, arguments, exchange)
    }

    static func guardRoute(_ check: RouteGuard, _ app: any EmulatedApp, _ exchange: Exchange) throws {
        switch (check, app.flavoured) {
        case (.liveUserToken, .backendless(let app)): try BackendlessLifecycleRoutes.caller(exchange, app)
        case (.credentials, .kii(let app)): _ = try KiiRoutes.anyCaller(app, exchange)
        case (.topicCaller, .kii(let app)): _ = try KiiTopicRoutes.caller(app, exchange)
        case (.backendlessUsersTable, .backendless): try BackendlessDataRoutes.checkTable(exchange)
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
    /// The route being answered (nil when a request's arguments are read for a fault predicate alone).
    let route: RouteDeclaration?
    private var parsed: JSON??

    init(exchange: Exchange, app: any EmulatedApp, route: RouteDeclaration? = nil) {
        self.exchange = exchange
        self.app = app
        self.route = route
    }

    /// The body as the flavour reads it: Backendless a JSON object or nothing (other content types refused), Kii
    /// a JSON object (an empty body is an empty object).
    mutating func body() throws -> JSON? {
        if let parsed { return parsed }
        let body: JSON?
        switch app.flavour {
        case .backendless where route?.body == .form: body = try BackendlessRoutes.form(exchange)
        case .backendless: body = try BackendlessRoutes.object(exchange).map(JSON.object)
        case .kii: body = try KiiRoutes.object(exchange)
        }
        parsed = .some(body)
        return body
    }

    /// `argument` read plainly from `source`.
    mutating func read(_ argument: ArgumentDeclaration, from source: HTTPSource) throws -> ArgumentValue {
        if app.flavour == .backendless, case .table(_, let fields) = argument.type, source == .body {
            return try table(argument, fields)
        }
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
            return try BackendlessRoutes.field(body?[name], named: name, as: argument.type)
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

    /// A Backendless table argument: each declared field read from where the route carries it (or worked out by
    /// the route's resolver named `"argument.field"`), absent ones left out; nil when the body has none of them.
    mutating func table(_ argument: ArgumentDeclaration, _ fields: [ArgumentDeclaration]) throws -> ArgumentValue {
        var members: [String: Value] = [:]
        for field in fields {
            let source = route?.source(of: field) ?? field.http
            let value: ArgumentValue
            if let entry = route?.resolvers.first(where: { $0.name == "\(argument.name).\(field.name)" }) {
                value = try resolve(entry.resolver, field, from: source)
            } else {
                value = try read(field, from: source)
            }
            if case .absent = value { continue }
            members[field.name] = value.faultValue
        }
        if members.isEmpty, argument.optional { return .absent }
        return .value(.object(members))
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
        case (.flag(let flag), _):
            return .bool(flag)
        case (.requestURL, _):
            return .string(app.linkBase + exchange.path + (exchange.query.isEmpty ? "" : "?" + exchange.query))
        case (.backendlessKey, .backendless(let app)):
            return .string(BackendlessRoutes.key(exchange, app).rawValue)
        case (.backendlessUserStatus, .backendless(let app)):
            switch try body()?["userStatus"] {
            case .string("ENABLED")?: return "ENABLED"
            case .string("DISABLED")?: return "DISABLED"
            default:
                if BackendlessRoutes.key(exchange, app) == .cloudcode {
                    throw BackendlessError.unparsableRequest("'userStatus' must be \"ENABLED\" or \"DISABLED\"")
                }
                return "ENABLED"
            }
        case (.backendlessQuery, .backendless):
            return .typed(try BackendlessDataRoutes.query(exchange, fromBody: exchange.method == .post))
        case (.backendlessRoleUsersOptions, .backendless):
            let loadRoles = exchange.queryItem("loadRoles").map { $0 == "true" }
            return .typed(RoleUsersOptions(loadRoles: loadRoles, query: try BackendlessDataRoutes.query(exchange, fromBody: false)))
        case (.backendlessDataRecord, .backendless):
            // The body's objectId gives way to the path's; a POST creates (no objectId at all).
            var record: [Property] = []
            let pathID = exchange.parameters["objectId"]
            if case .object(let members)? = try body() {
                for member in members where !(member.key == "objectId" && !pathID.isEmpty) {
                    switch member.value {
                    case .array, .object: throw BackendlessError.unsupportedValue(member.key, kind: member.value.kindName)
                    default: record.append(Property(member.key, member.value.value))
                    }
                }
            }
            if !pathID.isEmpty { record.append(Property("objectId", .string(pathID))) }
            if exchange.method == .post { record.removeAll { $0.name == "objectId" } }
            return .properties(record)
        case (.backendlessConfirmationLink, .backendless(let app)):
            guard let objectID = app.confirmationObjectID(linkToken: exchange.parameters["token"]) else {
                throw BackendlessError.invalidConfirmationLink
            }
            return .string(objectID)
        case (.backendlessTemplateValues, .backendless):
            // `{"templateValues": {...}}` as JS, Swift and the docs send it; the Flutter REST SDK sends the values
            // unwrapped.
            let members: [JSON.Member]
            if case .object(let given)? = try body() { members = given } else { members = [] }
            var source = members
            if let wrapped = members.first(where: { $0.key == "templateValues" }) {
                switch wrapped.value {
                case .object(let values): source = values
                case .null: source = []
                case let other: throw BackendlessPushRoutes.refusal("templateValues", "an object", got: other)
                }
            }
            var values: [Property] = []
            for member in source {
                if case .null = member.value { continue }
                guard let text = BackendlessRoutes.text(member.value) else {
                    throw BackendlessPushRoutes.refusal("templateValues.\(member.key)", "a string", got: member.value)
                }
                values.append(Property(member.key, .string(text)))
            }
            return .properties(values)
        case (.backendlessDeviceRegistration, .backendless):
            return .value(.object(try BackendlessRoutes.deviceRegistration(try body())))
        case (.backendlessPublication, .backendless):
            return .typed(try BackendlessPushRoutes.publication(try body(), channel: exchange.parameters["channel"]))
        case (.backendlessOAuthOptions, .backendless):
            return .typed(try OAuthLoginRequest(try body() ?? .object([])).options)
        case (.backendlessEmailSubject, .backendless):
            let body = try body() ?? .object([])
            guard case .string(let subject)? = body["subject"] else {
                throw BackendlessPushRoutes.refusal("subject", "a string", got: body["subject"] ?? .null)
            }
            return .string(subject)
        case (.backendlessEmailBodyParts, .backendless):
            return .value(try BackendlessPushRoutes.bodyParts(try body() ?? .object([])))
        case (.backendlessEmailRecipients, .backendless):
            return .value(.array(try BackendlessPushRoutes.recipients(try body() ?? .object([])).map(Value.string)))
        case (.backendlessEmailEnvelope, .backendless):
            let body = try body() ?? .object([])
            func strings(_ name: String) -> Value? {
                switch body[name] {
                case nil, .null?: return nil
                case .string(let text)?: return .array([.string(text)])
                case .array(let items)?: return .array(items.compactMap(BackendlessRoutes.text).map(Value.string))
                default: return .array([])
                }
            }
            var envelope: [String: Value] = [:]
            envelope["to"] = strings("addresses")
            envelope["cc"] = strings("cc-addresses")
            envelope["bcc"] = strings("bcc-addresses")
            if let criteria = BackendlessRoutes.text(body["criteria"]) { envelope["query"] = .string(criteria) }
            if case .bool(let flag)? = body["uniqueEmails"] { envelope["unique_emails"] = .bool(flag) }
            return .value(.object(envelope))
        case (.backendlessTemplateValuesObject, .backendless):
            guard case .object(let members)? = try body()?["template-values"] else { return .absent }
            return .properties(members.map { Property($0.key, $0.value.value) })
        case (.kiiUnverifiedAddress, .kii):
            guard case .bodyField(let name) = source else { preconditionFailure("\(argument.name) is not a body field") }
            let body = try body() ?? .object([])
            let address = try KiiRoutes.requiredString(body, name)
            switch body["verified"] {
            case nil, .null?, .bool(false)?: return .string(address)
            case .bool(true)?:
                throw KiiError.unauthorized("Only the application administrator may set verified to true")
            case let other?:
                throw KiiError.invalidInput(
                    field: "verified", value: JSONWriter.string(other), message: "verified must be a boolean, got \(other.kindName)"
                )
            }
        case (.kiiInstallationRequest, .kii(let app)):
            let caller = try KiiRoutes.anyCaller(app, exchange)
            let body = try body() ?? .object([])
            let owner: String
            switch caller {
            case .user(let user):
                if let other = try KiiRoutes.string(body, "userID"), other != user.userID {
                    throw KiiError.unauthorized("Only the application administrator may register an installation for another user")
                }
                owner = user.userID
            case .app:
                owner = try KiiRoutes.requiredString(body, "userID")
            }
            let type = try KiiRoutes.requiredString(body, "deviceType")
            let token = try KiiRoutes.string(body, "installationRegistrationID")
            var development = false
            switch body["development"] {
            case nil, .null?: break
            case .bool(let flag)?: development = flag
            case let other?:
                throw KiiError.invalidInput(field: "development", value: nil, message: "development must be a boolean, got \(other.kindName)")
            }
            var fields: [String: Value] = ["user": .string(owner), "type": .string(type), "development": .bool(development)]
            // An MQTT installation's empty registration id is none (the service makes one).
            if let token, !(type == "MQTT" && token.isEmpty) { fields["token"] = .string(token) }
            return .value(.object(fields))
        case (.kiiTopicMessage, .kii(let app)):
            return .typed(try KiiTopicRoutes.message(try body() ?? .object([]), sentBy: try KiiTopicRoutes.caller(app, exchange)))
        case (.textOrEmpty, _):
            guard case .string(let text) = try read(argument, from: source) else { return .string("") }
            return .string(text)
        case (.nonEmptyText, _):
            guard case .string(let text) = try read(argument, from: source), !text.isEmpty else { return .absent }
            return .string(text)
        default:
            preconditionFailure("the resolver \(resolver) is not \(app.flavour.rawValue)'s")
        }
    }
}

extension HandoverCondition {
    /// Whether `exchange` carries what the condition asks.
    func holds(for exchange: Exchange) -> Bool {
        switch self {
        case .query(let name): return exchange.queryItem(name) != nil
        case .bodyMember(let member, let without):
            guard case .success(let body?) = exchange.json else { return false }
            return body[member] != nil && body[without] == nil
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
        case .backendlessAuthorizationURL(let redirects):
            guard case .text(let url) = outcome, case .backendless(let app) = app.flavoured else { return Reply(body: json(outcome, app.flavour)) }
            return ProviderSignIn.authorizationURL(url, app, exchange, redirects: redirects)
        case .backendlessProviderPage:
            guard let page = outcome.record(as: OAuthProviderPage.self) else { return Reply(body: json(outcome, app.flavour)) }
            return ProviderSignIn.page(page)
        case .backendlessSignInEnding:
            guard let signIn = outcome.record(as: OAuthSignIn.self) else { return Reply(body: json(outcome, app.flavour)) }
            return ProviderSignIn.ending(signIn)
        case .backendlessScheduled:
            let messageID: String
            switch outcome {
            case .record(let result as PublishResult): messageID = result.messageID
            case .record(let sending as TemplateSending): messageID = sending.messageID
            case .text(let id): messageID = id
            default: return Reply(body: json(outcome, app.flavour))
            }
            return BackendlessPushRoutes.accepted(messageID)
        case .backendlessCallerRoles:
            guard case .backendless(let app) = app.flavoured, try BackendlessLifecycleRoutes.caller(exchange, app) != nil,
                let token = exchange.header("user-token")
            else { return Reply(body: ["NotAuthenticatedUser", "RestUser"]) }
            let roles = ["AuthenticatedUser", "RestUser"] + app.sessionRoles(token: token)
            return Reply(body: .array(roles.map(JSON.string)))
        case .backendlessRecordOrEmptyStore:
            guard case .record = outcome else { throw BackendlessDataRoutes.emptyStore }
            return Reply(body: json(outcome, app.flavour))
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
        case .mediaType(let type):
            return KiiRoutes.withContentType(Reply(body: json(outcome, app.flavour)), type)
        case .kiiInstallationCreated:
            guard let installation = outcome.record(as: KiiInstallation.self) else { return Reply(body: json(outcome, app.flavour)) }
            var reply = Reply(
                status: 201,
                body: [
                    "installationID": .string(installation.installationID),
                    "installationRegistrationID": .string(installation.installationRegistrationID),
                ]
            )
            reply.contentType = "application/vnd.kii.InstallationCreationResponse+json"
            reply.headers.append(
                (name: "Location", value: "\(app.linkBase)/api/apps/\(app.appID)/installations/\(installation.installationID)")
            )
            return reply
        case .kiiPushMessageSent:
            guard let delivery = outcome.record(as: KiiTopicDelivery.self) else { return Reply(body: json(outcome, app.flavour)) }
            return KiiRoutes.withContentType(
                Reply(status: 201, body: ["pushMessageID": .string(delivery.pushMessageID)]), "application/vnd.kii.SendPushMessageResponse+json"
            )
        case .kiiResetLinkPage:
            return KiiLifecycleRoutes.resetLinkPage(failed: nil)
        case .kiiGroupList:
            return KiiRoutes.withContentType(
                Reply(body: .object([.init("groups", json(outcome, app.flavour))])), "application/vnd.kii.GroupsRetrievalResponse+json"
            )
        }
    }

    /// The reply a route's presenter gives for a Backendless error in place of the error's own JSON: a popup's
    /// sign-in that failed ends in a page posting `{"fault"}` to its opener. Nil for the error's own reply.
    static func failure(_ error: BackendlessError, _ presenter: ReplyPresenter?, _ app: any EmulatedApp, _ arguments: CallArguments) -> Reply? {
        guard presenter == .backendlessSignInEnding, case .backendless(let app) = app.flavoured,
            let request = app.authorizationRequest(url: arguments.string("url")), request.popup
        else { return nil }
        return ProviderSignIn.popupFailure(error)
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
        case .app(let app): return .string(app.appID)
        case .apps(let apps): return .array(apps.map { .string($0.appID) })
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
