/// The errors of contract version 3's Kii calls: pseudo users (`register_pseudo`, `put_identity`) and topics.
extension KiiError {
    /// 400 `INVALID_INPUT_DATA`: a pseudo registration (or `put_identity`'s `fields`) names an identifier, the
    /// password or a name only the service sets.
    package static func pseudoField(_ name: String, _ reason: String) -> KiiError {
        invalidInput(field: name, value: nil, message: "The field \(name) cannot be given here: \(reason)")
    }

    /// 409 `INVALID_STATUS`: `put_identity` for a user who already has a password (the SDKs refuse this on the
    /// client: "This user has the identity already").
    package static func identityAlreadySet(_ userID: String) -> KiiError {
        KiiError(
            status: 409, code: "INVALID_STATUS",
            message: "The user \(userID) already has an identity and a password: put_identity is for pseudo users",
            field: "userID", value: userID
        )
    }

    /// 400 `INVALID_INPUT_DATA`: a topic id that is not 1 to 64 characters of `A-Z a-z 0-9 _ -`.
    package static func invalidTopicID(_ topicID: String) -> KiiError {
        let shown = String(topicID.prefix(80))
        return invalidInput(
            field: "topicID", value: shown,
            message: "topicID \(shown) must be 1 to 64 characters from A-Z a-z 0-9 _ -"
        )
    }

    /// 409 `TOPIC_ALREADY_EXISTS`: the scope already has a topic with this id.
    package static func topicAlreadyExists(_ topicID: String) -> KiiError {
        KiiError(
            status: 409, code: "TOPIC_ALREADY_EXISTS", message: "Topic \(topicID) already exists", field: "topicID",
            value: topicID
        )
    }

    /// 404 `TOPIC_NOT_FOUND`: the scope has no topic with this id.
    package static func topicNotFound(_ topicID: String) -> KiiError {
        KiiError(
            status: 404, code: "TOPIC_NOT_FOUND", message: "Topic \(topicID) was not found", field: "topicID",
            value: topicID
        )
    }

    /// 409 `PUSH_SUBSCRIPTION_ALREADY_EXISTS`: the user already subscribes to the topic.
    package static func subscriptionAlreadyExists(topicID: String, userID: String) -> KiiError {
        KiiError(
            status: 409, code: "PUSH_SUBSCRIPTION_ALREADY_EXISTS",
            message: "The user \(userID) already subscribes to topic \(topicID)", field: "userID", value: userID
        )
    }

    /// 404 `PUSH_SUBSCRIPTION_NOT_FOUND`: the user does not subscribe to the topic.
    package static func subscriptionNotFound(topicID: String, userID: String) -> KiiError {
        KiiError(
            status: 404, code: "PUSH_SUBSCRIPTION_NOT_FOUND",
            message: "The user \(userID) does not subscribe to topic \(topicID)", field: "userID", value: userID
        )
    }

    /// 401 `UNAUTHORIZED`: a user subscribing to another user's user-scope topic.
    package static func notTopicOwner(topicID: String, userID: String) -> KiiError {
        KiiError(
            status: 401, code: "UNAUTHORIZED",
            message: "The user \(userID) may not subscribe to topic \(topicID): only its owner may", field: "userID",
            value: userID
        )
    }

    /// 400 `INVALID_INPUT_DATA` about a topic message (`data` empty, not flat strings, a reserved key, too large).
    package static func invalidPushData(field: String = "data", _ message: String) -> KiiError {
        invalidInput(field: field, value: nil, message: message)
    }

    /// 404 `GROUP_NOT_FOUND`: an ACL subject names a group that does not exist.
    package static func groupNotFound(_ groupID: String) -> KiiError {
        KiiError(status: 404, code: "GROUP_NOT_FOUND", message: "The group \(groupID) named by the subject was not found", field: "subject", value: groupID)
    }

    /// 409 `ACL_ALREADY_EXISTS`: the entry is already in the topic's ACL.
    package static func aclAlreadyExists(action: String, subject: String) -> KiiError {
        KiiError(status: 409, code: "ACL_ALREADY_EXISTS", message: "The ACL entry \(action) \(subject) already exists", field: "subject", value: subject)
    }

    /// 404 `ACL_NOT_FOUND`: the entry is not in the topic's ACL.
    package static func aclNotFound(action: String, subject: String) -> KiiError {
        KiiError(status: 404, code: "ACL_NOT_FOUND", message: "The ACL entry \(action) \(subject) was not found", field: "subject", value: subject)
    }
}
