internal import NIOCore
internal import Synchronization
internal import Understudy

/// One client's connection to the broker, over TCP or WebSocket, confined to its channel's event loop. It reads
/// packets (`MQTTPacketReader`), answers them, delivers publications, and cuts the client off, without touching
/// any other connection, when it misbehaves: a packet it does not finish or a CONNECT that does not come within
/// `handshakeSeconds`, a remaining length over `maxPacketBytes`, more than `maxPacketsPerSecond` packets, more than
/// `maxQueuedBytes` written and not taken (a slow reader), silence past 1.5 × its keep-alive, a PUBLISH.
final class MQTTConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum Transport {
        case tcp
        /// The first bytes of an HTTP connection: `GET /mqtt` upgrades, anything else passes on.
        case sniffingHTTP((ChannelPipeline.SynchronousOperations) -> Void)
        case webSocket
    }

    private enum Phase {
        case awaitingConnect
        case authenticating
        case connected(appID: String, topic: String)
        case closed
    }

    private let broker: MQTTBroker
    private var transport: Transport
    private var phase = Phase.awaitingConnect
    private var context: ChannelHandlerContext?
    private var reader: MQTTPacketReader
    private var frames: WebSocketFrameReader
    private var httpHead: [UInt8] = []
    /// Packets that arrived while the CONNECT was being checked.
    private var waiting: [MQTTPacket] = []
    private var subscribed = false
    private var keepAlive: UInt16 = 0
    private var counted = false
    private var openedAt = NIODeadline.now()
    private var lastRead = NIODeadline.now()
    private var partialSince: NIODeadline?
    private var windowStart = NIODeadline.now()
    private var packetsInWindow = 0
    private var queued = 0
    private var timer: RepeatedTask?

    init(broker: MQTTBroker, transport: Transport) {
        self.broker = broker
        self.transport = transport
        reader = MQTTPacketReader(maxPacketBytes: broker.limits.maxPacketBytes)
        frames = WebSocketFrameReader(maxFrameBytes: broker.limits.maxPacketBytes + 8)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if case .tcp = transport { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
        self.context = nil
    }

    /// Counts the connection and starts its clock (at once over TCP; after the upgrade over WebSocket).
    private func start(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        broker.opened()
        openedAt = .now()
        lastRead = openedAt
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in bound.value.tick() }
    }

    private func finish() {
        timer?.cancel()
        timer = nil
        if case .connected(let appID, let topic) = phase { broker.unregister(appID: appID, topic: topic, ObjectIdentifier(self)) }
        phase = .closed
        if counted {
            counted = false
            broker.closed()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .sniffingHTTP = transport {
            context.fireUserInboundEventTriggered(event)
        } else if event is ChannelShouldQuiesceEvent {
            close(because: "the server is stopping")
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .sniffingHTTP = transport {
            context.fireErrorCaught(error)
        } else {
            close(because: "\(error)")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        switch transport {
        case .sniffingHTTP(let upgraded): sniff(context, buffer, upgraded)
        case .tcp:
            guard !isClosed else { return }
            lastRead = .now()
            reader.append(buffer.readableBytesView)
            readPackets()
        case .webSocket:
            guard !isClosed else { return }
            lastRead = .now()
            frames.append(buffer.readableBytesView)
            readFrames()
        }
    }

    private var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    // MARK: HTTP upgrade

    private static let upgradePrefix = Array("GET /mqtt".utf8)
    private static let maxHeadBytes = 8192

    private func sniff(_ context: ChannelHandlerContext, _ buffer: ByteBuffer, _ upgraded: (ChannelPipeline.SynchronousOperations) -> Void) {
        httpHead.append(contentsOf: buffer.readableBytesView)
        let prefix = Self.upgradePrefix
        if httpHead.count <= prefix.count {
            if Array(prefix.prefix(httpHead.count)) == httpHead { return }  // too early to tell
            return passThrough(context)
        }
        guard Array(httpHead.prefix(prefix.count)) == prefix,
            httpHead[prefix.count] == UInt8(ascii: " ") || httpHead[prefix.count] == UInt8(ascii: "?")
        else { return passThrough(context) }
        guard let end = Self.headEnd(httpHead) else {
            if httpHead.count > Self.maxHeadBytes { refuse(context, "431 Request Header Fields Too Large", "the upgrade request's head is too large") }
            return
        }
        let head = String(decoding: httpHead[..<end], as: UTF8.self)
        let rest = Array(httpHead[(end + 4)...])
        httpHead = []
        switch WebSocketHandshake.answer(head: head) {
        case .refuse(let status, let reason): refuse(context, status, reason)
        case .upgrade(let response):
            transport = .webSocket
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Array(response.utf8))), promise: nil)
            upgraded(context.pipeline.syncOperations)
            start(context)
            frames.append(rest)
            readFrames()
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func passThrough(_ context: ChannelHandlerContext) {
        let bytes = httpHead
        httpHead = []
        context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: bytes)))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ context: ChannelHandlerContext, _ status: String, _ reason: String) {
        let body = reason + "\n"
        let text = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        transport = .webSocket
        phase = .closed
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Array(text.utf8)))).whenComplete { _ in
            context.close(promise: nil)
        }
    }

    // MARK: Reading

    private func readFrames() {
        do {
            while let event = try frames.next() {
                switch event {
                case .data(let bytes): reader.append(bytes)
                case .ping(let payload): write(WebSocketFrameReader.frame(opcode: 10, payload), framed: true)
                case .close:
                    write(WebSocketFrameReader.frame(opcode: 8, []), framed: true)
                    return close(because: "the client closed the WebSocket")
                }
            }
        } catch {
            return close(because: error.description)
        }
        readPackets()
    }

    private func readPackets() {
        do {
            while !isClosed, let packet = try reader.next() {
                let now = NIODeadline.now()
                if now - windowStart > .seconds(1) {
                    windowStart = now
                    packetsInWindow = 0
                }
                packetsInWindow += 1
                if packetsInWindow > broker.limits.maxPacketsPerSecond {
                    return close(because: "more than \(broker.limits.maxPacketsPerSecond) packets in a second")
                }
                handle(packet)
            }
        } catch {
            return close(because: error.description)
        }
        let pending = reader.pendingBytes + frames.pendingBytes
        if pending == 0 {
            partialSince = nil
        } else if partialSince == nil {
            partialSince = .now()
        }
    }

    private func handle(_ packet: MQTTPacket) {
        switch phase {
        case .closed: return
        case .authenticating:
            waiting.append(packet)
            return
        case .awaitingConnect:
            guard case .connect(let connect) = packet else { return close(because: "the first packet must be CONNECT") }
            return authenticate(connect)
        case .connected(_, let topic):
            switch packet {
            case .connect: close(because: "a second CONNECT")
            case .subscribe(let packetID, let filters):
                let codes: [UInt8] = filters.map { $0.filter == topic ? 0x00 : 0x80 }
                if codes.contains(0) { subscribed = true }
                write(MQTTWriter.suback(packetID: packetID, codes: codes))
            case .unsubscribe(let packetID, let filters):
                if filters.contains(topic) { subscribed = false }
                write(MQTTWriter.unsuback(packetID: packetID))
            case .pingRequest: write(MQTTWriter.pingResponse)
            case .disconnect: close(because: "DISCONNECT")
            case .unexpected(let type):
                close(because: type == 3 ? "a PUBLISH from the client (Kii's API over MQTT is out of scope)" : "a packet of type \(type) from the client")
            }
        }
    }

    private func authenticate(_ connect: MQTTConnect) {
        let versionOK = (connect.protocolName == "MQTT" && connect.protocolLevel == 4)
            || (connect.protocolName == "MQIsdp" && connect.protocolLevel == 3)
        guard versionOK else {
            write(MQTTWriter.connack(1))
            return close(because: "protocol \(connect.protocolName) level \(connect.protocolLevel)")
        }
        keepAlive = connect.keepAlive
        phase = .authenticating
        guard let context else { return }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        broker.authority.connect(
            username: connect.username, password: connect.password, clientID: connect.clientID,
            extraBytes: broker.limits.bytesPerConnection
        ) { answer, appID in
            bound.eventLoop.execute { bound.value.connected(answer, appID: appID) }
        }
    }

    private func connected(_ answer: MqttConnectAnswer?, appID: String) {
        guard case .authenticating = phase, let context else { return }
        guard let answer else {
            write(MQTTWriter.connack(3))
            return close(because: "the memory cap leaves no room for another connection")
        }
        guard case .accepted(let topic) = answer else {
            write(MQTTWriter.connack(answer.returnCode))
            return close(because: "CONNACK \(answer.returnCode)")
        }
        phase = .connected(appID: appID, topic: topic)
        if let previous = broker.register(appID: appID, topic: topic, id: ObjectIdentifier(self), NIOLoopBound(self, eventLoop: context.eventLoop)) {
            previous.eventLoop.execute { previous.value.close(because: "another connection took over its client identifier") }
        }
        write(MQTTWriter.connack(0))
        let packets = waiting
        waiting = []
        for packet in packets { handle(packet) }
    }

    // MARK: Writing

    /// Publishes a push to the client if it subscribed to its topic.
    func deliver(topic: String, payload: [UInt8]) {
        guard case .connected(_, let connectedTopic) = phase, connectedTopic == topic, subscribed else { return }
        write(MQTTWriter.publish(topic: topic, payload: payload))
    }

    private func write(_ packet: [UInt8], framed: Bool = false) {
        guard let context else { return }
        var bytes = packet
        if case .webSocket = transport, !framed { bytes = WebSocketFrameReader.frame(opcode: 2, packet) }
        let count = bytes.count
        queued += count
        broker.queuedBytes.add(count, ordering: .relaxed)
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let broker = self.broker
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes))).whenComplete { _ in
            broker.queuedBytes.subtract(count, ordering: .relaxed)
            bound.value.queued -= count
        }
        if queued > broker.limits.maxQueuedBytes {
            close(because: "a slow reader: \(queued) bytes written and not taken")
        }
    }

    /// Closes the connection (once).
    func close(because reason: String) {
        guard let context else { return }
        if case .connected(let appID, let topic) = phase { broker.unregister(appID: appID, topic: topic, ObjectIdentifier(self)) }
        phase = .closed
        context.close(promise: nil)
    }

    private func tick() {
        guard !isClosed else { return }
        let now = NIODeadline.now()
        let grace = TimeAmount.nanoseconds(Int64(broker.limits.handshakeSeconds * 1e9))
        switch phase {
        case .awaitingConnect, .authenticating:
            if now - openedAt > grace { return close(because: "no CONNECT within \(broker.limits.handshakeSeconds) s") }
        case .connected:
            if keepAlive > 0, now - lastRead > .milliseconds(Int64(keepAlive) * 1500) {
                return close(because: "silent for 1.5 × its keep-alive")
            }
        case .closed: return
        }
        if let partialSince, now - partialSince > grace { close(because: "a packet left unfinished") }
    }
}
