internal import Understudy

/// What the Backendless native SDKs (Java/Android, .NET) call over AMF, mapped onto the declared operations:
/// a service (the Java class name the SDK sends as `source`) and a method name name an operation; each position
/// of the argument array names the declared argument it carries; the result says how the REST reply's JSON
/// becomes the value the SDK casts (`docs/real-sdks.md`, the reference notes' call table).
struct AMFCall: Sendable {
    var operation: BackendlessOperation
    var arguments: [AMFArgument]
    var result: AMFResult
    /// The operation whose REST route carries the call when it is not the call's own (login by objectId is
    /// `POST users/login` with an `objectId`).
    var via: BackendlessOperation?
    /// Which of the declared routes carries the call, by its path; nil for the first one that is not a variant.
    var path: String?

    init(
        _ operation: BackendlessOperation, _ arguments: [AMFArgument] = [], _ result: AMFResult,
        via: BackendlessOperation? = nil, path: String? = nil
    ) {
        self.operation = operation
        self.arguments = arguments
        self.result = result
        self.via = via
        self.path = path
    }

    /// The services by the names the SDKs send.
    enum Service: String, Sendable {
        case users = "com.backendless.services.users.UserService"
        case persistence = "com.backendless.services.persistence.PersistenceService"
        case messaging = "com.backendless.services.messaging.MessagingService"
        case devices = "com.backendless.services.messaging.DeviceRegistrationService"
        case email = "com.backendless.services.mail.CustomersEmailService"

        /// The short name messages use (`UserService`).
        var shortName: String { String(rawValue.split(separator: ".").last ?? "") }
    }

    /// The call a service's method stands for, with that many arguments (an overload the SDK sends with another
    /// count is another call); nil when Understudy does not emulate it.
    static func find(service: String, method: String, argumentCount: Int) -> AMFCall? {
        guard let service = Service(rawValue: service) else { return nil }
        return overloads[service]?[method]?[argumentCount] ?? table[service]?[method]
    }

    /// The overloads whose argument count makes them another call.
    static let overloads: [Service: [String: [Int: AMFCall]]] = [
        // `login(objectId)`: the JS SDK's `POST users/login` with an objectId (the CloudCode key's login by id).
        .users: ["login": [1: AMFCall(.loginByID, [.argument("objectId")], .user, via: .login)]],
        // `unregisterDeviceOnServer(channels)`: `[deviceId, channels]`, answered with the channels left (an int).
        .devices: ["unregisterDevice": [2: AMFCall(.unregisterDevice, [.argument("device_id"), .ignored], .channelsLeft)]],
    ]

