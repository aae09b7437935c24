internal import Understudy

/// The Backendless REST API's own shapes of the domain's records, where they differ from how scenarios see them
/// (`Presentable`): the user with `ownerId`, `updated`, `socialAccount` and the `user-token`; the device
/// registration in the SDKs' camelCase with milliseconds.
enum BackendlessWire {
    /// The user object as the real service returns it: every stored property, never the password.
    static func user(_ user: BackendlessUser, token: String? = nil) -> JSON {
        var members: [JSON.Member] = []
        members.reserveCapacity(user.properties.count + 9)
        for property in user.properties { members.append(.init(property.name, JSON(property.value))) }
        members.append(.init("objectId", .string(user.objectID)))
        members.append(.init("ownerId", .string(user.objectID)))
        members.append(.init("userStatus", .string(user.status.rawValue)))
        members.append(.init("created", .integer(user.created)))
        members.append(.init("updated", user.updated.map(JSON.integer) ?? .null))
        if let lastLogin = user.lastLogin { members.append(.init("lastLogin", .integer(lastLogin))) }
        members.append(.init("socialAccount", .string(user.socialAccount)))
        members.append(.init("___class", "Users"))
        if let token { members.append(.init("user-token", .string(token))) }
        return .object(members)
    }

    /// Milliseconds since the epoch for a reply. A registration's expiration is a time the virtual clock can
    /// show (the backend refuses others with 5004), so its milliseconds fit an integer.
    static func milliseconds(_ seconds: Double) -> JSON {
        .integer(Int64((seconds * 1000).rounded()))
    }

    static func device(_ registration: DeviceRegistration) -> JSON {
        [
            "id": .string(registration.channels.first?.registrationID ?? ""),
            "deviceToken": .string(registration.token), "deviceId": .string(registration.deviceID),
            "os": .string(registration.os.rawValue), "osVersion": registration.osVersion.map(JSON.string) ?? .null,
            "channels": .array(registration.channels.map { .string($0.name) }),
            "expiration": registration.expiration.map(milliseconds) ?? .null,
        ]
    }
}
