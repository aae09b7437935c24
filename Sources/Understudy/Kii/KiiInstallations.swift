/// A push service a Kii installation registers with.
package enum KiiDeviceType: String, Sendable, CaseIterable, Hashable {
    case android = "ANDROID"
    case ios = "IOS"
    case jpush = "JPUSH"
    case mqtt = "MQTT"
}

/// A device registered for push (`POST installations`): `{ installationID, installationRegistrationID, deviceType,
/// userID, development }`.
package struct KiiInstallation: Sendable, Hashable, Presentable {
    /// 25 characters from `0-9 a-z`, chosen by the service.
    package var installationID: String
    /// The push service's registration id (FCM token, APNs device token, JPush id); generated for MQTT.
    package var installationRegistrationID: String
    package var deviceType: KiiDeviceType
    /// The owner: the last user who registered this device.
    package var userID: String
    /// True for a development (sandbox) registration.
    package var development: Bool

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("installationID", installationID)
        writer.write("installationRegistrationID", installationRegistrationID)
        writer.write("deviceType", deviceType.rawValue)
        writer.write("userID", userID)
        writer.write("development", development)
    }
}

/// Every installation of an app, by id, by `TYPE:registrationID` and by owner.
struct KiiInstallationStore {
    var byID: ShardedDictionary<String, KiiInstallation> = [:]
    var byRegistration: ShardedDictionary<String, String> = [:]
    var byOwner: [String: Set<String>] = [:]
    /// What the installations' text holds (`HeldBytes`: the id, the registration id, twice with its key, and the
    /// owner's userID each) beyond `HeldBytes.perRegistration`, kept as installations come and go: a client's
    /// 1,024-character tokens count as what they are.
    private(set) var textBytes = 0

    static func key(_ type: KiiDeviceType, _ registrationID: String) -> String { "\(type.rawValue):\(registrationID)" }

    private static func textBytes(of installation: KiiInstallation) -> Int {
        2 * HeldBytes.of(installation.installationID) + 2 * HeldBytes.of(installation.installationRegistrationID)
            + HeldBytes.of(installation.userID)
    }

    mutating func store(_ installation: KiiInstallation) {
        if let old = byID[installation.installationID] {
            textBytes -= Self.textBytes(of: old)
            if old.userID != installation.userID {
                byOwner[old.userID]?.remove(installation.installationID)
                if byOwner[old.userID]?.isEmpty == true { byOwner[old.userID] = nil }
            }
        }
        textBytes += Self.textBytes(of: installation)
        byID[installation.installationID] = installation
        byRegistration[Self.key(installation.deviceType, installation.installationRegistrationID)] = installation.installationID
        byOwner[installation.userID, default: []].insert(installation.installationID)
    }

    @discardableResult
    mutating func remove(_ id: String) -> KiiInstallation? {
        guard let installation = byID.removeValue(forKey: id) else { return nil }
        textBytes -= Self.textBytes(of: installation)
        byRegistration[Self.key(installation.deviceType, installation.installationRegistrationID)] = nil
        byOwner[installation.userID]?.remove(id)
        if byOwner[installation.userID]?.isEmpty == true { byOwner[installation.userID] = nil }
        return installation
    }

    mutating func removeAll(ownedBy userID: String) {
        for id in byOwner[userID] ?? [] { remove(id) }
    }

    func owned(by userID: String) -> [KiiInstallation] {
        (byOwner[userID] ?? []).sorted().compactMap { byID[$0] }
    }
}

/// Push installations (`POST installations`, `GET`/`DELETE installations/{id}` and
/// `installations/{deviceType}:{registrationID}`) and pushes to a user's devices.
extension KiiApp {
    /// The longest registration id taken (FCM tokens are about 160 characters, APNs tokens 64).
    package static let maxRegistrationIDLength = 1024

