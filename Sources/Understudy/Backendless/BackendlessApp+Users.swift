/// User registration, login, sessions, confirmation and status: the Backendless user service.
extension BackendlessApp {
    /// Properties the backend manages itself: never stored from a request.
    static let systemProperties: Set<String> = [
        "objectId", "id", "ownerId", "created", "updated", "userStatus", "___class", "lastLogin", "user-token",
        "socialAccount",
    ]
    /// Columns every Users table has, accepted even with dynamic properties off.
    static let builtInProperties: Set<String> = ["email", "name", "password", "blUserLocale"]

    /// Registers a user (or converts a guest, when `objectId` or `id` names one). Checks run in the order of the
    /// error catalogue; the first that applies wins. Does not log in.
    /// - Parameter request: the properties as sent, in order; nil when the request had none at all.
    package func register(_ request: consuming [Property]?) throws(BackendlessError) -> BackendlessUser {
        let registration = try validate(consume request)
        if let existing = identityIndex[registration.identityKey], existing !== registration.guest {
            throw .userAlreadyExists
        }
        guard registration.guest != nil || users.count < capacity.maxUsers else { throw .full(capacity.maxUsers) }

        let status: UserStatus = settings.emailConfirmation ? .emailConfirmationPending : .enabled
        if status == .emailConfirmationPending { try admitConfirmationEmail(to: registration.properties) }
        let hash = PasswordHash(password: registration.password, generator: &random)
        let user: StoredUser
        if let guest = registration.guest {
            user = guest
            userBytes += HeldBytes.of(registration.properties) - HeldBytes.of(user.properties)
            user.properties = registration.properties
            user.password = hash
            user.status = status
            user.updated = clock.milliseconds
            guestCount -= 1
        } else {
            user = StoredUser(
                objectID: random.nextIdentifier(), properties: registration.properties, password: hash, status: status,
                created: clock.milliseconds, changes: userChanges
            )
            users[user.objectID] = user
            registrationOrder.append(user)
            userBytes += HeldBytes.perUser + HeldBytes.of(user.properties)
        }
        identityIndex[registration.identityKey] = user
        noteColumns(user.properties)
        if status == .emailConfirmationPending, case .string(let address)? = registration.properties[named: "email"] {
            sendConfirmation(to: address, for: user)
        }
        return user.snapshot
    }

    /// A request that passed every check but uniqueness.
    struct ValidRegistration {
        var identityKey: IndexKey
        var password: String
        /// What is stored: the request without the password and system properties.
        var properties: [Property]
        var guest: StoredUser?
    }

    /// Runs the registration checks in the catalogue's order (all but the duplicate identity, 3033). Takes the
    /// request so that, when the caller hands over its only copy, the stored properties reuse its storage.
    func validate(_ request: consuming [Property]?) throws(BackendlessError) -> ValidRegistration {
        guard let request = consume request, !request.isEmpty else { throw .missingParameters }
        guard settings.registration else { throw .registrationDisabled }

        // 3039: objectId / id, unless it names a guest to convert (both, when both are given, the same guest).
        var guest: StoredUser?
        for property in request where property.name == "objectId" || property.name == "id" {
            guard let text = property.value.stringValue, let id = Identifier128(parsing: text), let user = users[id],
                user.status == .guest, guest == nil || guest === user
            else { throw .reservedObjectID }
            guest = user
        }

        // 3043: the same property twice (also differing only in case).
        if Self.hasDuplicateNames(request) { throw .duplicateProperties }

        // 3011: no password, or an empty one; 3050: one that is not text (a number, a boolean, a list).
        let password: String
        switch request[named: "password"] {
        case .string(let text)? where !text.isEmpty: password = text
        case nil, .null?, .string?: throw .passwordRequired
        default: throw .catalogue(3050)
        }

        let identity = settings.identity
        guard let identityValue = request[named: identity], let identityKey = identityKey(identityValue) else {
            throw .missingIdentity(identity)
        }

        let email = request[named: "email"]
        if settings.emailConfirmation, email == nil || email!.isEmpty { throw .emailRequiredForConfirmation }
        if let email, !email.isEmpty {
            guard case .string(let address) = email, address.isEmailAddress else { throw .wrongEmailFormat }
        }

        if !settings.dynamicProperties {
            for property in request
            where !Self.systemProperties.contains(property.name) && !Self.builtInProperties.contains(property.name)
                && property.name != identity && settings.properties[property.name] == nil
            {
                throw .dynamicPropertiesDisabled(property.name)
            }
        }

        if !settings.properties.isEmpty {
            let rules = settings.properties.sorted { $0.key < $1.key }
            // Every absent required property (3012) is reported before any empty one (3041).
            for (name, rule) in rules where rule.required && request[named: name] == nil {
                throw .requiredProperty(name)
            }
            for (name, rule) in rules where rule.required && request[named: name]?.isEmpty == true {
                throw .missingRequiredValue(name)
            }
        }

        let rules = settings.properties
        for property in request {
            guard case .string(let text) = property.value else { continue }
            let limit = rules.isEmpty ? BackendlessSettings.defaultMaxLength : rules[property.name]?.maxLength ?? BackendlessSettings.defaultMaxLength
            if text.utf8.count > limit, text.unicodeScalars.count > limit { throw .valueTooLong(property.name, limit: limit) }
        }

        return ValidRegistration(identityKey: identityKey, password: password, properties: Self.storable(request), guest: guest)
    }

