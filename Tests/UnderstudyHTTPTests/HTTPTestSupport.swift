#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import Understudy
import UnderstudyHTTP
import UnderstudyLua

/// A reply as the tests read it.
struct TestReply: Sendable {
    let status: Int
    let headers: HTTPFields
    let text: String

    /// The body parsed as JSON (nil when it is empty or not JSON).
    var json: JSON? { try? JSONParser.parse(text) }

    /// The value at a path of object keys (`json("code")`, `json("user", "email")`).
    func json(_ keys: String...) -> JSON? {
        var current = json
        for key in keys { current = current?[key] }
        return current
    }

    func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }
}

/// The default Backendless app's REST prefix.
let backendless = "/\(DefaultApps.backendlessAppID)/\(DefaultApps.backendlessAPIKey)"
/// The default Kii app's prefix.
let kii = "/api/apps/\(DefaultApps.kiiAppID)"

extension TestClientProtocol {
    /// Sends a request; `json` is sent with `Content-Type: application/json` unless `headers` set one.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, text: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestReply {
        var headers = headers
        var body: ByteBuffer?
        if let json {
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
            body = ByteBuffer(string: json)
        } else if let text {
            body = ByteBuffer(string: text)
        }
        let response = try await executeRequest(uri: path, method: method, headers: headers, body: body)
        return TestReply(
            status: Int(response.status.code), headers: response.headers, text: String(buffer: response.body)
        )
    }
}

/// Runs `body` against a fresh server answering in-process (no sockets).
func withServer(
    _ options: ServerOptions = ServerOptions(port: 0, clockStart: VirtualClock.start), setup: String? = nil,
    _ body: @Sendable (UnderstudyServer, any TestClientProtocol) async throws -> Void
) async throws {
    var options = options
    if let setup { options.setupScript = ScenarioFile(path: "setup.lua", contents: Array(setup.utf8)) }
    let server = try UnderstudyServer(options: options)
    try await server.application().test(.router) { client in try await body(server, client) }
}

/// Runs `body` against a fresh server listening on a loopback port (for dropped connections and concurrency).
func withLiveServer(
    _ options: ServerOptions = ServerOptions(port: 0, clockStart: VirtualClock.start),
    _ body: @Sendable (UnderstudyServer, any TestClientProtocol) async throws -> Void
) async throws {
    var options = options
    if options.idleTimeout == ServerOptions(port: 0).idleTimeout {
        // The test client's one keep-alive connection must outlive a body that works over connections of its own
        // on a loaded machine; the tests of the idle timeout set theirs.
        options.idleTimeout = 300
    }
    let server = try UnderstudyServer(options: options)
    let finished = NIOLockedValueBox(false)
    do {
        try await server.application().test(.live) { client in
            try await body(server, client)
            finished.withLockedValue { $0 = true }
        }
    } catch ChannelError.ioOnClosedChannel where finished.withLockedValue({ $0 }) {
        // The body passed. Closing the test client's own connection failed because the server had already closed it:
        // a body that talks over connections of its own can outlast the server's idle timeout on a loaded machine.
    }
}

/// A raw TCP connection to a loopback port: a client that misbehaves (stays idle, stops mid-request).
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32

    /// Connects; `receiveBuffer` sets the socket's receive buffer first (a small one makes a slow reader).
    init?(port: Int, receiveBuffer: Int32? = nil) {
        #if canImport(Glibc)
        let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let made = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard made >= 0 else { return nil }
        if var size = receiveBuffer {
            _ = setsockopt(made, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(made, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { _ = close(made); return nil }
        descriptor = made
    }

    deinit { _ = close(descriptor) }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The next `count` bytes; fewer when the server closes or stops sending for `milliseconds`.
    func bytes(_ count: Int, within milliseconds: Int32 = 10_000) async -> [UInt8] {
        await offPool {
            var received: [UInt8] = []
            while received.count < count {
                var watched = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&watched, 1, milliseconds) > 0 else { break }
                var chunk = [UInt8](repeating: 0, count: count - received.count)
                let got = chunk.withUnsafeMutableBytes { read(self.descriptor, $0.baseAddress, $0.count) }
                guard got > 0 else { break }
                received.append(contentsOf: chunk.prefix(got))
            }
            return received
        }
    }

    /// True when the server closes the connection within `milliseconds`; with `draining`, what it sent before is
    /// read and dropped on the way.
    func closedByServer(within milliseconds: Int32, draining: Bool) async -> Bool {
        guard draining else { return await closedByServer(within: milliseconds) }
        return await offPool {
            let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
            var chunk = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                var watched = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
                guard poll(&watched, 1, left) > 0 else { return false }
                let got = chunk.withUnsafeMutableBytes { read(self.descriptor, $0.baseAddress, $0.count) }
                if got <= 0 { return true }
            }
            return false
        }
    }

    /// The next `count` complete replies (head and body, framed by `Content-Length`), in the order they came; fewer
    /// when the server stops sending for `milliseconds`.
    ///
    /// Every read here runs on a Dispatch thread: a blocking read must not hold one of Swift concurrency's few
    /// threads, which the server under test needs to answer (tests run in parallel, in one process).
    func replies(_ count: Int, within milliseconds: Int32 = 10_000) async -> [String] {
        await offPool { self.readReplies(count, within: milliseconds) }
    }

    /// The next complete reply, or "" when none comes within `milliseconds`.
    func reply(within milliseconds: Int32 = 10_000) async -> String {
        await replies(1, within: milliseconds).first ?? ""
    }

    /// The first line of the next reply, or "" when none comes within `milliseconds`.
    func statusLine(within milliseconds: Int32 = 10_000) async -> String {
        await reply(within: milliseconds).split(separator: "\r\n").first.map(String.init) ?? ""
    }

    /// True when the server closes the connection within `milliseconds` without answering.
    func closedByServer(within milliseconds: Int32) async -> Bool {
        await offPool {
            var watched = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, milliseconds) > 0 else { return false }
            var byte: UInt8 = 0
            return read(self.descriptor, &byte, 1) <= 0
        }
    }

    /// Runs `work` on a thread of its own. (Not `DispatchQueue.global()`: on Linux Swift concurrency runs on that
    /// queue's threads, so a read there would hold one of them. A serial queue of its own gets a thread that is
    /// not counted against them.)
    private func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "raw-connection-read").async { continuation.resume(returning: work()) }
        }
    }

    private func readReplies(_ count: Int, within milliseconds: Int32) -> [String] {
        var buffer: [UInt8] = []
        var replies: [String] = []
        while replies.count < count {
            if let (reply, used) = Self.firstReply(in: buffer) {
                replies.append(reply)
                buffer.removeFirst(used)
                continue
            }
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, milliseconds) > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 8192)
            let got = chunk.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
            guard got > 0 else { break }
            buffer.append(contentsOf: chunk.prefix(got))
        }
        return replies
    }

    private static func firstReply(in buffer: [UInt8]) -> (String, Int)? {
        let separator = Array("\r\n\r\n".utf8)
        guard let headEnd = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        let end = headEnd + separator.count + length
        guard buffer.count >= end else { return nil }
        return (String(decoding: buffer[..<end], as: UTF8.self), end)
    }
}

