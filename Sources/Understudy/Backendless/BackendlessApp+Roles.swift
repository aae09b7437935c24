/// Which API key a call is made with (contract version 4): the client key (`"rest"`, standing for every client
/// kind) or the CloudCode key, which the calls the vendor restricts to Code Runner require.
package enum APIKeyKind: String, Sendable, Hashable {
    case rest
    case cloudcode
}

/// The roles of an app: the system roles, the custom roles the console defined, and which users hold which.
struct RoleDirectory {
    /// The roles every app has.
    static let system = [
        "NotAuthenticatedUser", "AuthenticatedUser", "SocialUser", "FacebookUser", "GooglePlusUser", "TwitterUser", "ASUser",
        "AndroidUser", "DotNetUser", "IOSUser", "JSUser", "RestUser", "ServerCodeUser",
    ]
    static let systemSet = Set(system)

    /// Custom roles, in definition order.
    private(set) var customRoles: [String] = []
    private var customSet: Set<String> = []
    /// Each user's custom roles, in assignment order.
    var assignments: [Identifier128: [String]] = [:]

    func isCustom(_ name: String) -> Bool { customSet.contains(name) }

    mutating func define(_ name: String) {
        customRoles.append(name)
        customSet.insert(name)
    }

    func custom(of user: Identifier128) -> [String] { assignments[user] ?? [] }

    /// What a custom role holds (`HeldBytes`: its name, in the list and the set).
    static func heldBytes(ofRole name: String) -> Int { 2 * HeldBytes.perEntry + HeldBytes.of(name) }

    /// What the custom roles and their assignments hold.
    var heldBytes: Int {
        customRoles.reduce(0) { $0 + Self.heldBytes(ofRole: $1) } + assignments.values.reduce(0) { $0 + $1.count * HeldBytes.perEntry }
    }
}

/// Why a console call on roles cannot be carried out (a scenario's misuse, raised in Lua).
package struct RoleProblem: Error, Sendable {
    package var message: String
}

/// Roles (contract version 4): the console defines custom roles; server code assigns and unassigns them and reads a
/// user's roles; any client finds the users of a custom role.
extension BackendlessApp {
    /// `roles.define(name)` (console): a custom role. A system role's name, an empty name or one defined already
    /// is refused.
    package func defineRole(_ name: String) throws(RoleProblem) {
        guard !name.isEmpty else { throw RoleProblem(message: "a role name may not be empty") }
        if RoleDirectory.systemSet.contains(name) { throw RoleProblem(message: "'\(name)' is a system role") }
        if roles.isCustom(name) { throw RoleProblem(message: "the role '\(name)' is defined already") }
        roles.define(name)
        consoleBytes += RoleDirectory.heldBytes(ofRole: name)
    }

    /// The roles every app has, as the vendor lists them.
    package static var systemRoles: [String] { RoleDirectory.system }