    /// True when two properties share a name, also when the names differ only in case (3043). Requests of up to
    /// 16 properties (all real ones) are compared pair by pair, which allocates nothing; larger ones go through
    /// a set of lower-cased names.
    static func hasDuplicateNames(_ request: [Property]) -> Bool {
        if request.count <= 16 {
            for first in request.indices {
                for second in request.indices[(first + 1)...]
                where request[first].name.equalsIgnoringCase(request[second].name) {
                    return true
                }
            }
            return false
        }
        var seen = Set<String>(minimumCapacity: request.count)
        for property in request where !seen.insert(property.name.lowercasedIfNeeded()).inserted { return true }
        return false
    }

    /// What a user stores of a request: every property but the password and the system properties, in order.
    /// Filters in place when the request's storage is not shared.
    static func storable(_ request: consuming [Property]) -> [Property] {
        var stored = request
        stored.removeAll { $0.name == "password" || systemProperties.contains($0.name) }
        return stored
    }

    /// Adds `count` users made from a template far faster than registering them one by one: every `%d` in a
    /// string property becomes the user's number (`start`, `start + 1`, ...). The first and last users pass the
    /// full registration checks; all are indexed like registered users (login, find and duplicates work).
    /// Seeded users share one salted hash when the password template has no `%d`. No email is sent.
    /// - Returns: the number of users added.
    @discardableResult
    package func seedUsers(count: Int, template: [Property], start: Int = 1, status: UserStatus = .enabled) throws(BackendlessError) -> Int {
        guard count > 0 else { return 0 }
        guard users.count + count <= capacity.maxUsers else { throw .full(capacity.maxUsers) }
        let expander = TemplateExpander(template)
        _ = try validate(expander.properties(for: start + count - 1))
        let first = try validate(expander.properties(for: start))
        let sharedHash = expander.passwordVaries ? nil : PasswordHash(password: first.password, generator: &random)
        let seeded = SeededUsers(template: template, identity: settings.identity)
        let created = clock.milliseconds
        noteColumns(first.properties)
        users.reserveCapacity(users.count + count)
        registrationOrder.reserveCapacity(registrationOrder.count + count)
        identityIndex.reserveCapacity(identityIndex.count + count)
        for number in start..<(start + count) {
            let properties = number == start ? first.properties : seeded.stored.properties(for: number)
            guard let identityValue = seeded.identityValue(in: properties, for: number), let identityKey = identityKey(identityValue) else {
                throw .missingIdentity(seeded.identity)
            }
            guard identityIndex[identityKey] == nil else {
                throw .seededUserExists(number, "\(identityKey)")
            }
            let hash = sharedHash ?? PasswordHash(password: seeded.password(for: number), generator: &random)
            let user = StoredUser(objectID: random.nextIdentifier(), properties: properties, password: hash, status: status, created: created, changes: userChanges)
            users[user.objectID] = user
            registrationOrder.append(user)
            identityIndex[identityKey] = user
            userBytes += HeldBytes.perUser + HeldBytes.of(properties)
        }
        return count
    }

    /// A seeding template split for the per-user loop, whose users already passed the checks in their first and
    /// last members: the stored properties are expanded straight into the array a user keeps.
    private struct SeededUsers {
        /// The template without the password and the system properties: what each user stores.
        let stored: TemplateExpander
        /// The whole template, for the password and an identity that is not stored.
        let full: TemplateExpander
        let identity: String
        /// Where the identity property sits among the stored ones, when it is stored.
        let identityPosition: Int?

