package import NIOCore
internal import NIOPosix
internal import Synchronization
package import Understudy

/// Decides CONNECTs against the served world: what `understudy serve` gives the broker. `connect` may run on
/// any thread; it calls `answer` once, from any thread.
package protocol MQTTAuthority: Sendable {
    /// Checks `username` (`{appID}/{installationID}`), `password` and `clientID`, and whether the memory cap leaves
    /// room for one more connection (`extraBytes`); answers the CONNACK and, when accepted, the app.
    func connect(
        username: String?, password: String?, clientID: String, extraBytes: Int,
        answer: @escaping @Sendable (_ answer: MqttConnectAnswer?, _ appID: String) -> Void
    )
}

/// The limits a connection lives within.
package struct MQTTLimits: Sendable {
    /// The largest packet a client may send.
    package var maxPacketBytes = 16 * 1024
    /// What a connection's bookkeeping is counted as against `--max-memory`.
    package var bytesPerConnection = 16 * 1024
    /// Bytes written to a client and not yet taken by it: past this the client is a slow reader and is cut off.
    package var maxQueuedBytes = 256 * 1024
    /// Packets a client may send within one second; more is a flood and the client is cut off.
    package var maxPacketsPerSecond = 200
    /// Seconds a client has to complete its CONNECT, and to finish any packet it started.
    package var handshakeSeconds = 10.0

    package init() {}
}

/// The MQTT broker of `understudy serve` (contract v4): clients connect with an MQTT installation's endpoint
/// credentials, over TCP or WebSocket (`/mqtt` on the HTTP port), subscribe to their `mqttTopic` and receive, at
/// QoS 0, every push that reaches their installation. It keeps the connected clients by app and client
/// identifier (a second connection with the same identifier takes over the first) and counts what they hold.
package final class MQTTBroker: MqttDeliveries, Sendable {
    package let limits: MQTTLimits
    let authority: any MQTTAuthority
    private struct Client {
        var id: ObjectIdentifier
        var handler: NIOLoopBound<MQTTConnectionHandler>
    }
    private struct Registry {
        var clients: [String: Client] = [:]
        var connections = 0
    }
    private let registry = Mutex(Registry())
    /// Bytes written to clients and not yet flushed to their sockets, over all connections.
    let queuedBytes = Atomic<Int>(0)

    package init(authority: any MQTTAuthority, limits: MQTTLimits = MQTTLimits()) {
        self.authority = authority
        self.limits = limits
    }

    private static func key(_ appID: String, _ topic: String) -> String { appID + "\u{0}" + topic }

    /// Open connections (connected or not yet) and bytes queued to clients, as `--max-memory` counts them.
    package var heldBytes: Int {
        registry.withLock { $0.connections } * limits.bytesPerConnection + queuedBytes.load(ordering: .relaxed)
    }

    /// How many connections are open.
    package var connectionCount: Int { registry.withLock { $0.connections } }

    /// The client identifiers connected, by app (the dashboard, the control API).
    package var connectedClients: [(appID: String, topic: String)] {
        registry.withLock { registry in
            registry.clients.keys.sorted().map { key in
                let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
        }
    }

    func opened() { registry.withLock { $0.connections += 1 } }
    func closed() { registry.withLock { $0.connections -= 1 } }

    /// Registers an accepted client; returns the connection it takes over, if any.
    func register(
        appID: String, topic: String, id: ObjectIdentifier, _ handler: NIOLoopBound<MQTTConnectionHandler>
    ) -> NIOLoopBound<MQTTConnectionHandler>? {
        registry.withLock { $0.clients.updateValue(Client(id: id, handler: handler), forKey: Self.key(appID, topic))?.handler }
    }

    /// Forgets a client unless another connection took its place.
    func unregister(appID: String, topic: String, _ id: ObjectIdentifier) {
        registry.withLock { registry in
            let key = Self.key(appID, topic)
            if let current = registry.clients[key], current.id == id { registry.clients[key] = nil }
        }
    }

    private func client(_ appID: String, _ topic: String) -> NIOLoopBound<MQTTConnectionHandler>? {
        registry.withLock { $0.clients[Self.key(appID, topic)]?.handler }
    }

    package func publish(appID: String, topic: String, payload: [UInt8]) {
        guard let client = client(appID, topic) else { return }  // QoS 0: nothing is kept for an absent client
        client.eventLoop.execute { client.value.deliver(topic: topic, payload: payload) }
    }

    package func disconnect(appID: String, topic: String) {
        guard let client = client(appID, topic) else { return }
        client.eventLoop.execute { client.value.close(because: "its installation was removed or its user disabled") }
    }

    /// Closes every client (a reset of the served world).
    package func disconnectAll() {
        let clients = registry.withLock { $0.clients.values.map(\.handler) }
        for client in clients { client.eventLoop.execute { client.value.close(because: "the server was reset") } }
    }

    // MARK: Listening

    /// Listens for MQTT over TCP on `host:port` (0: any free port); returns the channel (its `localAddress` says
    /// the port).
    package func listen(host: String, port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(MQTTConnectionHandler(broker: self, transport: .tcp))
                }
            }
            .bind(host: host, port: port).get()
    }

    /// The handler that `understudy serve` puts first on every HTTP connection: a `GET /mqtt` WebSocket upgrade
    /// becomes an MQTT connection (`upgraded` runs then, to take the HTTP handlers' timers off the channel);
    /// anything else passes on to HTTP untouched and the handler leaves the pipeline.
    package func webSocketHandler(upgraded: @escaping (ChannelPipeline.SynchronousOperations) -> Void) -> some ChannelInboundHandler & RemovableChannelHandler {
        MQTTConnectionHandler(broker: self, transport: .sniffingHTTP(upgraded))
    }
}