    /// `roles.list()` (console): every role, system and custom, in byte order.
    package var roleNames: [String] {
        (RoleDirectory.system + roles.customRoles).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Every custom role, in definition order, with how many users hold it (the dashboard).
    package var customRoles: [(name: String, holders: Int)] {
        roles.customRoles.map { role in (role, roles.assignments.values.reduce(0) { $0 + ($1.contains(role) ? 1 : 0) }) }
    }

    /// The users holding a custom role, in registration order: each user's objectId and identity value (nil for a
    /// user without one). The dashboard's Roles view lists them.
    package func holders(of role: String) -> [(objectID: String, identity: String?)] {
        var holders: [StoredUser] = []
        for (id, held) in roles.assignments where held.contains(role) {
            if let user = users[id] { holders.append(user) }
        }
        holders.sort { left, right in
            if left.created != right.created { return left.created < right.created }
            return left.objectID.formatted() < right.objectID.formatted()
        }
        let identity = settings.identity
        return holders.map { user in (user.objectID.formatted(), user.properties[named: identity]?.stringValue) }
    }

    /// The user an `assign`/`unassign` names: by identity value (as `users.find` compares it), else by objectId;
    /// never a guest.
    private func roleHolder(_ identityOrID: String) -> StoredUser? {
        if let key = identityKey(.string(identityOrID)), let user = identityIndex[key] { return user }
        if let id = Identifier128(parsing: identityOrID), let user = users[id], user.status != .guest { return user }
        return nil
    }

    /// `roles.assign(identity, role, key?)`. Errors: a fault; 2011 unless the CloudCode key; 2005 no such role;
    /// 2007 a system role; 3057 no such user. Assigning a role the user holds changes nothing.
    package func assignRole(identity: String, role: String, key: APIKeyKind?) throws(BackendlessError) {
        let user = try checkRoleChange(identity: identity, role: role, key: key, systemCode: 2007)
        if !roles.custom(of: user.objectID).contains(role) {
            roles.assignments[user.objectID, default: []].append(role)
            consoleBytes += HeldBytes.perEntry
        }
    }

    /// `roles.unassign(identity, role, key?)`: as `assign`, with 2008 for a system role. Unassigning a role the
    /// user does not hold changes nothing.
    package func unassignRole(identity: String, role: String, key: APIKeyKind?) throws(BackendlessError) {
        let user = try checkRoleChange(identity: identity, role: role, key: key, systemCode: 2008)
        if roles.custom(of: user.objectID).contains(role) { consoleBytes -= HeldBytes.perEntry }
        roles.assignments[user.objectID]?.removeAll { $0 == role }
        if roles.assignments[user.objectID]?.isEmpty == true { roles.assignments[user.objectID] = nil }
    }

    private func checkRoleChange(identity: String, role: String, key: APIKeyKind?, systemCode: Int) throws(BackendlessError) -> StoredUser {
        guard key == .cloudcode else { throw .catalogue(2011) }
        let isSystem = RoleDirectory.systemSet.contains(role)
        guard isSystem || roles.isCustom(role) else { throw .catalogue(2005) }
        if isSystem { throw .catalogue(systemCode) }
        guard let user = roleHolder(identity) else { throw .catalogue(3057) }
        return user
    }

    /// A user's roles: `AuthenticatedUser`; for a social user `SocialUser` and its provider's role; then its
    /// custom roles in assignment order.
    func roles(of user: StoredUser) -> [String] {
        var names = ["AuthenticatedUser"]
        names += socialRoles(of: user)
        names += roles.custom(of: user.objectID)
        return names
    }

    /// `SocialUser` and the provider's role, for a social user.
    func socialRoles(of user: StoredUser) -> [String] {
        guard user.isSocial else { return [] }
        switch user.socialAccount {
        case "facebook": return ["SocialUser", "FacebookUser"]
        case "googleplus": return ["SocialUser", "GooglePlusUser"]
        case "twitter": return ["SocialUser", "TwitterUser"]
        default: return ["SocialUser"]
        }
    }

    /// What `GET users/userroles` adds for the session user after version 2's roles: the social roles, then the
    /// custom roles.
    package func sessionRoles(token: String) -> [String] {
        guard let id = Identifier128(parsing: token), let user = sessions[id] else { return [] }
        return socialRoles(of: user) + roles.custom(of: user.objectID)
    }

    /// `roles.of(objectId, key?)`. Errors: a fault; 3081 unless the CloudCode key; 3057 an unknown objectId or a
    /// guest's.
    package func rolesOf(objectID: String, key: APIKeyKind?) throws(BackendlessError) -> [String] {
        guard key == .cloudcode else { throw .catalogue(3081) }
        guard let id = Identifier128(parsing: objectID), let user = users[id], user.status != .guest else {
            throw .catalogue(3057)
        }
        return roles(of: user)
    }

    /// `roles.users(role, options?)`: the users holding a custom role that match `query`, as Data service records
    /// in the query's order; with `loadRoles` each record has `roles` (its custom roles). Errors: a fault; 2005 no
    /// such role; 2003 a system role; then the query's (19000, 1006).
    package func roleUsers(role: String, loadRoles: Bool?, query: DataQuery?) throws(BackendlessError) -> [DataRecord] {
        let isSystem = RoleDirectory.systemSet.contains(role)
        guard isSystem || roles.isCustom(role) else { throw .catalogue(2005) }
        if isSystem { throw .catalogue(2003) }
        return try findRecords(query ?? DataQuery(), holding: role, loadRoles: loadRoles == true)
    }
}

/// Login by objectId and status changes (contract version 4): calls the vendor allows only with the CloudCode key.
extension BackendlessApp {
    /// `users.login_by_id(objectId, key?)`: a session as `users.login` gives (its performer checks the fault
    /// first). Errors: a fault; 2014 unless the
    /// CloudCode key; 3034 logins off; 3057 an unknown objectId or a guest's; 3036 locked out; 3090 disabled; 3087
    /// confirmation pending; 3002 / 3044 the multiple-login policy.
    package func loginByID(objectID: String, key: APIKeyKind?) throws(BackendlessError) -> BackendlessSession {
        guard key == .cloudcode else { throw .catalogue(2014) }
        guard settings.logins else { throw .loginsDisabled }
        guard let id = Identifier128(parsing: objectID), let user = users[id], user.status != .guest else {
            throw .catalogue(3057)
        }
        if let lockedUntil = user.lockedUntil {
            if clock.now < lockedUntil { throw .lockedOut }
            user.lockedUntil = nil
            user.failedLogins = 0
        }
        return try admitLogin(of: user)
    }

    /// `users.update_status(objectId, status, key?)`: enables or disables a user (a pending one too: enabling skips
    /// the confirmation). Disabling ends the user's sessions. Errors: a fault; 3054 unless the CloudCode key; 1000
    /// an unknown objectId or a guest's; 3085 already disabled; 3086 already enabled.
    package func updateStatus(objectID: String, to status: UserStatus, key: APIKeyKind?) throws(BackendlessError) -> BackendlessUser {
        guard key == .cloudcode else { throw .catalogue(3054) }
        guard let id = Identifier128(parsing: objectID), let user = users[id], user.status != .guest else {
            throw .entityNotFound(objectID)
        }
        if user.status == status { throw .catalogue(status == .disabled ? 3085 : 3086) }
        user.status = status
        user.updated = clock.milliseconds
        if status == .disabled {
            for token in user.sessions { sessions[token] = nil }
            user.sessions.removeAll()
        }
        return user.snapshot
    }
}
