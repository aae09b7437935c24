/// A deterministic random generator (SplitMix64): every id, token, salt and verification code comes from one,
/// so the same seed replays the same run.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private(set) var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A new generator whose sequence is independent of this one's, derived from `label`.
    package func derived(_ label: UInt64) -> SeededGenerator {
        var copy = SeededGenerator(seed: state ^ (label &* 0xD6E8_FEB8_6659_FD93))
        _ = copy.next()
        return copy
    }

    /// A 128-bit identifier.
    package mutating func nextIdentifier() -> Identifier128 {
        Identifier128(high: next(), low: next())
    }

    /// `count` decimal digits, e.g. a 6-digit verification code.
    package mutating func nextDigits(_ count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count { bytes[index] = UInt8(ascii: "0") + UInt8(next() % 10) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A 128-bit id, stored compactly and shown in the UUID layout the real services use.
package struct Identifier128: Sendable, Hashable {
    package let high: UInt64
    package let low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// `6EAFFE12-B424-8C51-FFB0-FE99548CAA00` (upper case, as Backendless) or lower case (as Kii).
    package func formatted(uppercase: Bool = true) -> String {
        withFormattedUTF8(uppercase: uppercase) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the 36 bytes of `formatted(uppercase:)`, written on the stack: for handing the text on
    /// (to Lua, say) without making a string first. Inlinable, so that callers in other modules get it
    /// specialized rather than through generic metadata.
    @inlinable
    package func withFormattedUTF8<Result>(uppercase: Bool = true, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let letters = (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) - 10
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
            var position = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = nibble < 16 ? high : low
                let digit = UInt8(truncatingIfNeeded: word &>> UInt64(60 - (nibble % 16) * 4)) & 0xF
                buffer[position] = digit < 10 ? UInt8(ascii: "0") + digit : letters + digit
                position += 1
            }
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// Parses the UUID layout (either case). Nil when the text is not one.
    package init?(parsing text: String) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var count = 0
        var utf8Count = 0
        for byte in text.utf8 {
            utf8Count += 1
            if byte == UInt8(ascii: "-") {
                guard count == 8 || count == 12 || count == 16 || count == 20 else { return nil }
                continue
            }
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = UInt64(byte - UInt8(ascii: "A") + 10)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            if count < 16 { high = high << 4 | nibble } else { low = low << 4 | nibble }
            count += 1
            if count > 32 { return nil }
        }
        guard count == 32, utf8Count == 36 else { return nil }
        self.init(high: high, low: low)
    }
}
