/// A request's path read once, before anything decides on it: the Origin/Host guard, CORS, the router, the
/// control token and the journal all see `path`, so no other spelling of a route reaches it unguarded.
///
/// `path` is the canonical spelling: empty segments (`//`) and `.` segments dropped, `..` resolved (never above
/// the root), percent-encoded unreserved characters decoded (`%5F` is `_`, `%2E` is `.`, RFC 3986 §6.2.2.2),
/// the other escapes kept with upper-case hex (`%2F` stays a byte of its segment), and the control API's first
/// segment in its own case (`/_UNDERSTUDY/state` is `/_understudy/state`). `isControl` is decided on the most
/// decoded reading too (every escape decoded, twice, and `\` read as `/`): a path that any reading puts under
/// `/_understudy` is guarded as the control API, even when no route answers it.
struct RequestPath: Equatable {
    /// The canonical path the router, guard and journal see.
    let path: String
    /// True when some reading of the path is under `/_understudy`.
    let isControl: Bool

    init(_ raw: String) {
        if let plain = Self.plainPath(raw) {
            self = plain
            return
        }
        let bytes = Array(raw.utf8)
        let canonical = Self.canonical(bytes, decodingEverything: false)
        path = canonical.path
        isControl = canonical.controlFirst || Self.looksLikeControl(bytes)
    }

    private init(path: String, isControl: Bool) {
        self.path = path
        self.isControl = isControl
    }

    /// The common case without copying: a path that starts with `/` and has no escape, no backslash, no empty or
    /// dot segment and no trailing `/` is already canonical, unless its first segment is the control API's in
    /// another case.
    private static func plainPath(_ raw: String) -> RequestPath? {
        let utf8 = raw.utf8
        guard utf8.first == UInt8(ascii: "/"), utf8.count > 1, utf8.last != UInt8(ascii: "/") else { return nil }
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") { return nil }
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") { return nil }
            previous = byte
        }
        let first = utf8.dropFirst().prefix { $0 != UInt8(ascii: "/") }
        guard first.count >= controlSegment.count, zip(first, controlSegment).allSatisfy({ lowered($0) == $1 }) else {
            return RequestPath(path: raw, isControl: false)
        }
        guard first.elementsEqual(controlSegment) else { return nil }
        return RequestPath(path: raw, isControl: true)
    }

    /// The control API's first segment.
    static let controlSegment = Array(ControlRoutes.prefix.utf8)

    private static func looksLikeControl(_ raw: [UInt8]) -> Bool {
        // With no escape and no backslash, decoding everything reads the path as the canonical reading did.
        var bytes = raw
        for _ in 0..<3 {
            guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") }) else { break }
            bytes = canonical(bytes, decodingEverything: true).bytes
        }
        return canonical(bytes, decodingEverything: true).controlFirst
    }

    /// Splits on `/`, decodes what `decodingEverything` allows, resolves dot segments, and joins again.
    private static func canonical(_ raw: [UInt8], decodingEverything: Bool) -> (path: String, bytes: [UInt8], controlFirst: Bool) {
        var segments: [[UInt8]] = []
        var current: [UInt8] = []
        func close() {
            defer { current.removeAll(keepingCapacity: true) }
            if current.isEmpty || current == [UInt8(ascii: ".")] { return }
            if current == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                if !segments.isEmpty { segments.removeLast() }
                return
            }
            segments.append(current)
        }
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "/") || (decodingEverything && byte == UInt8(ascii: "\\")) {
                close()
                index += 1
                continue
            }
            if byte == UInt8(ascii: "%"), index + 2 < raw.count, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2]) {
                let decoded = high << 4 | low
                if decodingEverything || isUnreserved(decoded) {
                    current.append(decoded)
                } else {
                    current.append(contentsOf: [byte, upperHex(high), upperHex(low)])
                }
                index += 3
                continue
            }
            current.append(byte)
            index += 1
        }
        close()
        var controlFirst = false
        if let first = segments.first, first.count >= controlSegment.count,
           zip(first, controlSegment).allSatisfy({ lowered($0) == $1 })
        {
            controlFirst = true
            if first.count == controlSegment.count { segments[0] = controlSegment }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count + 1)
        for segment in segments {
            bytes.append(UInt8(ascii: "/"))
            bytes.append(contentsOf: segment)
        }
        if bytes.isEmpty { bytes = [UInt8(ascii: "/")] }
        return (String(decoding: bytes, as: UTF8.self), bytes, controlFirst)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func upperHex(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// RFC 3986's unreserved characters: ALPHA, DIGIT, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
