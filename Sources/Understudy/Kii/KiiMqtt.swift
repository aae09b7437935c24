/// Where the MQTT broker listens, as `installations.mqtt_endpoint` reports it: `understudy serve`'s address, its
/// MQTT TCP port and its HTTP port (WebSocket at `/mqtt`); under `understudy run` the defaults. A port of 0 is a
/// transport that is off.
package struct MqttBrokerAddress: Sendable, Hashable {
    package var host: String
    package var portTCP: Int
    package var portWS: Int

    package init(host: String, portTCP: Int, portWS: Int) {
        self.host = host
        self.portTCP = portTCP
        self.portWS = portWS
    }

    /// `127.0.0.1`, TCP 1883, WebSocket on 8080: what `understudy serve` listens on by default.
    package static let standard = MqttBrokerAddress(host: "127.0.0.1", portTCP: 1883, portWS: 8080)
}

/// What the broker is told about an app's MQTT installations as they change: a payload to publish on a topic,
/// or a client to disconnect. Called under the owner's lock (the server's stage lock), so it must not block or
/// call back into the app.
package protocol MqttDeliveries: AnyObject, Sendable {
    /// Publishes `payload` at QoS 0 on `topic` to the client of `appID` connected with that client identifier.
    func publish(appID: String, topic: String, payload: [UInt8])
    /// Closes the connection of `appID`'s client whose client identifier is `topic`, if one is connected.
    func disconnect(appID: String, topic: String)
    /// Closes every connection (the served world was reset).
    func disconnectAll()
    /// What the broker's connections and the bytes queued to them hold, counted against `--max-memory`.
    var heldBytes: Int { get }
}

/// An MQTT installation's broker credentials (contract v4): made when the installation is registered, the same on
/// every call; remembered after the installation is removed, so the broker refuses it with code 5.
struct KiiMqttCredentials: Sendable, Hashable {
    var password: String
    var topic: String
    var userID: String
    var removed = false
}

/// The MQTT credentials of every MQTT installation, by installationID: the live ones, and the last
/// `keptRemoved` removed ones (the broker refuses those with code 5, older ones with code 4 as unknown), so
/// registering and removing MQTT installations again and again does not grow the app.
struct KiiMqttEndpointStore {
    private(set) var byInstallation: [String: KiiMqttCredentials] = [:]
    /// Removed installations in the order they were removed, from `removedStart` on.
    private var removedOrder: [String] = []
    private var removedStart = 0
    /// How many removed installations' credentials are remembered.
    static let keptRemoved = 1024

    subscript(installationID: String) -> KiiMqttCredentials? { byInstallation[installationID] }
    var keys: Dictionary<String, KiiMqttCredentials>.Keys { byInstallation.keys }
    /// What the credentials hold (`HeldBytes`: a record each), counted towards the memory cap.
    var heldBytes: Int { byInstallation.count * HeldBytes.perRecord }

    /// Keeps an installation's credentials (a new installation's, or an imported one's).
    mutating func add(_ installationID: String, _ credentials: KiiMqttCredentials) {
        byInstallation[installationID] = credentials
        if credentials.removed { noteRemoved(installationID) }
    }

    /// Marks an installation's credentials removed; answers them (nil for an installation that has none).
    mutating func markRemoved(_ installationID: String) -> KiiMqttCredentials? {
        guard var credentials = byInstallation[installationID] else { return nil }
        guard !credentials.removed else { return credentials }
        credentials.removed = true
        byInstallation[installationID] = credentials
        noteRemoved(installationID)
        return credentials
    }

    private mutating func noteRemoved(_ installationID: String) {
        removedOrder.append(installationID)
        guard removedOrder.count - removedStart > Self.keptRemoved else { return }
        let oldest = removedOrder[removedStart]
        if byInstallation[oldest]?.removed == true { byInstallation[oldest] = nil }
        removedStart += 1
        if removedStart >= Self.keptRemoved {
            removedOrder.removeFirst(removedStart)
            removedStart = 0
        }
    }
}

/// What `installations.mqtt_endpoint` answers: `{ installationID, username, password, mqttTopic, host, portTCP,
/// portSSL, portWS, portWSS, X-MQTT-TTL }`.
package struct KiiMqttEndpoint: Sendable, Hashable, Presentable {
    package var installationID: String
    /// `{appID}/{installationID}`.
    package var username: String
    /// 32 letters and digits from the seeded generator.
    package var password: String
    /// 32 letters and digits: the topic to subscribe to, and the client identifier to connect with.
    package var mqttTopic: String
    package var host: String
    package var portTCP: Int
    package var portWS: Int
    /// No TLS is offered: always 0.
    package var portSSL: Int { 0 }
    package var portWSS: Int { 0 }
    /// Seconds the topic stays valid: it never expires.
    package static let ttl = 2_147_483_647

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("installationID", installationID)
        writer.write("username", username)
        writer.write("password", password)
        writer.write("mqttTopic", mqttTopic)
        writer.write("host", host)
        writer.write("portTCP", Int64(portTCP))
        writer.write("portSSL", Int64(portSSL))
        writer.write("portWS", Int64(portWS))
        writer.write("portWSS", Int64(portWSS))
        writer.write("X-MQTT-TTL", Int64(Self.ttl))
    }
}

