internal import Hummingbird
internal import HTTPTypes
internal import HummingbirdCore
internal import NIOCore
internal import NIOHTTPTypes
#if canImport(CNIOLinux)
internal import CNIOLinux  // where NIO finds `linger` (NIOLinger) on Linux
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A channel handler that closes the connection instead of writing a response marked with `marker`: how an
/// injected fault with `drop = true` makes the client see a connection closed without a reply (`reset = true`: reset).
final class ConnectionDropper: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The response header that asks for the drop (never sent to the client).
    static let marker = HTTPField.Name("x-understudy-drop-connection")!
    /// The marker's value that asks for a reset (RST, `SO_LINGER` 0) instead of a clean close.
    static let reset = "reset"

    private var dropping = false
    private var resetting = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .head(let head) = part, let value = head.headerFields[Self.marker] {
            dropping = true
            resetting = value == Self.reset
        }
        if dropping {
            promise?.fail(ChannelError.ioOnClosedChannel)
            if case .end = part {
                dropping = false
                if resetting, let socket = context.channel as? any SocketOptionProvider {
                    // Linger on with a zero timeout: closing sends a reset instead of a clean close. (On the
                    // channel's event loop, as here, the option is set at once.)
                    _ = socket.setSoLinger(NIOLinger(l_onoff: 1, l_linger: 0))
                }
                resetting = false
                context.close(promise: nil)
            }
            return
        }
        context.write(data, promise: promise)
    }
}
