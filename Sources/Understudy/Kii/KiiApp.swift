/// An emulated Kii Cloud application: users identified by username, email address and/or phone number, logins,
/// and email / SMS verification, with its own virtual clock, outbox and faults. Not thread-safe: one owner at a
/// time.
package final class KiiApp: EmulatedApp {
    /// The portal settings; changes apply to the next call.
    package var settings: KiiSettings
    /// The virtual clock (SMS code lifetimes, `created`).
    package var clock = VirtualClock()
    /// Every verification email and SMS sent.
    package var outbox = Outbox()
    /// Injected faults, checked first by every operation.
    package var faults: FaultInjector
    /// Where verification links point (the HTTP server sets its own address).
    package var linkBase = "http://127.0.0.1:8080"
    /// How many users this app may hold.
    package let capacity: Capacity

    /// userIDs.
    var ids: SeededGenerator
    /// Access tokens.
    var tokens: SeededGenerator
    /// Verification codes.
    var codes: SeededGenerator
    /// Password salts.
    var salts: SeededGenerator
    /// Installation ids, MQTT registration ids, reset-link codes and generated passwords.
    var lifecycleSecrets: SeededGenerator
    /// Push installations and the tokens that stopped working (see KiiApp+Lifecycle, KiiInstallations).
    var lifecycle = KiiLifecycleState()
    /// Topics, their subscribers, and push-message ids (contract v3; see KiiTopics).
    var topicStore = KiiTopicStore()
    var topicSecrets: SeededGenerator
    /// MQTT endpoint passwords and topics (contract v4; see KiiMqtt).
    var mqttSecrets: SeededGenerator
    /// Groups (contract v4; see KiiTopicACL) and their ids.
    var groupStore = KiiGroupStore()
    var groupSecrets: SeededGenerator
    /// Provider accounts and their owners (contract v4; see KiiApp+Social).
    var socialStore = KiiSocialStore()
    /// The MQTT credentials of every MQTT installation, by installationID, the last removed ones remembered.
    var mqttEndpoints = KiiMqttEndpointStore()
    /// Where the MQTT broker listens (what `installations.mqtt_endpoint` reports).
    package var mqttBroker = MqttBrokerAddress.standard
    /// The broker that delivers pushes to connected MQTT clients (`understudy serve`); nil: none listens.
    package var mqttDeliveries: (any MqttDeliveries)?
    /// Application-administrator tokens issued for client credentials (see KiiApp+Admin).
    var adminTokens: Set<String> = []

    var users: ShardedDictionary<Identifier128, KiiStoredUser> = [:]
    /// What the users hold (`HeldBytes`: each user and its custom fields), kept as users are added, changed and
    /// deleted; the memory cap counts it.
    package internal(set) var userBytes = 0
    /// What else the app holds beyond users and registrations (`HeldBytes`: administrator tokens, settings'
    /// text), kept as each is added; the memory cap counts it.
    package var consoleBytes = 0
    /// Asked before a call builds what its arguments do not bound (`GrowthCheck`); its owner installs it.
    package var admitsGrowth: GrowthCheck = { _ in true }
    /// Users in registration order.
    var registrationOrder: ChunkedList<KiiStoredUser> = []
    /// Users by lower-cased username.
    var loginNames: ShardedDictionary<String, KiiStoredUser> = [:]
    /// Users by ASCII-lower-cased email address, current or pending.
    var emails: ShardedDictionary<String, KiiStoredUser> = [:]
    /// Users by E.164 phone number, current or pending.
    var phones: ShardedDictionary<String, KiiStoredUser> = [:]
    /// Users by access token.
    var sessions: ShardedDictionary<String, KiiStoredUser> = [:]
    var phoneCache = PhoneNumberCache()
    /// The users changed since the app last equalled a snapshot's image of it (`KiiApp+Image.swift`).
    let userChanges = UserChanges<KiiStoredUser>()

    /// A fresh app. `seed` decides every userID, token and code it will hand out.
    package init(settings: KiiSettings = KiiSettings(), seed: UInt64, capacity: Capacity = Capacity()) {
        self.settings = settings
        consoleBytes = settings.heldBytes
        self.capacity = capacity
        let root = SeededGenerator(seed: seed)
        ids = root.derived(1)
        faults = FaultInjector(random: root.derived(2))
        tokens = root.derived(3)
        codes = root.derived(4)
        salts = root.derived(5)
        lifecycleSecrets = root.derived(6)
        topicSecrets = root.derived(7)
        mqttSecrets = root.derived(8)
        groupSecrets = root.derived(9)
    }

    deinit {
        userChanges.forget()
    }

    /// Throws the fault's error when one applies to this call.
    /// `arguments` are the call's, in the order the operation declares them: a fault's `when(args)` sees them by
    /// their declared names, whether the call came from Lua or over HTTP.
    func checkFaults(_ operation: KiiOperation, _ arguments: @autoclosure () -> [Value]) throws(KiiError) {
        faults.capturer?.begin(operation.name, arguments)
        if let wait = rateLimitWait() { throw .tooManyRequests(retryAfter: wait) }
        if let fault = triggerFault(operation.name, arguments: operation.faultArguments(arguments())), fault.code != nil {
            throw KiiError(fault: fault)
        }
    }

    /// For an operation an adapter answers without a domain call (`isAnsweredByAdapter`): throws the error of the
    /// fault that applies to this call, if one does.
    package func checkAdapterFaults(_ operation: KiiOperation, _ arguments: @autoclosure () -> [Value]) throws(KiiError) {
        try checkFaults(operation, arguments())
    }

    /// The stored user with this userID; 404 `USER_NOT_FOUND` otherwise.
    func storedUser(_ userID: String) throws(KiiError) -> KiiStoredUser {
        guard let id = Identifier128(parsing: userID), let user = users[id] else { throw .userNotFound(userID) }
        return user
    }

    /// The user with this userID, or nil.
    package func user(userID: String) -> KiiUser? {
        guard let id = Identifier128(parsing: userID) else { return nil }
        return users[id]?.snapshot()
    }

    /// `users.get`: the user with this userID, or nil; an injected fault fails it.
    package func getUser(userID: String) throws(KiiError) -> KiiUser? {
        return user(userID: userID)
    }

    /// How many users are registered.
    package var userCount: Int { users.count }
    /// Push registrations, counted towards the memory cap: installations, topics and subscriptions.
    package var registrationCount: Int { installationCount + topicStore.registrationCount }

    /// Every user, in registration order.
    package var allUsers: [KiiUser] { firstUsers(registrationOrder.count).first }

    /// The first `limit` users of `allUsers`, presenting only those; `total` is how many `allUsers` lists.
    package func firstUsers(_ limit: Int) -> (total: Int, first: [KiiUser]) {
        (registrationOrder.count, registrationOrder.prefix(max(0, limit)).map { $0.snapshot() })
    }

    // MARK: Tokens and codes

    private static let tokenAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A new access token for `user`: 43 characters from `A-Z a-z 0-9 - _`. Earlier tokens stay valid.
    func openSession(for user: KiiStoredUser) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(43)
        var word: UInt64 = 0
        var bitsLeft = 0
        while bytes.count < 43 {
            if bitsLeft < 6 {
                word = tokens.next()
                bitsLeft = 64
            }
            bytes.append(Self.tokenAlphabet[Int(word & 63)])
            word >>= 6
            bitsLeft -= 6
        }
        let token = String(decoding: bytes, as: UTF8.self)
        sessions[token] = user
        user.profile.tokens.append(token)
        return token
    }

    /// The user an access token belongs to (for HTTP's `Authorization: Bearer`); 403 `WRONG_TOKEN` for a token
    /// that stopped working (password change or reset, deletion, disabling), 401 `UNAUTHORIZED` otherwise.
    package func user(forToken token: String) throws(KiiError) -> KiiUser {
        guard let user = sessions[token] else {
            if lifecycle.endedTokens.contains(token) { throw .wrongToken(token) }
            throw .unknownToken(token)
        }
        return user.snapshot()
    }

    // MARK: Address indexes

    /// 409 `USER_ALREADY_EXISTS` when another user has `email` as current or pending address.
    func checkEmailFree(_ email: String, for user: KiiStoredUser?) throws(KiiError) {
        if let owner = emails[email.asciiLowercased()], owner !== user {
            throw .userAlreadyExists(field: "emailAddress", value: email)
        }
    }

    /// 409 `USER_ALREADY_EXISTS` when another user has `e164` as current or pending number.
    func checkPhoneFree(_ e164: String, for user: KiiStoredUser?) throws(KiiError) {
        if let owner = phones[e164], owner !== user {
            throw .userAlreadyExists(field: "phoneNumber", value: e164)
        }
    }

    /// Removes `email` from the index when it points at `user` and `user` no longer holds it.
    func releaseEmail(_ email: String?, of user: KiiStoredUser) {
        guard let email else { return }
        let key = email.asciiLowercased()
        guard emails[key] === user else { return }
        if user.email.current?.asciiLowercased() == key || user.email.pending?.asciiLowercased() == key { return }
        emails[key] = nil
    }

    /// Removes `e164` from the index when it points at `user` and `user` no longer holds it.
    func releasePhone(_ e164: String?, of user: KiiStoredUser) {
        guard let e164, phones[e164] === user else { return }
        if user.phone.current == e164 || user.phone.pending == e164 { return }
        phones[e164] = nil
    }
}

