/// A salted SHA-256 of a password. The password itself is never stored.
package struct PasswordHash: Sendable, Hashable {
    /// The 32 digest bytes as two 128-bit halves: plain words keep the hash (and every user holding one) 8-byte
    /// aligned, so users are allocated with plain `malloc` rather than an aligned allocation.
    private struct Digest: Sendable, Hashable {
        var first: Identifier128
        var second: Identifier128
    }

    private let salt: Identifier128
    private let digest: Digest

    /// Hashes `password` with a fresh salt drawn from `generator`.
    package init(password: String, generator: inout SeededGenerator) {
        salt = generator.nextIdentifier()
        digest = Self.hash(password, salt: salt)
    }

    /// The hash as an exported world keeps it: `sha256:SALT:DIGEST` in hexadecimal (never the password).
    package var archived: String {
        "sha256:" + salt.hex + ":" + digest.first.hex + digest.second.hex
    }

    /// A hash read back from `archived`; nil for text not of that form.
    package init?(archived text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sha256", let salt = Identifier128(hex: parts[1]), parts[2].utf8.count == 64,
            let first = Identifier128(hex: parts[2].prefix(32)), let second = Identifier128(hex: parts[2].suffix(32))
        else { return nil }
        self.salt = salt
        digest = Digest(first: first, second: second)
    }

    /// True when `password` is the one this hash was made from.
    package func matches(_ password: String) -> Bool {
        Self.hash(password, salt: salt) == digest
    }

    /// SHA-256 of the salt's bytes followed by the password's UTF-8.
    private static func hash(_ password: String, salt: Identifier128) -> Digest {
        var password = password
        return password.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(byteCount: 16 + utf8.count, alignment: 8) { message in
                message.storeBytes(of: salt.high, toByteOffset: 0, as: UInt64.self)
                message.storeBytes(of: salt.low, toByteOffset: 8, as: UInt64.self)
                UnsafeMutableRawBufferPointer(rebasing: message[16...]).copyMemory(from: UnsafeRawBufferPointer(utf8))
                return SHA256.digest(of: UnsafeRawBufferPointer(message)) { bytes in
                    Digest(
                        first: Identifier128(
                            high: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                            low: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        ),
                        second: Identifier128(
                            high: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                            low: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                        )
                    )
                }
            }
        }
    }
}
