#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a listening address stays on this machine: every address the name resolves to must be a loopback
/// address (127.0.0.0/8 or ::1). The text alone proves nothing: `127.evil.example` may resolve to 0.0.0.0.
enum LoopbackCheck {
    static func onlyLoopback(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        var any = false
        while let current = entry {
            any = true
            guard let address = current.pointee.ai_addr else { return false }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
                if UInt32(bigEndian: ipv4) >> 24 != 127 { return false }
            case AF_INET6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
                if bytes != [UInt8](repeating: 0, count: 15) + [1] { return false }
            default:
                return false
            }
            entry = current.pointee.ai_next
        }
        return any
    }
}