extension KiiApp {
    /// A domain method as a declaration names it: the app and the declared arguments in, the outcome out.
    package typealias Method = @Sendable (KiiApp, CallArguments) throws(KiiError) -> Outcome

    /// What `operation` performs: its faults checked with the arguments as read, then `method`.
    /// Without `checkingFaults`, the adapter (an adapter-answered operation) or the method itself checks them.
    /// An operation answered by reading state (`answeredByAdapter`) gives the Lua adapter its fault check.
    static func performer(
        _ operation: KiiOperation, misuse: MisuseCheck? = nil, checkingFaults: Bool = true, answeredByAdapter: Bool = false,
        _ method: @escaping Method
    ) -> Performer {
        var adapterFaults: (@Sendable (any EmulatedApp, CallArguments) throws -> Void)?
        if answeredByAdapter {
            adapterFaults = { app, arguments in
                guard case .kii(let app) = app.flavoured else { return }
                try app.checkAdapterFaults(operation, arguments.faultValues)
            }
        }
        return Performer(misuse: misuse, adapterFaults: adapterFaults) { app, arguments, _ in
            guard case .kii(let app) = app.flavoured else { preconditionFailure("\(operation.name) is a Kii operation") }
            return try CallCapturer.capturing(app.faults.capturer, operation.name, code: \.recordedCode) { () throws(KiiError) -> Outcome in
                if checkingFaults { try app.checkFaults(operation, arguments.faultValues) }
                return try method(app, arguments)
            }
        }
    }

    /// Performs `operation` with arguments given by name (the others absent), as its adapters do.
    package func perform(_ operation: KiiOperation, _ given: [String: ArgumentValue]) throws(KiiError) -> Outcome {
        guard let performer = operation.declaration.perform else { preconditionFailure("\(operation.name) declares no method") }
        do {
            return try performer.run(self, CallArguments(operation.declaration, given), Unlimited())
        } catch let error as KiiError {
            throw error
        } catch {
            throw KiiError(status: 500, code: "UNDEFINED_ERROR", message: "\(error)")
        }
    }
}
