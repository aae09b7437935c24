/// The account lifecycle after sign-up (contract version 2): password recovery and reset, resending the
/// confirmation, reading, updating and deleting a user. Each call checks its faults first, then the contract's
/// errors in the contract's order; a call that fails changes nothing.
extension BackendlessApp {
    // MARK: Password recovery

    /// Sends the password-recovery email of the user with this identity value (`users.restore_password`). In
    /// `"link"` mode the email carries a link to the change-password page and the old password keeps working
    /// until the link is used; in `"temporary"` mode it carries a new password that replaces the old one at once.
    /// Errors, in order: 3101 recovery off, 3020 no such user, 3075 a social user (contract version 3), 3025 the
    /// user has no email.
    package func restorePassword(identity: String) throws(BackendlessError) {
        guard settings.passwordRecovery != .off else { throw .catalogue(3101) }
        guard let key = identityKey(.string(identity)), let user = identityIndex[key] else {
            throw .recoveryUserNotFound(identity)
        }
        if user.isSocial { throw .socialUserRecovery }
        guard case .string(let address)? = user.properties[named: "email"], !address.isEmpty else {
            throw .noRecoveryAddress(identity)
        }
        switch settings.passwordRecovery {
        case .link, .off:
            let token = random.nextIdentifier().formatted(uppercase: false)
            recoveryLinks[token] = RecoveryLink(user: user.objectID)
            outbox.send(
                Outbox.Email(
                    to: address, subject: "Password recovery", kind: .passwordRecovery,
                    link: recoveryLink(token: token), sentAt: clock.now
                )
            )
        case .temporary:
            let password = temporaryPassword()
            user.password = PasswordHash(password: password, generator: &random)
            user.updated = clock.milliseconds
            outbox.send(
                Outbox.Email(
                    to: address, subject: "Your new temporary password", kind: .passwordRecovery, password: password,
                    sentAt: clock.now
                )
            )
        }
    }

    /// What the change-password page does (`users.reset_password`): sets `newPassword` through a recovery link
    /// (the whole link or its last path segment, the token). The old password stops working, the user's sessions
    /// stay, and the link is used up. Errors, in order: 3092 an unknown or used link (the emulator's choice),
    /// 3045 an empty password, 8000 a password over its `max_length`.
    package func resetPassword(linkOrToken: String, newPassword: String) throws(BackendlessError) {
        try checkFaults(.resetPassword, [.string(linkOrToken), .string(newPassword)])
        let token = Self.recoveryToken(in: linkOrToken)
        guard let link = recoveryLinks[token], let user = users[link.user] else { throw .invalidRecoveryLink(used: false) }
        guard !link.used else { throw .invalidRecoveryLink(used: true) }
        guard !newPassword.isEmpty else { throw .emptyValues(["password"]) }
        try checkLength(.string(newPassword), of: "password")
        user.password = PasswordHash(password: newPassword, generator: &random)
        user.updated = clock.milliseconds
        recoveryLinks[token]?.used = true
    }

    /// Whether the recovery link (or its token) can still be used: nil when unknown, else `used`.
    package func recoveryLinkState(_ linkOrToken: String) -> (identity: String, used: Bool)? {
        guard let link = recoveryLinks[Self.recoveryToken(in: linkOrToken)], let user = users[link.user] else { return nil }
        let identity = user.properties[named: settings.identity]?.stringValue ?? user.objectID.formatted()
        return (identity, link.used)
    }

