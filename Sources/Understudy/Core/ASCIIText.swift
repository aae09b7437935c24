/// Byte-level checks on the (nearly always ASCII) names and identities requests carry, done on the contiguous
/// UTF-8 of native strings without allocating.
extension String {
    /// True when every byte is ASCII and none is an upper-case letter: lower-casing would change nothing.
    var isLowercaseASCII: Bool {
        withUTF8Bytes { bytes in !bytes.contains { ($0 >= 65 && $0 <= 90) || $0 >= 128 } }
    }

    /// `lowercasedIfNeeded() == other.lowercasedIfNeeded()`: equal ignoring case. Two ASCII strings are
    /// compared byte by byte; anything else goes through `lowercased()` and Unicode-aware equality.
    func equalsIgnoringCase(_ other: String) -> Bool {
        let ascii = withUTF8Bytes { first in
            other.withUTF8Bytes { second in Self.asciiEqualsIgnoringCase(first, second) }
        }
        return ascii ?? (lowercasedIfNeeded() == other.lowercasedIfNeeded())
    }

    /// Runs `body` on the string's UTF-8 bytes: in place for native strings, from a copy otherwise.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }

    /// Case-insensitive equality of two ASCII byte strings; nil when either is not ASCII.
    private static func asciiEqualsIgnoringCase(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool? {
        if first.contains(where: { $0 >= 128 }) || second.contains(where: { $0 >= 128 }) { return nil }
        guard first.count == second.count else { return false }
        for index in first.indices where foldedASCII(first[index]) != foldedASCII(second[index]) { return false }
        return true
    }

    /// An ASCII letter in lower case; any other byte unchanged.
    private static func foldedASCII(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }
}
