internal import NIOCore

/// Declines a cleartext HTTP/2 upgrade (`Connection: Upgrade, HTTP2-Settings` + `Upgrade: h2c`), which Java's
/// `java.net.http.HttpClient` and `curl --http2` put on the first request of a connection: the request is answered
/// in HTTP/1.1, as RFC 9110 allows, and the connection keeps serving.
///
/// Without it, NIO's HTTP/1 decoder stops parsing after any upgrade request (it leaves the rest of the stream to an
/// upgrader, and there is none), so the next request on the connection waited for the idle timeout. This handler
/// sits before the decoder, reads the connection's first request head, removes the h2c upgrade from it (the
/// `Upgrade` field and the `upgrade` and `HTTP2-Settings` tokens of `Connection`), then leaves the pipeline. Other
/// upgrades (WebSocket) pass untouched; clients ask for h2c on a connection's first request only.
final class H2CUpgradeDecliner: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The most of a first head this handler waits for; a longer head passes as it came.
    static let headLimit = 16 * 1024

    private var pending: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if var pending {
            pending.writeBuffer(&buffer)
            buffer = pending
        }
        pending = nil
        let bytes = buffer.readableBytesView
        guard let end = Self.headEnd(bytes) else {
            if bytes.count < Self.headLimit {
                pending = buffer
                return
            }
            return finish(context: context, buffer)
        }
        let head = Array(bytes.prefix(end))
        guard let rewritten = Self.declined(head) else { return finish(context: context, buffer) }
        var output = context.channel.allocator.buffer(capacity: buffer.readableBytes)
        output.writeBytes(rewritten)
        buffer.moveReaderIndex(forwardBy: end)
        output.writeBuffer(&buffer)
        finish(context: context, output)
    }

    private func finish(context: ChannelHandlerContext, _ buffer: ByteBuffer) {
        context.fireChannelRead(wrapInboundOut(buffer))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let pending {
            self.pending = nil
            context.fireChannelRead(wrapInboundOut(pending))
        }
        context.fireChannelInactive()
    }

    /// The length of the head (through its blank line), nil while it is incomplete.
    static func headEnd(_ bytes: ByteBufferView) -> Int? {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            if bytes[index] == cr, bytes[index + 1] == lf, bytes[index + 2] == cr, bytes[index + 3] == lf {
                return index + 4 - bytes.startIndex
            }
            index += 1
        }
        return nil
    }

    /// The head without its h2c upgrade; nil when it asks for none (it is passed on untouched).
    static func declined(_ head: [UInt8]) -> [UInt8]? {
        // "\r\n" is one Character in Swift: the head splits into its lines.
        var lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        func trimmed(_ text: Substring) -> String {
            String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        func field(_ line: String) -> (name: String, value: String)? {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), trimmed(line[line.index(after: colon)...]))
        }
        let asksForH2C = lines.contains { line in
            guard let field = field(line), field.name == "upgrade" else { return false }
            return field.value.lowercased().split(separator: ",").contains { trimmed($0) == "h2c" }
        }
        guard asksForH2C else { return nil }
        lines = lines.compactMap { line in
            guard let field = field(line) else { return line }
            switch field.name {
            case "upgrade", "http2-settings": return nil
            case "connection":
                let kept = field.value.split(separator: ",").map(trimmed)
                    .filter { !["upgrade", "http2-settings"].contains($0.lowercased()) && !$0.isEmpty }
                return kept.isEmpty ? nil : "Connection: " + kept.joined(separator: ", ")
            default: return line
            }
        }
        return Array(lines.joined(separator: "\r\n").utf8)
    }
}
