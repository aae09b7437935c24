#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

/// `understudy health`: asks a running server's `GET /_understudy/health` and exits 0 when it answers 200, 1
/// otherwise (nothing listening, a timeout, another status). For a container's health check, where no curl is.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check that an understudy server answers its health check: exit 0 when healthy, 1 otherwise.",
        discussion: """
            Asks URL/_understudy/health (no control token needed) and prints its answer. Without --url it asks \
            $UNDERSTUDY_URL, else http://127.0.0.1:$UNDERSTUDY_PORT (8080 when unset): the server of the same \
            container, as `understudy serve` configured by the same environment listens there.
            """
    )

    @Option(help: "The server's base URL (http://HOST:PORT). Default: $UNDERSTUDY_URL, else http://127.0.0.1:$UNDERSTUDY_PORT or :8080.")
    var url: String?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 5

    func validate() throws {
        if !(timeout > 0) || timeout > 3600 { throw ValidationError("--timeout must be a number of seconds above 0, up to 3600") }
        if let url, HealthCheck.Target(url) == nil {
            throw ValidationError("--url must be http://HOST[:PORT][/PATH], got '\(url)'")
        }
    }

    func run() throws {
        let given = url ?? HealthCheck.defaultURL(environment: ProcessEnvironment.variables)
        guard let target = HealthCheck.Target(given) else {
            FileOutput.standardError.write("understudy health: \(given) is not an http:// URL\n")
            throw ExitCode(1)
        }
        switch HealthCheck.ask(target, timeout: timeout) {
        case .success(let (status, body)) where status == 200:
            FileOutput.standardOutput.write("\(body)\n")
        case .success(let (status, body)):
            FileOutput.standardError.write("understudy health: \(target.description) answered \(status): \(body)\n")
            throw ExitCode(1)
        case .failure(let failure):
            FileOutput.standardError.write("understudy health: \(target.description): \(failure.message)\n")
            throw ExitCode(1)
        }
    }
}

/// The process's environment variables.
enum ProcessEnvironment {
    static var variables: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}

/// A plain HTTP/1.1 GET of the health route over a socket (no Foundation networking, so the static binary needs
/// no libcurl).
enum HealthCheck {
    struct Failure: Error { var message: String }

    /// Where to ask: host, port and the health route's path.
    struct Target: CustomStringConvertible {
        var host: String
        var port: Int
        var path: String
        /// The URL's path before the health route (empty for a server at the root).
        var base: String

        /// The target of `route` (a path under the server's base URL) on the server at `url`.
        init?(_ url: String, route: String = "/_understudy/health") {
            guard url.hasPrefix("http://") else { return nil }
            var rest = Substring(url.dropFirst("http://".count))
            var base = ""
            if let slash = rest.firstIndex(of: "/") {
                base = String(rest[slash...])
                rest = rest[..<slash]
            }
            var host = rest, port = 80
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                if after.hasPrefix(":") {
                    guard let number = Int(after.dropFirst()) else { return nil }
                    port = number
                } else if !after.isEmpty { return nil }
            } else if let colon = rest.lastIndex(of: ":") {
                host = rest[..<colon]
                guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
                port = number
            }
            guard !host.isEmpty, (1...65535).contains(port) else { return nil }
            while base.hasSuffix("/") { base.removeLast() }
            self.host = String(host)
            self.port = port
            if base.hasSuffix(route) { base.removeLast(route.count) }
            self.base = base
            path = base + route
        }

        var description: String {
            "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
        }
    }

    /// $UNDERSTUDY_URL, else the port `serve` reads from $UNDERSTUDY_PORT on the loopback address.
    static func defaultURL(environment: [String: String]) -> String {
        if let url = environment["UNDERSTUDY_URL"], !url.isEmpty { return url }
        return "http://127.0.0.1:\(environment["UNDERSTUDY_PORT"].flatMap { Int($0) } ?? 8080)"
    }

    /// The status and body of `GET target` (with `headers`; at most `limit` bytes read), or why there is none.
    static func ask(
        _ target: Target, headers: [(name: String, value: String)] = [], timeout: Double, limit: Int = 1 << 20
    ) -> Result<(Int, String), Failure> {
        get(target, path: target.path, headers: headers, timeout: timeout, limit: limit)
    }

    /// The status and body of `GET path` on the target's server, with `headers`, or why there is none.
    static func get(
        _ target: Target, path: String, headers: [(name: String, value: String)], timeout: Double, limit: Int = 1 << 20
    ) -> Result<(Int, String), Failure> {
        let deadline = monotonicSeconds() + timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &list) == 0, let first = list else {
            return .failure(Failure(message: "cannot resolve \(target.host)"))
        }
        defer { freeaddrinfo(first) }
        var lastError = "nothing listens there"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            let socket = Platform.socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            defer { _ = close(socket) }
            guard connect(socket, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 else {
                lastError = errno == ECONNREFUSED ? "connection refused (nothing listens there)" : "cannot connect (errno \(errno))"
                continue
            }
            return exchange(socket, target: target, path: path, headers: headers, deadline: deadline, limit: limit)
        }
        return .failure(Failure(message: lastError))
    }

    private static func exchange(
        _ socket: Int32, target: Target, path: String, headers: [(name: String, value: String)], deadline: Double, limit: Int
    ) -> Result<(Int, String), Failure> {
        let host = target.host.contains(":") ? "[\(target.host)]" : target.host
        let extra = headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(target.port)\r\nConnection: close\r\nUser-Agent: understudy\r\n\(extra)\r\n"
        let sent = request.withUTF8 { buffer in Platform.write(socket, buffer.baseAddress!, buffer.count) }
        guard sent > 0 else { return .failure(Failure(message: "the connection closed before the request was sent")) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < limit {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return .failure(Failure(message: "no answer within the timeout")) }
            var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, Int32(min(remaining * 1000, 3_600_000).rounded(.up)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return .failure(Failure(message: "no answer within the timeout")) }
            let got = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            received.append(contentsOf: chunk.prefix(got))
        }
        let text = String(decoding: received, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), let status = Int(statusLine[1]) else {
            return .failure(Failure(message: "the answer is not HTTP"))
        }
        let body = text.firstRange(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return .success((status, body))
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
