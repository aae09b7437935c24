internal import Crypto

/// A salted SHA-256 of a password. The password itself is never stored.
public struct PasswordHash: Sendable, Hashable {
    private let salt: Identifier128
    private let digest: SIMD4<UInt64>

    /// Hashes `password` with a fresh salt drawn from `generator`.
    public init(password: String, generator: inout SeededGenerator) {
        salt = generator.nextIdentifier()
        digest = Self.hash(password, salt: salt)
    }

    /// True when `password` is the one this hash was made from.
    public func matches(_ password: String) -> Bool {
        Self.hash(password, salt: salt) == digest
    }

    private static func hash(_ password: String, salt: Identifier128) -> SIMD4<UInt64> {
        var hasher = SHA256()
        withUnsafeBytes(of: salt.high) { hasher.update(bufferPointer: $0) }
        withUnsafeBytes(of: salt.low) { hasher.update(bufferPointer: $0) }
        var password = password
        password.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize().withUnsafeBytes { $0.loadUnaligned(as: SIMD4<UInt64>.self) }
    }
}