    static let table: [Service: [String: AMFCall]] = [
        .users: [
            "register": AMFCall(.register, [.argument("props")], .user),
            "login": AMFCall(.login, [.argument("identity_value"), .argument("password")], .user),
            "logout": AMFCall(.logout, [], .void),
            "loginAsGuest": AMFCall(.guestLogin, [], .user),
            "isValidUserToken": AMFCall(.isValidToken, [.argument("token")], .plain),
            "restorePassword": AMFCall(.restorePassword, [.argument("identity")], .void),
            "resendEmailConfirmation": AMFCall(.resendConfirmation, [.argument("identity")], .void),
            "createEmailConfirmationURL": AMFCall(.confirmationURL, [.argument("identity")], .member("confirmationURL")),
            "update": AMFCall(.updateUser, [.argumentAndMembers("props")], .user),
            "findById": AMFCall(.getUser, [.argument("objectId"), .ignored], .user),
            "describeUserClass": AMFCall(.describeUsers, [], .userProperties),
            "getUserRoles": AMFCall(.userRoles, [], .plain),
            "verifyPassword": AMFCall(.verifyPassword, [.ignored], .plain),
        ],
        // The Data service on the Users table (`Data.of(BackendlessUser.class)`, `Data.of("Users")`): the table
        // name comes first; other tables answer as over REST.
        .persistence: [
            "findById": AMFCall(.getUser, [.usersTable, .argument("objectId"), .ignored, .ignored], .user),
            "remove": AMFCall(.deleteUser, [.usersTable, .members], .member("deletionTime")),
            "find": AMFCall(.dataFind, [.usersTable, .dataQuery], .users, path: "/data/{table}/find"),
            "first": AMFCall(.dataFindFirst, [.usersTable], .user),
            "last": AMFCall(.dataFindLast, [.usersTable], .user),
            "count": AMFCall(.dataCount, [.usersTable, .dataQuery], .plain, path: "/data/{table}/count"),
            // save: `create` without an objectId, `update` with one (`save` when async); `PUT data/Users` does both.
            "create": AMFCall(.dataSave, [.usersTable, .argument("record")], .user),
            "update": AMFCall(.dataSave, [.usersTable, .argument("record")], .user),
            "save": AMFCall(.dataSave, [.usersTable, .argument("record")], .user),
        ],
        .messaging: [
            // DeliveryOptions holds primitives: 0 is Java's "not set" for repeatEvery and pushBroadcast.
            "publish": AMFCall(
                .publish, [.argument("channel"), .argument("message"), .members, .membersUnsetWhenZero(["repeatEvery", "pushBroadcast"])],
                .messageStatus
            ),
            "getMessageStatus": AMFCall(.messageStatus, [.argument("messageId")], .messageStatus),
            "cancel": AMFCall(.cancelMessage, [.argument("messageId")], .messageStatus),
            "pushWithTemplate": AMFCall(.pushWithTemplate, [.argument("name"), .argument("values")], .messageStatus),
        ],
        .devices: [
            "registerDevice": AMFCall(.registerDevice, [.members], .member("registrationId")),
            "getDeviceRegistrationByDeviceId": AMFCall(.getDevice, [.argument("device_id")], .deviceRegistration),
            "unregisterDevice": AMFCall(.unregisterDevice, [.argument("device_id"), .ignored], .member("result")),
        ],
        .email: [
            "send": AMFCall(.sendEmail, [.argument("subject"), .lowercasedMembers("bodyparts"), .argument("to"), .ignored], .messageStatus),
        ],
    ]
}

/// Where one position of an AMF argument array goes.
enum AMFArgument: Sendable {
    /// The declared argument (or declared field of a table argument) of this name: its declared HTTP source
    /// (path, body field, whole body, header) says where the synthesized request carries it.
    case argument(String)
    /// An object whose members each go to the declared argument or body field of their name (a DTO such as
    /// `DeviceRegistrationDto`, `PublishOptions`, `DeliveryOptions`); other members (the SDKs' constants) are
    /// dropped, and so are null members (what a JSON client leaves out).
    case members
    /// `members`, where the named members are also unset when 0 (a Java DTO's primitive fields are never null).
    case membersUnsetWhenZero([String])
    /// Both: the whole object is the declared argument, and its members named like declared arguments fill those
    /// too (`update`'s user carries its `objectId`).
    case argumentAndMembers(String)
    /// The declared argument, an object whose member names are lower-cased (`BodyParts.textMessage` is
    /// `bodyparts.textmessage` over REST).
    case lowercasedMembers(String)
    /// The Data service's table name: only `Users` is emulated (a route with `{table}` answers for the others as
    /// over REST).
    case usersTable
    /// A `BackendlessDataQuery`: its `whereClause`, `pageSize`, `offset`, `properties`, `excludeProperties`,
    /// `distinct`, `groupBy`, `havingClause` and `queryOptions.sortBy` as the REST body's `where`, `pageSize`,
    /// `offset`, `props`, `excludeProps`, `distinct`, `groupBy`, `having` and `sortBy` (empty lists and false left out).
    case dataQuery
    /// Sent by the SDK, not used by the emulated operation.
    case ignored
}

/// How a REST reply's JSON becomes the value the SDK expects.
enum AMFResult: Sendable {
    /// A user: an object with the class alias `Users`, its dates as AMF dates.
    case user
    /// An array of users, each as `user`.
    case users
    /// The channels a device is still registered on after `unregisterDevice(channels)`: 0, since Understudy
    /// removes the registration whole, as `DELETE messaging/registrations/{deviceId}` does.
    case channelsLeft
    /// Nothing (`null`).
    case void
    /// The JSON as it is (booleans stay booleans, arrays arrays).
    case plain
    /// One member of the JSON object.
    case member(String)
    /// `UserProperty[]`: typed objects with `name`, `required`, `type`, `identity`.
    case userProperties
    /// The first registration of the JSON array, typed `DeviceRegistrationDto`.
    case deviceRegistration
    /// A typed `MessageStatus` whose `status` is the Java enum's constant (upper case).
    case messageStatus
}