    /// The token of a recovery link: its last path segment, without a query or fragment; text with no `/` is
    /// taken as the token itself.
    static func recoveryToken(in linkOrToken: String) -> String {
        var text = Substring(linkOrToken)
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<end] }
        while text.hasSuffix("/") { text = text.dropLast() }
        if let slash = text.lastIndex(of: "/") { text = text[text.index(after: slash)...] }
        return String(text)
    }

    /// The page a recovery email links to (served by `understudy serve`).
    func recoveryLink(token: String) -> String {
        "\(linkBase)/\(settings.appID)/\(settings.apiKey)/users/changepassword/\(token)"
    }

    /// A system-generated password: 10 letters and digits from the seeded generator.
    private func temporaryPassword() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        for _ in 0..<10 { bytes.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Email confirmation

    /// Sends a new confirmation email to the pending user with this identity value (`users.resend_confirmation`).
    /// Earlier links keep working. Errors, in order: 3103 confirmation off, 3104 no such user (or no email to
    /// send to), 3102 already confirmed.
    package func resendConfirmation(identity: String) throws(BackendlessError) {
        let (user, address) = try pendingConfirmation(identity: identity)
        try admitConfirmationEmail(to: user.properties)
        sendConfirmation(to: address, for: user)
    }

    /// A new confirmation link for the pending user with this identity value, sent nowhere: the app delivers it
    /// itself (`users.confirmation_url`). Errors as `resendConfirmation`.
    package func confirmationURL(identity: String) throws(BackendlessError) -> String {
        let (user, _) = try pendingConfirmation(identity: identity)
        return makeConfirmationLink(for: user)
    }

    /// The user a confirmation may be sent to, and the address: 3103, 3104, 3102 in that order.
    private func pendingConfirmation(identity: String) throws(BackendlessError) -> (StoredUser, String) {
        guard settings.emailConfirmation else { throw .catalogue(3103) }
        guard let key = identityKey(.string(identity)), let user = identityIndex[key] else {
            throw .confirmationUserNotFound(identity)
        }
        guard user.status == .emailConfirmationPending else { throw .catalogue(3102) }
        guard case .string(let address)? = user.properties[named: "email"], !address.isEmpty else {
            throw BackendlessError(
                code: 3104, message: "Unable to send email confirmation - the user '\(identity)' has no email address."
            )
        }
        return (user, address)
    }

    /// A new link that confirms `user`'s email when opened; earlier links keep working.
    func makeConfirmationLink(for user: StoredUser) -> String {
        let token = random.nextIdentifier().formatted(uppercase: false)
        confirmationTokens[token] = user.objectID
        return "\(linkBase)/\(settings.appID)/\(settings.apiKey)/users/confirmemail/\(token)"
    }

    // MARK: Reading, updating, deleting

    /// The user with this objectId, or nil (`users.get`; guests included). Only an injected fault fails it.
    package func getUser(objectID: String) throws(BackendlessError) -> BackendlessUser? {
        return user(objectID: objectID)
    }

    /// Changes the user's properties as the user of `token` (`users.update`). `password` is re-hashed (never
    /// stored or returned); the system properties (`objectId`, `created`, `userStatus`, `___class`, `lastLogin`,
    /// ...) are ignored; unknown properties are dropped while `dynamic_properties` is off. A changed identity is
    /// re-indexed. Errors, in order: 3064 unknown or ended token, 3030 no user with that id, 3029 the token is
    /// another user's, for a social user 3072 a password and 3096 a changed identity (contract version 3), 3040 a malformed new email (when email is the identity or confirmation is on), 3018 the
    /// new identity is taken, 3050 a password that is not a string, 3045 the identity, password or a required
    /// property (or the email while confirmation is on) set empty, 8000 a value over its `max_length`.
    package func update(objectID: String, properties: [Property], token: String) throws(BackendlessError) -> BackendlessUser {
        guard let session = Identifier128(parsing: token), let caller = sessions[session] else { throw .unknownToken(token) }
        guard let id = Identifier128(parsing: objectID), let user = users[id] else { throw .unknownUserID(objectID) }
        guard caller === user else { throw .catalogue(3029) }
        return try applyUpdate(to: user, properties)
    }

    /// `users.update`'s checks from 3072 on, then the change: shared with `data.users.save`.
    func applyUpdate(to user: StoredUser, _ properties: [Property]) throws(BackendlessError) -> BackendlessUser {
        let changes = properties.filter { !Self.ignoredOnUpdate.contains($0.name) }
        let identity = settings.identity
        if user.isSocial { try checkSocialUpdate(of: user, changes) }
        if let email = changes[named: "email"], !email.isEmpty, identity == "email" || settings.emailConfirmation {
            guard case .string(let address) = email, address.isEmailAddress else { throw .wrongEmailFormat }
        }
        var newIdentityKey: IndexKey?
        if let value = changes[named: identity], let key = identityKey(value), user.status != .guest {
            if let holder = identityIndex[key], holder !== user { throw .identityTaken(value) }
            newIdentityKey = key
        }
        let password = changes[named: "password"]
        if let password, !password.isEmpty, password.stringValue == nil { throw .catalogue(3050) }
        var empty: [String] = []
        for property in changes where property.value.isEmpty {
            let name = property.name
            if name == identity || name == "password" || settings.properties[name]?.required == true
                || (name == "email" && settings.emailConfirmation)
            {
                if !empty.contains(name) { empty.append(name) }
            }
        }
        if !empty.isEmpty { throw .emptyValues(empty) }
        for property in changes { try checkLength(property.value, of: property.name) }

        // Every check passed: apply.
        var stored = user.properties
        for property in changes {
            if property.name == "password" { continue }
            if let index = stored.firstIndex(where: { $0.name == property.name }) {
                stored[index].value = property.value
            } else if settings.dynamicProperties || Self.builtInProperties.contains(property.name)
                || property.name == identity || settings.properties[property.name] != nil
            {
                stored.append(property)
            }
        }
        if let newIdentityKey {
            if let old = user.properties[named: identity], let oldKey = identityKey(old), identityIndex[oldKey] === user {
                identityIndex[oldKey] = nil
            }
            identityIndex[newIdentityKey] = user
        }
        userBytes += HeldBytes.of(stored) - HeldBytes.of(user.properties)
        noteColumns(stored)
        user.properties = stored
        if case .string(let text)? = password { user.password = PasswordHash(password: text, generator: &random) }
        user.updated = clock.milliseconds
        return user.snapshot
    }

    /// Deletes the user (`users.delete`): their sessions end (3064 from then on), their identity is free again,
    /// and their confirmation and recovery links stop working. Device registrations are not a user's and stay.
    /// Errors: 1000 no user with that id.
    package func delete(objectID: String) throws(BackendlessError) {
        guard let id = Identifier128(parsing: objectID), let user = users.removeValue(forKey: id) else {
            throw .entityNotFound(objectID)
        }
        if user.status == .guest { guestCount -= 1 }
        user.isDeleted = true
        userBytes -= HeldBytes.perUser + HeldBytes.of(user.properties)
        if let value = user.properties[named: settings.identity], let key = identityKey(value), identityIndex[key] === user {
            identityIndex[key] = nil
        }
        for token in user.sessions { sessions[token] = nil }
        user.sessions.removeAll()
        if !confirmationTokens.isEmpty { confirmationTokens.removeAll { $1 == id } }
        if !recoveryLinks.isEmpty { recoveryLinks = recoveryLinks.filter { $0.value.user != id } }
        consoleBytes -= (roles.assignments.removeValue(forKey: id)?.count ?? 0) * HeldBytes.perEntry
        // The provider accounts that registered the user no longer lead to it (their next login registers anew).
        if !oauth.links.isEmpty {
            for (key, linked) in oauth.links where linked === user {
                oauth.links[key] = nil
                consoleBytes -= key.heldBytes
            }
        }
    }

    /// A social user's update (contract version 3): 3072 for any `password` (null aside), then 3096 for an
    /// identity value other than the stored one (an empty value counts as none).
    private func checkSocialUpdate(of user: StoredUser, _ changes: [Property]) throws(BackendlessError) {
        if let password = changes[named: "password"], password != .null { throw .socialUserPassword }
        if let value = changes[named: settings.identity] {
            let current = user.properties[named: settings.identity].flatMap(identityKey)
            if identityKey(value) != current { throw .socialUserIdentity }
        }
    }

    /// Properties `update` ignores: the backend manages them itself (SDKs send them back with the whole user).
    static let ignoredOnUpdate: Set<String> = systemProperties.union(["socialAccount"])

    /// 8000 when a string is longer than the property's `max_length` (500 without one).
    private func checkLength(_ value: Value, of name: String) throws(BackendlessError) {
        guard case .string(let text) = value else { return }
        let limit = settings.properties[name]?.maxLength ?? BackendlessSettings.defaultMaxLength
        if text.utf8.count > limit, text.unicodeScalars.count > limit { throw .valueTooLong(name, limit: limit) }
    }

    /// Every property name of the Users table: the built-in columns, the identity, the schema's, and every
    /// dynamic property some user holds, sorted (what `users/userclassprops` describes).
    package var userProperties: [(name: String, sample: Value?)] {
        var names = Self.builtInProperties.subtracting(["password"])
        names.insert(settings.identity)
        names.formUnion(settings.properties.keys)
        var samples: [String: Value] = [:]
        for user in users.values {
            for property in user.properties {
                names.insert(property.name)
                if samples[property.name] == nil, !property.value.isEmpty { samples[property.name] = property.value }
            }
        }
        return names.sorted().map { ($0, samples[$0]) }
    }
}