        init(template: [Property], identity: String) {
            let storable = BackendlessApp.storable(template)
            stored = TemplateExpander(storable)
            full = TemplateExpander(template)
            self.identity = identity
            identityPosition = template.first { $0.name == identity }.flatMap { property in
                storable.firstIndex { $0.name == property.name }
            }
        }

        /// The identity value of user `number`, whose stored properties are `properties`.
        func identityValue(in properties: [Property], for number: Int) -> Value? {
            if let identityPosition { return properties[identityPosition].value }
            return full.value(named: identity, for: number)
        }

        func password(for number: Int) -> String {
            full.value(named: "password", for: number)?.stringValue ?? ""
        }
    }

    func sendConfirmation(to address: String, for user: StoredUser) {
        outbox.send(confirmationEmail(to: address, for: user, link: makeConfirmationLink(for: user)))
    }

    /// Logs in with the identity value and password; returns the session with its token.
    package func login(identity: String?, password: String?) throws(BackendlessError) -> BackendlessSession {
        guard settings.logins else { throw .loginsDisabled }
        guard let identity, !identity.isEmpty, let password, !password.isEmpty else { throw .emptyLogin }
        guard let key = identityKey(.string(identity)), let user = identityIndex[key] else { throw .invalidLogin }

        if let lockedUntil = user.lockedUntil {
            if clock.now < lockedUntil { throw .lockedOut }
            user.lockedUntil = nil
            user.failedLogins = 0
        }
        guard let hash = user.password, hash.matches(password) else {
            user.failedLogins += 1
            if settings.lockoutAfter > 0, user.failedLogins >= settings.lockoutAfter {
                user.lockedUntil = clock.now + settings.lockoutMinutes * 60
            }
            throw .invalidLogin
        }
        user.failedLogins = 0
        return try admitLogin(of: user)
    }

    /// The end of every login once the credentials are accepted: 3090 disabled, 3087 confirmation pending, then the
    /// multiple-login policy (3002 / 3044); then the user's `lastLogin` and a new session.
    func admitLogin(of user: StoredUser) throws(BackendlessError) -> BackendlessSession {
        switch user.status {
        case .disabled: throw .accountDisabled
        case .emailConfirmationPending: throw .emailNotConfirmed
        case .enabled, .guest: break
        }
        switch settings.multipleLogins {
        case .allow: break
        case .deny: if !user.sessions.isEmpty { throw .alreadyLoggedIn }
        case .limit(let count): if user.sessions.count >= count { throw .loginLimitReached }
        }
        user.lastLogin = clock.milliseconds
        return openSession(for: user)
    }

    func openSession(for user: StoredUser) -> BackendlessSession {
        let token = random.nextIdentifier()
        user.sessions.append(token)
        sessions[token] = user
        return BackendlessSession(user: user.snapshot, token: token.formatted())
    }

    /// Ends the session of `token`.
    package func logout(token: String) throws(BackendlessError) {
        guard let id = Identifier128(parsing: token), let user = sessions.removeValue(forKey: id) else {
            throw .unknownToken(token)
        }
        user.sessions.removeAll { $0 == id }
    }

    /// The user a session token belongs to.
    package func user(forToken token: String) throws(BackendlessError) -> BackendlessUser {
        guard let id = Identifier128(parsing: token), let user = sessions[id] else { throw .unknownToken(token) }
        return user.snapshot
    }

    /// `users.is_valid_token`: whether a token is a live session; an injected fault fails it.
    package func isValidToken(_ token: String) throws(BackendlessError) -> Bool {
        return (try? user(forToken: token)) != nil
    }

    /// Creates a guest account and logs it in.
    package func guestLogin() throws(BackendlessError) -> BackendlessSession {
        guard users.count < capacity.maxUsers else { throw .full(capacity.maxUsers) }
        let user = StoredUser(
            objectID: random.nextIdentifier(), properties: [], password: nil, status: .guest, created: clock.milliseconds, changes: userChanges
        )
        users[user.objectID] = user
        registrationOrder.append(user)
        guestCount += 1
        userBytes += HeldBytes.perUser
        user.lastLogin = clock.milliseconds
        return openSession(for: user)
    }

    /// Confirms a pending user's email with what the confirmation email carried: the whole link or its token
    /// (what clicking the link does), or the user's objectId. An unknown link answers 3092; other text that is not
    /// an objectId answers 1000 as an unknown objectId does.
    package func confirmEmail(objectIDOrLink text: String) throws(BackendlessError) -> BackendlessUser {
        if !confirmationTokens.isEmpty, let id = confirmationTokens[Self.recoveryToken(in: text)] {
            return try confirmEmail(objectID: id.formatted())
        }
        if text.contains("/") {
            try checkFaults(.confirmEmail, [.string(text)])
            throw .invalidConfirmationLink
        }
        return try confirmEmail(objectID: text)
    }

