/// What a topic's ACL allows (contract v4).
package enum KiiTopicAction: String, Sendable, Hashable, CaseIterable {
    case subscribe = "SUBSCRIBE_TO_TOPIC"
    case send = "SEND_MESSAGE_TO_TOPIC"

    /// Every user, pseudo users included.
    package static let anyAuthenticatedUser = "UserID:ANY_AUTHENTICATED_USER"
    /// Nobody: every user is authenticated.
    package static let anonymousUser = "UserID:ANONYMOUS_USER"
}

/// A topic's ACL: its subjects by action, each list in byte order.
package struct KiiTopicACL: Sendable, Hashable, Presentable {
    package var subscribe: [String]
    package var send: [String]

    /// `{ SUBSCRIBE_TO_TOPIC = { subject, ... }, SEND_MESSAGE_TO_TOPIC = { subject, ... } }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("SUBSCRIBE_TO_TOPIC", strings: subscribe)
        writer.write("SEND_MESSAGE_TO_TOPIC", strings: send)
    }
}

/// Topic ACLs (`GET {scope}topics/{t}/acl`, `PUT`/`DELETE …/acl/{action}/{subject}`): who may subscribe to a
/// topic and who may send to it. A new app-scope topic lets every user subscribe and nobody but the administrator
/// send; a user-scope topic lists its owner for both. The administrator may always do both.
extension KiiApp {
    private static func sorted(_ subjects: Set<String>?) -> [String] {
        (subjects ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether the topic's ACL lets `userID` do `action`: an entry with their `UserID`,
    /// `ANY_AUTHENTICATED_USER`, or a `GroupID` of a group they belong to.
    func topicAllows(_ action: KiiTopicAction, _ key: KiiTopicStore.Key, userID: String) -> Bool {
        guard let subjects = topicStore.acls[key]?[action] else { return false }
        if subjects.contains(KiiTopicAction.anyAuthenticatedUser) || subjects.contains("UserID:\(userID)") { return true }
        return groupStore.groups.contains { group in
            subjects.contains("GroupID:\(group.groupID)") && group.members.contains(userID)
        }
    }

    private func topicACLKey(_ topicID: String, owner: String?) throws(KiiError) -> KiiTopicStore.Key {
        let key: KiiTopicStore.Key
        if let owner {
            key = KiiTopicStore.Key(owner: try storedUser(owner).userID, topicID: topicID)
        } else {
            key = KiiTopicStore.Key(owner: "", topicID: topicID)
        }
        guard topicStore.topics[key] != nil else { throw .topicNotFound(topicID) }
        return key
    }

    /// The topic's ACL. Errors, in this order: 404 `USER_NOT_FOUND` (owner); 404 `TOPIC_NOT_FOUND`.
    package func topicACL(topicID: String, owner: String? = nil) throws(KiiError) -> KiiTopicACL {
        let key = try topicACLKey(topicID, owner: owner)
        let acl = topicStore.acls[key] ?? [:]
        return KiiTopicACL(subscribe: Self.sorted(acl[.subscribe]), send: Self.sorted(acl[.send]))
    }

    /// A checked subject: `UserID:`, `GroupID:` or `ThingID:` and a non-empty id (400 `INVALID_INPUT_DATA`);
    /// for `grant`, a userID or groupID that names nobody is 404 `USER_NOT_FOUND` / `GROUP_NOT_FOUND`.
    private func checkedSubject(_ subject: String, mustExist: Bool) throws(KiiError) -> String {
        let prefixes = ["UserID:", "GroupID:", "ThingID:"]
        guard let prefix = prefixes.first(where: { subject.hasPrefix($0) }), subject.utf8.count > prefix.utf8.count else {
            throw .invalidInput(
                field: "subject", value: String(subject.prefix(64)),
                message: "subject must be UserID:{id}, GroupID:{id} or ThingID:{id}, got \(subject.prefix(64))"
            )
        }
        guard mustExist else { return subject }
        let id = String(subject.dropFirst(prefix.count))
        switch prefix {
        case "UserID:":
            if subject == KiiTopicAction.anyAuthenticatedUser || subject == KiiTopicAction.anonymousUser { return subject }
            guard (try? storedUser(id)) != nil else {
                throw KiiError(
                    status: 404, code: "USER_NOT_FOUND", message: "The user \(id) named by the subject was not found",
                    field: "subject", value: id
                )
            }
        case "GroupID:":
            guard groupStore.groups.contains(where: { $0.groupID == id }) else { throw .groupNotFound(id) }
        default: break
        }
        return subject
    }

    /// Adds `subject` to the action's entries. Errors, in this order: 404 `USER_NOT_FOUND` (owner); 404
    /// `TOPIC_NOT_FOUND`; 400 `INVALID_INPUT_DATA` (a malformed subject); 404 `USER_NOT_FOUND` / `GROUP_NOT_FOUND`
    /// (a subject naming nobody; a `ThingID` is not checked); 409 `ACL_ALREADY_EXISTS`.
    package func grantTopic(topicID: String, action: KiiTopicAction, subject: String, owner: String? = nil) throws(KiiError) {
        let key = try topicACLKey(topicID, owner: owner)
        let subject = try checkedSubject(subject, mustExist: true)
        guard topicStore.grant(key, action, subject) else {
            throw .aclAlreadyExists(action: action.rawValue, subject: subject)
        }
    }

    /// Removes `subject` from the action's entries (the owner's too). Errors, in this order: 404 `USER_NOT_FOUND`
    /// (owner); 404 `TOPIC_NOT_FOUND`; 400 `INVALID_INPUT_DATA`; 404 `ACL_NOT_FOUND`.
    package func revokeTopic(topicID: String, action: KiiTopicAction, subject: String, owner: String? = nil) throws(KiiError) {
        let key = try topicACLKey(topicID, owner: owner)
        let subject = try checkedSubject(subject, mustExist: false)
        guard topicStore.revoke(key, action, subject) else {
            throw .aclNotFound(action: action.rawValue, subject: subject)
        }
    }
}

/// A group (contract v4's minimum: what `memberOfGroups`, `ownerOfGroups` and `GroupID:` subjects need).
package struct KiiGroup: Sendable, Hashable, Presentable {
    /// 25 characters of `0-9 a-z` from the seeded generator.
    package var groupID: String
    package var name: String
    /// The owner's userID (kept after the owner is deleted).
    package var owner: String
    /// The owner first, then the other members in the order given.
    package var members: [String]

    /// `{ groupID, name, owner, members }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("groupID", groupID)
        writer.write("name", name)
        writer.write("owner", owner)
        writer.write("members", strings: members)
    }

    /// What the group holds (`HeldBytes`): a record, its id and name, an entry per member.
    var heldBytes: Int { HeldBytes.perRecord + HeldBytes.of(groupID) + HeldBytes.of(name) + members.count * HeldBytes.perEntry }

    /// `{ groupID, name, owner }`: what `member_of` and `owned_by` list.
    package var summary: KiiGroupSummary { KiiGroupSummary(groupID: groupID, name: name, owner: owner) }
}

/// `{ groupID, name, owner }`.
package struct KiiGroupSummary: Sendable, Hashable, Presentable {
    package var groupID: String
    package var name: String
    package var owner: String

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("groupID", groupID)
        writer.write("name", name)
        writer.write("owner", owner)
    }
}