    /// Registers a device for push for `userID`. ANDROID, IOS and JPUSH need `token` (the push service's
    /// registration id: 1 to 1024 visible ASCII characters other than `/`); MQTT must not have one (the service
    /// makes one). Registering the same type and token again **moves** the installation to `userID` and keeps its
    /// id (never a 409); a user has at most one MQTT installation, and a repeat returns it.
    ///
    /// Errors, in this order: 404 `USER_NOT_FOUND`; 400 `INVALID_INPUT_DATA` (unknown type, missing or malformed
    /// token, a token for MQTT).
    package func registerInstallation(
        userID: String, type: String, token: String?, development: Bool = false
    ) throws(KiiError) -> KiiInstallation {
        try checkFaults(.registerInstallation, [
            .object(["user": .string(userID), "type": .string(type), "token": Value(token), "development": .bool(development)])
        ])
        let user = try storedUser(userID)
        guard let deviceType = KiiDeviceType(rawValue: type) else {
            throw .invalidInput(
                field: "deviceType", value: String(type.prefix(64)),
                message: "deviceType must be ANDROID, IOS, JPUSH or MQTT, got \(type.prefix(64))"
            )
        }
        if deviceType == .mqtt {
            if token != nil {
                throw .invalidInput(
                    field: "installationRegistrationID", value: nil,
                    message: "An MQTT installation takes no installationRegistrationID: the service makes one"
                )
            }
            if let existing = lifecycle.installations.byOwner[user.userID]?.lazy
                .compactMap({ self.lifecycle.installations.byID[$0] }).first(where: { $0.deviceType == .mqtt })
            {
                return existing
            }
            let installation = KiiInstallation(
                installationID: newInstallationID(), installationRegistrationID: newInstallationID(),
                deviceType: .mqtt, userID: user.userID, development: development
            )
            lifecycle.installations.store(installation)
            makeMqttCredentials(for: installation)
            return installation
        }
        let token = try Self.registrationID(token, for: deviceType)
        if let id = lifecycle.installations.byRegistration[KiiInstallationStore.key(deviceType, token)],
            var installation = lifecycle.installations.byID[id]
        {
            installation.userID = user.userID
            installation.development = development
            lifecycle.installations.store(installation)
            return installation
        }
        let installation = KiiInstallation(
            installationID: newInstallationID(), installationRegistrationID: token, deviceType: deviceType,
            userID: user.userID, development: development
        )
        lifecycle.installations.store(installation)
        return installation
    }

    /// The installation with this id, or nil.
    package func installation(id: String) -> KiiInstallation? {
        lifecycle.installations.byID[id]
    }

    /// The installation of this device type and registration id, or nil.
    package func installation(type: String, registrationID: String) -> KiiInstallation? {
        guard let deviceType = KiiDeviceType(rawValue: type),
            let id = lifecycle.installations.byRegistration[KiiInstallationStore.key(deviceType, registrationID)]
        else { return nil }
        return lifecycle.installations.byID[id]
    }

    /// Every installation, sorted by `installationID`.
    package var allInstallations: [KiiInstallation] {
        lifecycle.installations.byID.values.sorted { $0.installationID < $1.installationID }
    }

    /// How many installations the app holds.
    package var installationCount: Int { lifecycle.installations.byID.count }

    /// The user's installations, sorted by `installationID` (none for an unknown user).
    package func installations(userID: String) -> [KiiInstallation] {
        lifecycle.installations.owned(by: userID)
    }

    /// Removes an installation. Errors: 404 `INSTALLATION_NOT_FOUND`.
    package func unregisterInstallation(id: String) throws(KiiError) {
        guard let removed = lifecycle.installations.remove(id) else { throw .installationNotFound(id) }
        mqttInstallationRemoved(removed)
    }

    /// Pushes `message` to every installation of the user: one outbox push each. A disabled user receives nothing.
    /// An MQTT installation's push carries `payload`, `{"message","senderURI","sourceURI"}`, which the broker
    /// publishes to its connected client. Errors: 404 `USER_NOT_FOUND`.
    /// - Returns: the installation ids delivered to, sorted.
    package func sendToUser(userID: String, message: String) throws(KiiError) -> [String] {
        let user = try storedUser(userID)
        if user.isDisabled { return [] }
        let targets = lifecycle.installations.owned(by: user.userID)
        let payload = MqttPayload.json([
            "message": .text(message), "senderURI": .text("kiicloud://admins/APP_ADMIN"),
            "sourceURI": .text("kiicloud://users/\(user.userID)"),
        ])
        for installation in targets {
            var push = Outbox.Push(installationID: installation.installationID, userID: user.userID, message: message, sentAt: clock.now)
            if installation.deviceType == .mqtt { push.payload = payload }
            outbox.deliver(push)
        }
        publishMqtt(payload, to: targets)
        return targets.map(\.installationID)
    }

    /// A checked registration id: present, 1 to 1024 visible ASCII characters, no `/`.
    static func registrationID(_ token: String?, for type: KiiDeviceType) throws(KiiError) -> String {
        let field = "installationRegistrationID"
        guard let token, !token.isEmpty else {
            throw .invalidInput(field: field, value: nil, message: "\(field) is required for \(type.rawValue)")
        }
        let length = token.utf8.count
        guard length <= maxRegistrationIDLength else {
            throw .invalidInput(
                field: field, value: nil,
                message: "\(field) must be at most \(maxRegistrationIDLength) characters, got \(length)"
            )
        }
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw .invalidInput(
                field: field, value: nil, message: "\(field) must consist of visible ASCII characters other than /"
            )
        }
        return token
    }

    private static let idAlphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// 25 characters from `0-9 a-z`, unused so far.
    private func newInstallationID() -> String {
        while true {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(25)
            for _ in 0..<25 { bytes.append(Self.idAlphabet[Int(lifecycleSecrets.next() % 36)]) }
            let id = String(decoding: bytes, as: UTF8.self)
            if lifecycle.installations.byID[id] == nil { return id }
        }
    }
}