    /// Confirms a pending user's email by objectId.
    package func confirmEmail(objectID: String) throws(BackendlessError) -> BackendlessUser {
        try checkFaults(.confirmEmail, [.string(objectID)])
        guard let id = Identifier128(parsing: objectID), let user = users[id] else { throw .unknownObjectID(objectID) }
        if user.status == .emailConfirmationPending {
            user.status = .enabled
            user.updated = clock.milliseconds
        }
        return user.snapshot
    }

    /// The objectId of the user a confirmation link's token names; nil for an unknown token.
    package func confirmationObjectID(linkToken: String) -> String? {
        confirmationTokens[linkToken]?.formatted()
    }

    /// Confirms through the token of a confirmation link.
    package func confirmEmail(linkToken: String) throws(BackendlessError) -> BackendlessUser {
        guard let id = confirmationTokens[linkToken] else {
            throw .invalidConfirmationLink
        }
        return try confirmEmail(objectID: id.formatted())
    }

    /// Enables or disables an account, as the console does. Disabling ends the user's sessions.
    package func setStatus(objectID: String, to status: UserStatus) throws(BackendlessError) -> BackendlessUser {
        guard let id = Identifier128(parsing: objectID), let user = users[id] else { throw .unknownObjectID(objectID) }
        user.status = status
        user.updated = clock.milliseconds
        if status == .disabled {
            for token in user.sessions { sessions[token] = nil }
            user.sessions.removeAll()
        }
        return user.snapshot
    }

    /// The user with this identity value, or nil.
    package func find(identity: String) -> BackendlessUser? {
        guard let key = identityKey(.string(identity)) else { return nil }
        return identityIndex[key]?.snapshot
    }

    /// The user with this objectId, or nil (guests included).
    package func user(objectID: String) -> BackendlessUser? {
        guard let id = Identifier128(parsing: objectID) else { return nil }
        return users[id]?.snapshot
    }

    /// Registered users, guests excluded.
    package var userCount: Int { users.count - guestCount }
    /// Device registrations held, expired ones included until they are swept.
    package var registrationCount: Int { devices.heldCount }

    /// Every user (guests included), oldest first.
    package var allUsers: [BackendlessUser] { firstUsers(users.count).first }

    /// The first `limit` users of `allUsers`, presenting only those (a state read of a world of 10,000 users that
    /// lists a few costs a pass over the users, not 10,000 records and a sort).
    /// `total` is how many `allUsers` lists.
    package func firstUsers(_ limit: Int) -> (total: Int, first: [BackendlessUser]) {
        func precedes(_ one: StoredUser, _ other: StoredUser) -> Bool {
            one.created != other.created ? one.created < other.created : one.objectID.high < other.objectID.high
        }
        guard limit > 0 else { return (users.count, []) }
        if limit >= users.count / 8 { return (users.count, users.values.sorted(by: precedes).prefix(limit).map(\.snapshot)) }
        // Few wanted: keep the first `limit` seen so far, sorted, inserting by binary search.
        var first: [StoredUser] = []
        first.reserveCapacity(limit + 1)
        for user in users.values {
            if first.count == limit, let last = first.last, !precedes(user, last) { continue }
            var low = 0, high = first.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(first[middle], user) { low = middle + 1 } else { high = middle }
            }
            first.insert(user, at: low)
            if first.count > limit { first.removeLast() }
        }
        return (users.count, first.map(\.snapshot))
    }
}

extension String {
    /// A plain `local@domain.tld` check: one `@`, no spaces or control characters, a dotted domain.
    var isEmailAddress: Bool {
        withUTF8Bytes(Self.isEmailAddress)
    }

    private static func isEmailAddress(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var atIndex = -1
        var index = 0
        var lastDot = -1
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "@"):
                if atIndex >= 0 { return false }
                atIndex = index
            case UInt8(ascii: "."):
                if atIndex >= 0 {
                    if previous == UInt8(ascii: "@") || previous == UInt8(ascii: ".") { return false }
                    lastDot = index
                }
            case 0...32, 127, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: ":"),
                UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: "\\"), UInt8(ascii: "\""):
                return false
            default: break
            }
            previous = byte
            index += 1
        }
        return atIndex > 0 && lastDot > atIndex + 1 && lastDot < index - 1
    }
}
