#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua
import UnderstudyMQTT

/// Accepts `app/{topic}` with password `pw` and client identifier `{topic}`: a broker without a served world.
private struct AcceptingAuthority: MQTTAuthority {
    func connect(
        username: String?, password: String?, clientID: String, extraBytes: Int,
        answer: @escaping @Sendable (MqttConnectAnswer?, String) -> Void
    ) {
        guard username == "app/\(clientID)", password == "pw" else { return answer(.badCredentials, "app") }
        answer(.accepted(topic: clientID), "app")
    }
}

/// A hand-made MQTT 3.1.1 client over a raw socket: it can behave, or send what a misbehaving client sends.
private final class RawMQTTClient: @unchecked Sendable {
    let socket: RawConnection

    init?(port: Int, receiveBuffer: Int32? = nil) {
        guard let socket = RawConnection(port: port, receiveBuffer: receiveBuffer) else { return nil }
        self.socket = socket
    }

    static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }

    static func packet(_ first: UInt8, _ body: [UInt8]) -> [UInt8] {
        var header = [first]
        var length = body.count
        repeat {
            var byte = UInt8(length % 128)
            length /= 128
            if length > 0 { byte |= 0x80 }
            header.append(byte)
        } while length > 0
        return header + body
    }

    static func connect(_ topic: String, password: String = "pw") -> [UInt8] {
        packet(0x10, string("MQTT") + [4, 0xC2, 0, 60] + string(topic) + string("app/\(topic)") + string(password))
    }

    static func subscribe(_ topic: String, id: UInt16 = 1) -> [UInt8] {
        packet(0x82, [UInt8(id >> 8), UInt8(id & 0xFF)] + string(topic) + [0])
    }

    func send(_ bytes: [UInt8]) { socket.send(bytes) }

    /// Connects and subscribes to its topic: true when CONNACK 0 and SUBACK 0 came.
    func behave(_ topic: String) async -> Bool {
        send(Self.connect(topic) + Self.subscribe(topic))
        let answer = await socket.bytes(9, within: 5_000)
        return answer == [0x20, 2, 0, 0, 0x90, 3, 0, 1, 0]
    }
}

/// A misbehaving MQTT client (a packet left half-sent, a huge remaining length, a SUBSCRIBE flood, a reader that never
/// reads) is cut off alone: a well-behaved client on the same broker keeps receiving. Connections and bytes queued to
/// clients count against `--max-memory`.
@Suite("MQTT broker containment: a misbehaving client is cut off alone; connections and queued bytes count against --max-memory")
struct MQTTContainmentTests {
    /// A broker with tight limits, listening on a free loopback port; `body` gets it and its port.
    private func withBroker(
        _ adjust: (inout MQTTLimits) -> Void = { _ in }, _ body: (MQTTBroker, Int) async throws -> Void
    ) async throws {
        var limits = MQTTLimits()
        limits.handshakeSeconds = 1
        limits.maxPacketsPerSecond = 50
        adjust(&limits)
        let broker = MQTTBroker(authority: AcceptingAuthority(), limits: limits)
        let channel = try await broker.listen(host: "127.0.0.1", port: 0)
        let port = try #require(channel.localAddress?.port)
        do {
            try await body(broker, port)
        } catch {
            try? await channel.close()
            throw error
        }
        try? await channel.close()
    }

    /// The good client receives a message published to it after the bad one was cut off.
    private func stillReceives(_ broker: MQTTBroker, _ good: RawMQTTClient, _ topic: String) async -> Bool {
        broker.publish(appID: "app", topic: topic, payload: Array("{\"still\":true}".utf8))
        let bytes = await good.socket.bytes(2 + 2 + topic.utf8.count + 14, within: 5_000)
        return bytes.first == 0x30 && String(decoding: bytes.suffix(14), as: UTF8.self) == "{\"still\":true}"
    }

    @Test("a packet left half-sent (a CONNECT, then a SUBSCRIBE after it) is cut off after the grace; the others go on")
    func halfSentPacket() async throws {
        try await withBroker { broker, port in
            let good = try #require(RawMQTTClient(port: port))
            #expect(await good.behave("good"))
            let stalled = try #require(RawMQTTClient(port: port))
            stalled.send(Array(RawMQTTClient.connect("stalled").prefix(7)))
            #expect(await stalled.socket.closedByServer(within: 8_000), "a half-sent CONNECT is cut off")
            let midway = try #require(RawMQTTClient(port: port))
            #expect(await midway.behave("midway"))
            midway.send(Array(RawMQTTClient.subscribe("midway", id: 2).prefix(4)))
            #expect(await midway.socket.closedByServer(within: 8_000), "a half-sent SUBSCRIBE is cut off")
            #expect(await stillReceives(broker, good, "good"))
        }
    }

    @Test("a huge remaining length is refused as soon as it is read, without waiting for the bytes")
    func hugeRemainingLength() async throws {
        try await withBroker { broker, port in
            let good = try #require(RawMQTTClient(port: port))
            #expect(await good.behave("good"))
            let huge = try #require(RawMQTTClient(port: port))
            huge.send([0x10, 0xFF, 0xFF, 0xFF, 0x7F])  // 268,435,455 bytes announced
            #expect(await huge.socket.closedByServer(within: 500))
            let connected = try #require(RawMQTTClient(port: port))
            #expect(await connected.behave("connected"))
            connected.send([0x82, 0x80, 0x80, 0x08])  // a SUBSCRIBE of 131,072 bytes: over the 16 KiB limit
            #expect(await connected.socket.closedByServer(within: 500))
            #expect(await stillReceives(broker, good, "good"))
        }
    }

