/// MQTT 3.1.1 control packets, as much of them as a subscribe-only broker needs: what a client sends (CONNECT,
/// SUBSCRIBE, UNSUBSCRIBE, PINGREQ, DISCONNECT; a PUBLISH is recognised so that the broker can close the
/// connection) and what the broker sends (CONNACK, SUBACK, UNSUBACK, PINGRESP, PUBLISH at QoS 0). Pure: bytes in,
/// values out, no I/O.
enum MQTTPacket: Equatable {
    case connect(MQTTConnect)
    case subscribe(packetID: UInt16, filters: [(filter: String, qos: UInt8)])
    case unsubscribe(packetID: UInt16, filters: [String])
    case pingRequest
    case disconnect
    /// A PUBLISH, PUBACK or any other packet a client may not send to this broker (its type number).
    case unexpected(UInt8)

    static func == (lhs: MQTTPacket, rhs: MQTTPacket) -> Bool {
        switch (lhs, rhs) {
        case (.connect(let a), .connect(let b)): return a == b
        case (.subscribe(let a, let x), .subscribe(let b, let y)):
            return a == b && x.map(\.filter) == y.map(\.filter) && x.map(\.qos) == y.map(\.qos)
        case (.unsubscribe(let a, let x), .unsubscribe(let b, let y)): return a == b && x == y
        case (.pingRequest, .pingRequest), (.disconnect, .disconnect): return true
        case (.unexpected(let a), .unexpected(let b)): return a == b
        default: return false
        }
    }
}

/// A CONNECT's fields.
struct MQTTConnect: Equatable {
    /// `MQTT` (3.1.1) or `MQIsdp` (3.1).
    var protocolName: String
    /// 4 for 3.1.1, 3 for 3.1.
    var protocolLevel: UInt8
    var keepAlive: UInt16
    var clientID: String
    var username: String?
    var password: String?
    var cleanSession: Bool
}

/// Why a client's bytes are not MQTT this broker accepts: the connection is closed.
struct MQTTProtocolError: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads packets out of a growing byte buffer. Refuses a remaining length over `maxPacketBytes` as soon as its
/// header is read, so a client announcing a huge packet is cut off before it sends it.
struct MQTTPacketReader {
    /// The largest packet a client may send (CONNECT, SUBSCRIBE: small).
    var maxPacketBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0

    init(maxPacketBytes: Int) { self.maxPacketBytes = maxPacketBytes }

    /// Bytes received but not yet a whole packet.
    var pendingBytes: Int { buffer.count - start }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole packet, nil while one is incomplete.
    mutating func next() throws(MQTTProtocolError) -> MQTTPacket? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        var length = 0, multiplier = 1, index = start + 1
        while true {
            guard index < buffer.count else { return nil }
            let byte = buffer[index]
            length += Int(byte & 0x7F) * multiplier
            index += 1
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            if multiplier > 128 * 128 * 128 { throw MQTTProtocolError("malformed remaining length") }
        }
        guard length <= maxPacketBytes else {
            throw MQTTProtocolError("a packet of \(length) bytes is more than the \(maxPacketBytes) this broker takes")
        }
        guard buffer.count - index >= length else { return nil }
        let header = buffer[start]
        let body = Array(buffer[index..<(index + length)])
        start = index + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 4096)
            start = 0
        }
        return try Self.decode(header: header, body: body)
    }

    static func decode(header: UInt8, body: [UInt8]) throws(MQTTProtocolError) -> MQTTPacket {
        var cursor = Cursor(bytes: body)
        switch header >> 4 {
        case 1:
            let name = try cursor.string()
            let level = try cursor.byte()
            let flags = try cursor.byte()
            let keepAlive = try cursor.uint16()
            let clientID = try cursor.string()
            if flags & 0x04 != 0 {  // will topic and message
                _ = try cursor.string()
                _ = try cursor.binary()
            }
            let username = flags & 0x80 != 0 ? try cursor.string() : nil
            let password = flags & 0x40 != 0 ? String(decoding: try cursor.binary(), as: UTF8.self) : nil
            return .connect(MQTTConnect(
                protocolName: name, protocolLevel: level, keepAlive: keepAlive, clientID: clientID,
                username: username, password: password, cleanSession: flags & 0x02 != 0
            ))
        case 8:
            guard header & 0x0F == 0x02 else { throw MQTTProtocolError("SUBSCRIBE with reserved flags \(header & 0x0F)") }
            let packetID = try cursor.uint16()
            var filters: [(String, UInt8)] = []
            while !cursor.atEnd { filters.append((try cursor.string(), try cursor.byte() & 0x03)) }
            guard !filters.isEmpty else { throw MQTTProtocolError("SUBSCRIBE without a topic filter") }
            return .subscribe(packetID: packetID, filters: filters)
        case 10:
            guard header & 0x0F == 0x02 else { throw MQTTProtocolError("UNSUBSCRIBE with reserved flags \(header & 0x0F)") }
            let packetID = try cursor.uint16()
            var filters: [String] = []
            while !cursor.atEnd { filters.append(try cursor.string()) }
            return .unsubscribe(packetID: packetID, filters: filters)
        case 12: return .pingRequest
        case 14: return .disconnect
        default: return .unexpected(header >> 4)
        }
    }

    private struct Cursor {
        let bytes: [UInt8]
        var index = 0
        var atEnd: Bool { index >= bytes.count }

        mutating func byte() throws(MQTTProtocolError) -> UInt8 {
            guard index < bytes.count else { throw MQTTProtocolError("a packet ends early") }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func uint16() throws(MQTTProtocolError) -> UInt16 {
            UInt16(try byte()) << 8 | UInt16(try byte())
        }

        mutating func binary() throws(MQTTProtocolError) -> [UInt8] {
            let length = Int(try uint16())
            guard bytes.count - index >= length else { throw MQTTProtocolError("a field runs past the packet's end") }
            defer { index += length }
            return Array(bytes[index..<(index + length)])
        }

        mutating func string() throws(MQTTProtocolError) -> String {
            let raw = try binary()
            guard let text = String(validating: raw, as: UTF8.self) else { throw MQTTProtocolError("a string is not UTF-8") }
            return text
        }
    }
}

/// What the broker sends.
enum MQTTWriter {
    static func connack(_ returnCode: UInt8) -> [UInt8] { [0x20, 0x02, 0x00, returnCode] }

    static func suback(packetID: UInt16, codes: [UInt8]) -> [UInt8] {
        fixedHeader(0x90, length: 2 + codes.count) + [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] + codes
    }

    static func unsuback(packetID: UInt16) -> [UInt8] { [0xB0, 0x02, UInt8(packetID >> 8), UInt8(packetID & 0xFF)] }

    static let pingResponse: [UInt8] = [0xD0, 0x00]

    /// A PUBLISH at QoS 0, retain 0.
    static func publish(topic: String, payload: [UInt8]) -> [UInt8] {
        let name = Array(topic.utf8)
        var bytes = fixedHeader(0x30, length: 2 + name.count + payload.count)
        bytes.append(UInt8(name.count >> 8))
        bytes.append(UInt8(name.count & 0xFF))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: payload)
        return bytes
    }

    static func fixedHeader(_ first: UInt8, length: Int) -> [UInt8] {
        var bytes = [first]
        var remaining = length
        repeat {
            var digit = UInt8(remaining % 128)
            remaining /= 128
            if remaining > 0 { digit |= 0x80 }
            bytes.append(digit)
        } while remaining > 0
        return bytes
    }
}
