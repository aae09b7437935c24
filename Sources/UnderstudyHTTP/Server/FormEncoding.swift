/// `name=value&name=value` text with `+` for a space and `%XX` escapes: how query strings and
/// `application/x-www-form-urlencoded` bodies travel. One reader for both.
enum FormEncoding {
    /// The pairs in order. A part whose escapes are broken (or not UTF-8) is kept as written, `+` read as a
    /// space: what a lenient server does with a query string.
    static func pairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
        split(Array(text.utf8)).map { name, value in
            (decode(name) ?? spaced(name), decode(value) ?? spaced(value))
        }
    }

    /// The pairs in order; nil when an escape is broken or the decoded bytes are not UTF-8 (a form body).
    static func strictPairs(_ bytes: [UInt8]) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for (name, value) in split(bytes) {
            guard let name = decode(name), let value = decode(value) else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func split(_ bytes: [UInt8]) -> [(ArraySlice<UInt8>, ArraySlice<UInt8>)] {
        bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (parts[0], parts.count > 1 ? parts[1] : [])
        }
    }

    /// `+` as a space and `%XX` as its byte; nil for a broken escape or bytes that are not UTF-8.
    static func decode(_ slice: ArraySlice<UInt8>) -> String? {
        guard case .text(let text) = percentDecoded(slice, plusIsSpace: true) else { return nil }
        return text
    }

    /// What percent-decoding made of some text.
    enum PercentDecoded {
        case text(String)
        /// A `%` not followed by two hex digits.
        case brokenEscape
        /// The escapes decode to bytes that are not UTF-8.
        case notUTF8
    }

    /// `%XX` as its byte (and `+` as a space with `plusIsSpace`, as forms and queries write it; a path does not).
    static func percentDecoded(_ slice: ArraySlice<UInt8>, plusIsSpace: Bool) -> PercentDecoded {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(slice.count)
        var index = slice.startIndex
        while index < slice.endIndex {
            switch slice[index] {
            case UInt8(ascii: "+") where plusIsSpace:
                decoded.append(0x20)
                index += 1
            case UInt8(ascii: "%"):
                guard index + 2 < slice.endIndex, let high = hex(slice[index + 1]), let low = hex(slice[index + 2]) else {
                    return .brokenEscape
                }
                decoded.append(high << 4 | low)
                index += 3
            case let byte:
                decoded.append(byte)
                index += 1
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { return .notUTF8 }
        return .text(text)
    }

    private static func spaced(_ slice: ArraySlice<UInt8>) -> String {
        String(decoding: slice.map { $0 == UInt8(ascii: "+") ? 0x20 : $0 }, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
