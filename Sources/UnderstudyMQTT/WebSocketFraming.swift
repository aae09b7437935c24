/// The WebSocket side of `/mqtt` (RFC 6455): the opening handshake's reply and the frames that carry MQTT's
/// bytes. Pure: bytes in, values out.
enum WebSocketHandshake {
    /// The reply to an upgrade request head (the text up to the blank line), or the status line of a refusal.
    enum Answer: Equatable {
        case upgrade(response: String)
        case refuse(status: String, reason: String)
    }

    /// Answers a `GET /mqtt` head: it must ask for `Upgrade: websocket`, version 13, with a key. The subprotocol
    /// `mqtt` (or `mqttv3.1`) is echoed when the client offers it.
    static func answer(head: String) -> Answer {
        var headers: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        guard headers["upgrade"]?.lowercased().contains("websocket") == true else {
            return .refuse(status: "426 Upgrade Required", reason: "/mqtt is MQTT over WebSocket: send Upgrade: websocket")
        }
        guard headers["sec-websocket-version"] == "13" else {
            return .refuse(status: "400 Bad Request", reason: "Sec-WebSocket-Version must be 13")
        }
        guard let key = headers["sec-websocket-key"], !key.isEmpty else {
            return .refuse(status: "400 Bad Request", reason: "Sec-WebSocket-Key is required")
        }
        let accept = Base64.encode(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n"
        let offered = (headers["sec-websocket-protocol"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
        if let chosen = offered.first(where: { $0 == "mqtt" || $0 == "mqttv3.1" }) {
            response += "Sec-WebSocket-Protocol: \(chosen)\r\n"
        }
        return .upgrade(response: response + "\r\n")
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, set.unicodeScalars.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.unicodeScalars.contains(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

/// Reads client frames (masked, as RFC 6455 requires) and writes server frames (unmasked, binary).
struct WebSocketFrameReader {
    enum Event: Equatable {
        /// Bytes of a binary (or continuation) frame: MQTT's stream.
        case data([UInt8])
        case ping([UInt8])
        case close
    }

    /// The largest frame payload taken.
    var maxFrameBytes: Int
    private var buffer: [UInt8] = []

    init(maxFrameBytes: Int) { self.maxFrameBytes = maxFrameBytes }

    var pendingBytes: Int { buffer.count }

    mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next whole frame's event, nil while one is incomplete.
    mutating func next() throws(MQTTProtocolError) -> Event? {
        while true {
            guard buffer.count >= 2 else { return nil }
            let opcode = buffer[0] & 0x0F
            guard buffer[1] & 0x80 != 0 else { throw MQTTProtocolError("a client's WebSocket frame must be masked") }
            var length = Int(buffer[1] & 0x7F)
            var offset = 2
            if length == 126 {
                guard buffer.count >= 4 else { return nil }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                offset = 4
            } else if length == 127 {
                guard buffer.count >= 10 else { return nil }
                var value: UInt64 = 0
                for index in 2..<10 { value = value << 8 | UInt64(buffer[index]) }
                guard value <= UInt64(maxFrameBytes) else {
                    throw MQTTProtocolError("a WebSocket frame of \(value) bytes is more than the \(maxFrameBytes) taken")
                }
                length = Int(value)
                offset = 10
            }
            guard length <= maxFrameBytes else {
                throw MQTTProtocolError("a WebSocket frame of \(length) bytes is more than the \(maxFrameBytes) taken")
            }
            guard buffer.count >= offset + 4 + length else { return nil }
            let mask = Array(buffer[offset..<(offset + 4)])
            var payload = Array(buffer[(offset + 4)..<(offset + 4 + length)])
            for index in payload.indices { payload[index] ^= mask[index & 3] }
            buffer.removeFirst(offset + 4 + length)
            switch opcode {
            case 0, 2: return .data(payload)
            case 1: throw MQTTProtocolError("MQTT over WebSocket uses binary frames, not text")
            case 8: return .close
            case 9: return .ping(payload)
            case 10: continue  // pong
            default: throw MQTTProtocolError("unknown WebSocket opcode \(opcode)")
            }
        }
    }

    /// A server frame (FIN set, unmasked).
    static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            bytes.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF)) }
        }
        return bytes + payload
    }
}

/// SHA-1, for `Sec-WebSocket-Accept` only.
enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var data = message
        let bitLength = UInt64(message.count) * 8
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8((bitLength >> UInt64(shift)) & 0xFF)) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] = UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
        }
        return h.flatMap { word in [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)] }
    }
}

/// Standard base64 with padding.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index], b1 = index + 1 < bytes.count ? bytes[index + 1] : 0, b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(index + 1 < bytes.count ? alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(b2 & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
