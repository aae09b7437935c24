/// What a declared operation does when called, and what its adapters share to call it: the arguments as an adapter
/// read them (`CallArguments`), the domain method the declaration names (`Performer`), what it answers
/// (`Outcome`), and the named steps a route declares for what is specific to it over HTTP (`RouteGuard`,
/// `ArgumentResolver`, `ReplyPresenter`). The Lua bridge and the HTTP server each have one adapter that serves
/// every operation from these.

/// One argument of a call as an adapter read it.
package enum ArgumentValue: Sendable {
    /// An optional argument that was not given (nil in Lua, not in the request).
    case absent
    case string(String)
    case bool(Bool)
    case number(Double)
    /// A table of properties, as Lua gave it (sorted by name) or as the request's body listed them.
    case properties([Property])
    /// Anything else: a list of strings, a table argument's declared fields (`.object`), any value.
    case value(Value)
    /// A value an adapter's named resolver already built in the domain's own type (a Data service query read from
    /// a request's parameters), presenting itself to `when(args)`.
    case typed(any TypedArgument)

    /// The value a fault's `when(args)` sees: `null` when absent.
    package var faultValue: Value {
        switch self {
        case .absent: return .null
        case .string(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        case .number(let number): return number.rounded() == number && abs(number) < 9e15 ? .int(Int64(number)) : .double(number)
        case .properties(let properties): return Value(properties: properties)
        case .value(let value): return value
        case .typed(let typed): return typed.faultValue
        }
    }
}

/// An argument an HTTP resolver builds in the domain's type (the vendor's own spelling of it read and checked
/// there), where the Lua adapter gives the declared fields: the domain method takes either.
package protocol TypedArgument: Sendable {
    /// What a fault's `when(args)` sees for it.
    var faultValue: Value { get }
}

/// The arguments of one call, read by an adapter where and as the operation's declaration says, by the declared
/// names: what its domain method takes and, as they are, what a fault's `when(args)` sees (`faultValues`).
package struct CallArguments: Sendable {
    /// The declared names, in order.
    package let names: [String]
    /// The values, in the same order.
    package var values: [ArgumentValue]

    package init(names: [String], values: [ArgumentValue]) {
        self.names = names
        self.values = values
    }

    /// Arguments given by name (the dashboard's actions, tests): the others are absent.
    package init(_ declaration: OperationDeclaration, _ given: [String: ArgumentValue]) {
        names = declaration.argumentNames
        values = names.map { given[$0] ?? .absent }
    }

    package subscript(name: String) -> ArgumentValue {
        for index in names.indices where names[index] == name { return values[index] }
        preconditionFailure("no argument \(name) is declared (declared: \(names.joined(separator: ", ")))")
    }

    /// A string argument (also one of a few strings); nil when an optional one is absent.
    package func optionalString(_ name: String) -> String? {
        if case .string(let text) = self[name] { return text }
        return nil
    }

    /// A string argument that is not optional ("" if an adapter let it be absent).
    package func string(_ name: String) -> String { optionalString(name) ?? "" }

    /// A boolean argument; false when an optional one is absent.
    package func bool(_ name: String) -> Bool {
        if case .bool(let flag) = self[name] { return flag }
        return false
    }

    /// A number argument; nil when an optional one is absent.
    package func optionalNumber(_ name: String) -> Double? {
        if case .number(let number) = self[name] { return number }
        return nil
    }

    /// A table of properties; nil when an optional one is absent.
    package func optionalProperties(_ name: String) -> [Property]? {
        if case .properties(let properties) = self[name] { return properties }
        return nil
    }

    /// A table of properties that is not optional.
    package func properties(_ name: String) -> [Property] { optionalProperties(name) ?? [] }

    /// Any argument as a value; nil when absent.
    package func value(_ name: String) -> Value? {
        if case .absent = self[name] { return nil }
        return self[name].faultValue
    }

    /// A table argument's declared fields (as the adapter read and checked them); nil when it is absent.
    package func fields(_ name: String) -> [String: Value]? {
        if case .value(.object(let fields)) = self[name] { return fields }
        return nil
    }

    /// An argument a resolver built in the domain's type; nil when it was read otherwise (from Lua) or is absent.
    package func typed<T: TypedArgument>(_ name: String, as _: T.Type) -> T? {
        if case .typed(let value) = self[name] { return value as? T }
        return nil
    }

    /// What a fault's `when(args)` sees, in the declared order.
    package var faultValues: [Value] { values.map(\.faultValue) }
}

/// What a call answers when it succeeds.
package enum Outcome {
    /// A record: a user, a session, a registration.
    case record(any Presentable)
    /// No record (an optional record that does not exist): `nil` in Lua.
    case nothing
    /// Done: `true` in Lua.
    case done
    /// A text (a link).
    case text(String)
    /// A dynamic value (a flag, a table of templates).
    case value(Value)
    /// A list of records.
    case records([any Presentable])
    /// Records by name: a Lua table, a JSON object.
    case recordsByName([(name: String, record: any Presentable)])
    /// A backend: its app table in Lua (`understudy.app(name)`); its app_id over HTTP.
    case app(any EmulatedApp)
    /// Backends: a list of their app tables in Lua (`understudy.apps()`); their app_ids over HTTP.
    case apps([any EmulatedApp])

    /// A backend, or `nothing` for none.
    package static func optionalApp(_ app: (any EmulatedApp)?) -> Outcome {
        app.map { .app($0) } ?? .nothing
    }

    /// A record, or `nothing` for none.
    package static func optional(_ record: (some Presentable)?) -> Outcome {
        record.map { .record($0) } ?? .nothing
    }

    /// The record inside, as `Record`; nil for another outcome.
    package func record<Record>(as _: Record.Type) -> Record? {
        if case .record(let record) = self { return record as? Record }
        return nil
    }
}

/// The domain method an operation's declaration names: its rules, over the app and the declared arguments. The
/// flavour's declarations build it from a typed closure (`BackendlessApp`, `throws(BackendlessError)`); it checks
/// the operation's faults first, with the arguments as read, so no domain method repeats them.
package struct Performer: Sendable {
    package let run: @Sendable (any EmulatedApp, CallArguments, any CallLimits) throws -> Outcome
    /// Misuse a Lua call can make beyond its declared types: the Lua adapter raises it before anything else.
    package let misuse: MisuseCheck?
    /// For an operation answered by reading state (`answeredByAdapter`), whose method checks no faults: its fault
    /// check, which the Lua adapter makes before the method (over HTTP the flavour's `serve` makes it first, before
    /// the route's resolvers).
    package let adapterFaults: (@Sendable (any EmulatedApp, CallArguments) throws -> Void)?

    /// A module call's method (`understudy.app`, `understudy.journal.*`): over the served world (nil outside
    /// `understudy serve`) and the backends a script reaches, not one app. The Lua adapter calls it instead of `run`.
    package let runOnWorld: (@Sendable (ModuleContext, CallArguments) throws -> Outcome)?

    package init(
        misuse: MisuseCheck? = nil, adapterFaults: (@Sendable (any EmulatedApp, CallArguments) throws -> Void)? = nil,
        _ run: @escaping @Sendable (any EmulatedApp, CallArguments, any CallLimits) throws -> Outcome
    ) {
        self.misuse = misuse
        self.adapterFaults = adapterFaults
        self.run = run
        runOnWorld = nil
    }

    /// A module call's method, over the served world.
    package init(world run: @escaping @Sendable (ModuleContext, CallArguments) throws -> Outcome) {
        misuse = nil
        adapterFaults = nil
        self.run = { _, _, _ in preconditionFailure("a module call is performed on the served world") }
        runOnWorld = run
    }
}

/// Misuse a Lua call can make beyond its declared types (a provider named in any case, exactly one of two
/// fields), which a declaration's argument types cannot say: the Lua adapter raises it before anything else; over
/// HTTP the route's resolvers answer those cases with the flavour's error.
package struct MisuseCheck: Sendable {
    package let check: @Sendable (CallArguments) throws(CallMisuse) -> Void

    package init(_ check: @escaping @Sendable (CallArguments) throws(CallMisuse) -> Void) {
        self.check = check
    }
}

/// What an adapter lets one call spend. The Lua bridge charges a scenario's instruction budget and memory cap
/// (`users.seed`, a clock move that delivers scheduled pushes); over HTTP a call spends what it needs.
package protocol CallLimits {
    /// Asked before a clock move delivers a firing of `pushes` pushes: false stops the move there.
    func allowFiring(pushes: Int) -> Bool
    /// Charges work about to be done: `instructions`, and `users` new users holding `bytesPerUser` each. Throws
    /// when a limit is spent, so the work is never done.
    func charge(instructions: Int64, users: Int, bytesPerUser: Int) throws(CallMisuse)
}

/// No limits: what a call spends over HTTP.
package struct Unlimited: CallLimits {
    package init() {}
    package func allowFiring(pushes: Int) -> Bool { true }
    package func charge(instructions: Int64, users: Int, bytesPerUser: Int) throws(CallMisuse) {}
}

/// A call made wrongly (a console call's argument out of range): raised to the scenario as API misuse, with the
/// call's name before the message.
package struct CallMisuse: Error, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// A check a route makes before it reads its arguments, that no argument carries.
package enum RouteGuard: Sendable, Hashable {
    /// Backendless: a `user-token` header, when sent, must be a live session (3064).
    case liveUserToken
    /// Kii: app credentials or an access token (401 `UNAUTHORIZED`).
    case credentials
    /// Kii: app credentials only, standing in for the app administrator (401 `UNAUTHORIZED`).
    case appCredentials
    /// The body is read (and refused if it cannot be) before any argument.
    case readsBody
    /// Kii topics: the application administrator or a user's token (401 `UNAUTHORIZED`; the app's headers alone
    /// are anonymous).
    case topicCaller
    /// Backendless Data service: the path's `{table}`, when it has one, must be `Users` (1009: other tables are out
    /// of scope).
    case backendlessUsersTable
}

/// A named way the HTTP adapter works an argument out of a request, where reading it plainly from its source
/// (`HTTPSource`) is not what the vendor does.
package enum ArgumentResolver: Sendable, Hashable {
    /// Kii: the userID of the path's `{user}` (`me`, a userID, `EMAIL:…`, `PHONE:…`, `LOGIN_NAME:…`), with no
    /// credentials asked.
    case kiiUser
    /// Kii: the userID of the path's `{user}`, whose own access token must be sent (or, with `appAllowed`, app
    /// credentials).
    case kiiOwner(appAllowed: Bool)
    /// Kii: the user the path's `{user}` names, for a caller with app credentials or any user's token.
    case kiiAnyUser
    /// Kii: what the reset calls take for `{user}`: the token's userID for `me`, else the path's value
    /// (`EMAIL:`, `PHONE:`, `LOGIN_NAME:` or a userID; 400 `ACCOUNT_TYPE_NOT_SUPPORTED` for another prefix).
    case kiiIdentifier
    /// Kii: the reset method from `notificationMethod` (`EMAIL`, `SMS`) and `smsResetMethod` (`URL`, `PIN`).
    case kiiResetMethod
    /// Kii: a string body field that may be absent (then empty); anything but a string is 400
    /// `INVALID_INPUT_DATA` naming it.
    case kiiTextOrEmpty
    /// Kii topics: the scope's owner (nil for the app scope; 404 `USER_NOT_FOUND`); with `mustOwn`, 401 unless the
    /// caller is the administrator or that owner (the text says what was refused).
    case kiiTopicOwner(mustOwn: String?)
    /// Kii topics: the subscriber the path names (`{subscriber}`, or the token's user), the caller's own user
    /// unless the caller is the administrator.
    case kiiSubscriber
    /// Kii: the id of the installation the path's `{installation}` names (an id, or `TYPE:registrationID`), for
    /// app credentials or its owner's token (404 `INSTALLATION_NOT_FOUND`, 401 for another user's).
    case kiiInstallation
    /// Kii: the userID the route carries (a query item), for the administrator or that user's own token (401
    /// `UNAUTHORIZED` for another user's; 400 `INVALID_INPUT_DATA` when it is absent).
    case kiiOwnUserID
    /// Kii: the token of `Authorization: Bearer` (401 when there is none or it is not live).
    case bearerToken
    /// Kii: the `Authorization: Bearer` token of the user the path's `{user}` names (`me` or the token's own
    /// userID; 401 `UNAUTHORIZED` for none, app credentials or another user).
    case kiiOwnToken
    /// Kii social login: the path's `{provider}` in its canonical (lower-case) name; 400 `INVALID_INPUT_DATA`
    /// naming `provider` for another.
    case kiiProvider
    /// Kii social login: the options table from the body: `accessTokenSecret` as `secret` (twitter),
    /// `openID` as `open_id` (qq); either is left out for another provider, as the live service ignores it.
    case kiiSocialOptions
    /// Kii: the token of `Authorization: Bearer` as sent, absent for app credentials (the reader of
    /// `users.lookup`: `ReplyPresenter.kiiUserView` shows the administrator by credentials the full record).
    case bearerTokenIfAny
    /// Backendless: the path's `{identity}` URL-decoded (8002 for bytes that are not UTF-8); with `rawFallback`,
    /// the text as sent when only it names a user (the JS SDK does not encode it).
    case backendlessIdentity(rawFallback: Bool)
    /// Backendless: the body's members as the properties of a new user (3021 for a list or an object).
    case backendlessNewUserProperties
    /// Backendless Data service: the query of the request (`DataQuery`): the JSON body's fields for a POST, the
    /// query string's otherwise, by the SDKs' names (1025 / 1005 / 1004 for a page size or offset out of range,
    /// 19000 for `groupBy` / `having`).
    case backendlessQuery
    /// Backendless `roles.users`: `loadRoles` and the Data service's query parameters (`RoleUsersOptions`).
    case backendlessRoleUsersOptions
    /// Backendless Data service save: the body's members as the record (8002... 3021-like refusal for a list or an
    /// object), `objectId` from the path's `{objectId}` when it has one, none for a POST (a new record).
    case backendlessDataRecord
    /// A constant (a legacy route that names its provider in its path).
    case constant(String)
    /// A constant flag: a route that always asks for a boolean option (the JS SDK's popup sign-in). A route may
    /// resolve a table argument's field this way, naming it `"options.popup"`.
    case flag(Bool)
    /// The request's own URL as the app would write it: the server's link base, the path and the query (the
    /// browser sign-in's page and form, whose URL names the authorization request).
    case requestURL
    /// Backendless: the API key of the path as the `key` argument: `"cloudcode"` for the CloudCode key, else
    /// `"rest"` (contract version 4).
    case backendlessKey
    /// Backendless: the body's `userStatus` (`ENABLED`, `DISABLED`); anything else is 8002 with the CloudCode key
    /// and `ENABLED` with another (whose call then answers 3054).
    case backendlessUserStatus
    /// Backendless: the objectId of the user the path's confirmation-link `{token}` names (3092 for an unknown one).
    case backendlessConfirmationLink
    /// Backendless: `templateValues` as text (the Flutter REST SDK sends the values unwrapped; numbers and booleans
    /// are taken as their text; anything else is refused naming it).
    case backendlessTemplateValues
    /// Backendless: a device registration as the SDKs send it (`deviceToken`, `os` in any case, `channels` a list
    /// or one name, `expiration` in seconds, milliseconds or ISO 8601): its fields by the contract's names (5006
    /// without a body; 8000-range refusals naming the field).
    case backendlessDeviceRegistration
    /// Backendless: a publish as the SDKs send it (`PushRequest`: the path's `{channel}`, `headers`, `publishPolicy` or
    /// the legacy `pushPolicy`, `pushBroadcast` as a mask or names, `pushSinglecast`, times in milliseconds).
    case backendlessPublication
    /// Backendless: an OAuth login's options as the SDKs send them (`OAuthLoginOptions`: `accessTokenSecret`,
    /// `fieldsMapping`, `guestUser` as an object, a JSON string or an objectId).
    case backendlessOAuthOptions
    /// Backendless email: `subject`, a string (refused naming it otherwise).
    case backendlessEmailSubject
    /// Backendless email: `bodyparts` `{ textmessage?, htmlmessage? }` (strings; refused naming the part otherwise).
    case backendlessEmailBodyParts
    /// Backendless email: `to`, a list of addresses or one (at least one; refused otherwise).
    case backendlessEmailRecipients
    /// Backendless email templates: the envelope from the SDK's `addresses`, `cc-addresses`, `bcc-addresses`,
    /// `criteria` and `uniqueEmails`.
    case backendlessEmailEnvelope
    /// Backendless email templates: `template-values`, an object of values; absent otherwise.
    case backendlessTemplateValuesObject
    /// The text the argument's source carries, "" when it carries none.
    case textOrEmpty
    /// The text the argument's source carries, absent when it is empty (a where clause of "" is none).
    case nonEmptyText
    /// Kii: a required string body field (400 `INVALID_INPUT_DATA` naming it), where the body's `verified` must not be
    /// true (401 `UNAUTHORIZED`: only the application administrator may set it) and must be a boolean when sent.
    case kiiUnverifiedAddress
    /// Kii `POST installations`: the registration's fields from the body (`deviceType`, `installationRegistrationID`,
    /// `development`), its `user` the token's user (401 for another `userID`) or, with app credentials, the body's
    /// required `userID` (400 `INVALID_INPUT_DATA` naming a field that is absent or not its type).
    case kiiInstallationRequest
    /// Kii topics: a `SendPushMessageRequest` as the message (`KiiTopicMessage`): `data` an object (400
    /// `INVALID_INPUT_DATA` otherwise), the `gcm`/`fcm`/`apns`/`jpush`/`mqtt` blocks whose `enabled` is true as its
    /// networks (at least one block), `sendToDevelopment`/`sendToProduction` and the send flags as booleans,
    /// `mqtt.data`'s strings, sent by the caller (the administrator, or the token's user).
    case kiiTopicMessage
}

/// A named reply of a route whose answer is not its flavour's plain presentation of the result.
package enum ReplyPresenter: Sendable, Hashable {
    /// An empty body with this status.
    case status(Int)
    /// `{ "NAME": result }`.
    case field(String)
    /// Backendless: `[device]`, 5000 when there is none.
    case backendlessDeviceList
    /// Backendless: `{"deletionTime": now in ms}`.
    case backendlessDeletionTime
    /// Backendless: the user, 1000 (`entityNotFound`) when there is none.
    case backendlessUserOrNotFound
    /// Backendless: `{"registrationId"}`.
    case backendlessRegistrationID
    /// Backendless: the confirmation link's reply (`message`, `objectId`, `userStatus`).
    case backendlessEmailConfirmed
    /// Backendless: `{"status","messageId","errorMessage":null}`.
    case backendlessMessageStatus
    /// Backendless: `{"status":"cancelled","messageId"}`.
    case backendlessCancelled
    /// Backendless: the sign-in page URL as a JSON string, under the key the request used; with `redirects`, a 302
    /// to it (same body) unless the body's `redirect` is false.
    case backendlessAuthorizationURL(redirects: Bool)
    /// Backendless: the stand-in provider's sign-in page (HTML).
    case backendlessProviderPage
    /// Backendless: how a browser sign-in ends: a popup's page posting the session (or `{"fault"}`) to its opener,
    /// a 302 to the app's `redirect_after_login_url`, or the user with its `user-token`.
    case backendlessSignInEnding
    /// Backendless: `{"status":"scheduled","messageId","errorMessage":null}`: an accepted publish, template push or
    /// email (the live server's reply).
    case backendlessScheduled
    /// Backendless `GET users/userroles`: the caller's roles (`AuthenticatedUser`, `RestUser`, then the session's
    /// social and custom roles), `NotAuthenticatedUser` and `RestUser` without a user-token (3064 for a dead one).
    case backendlessCallerRoles
    /// Backendless Data service: the record, 1010 (object store is empty) when there is none.
    case backendlessRecordOrEmptyStore
    /// Kii: `{"verificationStatus":"VERIFIED"}` as `application/vnd.kii.AddressVerificationResponse+json`.
    case kiiVerified
    /// Kii: `{"topics":[{"topicID"}]}` as `application/vnd.kii.TopicsRetrievalResponse+json`.
    case kiiTopicList
    /// Kii: 204 when subscribed, else 404 `PUSH_SUBSCRIPTION_NOT_FOUND`.
    case kiiSubscribedOrNotFound
    /// Kii (`users.lookup`): the record as the reader may see it; the full record for the administrator by its
    /// credentials (Basic `appID:appKey` with the app's key).
    case kiiUserView
    /// Kii: the MQTT endpoint as `application/vnd.kii.MQTTEndpointResponse+json`, with the `X-MQTT-TTL` header.
    case kiiMqttEndpoint
    /// Kii: a topic's ACL, each subject as `{"userID"}`, `{"groupID"}` or `{"thingID"}`.
    case kiiTopicACL
    /// Kii: `{"groups": [...]}` as `application/vnd.kii.GroupsRetrievalResponse+json`.
    case kiiGroupList
    /// Kii social login: `{"id", "access_token", "expires_in", "token_type": "Bearer", "new_user_created"}`.
    case kiiSocialLogin
    /// The flavour's presentation of the result, as this media type (`application/vnd.kii.…+json`).
    case mediaType(String)
    /// Kii: the HTML page a password reset link opens, saying what happened; a refusal is a page too, with the
    /// error's status and code.
    case kiiResetLinkPage
    /// Kii: 201 `{"installationID", "installationRegistrationID"}` as `application/vnd.kii.InstallationCreationResponse+json`,
    /// with the installation's `Location`.
    case kiiInstallationCreated
    /// Kii topics: 201 `{"pushMessageID"}` as `application/vnd.kii.SendPushMessageResponse+json`.
    case kiiPushMessageSent
}

extension ArgumentValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// What a module call (`understudy.app`, `understudy.journal.*`) acts on: the served world (nil outside `understudy
/// serve`) and every backend a script reaches, in the order they were made (under `serve`, the served apps).
package struct ModuleContext {
    package let world: ServedWorld?
    package let apps: [any EmulatedApp]
    /// The running scenario's snapshots (nil under `understudy serve`, whose snapshots are the control API's).
    package let snapshots: ScenarioSnapshots?

    package init(world: ServedWorld?, apps: [any EmulatedApp], snapshots: ScenarioSnapshots? = nil) {
        self.world = world
        self.apps = apps
        self.snapshots = snapshots
    }
}