/// A password-recovery link the backend emailed: whose it is, and whether it was used.
struct RecoveryLink {
    let user: Identifier128
    var used = false
}

extension BackendlessError {
    static func recoveryUserNotFound(_ identity: String) -> BackendlessError {
        BackendlessError(code: 3020, message: recoveryUserNotFoundText + " '\(identity)'.")
    }
    static func noRecoveryAddress(_ identity: String) -> BackendlessError {
        recoveryFailed("the user '\(identity)' has no 'email' value to send to")
    }
    static func invalidRecoveryLink(used: Bool) -> BackendlessError {
        BackendlessError(
            code: 3092,
            message: used
                ? "Unable to change the password. The password-recovery link was already used."
                : "Unable to change the password. The password-recovery link is not valid."
        )
    }
    static func confirmationUserNotFound(_ identity: String) -> BackendlessError {
        BackendlessError(code: 3104, message: confirmationUserNotFoundText + ": '\(identity)'.")
    }
    static func unknownUserID(_ objectID: String) -> BackendlessError {
        BackendlessError(code: 3030, message: catalogueMessage(for: 3030) + " '\(objectID)'")
    }
    static func identityTaken(_ value: Value) -> BackendlessError {
        let shown: String
        switch value {
        case .string(let text): shown = text
        case .int(let number): shown = String(number)
        case .double(let number): shown = String(number)
        case .bool(let flag): shown = String(flag)
        default: shown = value.kindName
        }
        return BackendlessError(code: 3018, message: "User with identity '\(shown)' already exists")
    }
    static func emptyValues(_ names: [String]) -> BackendlessError {
        BackendlessError(
            code: 3045,
            message: emptyValuesText + ": " + names.map { "'\($0)'" }.joined(separator: ", ")
        )
    }
    /// An unknown objectId where the data service reads or deletes a user: 1000, HTTP 404.
    package static func entityNotFound(_ objectID: String) -> BackendlessError {
        BackendlessError(code: 1000, message: "Entity with ID \(objectID) not found", httpStatus: 404)
    }
}