/// The broker's answer to a CONNECT (MQTT 3.1.1 CONNACK return codes).
package enum MqttConnectAnswer: Sendable, Hashable {
    /// 0: accepted; the client is the installation whose topic is `topic`.
    case accepted(topic: String)
    /// 2: the client identifier is not the endpoint's `mqttTopic`.
    case identifierRejected
    /// 4: the username or password is not an endpoint's.
    case badCredentials
    /// 5: the installation was removed, or its user deleted or disabled.
    case notAuthorized

    /// The CONNACK return code.
    package var returnCode: UInt8 {
        switch self {
        case .accepted: return 0
        case .identifierRejected: return 2
        case .badCredentials: return 4
        case .notAuthorized: return 5
        }
    }
}

extension KiiApp {
    /// The largest MQTT payload (bytes of JSON), meta keys included.
    package static let maxMqttPayloadBytes = 4096

    private static let mqttAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// 32 letters and digits from the MQTT generator.
    private func newMqttSecret() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<32 { bytes.append(Self.mqttAlphabet[Int(mqttSecrets.next() % 62)]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Makes the credentials of a new MQTT installation.
    func makeMqttCredentials(for installation: KiiInstallation) {
        let password = newMqttSecret()
        let topic = newMqttSecret()
        mqttEndpoints.add(installation.installationID, KiiMqttCredentials(password: password, topic: topic, userID: installation.userID))
    }

    /// Marks an MQTT installation's endpoint removed and closes its connection.
    func mqttInstallationRemoved(_ installation: KiiInstallation) {
        guard installation.deviceType == .mqtt, let credentials = mqttEndpoints.markRemoved(installation.installationID) else { return }
        mqttDeliveries?.disconnect(appID: appID, topic: credentials.topic)
    }

    /// Closes the connections of every MQTT installation of `userID` (a disabled user's).
    func disconnectMqtt(ofUser userID: String) {
        for installation in lifecycle.installations.owned(by: userID) where installation.deviceType == .mqtt {
            if let credentials = mqttEndpoints[installation.installationID] {
                mqttDeliveries?.disconnect(appID: appID, topic: credentials.topic)
            }
        }
    }

    /// The MQTT endpoint of an installation: the same values on every call until the installation is removed.
    /// Errors, in this order: 404 `INSTALLATION_NOT_FOUND`; 404 `MQTT_ENDPOINT_NOT_FOUND` (not MQTT).
    package func mqttEndpoint(installationID: String) throws(KiiError) -> KiiMqttEndpoint {
        guard let installation = lifecycle.installations.byID[installationID] else {
            throw .installationNotFound(installationID)
        }
        guard installation.deviceType == .mqtt, let credentials = mqttEndpoints[installationID] else {
            throw .mqttEndpointNotFound(installationID)
        }
        return KiiMqttEndpoint(
            installationID: installationID, username: "\(appID)/\(installationID)", password: credentials.password,
            mqttTopic: credentials.topic, host: mqttBroker.host, portTCP: mqttBroker.portTCP, portWS: mqttBroker.portWS
        )
    }

    /// How the broker answers a CONNECT whose username names one of this app's installations
    /// (`{appID}/{installationID}`): checks, in order, username and password (4), installation removed or user
    /// deleted or disabled (5), client identifier (2).
    package func mqttConnect(installationID: String, password: String?, clientID: String) -> MqttConnectAnswer {
        guard let credentials = mqttEndpoints[installationID], let password,
            Self.constantTimeEqual(password, credentials.password)
        else { return .badCredentials }
        if credentials.removed { return .notAuthorized }
        guard let id = Identifier128(parsing: credentials.userID), let user = users[id], !user.isDisabled else {
            return .notAuthorized
        }
        guard clientID == credentials.topic else { return .identifierRejected }
        return .accepted(topic: credentials.topic)
    }

    private static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Publishes a payload to the MQTT installations among `targets`.
    func publishMqtt(_ payload: String, to targets: [KiiInstallation]) {
        guard let mqttDeliveries else { return }
        let bytes = Array(payload.utf8)
        for installation in targets where installation.deviceType == .mqtt {
            if let credentials = mqttEndpoints[installation.installationID], !credentials.removed {
                mqttDeliveries.publish(appID: appID, topic: credentials.topic, payload: bytes)
            }
        }
    }
}

/// The compact JSON of an MQTT payload: one object, keys in byte order, raw UTF-8, escaping only `"`, `\` and
/// control characters.
package enum MqttPayload {
    /// A value of a payload key: text or a whole number.
    package enum Field: Sendable, Hashable {
        case text(String)
        case number(Int64)
    }

    /// The JSON of `fields` (later duplicates of a key replace earlier ones), keys in byte order.
    package static func json(_ fields: [String: Field]) -> String {
        var out = "{"
        var first = true
        for key in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            if !first { out += "," }
            first = false
            quote(key, into: &out)
            out += ":"
            switch fields[key]! {
            case .text(let text): quote(text, into: &out)
            case .number(let number): out += String(number)
            }
        }
        return out + "}"
    }

    private static let hex = Array("0123456789abcdef")

    static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                out += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 15)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