/// Every group, in creation order.
struct KiiGroupStore {
    var groups: [KiiGroup] = []

    /// Removes a deleted user from every group; the groups they own stay.
    /// Removes `userID` from every group; answers from how many.
    @discardableResult
    mutating func removeMember(_ userID: String) -> Int {
        var removed = 0
        for index in groups.indices {
            let before = groups[index].members.count
            groups[index].members.removeAll { $0 == userID }
            removed += before - groups[index].members.count
        }
        return removed
    }
}

extension KiiApp {
    private static let groupAlphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// Creates a group (a console action): the owner is a member. Errors: 404 `USER_NOT_FOUND` for an unknown owner
    /// or member (the Lua binding raises it as misuse).
    package func createGroup(name: String, owner: String, members: [String] = []) throws(KiiError) -> KiiGroup {
        let ownerID = try storedUser(owner).userID
        var list = [ownerID]
        var listed: Set<String> = [ownerID]
        for member in members {
            let id = try storedUser(member).userID
            if listed.insert(id).inserted { list.append(id) }
        }
        var groupID = ""
        repeat {
            var bytes: [UInt8] = []
            for _ in 0..<25 { bytes.append(Self.groupAlphabet[Int(groupSecrets.next() % 36)]) }
            groupID = String(decoding: bytes, as: UTF8.self)
        } while groupStore.groups.contains { $0.groupID == groupID }
        let group = KiiGroup(groupID: groupID, name: name, owner: ownerID, members: list)
        groupStore.groups.append(group)
        consoleBytes += group.heldBytes
        return group
    }

    /// The groups `userID` belongs to, in creation order. Errors: 404 `USER_NOT_FOUND`.
    package func groupsMemberOf(userID: String) throws(KiiError) -> [KiiGroupSummary] {
        let id = try storedUser(userID).userID
        return groupStore.groups.filter { $0.members.contains(id) }.map(\.summary)
    }

    /// The groups `userID` owns, in creation order. Errors: 404 `USER_NOT_FOUND`.
    package func groupsOwnedBy(userID: String) throws(KiiError) -> [KiiGroupSummary] {
        let id = try storedUser(userID).userID
        return groupStore.groups.filter { $0.owner == id }.map(\.summary)
    }

    /// Every group, in creation order (the dashboard, the control API).
    package var allGroups: [KiiGroup] { groupStore.groups }
}

/// What the dashboard and the control API list of contract v4's Kii state.
extension KiiApp {
    /// Every topic with its ACL: app-scope topics (`owner` nil) first, then by owner, each by topic id.
    package var allTopicACLs: [(topicID: String, owner: String?, acl: KiiTopicACL)] {
        let before = { (a: String, b: String) in a.utf8.lexicographicallyPrecedes(b.utf8) }
        return topicStore.topics.keys.sorted { $0.owner == $1.owner ? before($0.topicID, $1.topicID) : before($0.owner, $1.owner) }.map { key in
            let acl = topicStore.acls[key] ?? [:]
            let sorted = { (subjects: Set<String>?) in (subjects ?? []).sorted(by: before) }
            return (key.topicID, key.owner.isEmpty ? nil : key.owner, KiiTopicACL(subscribe: sorted(acl[.subscribe]), send: sorted(acl[.send])))
        }
    }

    /// Every provider account defined, by provider then token, with the userID it is linked to (nil: none yet).
    package var allSocialAccounts: [(account: KiiSocialAccount, user: String?)] {
        socialStore.accounts.values.sorted { ($0.provider.rawValue, $0.token) < ($1.provider.rawValue, $1.token) }.map { account in
            (account, socialStore.owners[KiiSocialStore.key(account.provider, account.id)])
        }
    }
}