    @Test("a flood of SUBSCRIBEs is cut off; the others go on")
    func subscribeFlood() async throws {
        try await withBroker { broker, port in
            let good = try #require(RawMQTTClient(port: port))
            #expect(await good.behave("good"))
            let flood = try #require(RawMQTTClient(port: port))
            #expect(await flood.behave("flood"))
            var packets: [UInt8] = []
            for id in 2..<400 { packets += RawMQTTClient.subscribe("flood", id: UInt16(id)) }
            flood.send(packets)
            #expect(await flood.socket.closedByServer(within: 3_000, draining: true), "the flood is cut off")
            #expect(!broker.connectedClients.contains { $0.topic == "flood" })
            #expect(await stillReceives(broker, good, "good"))
        }
    }

    @Test("a reader that never reads is cut off once its queued bytes pass the limit; they counted against the memory")
    func slowReader() async throws {
        try await withBroker({ $0.maxQueuedBytes = 64 * 1024 }) { broker, port in
            let good = try #require(RawMQTTClient(port: port))
            #expect(await good.behave("good"))
            let slow = try #require(RawMQTTClient(port: port, receiveBuffer: 4096))
            #expect(await slow.behave("slow"))
            let idle = broker.heldBytes
            #expect(idle == 2 * broker.limits.bytesPerConnection, "each open connection counts \(broker.limits.bytesPerConnection) bytes")
            let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 4000)
            var most = 0
            for _ in 0..<5_000 where broker.connectedClients.contains(where: { $0.topic == "slow" }) {
                broker.publish(appID: "app", topic: "slow", payload: payload)
                // Wait until every event loop has run what was queued to it (the delivery above): then heldBytes
                // shows this publish, however loaded the machine (a sleep would let many pile up between samples).
                for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() { try await loop.submit {}.get() }
                most = max(most, broker.heldBytes)
            }
            #expect(!broker.connectedClients.contains { $0.topic == "slow" }, "the slow reader is cut off")
            #expect(most > idle + 16 * 1024, "bytes queued to the slow reader counted in heldBytes (at most \(most))")
            #expect(await stillReceives(broker, good, "good"))
        }
    }

    @Test("under serve, MQTT connections count in the world's memory; past --max-memory a CONNECT gets CONNACK 3, the others go on")
    func connectionsCountAgainstMaxMemory() async throws {
        // Real endpoints: three users, each with an MQTT installation.
        typealias Endpoint = (username: String, password: String, topic: String)
        @Sendable func prepare(_ server: UnderstudyServer) throws -> (endpoints: [Endpoint], bytes: Int) {
            try server.withStage { stage in
                let app = try #require(stage.world.kii(id: DefaultApps.kiiAppID))
                let endpoints: [Endpoint] = try (1...3).map { n in
                    let user = try app.register(username: "mqtt\(n)", password: "123ABC")
                    let installation = try app.registerInstallation(userID: user.userID, type: "MQTT", token: nil)
                    let endpoint = try app.mqttEndpoint(installationID: installation.installationID)
                    return (endpoint.username, endpoint.password, endpoint.mqttTopic)
                }
                return (endpoints, stage.world.appBytes)
            }
        }
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.limits.maxMemory = 1 << 20  // --max-memory 1, the least the command line takes
        try await withLiveServer(options) { server, _ in
            let channel = try await server.broker.listen(host: "127.0.0.1", port: 0)
            defer { channel.close(promise: nil) }
            let port = try #require(channel.localAddress?.port)
            let endpoints = try prepare(server).endpoints
            func connect(_ endpoint: Endpoint) async throws -> (RawConnection, [UInt8]) {
                let socket = try #require(RawConnection(port: port))
                socket.send(
                    RawMQTTClient.packet(
                        0x10, RawMQTTClient.string("MQTT") + [4, 0xC2, 0, 60] + RawMQTTClient.string(endpoint.topic)
                            + RawMQTTClient.string(endpoint.username) + RawMQTTClient.string(endpoint.password)
                    )
                )
                return (socket, await socket.bytes(4, within: 5_000))
            }
            let before = server.withStage { $0.world.appBytes }
            let (first, firstAnswer) = try await connect(endpoints[0])
            #expect(firstAnswer == [0x20, 2, 0, 0])
            #expect(server.withStage { $0.world.appBytes } >= before + 16 * 1024, "the connection counts in the world's memory")
            // Connections that say nothing count too: enough of them to pass the cap.
            let room = (1 << 20) - server.withStage { $0.world.appBytes }
            let idle = try (0...(room / (16 * 1024))).map { _ in try #require(RawConnection(port: port)) }
            // Up to 20 s for the server to accept them all (it stops waiting as soon as they count), for a loaded machine.
            for _ in 0..<2_000 where server.withStage({ $0.world.appBytes }) <= 1 << 20 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.withStage { $0.world.appBytes } > 1 << 20, "\(idle.count) open connections hold more than the cap")
            let (refused, refusedAnswer) = try await connect(endpoints[1])
            #expect(refusedAnswer == [0x20, 2, 0, 3], "past --max-memory: CONNACK 3 (server unavailable)")
            #expect(await refused.closedByServer(within: 2_000))
            first.send(RawMQTTClient.subscribe(endpoints[0].topic))
            #expect(await first.bytes(5, within: 5_000) == [0x90, 3, 0, 1, 0], "the first client goes on")
        }
    }
}
