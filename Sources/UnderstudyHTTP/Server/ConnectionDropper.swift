internal import Hummingbird
internal import HTTPTypes
internal import HummingbirdCore
internal import NIOCore
internal import NIOHTTPTypes

/// A channel handler that closes the connection instead of writing a response marked with `marker`: how an
/// injected fault with `drop = true` makes the client see a connection closed without a reply.
final class ConnectionDropper: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The response header that asks for the drop (never sent to the client).
    static let marker = HTTPField.Name("x-understudy-drop-connection")!

    private var dropping = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .head(let head) = part, head.headerFields[Self.marker] != nil {
            dropping = true
        }
        if dropping {
            promise?.fail(ChannelError.ioOnClosedChannel)
            if case .end = part {
                dropping = false
                context.close(promise: nil)
            }
            return
        }
        context.write(data, promise: promise)
    }
}
