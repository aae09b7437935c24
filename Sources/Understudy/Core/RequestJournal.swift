/// One request an app under test sent to the served backends, and what it got back.
package struct JournalEntry: Sendable, Hashable {
    /// Position in the journal, from 1; keeps counting after `clear`.
    package var sequence: Int
    package var method: String
    /// The path as requested, without the query.
    package var path: String
    /// The query string, without `?`; empty when there was none.
    package var query: String
    /// The flavour that answered: `backendless`, `kii`, or nil when no app was found.
    package var flavour: String?
    /// The app id from the path or the credentials, when the request named one.
    package var appID: String?
    /// The operation the request ran, in the names `faults.inject` uses (`users.register`), when it ran one.
    package var operation: String?
    /// The request body as text (invalid UTF-8 replaced), cut at `RequestJournal.bodyLimit` bytes.
    package var body: String
    /// The body as JSON read it, when it was JSON.
    package var json: Value?
    package var status: Int
    /// The error code answered: a Backendless number or a Kii `errorCode`; nil on success.
    package var code: Value?
    /// The virtual time of the answering app's clock, in seconds.
    package var time: Double
    /// How long an injected fault held the reply back, in milliseconds (0: not held).
    package var delayMilliseconds: Int
    /// True when an injected fault closed the connection instead of replying: the client saw no `status`.
    package var connectionDropped: Bool
    /// The reply body as text (cut like `body`); empty when the recorder did not keep it.
    package var reply: String = ""
    /// Wall-clock milliseconds the server took to answer, injected delay excluded (display only).
    package var durationMilliseconds: Double = 0

    package init(
        method: String, path: String, query: String = "", flavour: String? = nil, appID: String? = nil,
        operation: String? = nil, body: String = "", json: Value? = nil, status: Int, code: Value? = nil,
        time: Double = 0, delayMilliseconds: Int = 0, connectionDropped: Bool = false
    ) {
        self.sequence = 0
        self.method = method
        self.path = path
        self.query = query
        self.flavour = flavour
        self.appID = appID
        self.operation = operation
        self.body = body
        self.json = json
        self.status = status
        self.code = code
        self.time = time
        self.delayMilliseconds = delayMilliseconds
        self.connectionDropped = connectionDropped
    }
}

/// Which entries to read: every field that is set must match.
package struct JournalFilter: Sendable, Hashable {
    package var method: String?
    /// Matches when the entry's path ends with this text (so `users/register` finds `/APP/KEY/users/register`).
    package var path: String?
    package var operation: String?
    package var appID: String?
    package var status: Int?
    package var code: Value?
    /// Only the last `limit` matches.
    package var limit: Int?

    package init(
        method: String? = nil, path: String? = nil, operation: String? = nil, appID: String? = nil, status: Int? = nil,
        code: Value? = nil, limit: Int? = nil
    ) {
        self.method = method
        self.path = path
        self.operation = operation
        self.appID = appID
        self.status = status
        self.code = code
        self.limit = limit
    }

    func matches(_ entry: JournalEntry) -> Bool {
        if let method, method.uppercased() != entry.method { return false }
        if let path, !entry.path.hasSuffix(path) { return false }
        if let operation, operation != entry.operation { return false }
        if let appID, appID != entry.appID { return false }
        if let status, status != entry.status { return false }
        if let code, !Self.sameCode(code, entry.code) { return false }
        return true
    }

    private static func sameCode(_ wanted: Value, _ found: Value?) -> Bool {
        guard let found else { return false }
        if wanted == found { return true }
        // "3033" finds 3033 and the other way round.
        return wanted.codeText == found.codeText
    }
}

extension Value {
    fileprivate var codeText: String? {
        switch self {
        case .int(let number): return String(number)
        case .string(let text): return text
        case .double(let number) where number == number.rounded() && abs(number) < 9e18: return String(Int64(number))
        default: return nil
        }
    }
}

/// Every request the served apps answered, oldest first, bounded so a load test cannot exhaust memory.
package struct RequestJournal: Sendable {
    /// Bodies longer than this are cut (the entry says so).
    package static let bodyLimit = 64 * 1024
    /// The most entries kept; older ones are dropped first.
    package let capacity: Int
    /// A ring: `held` entries from `start` (wrapping), in slots that grow up to `capacity`. Dropping the oldest
    /// only moves `start`, so trimming the journal under the memory cap never copies the entries it keeps.
    private var ring: [JournalEntry] = []
    private var start = 0
    private var held = 0
    private var nextSequence = 1
    /// Entries dropped because the journal was full (of entries, or of the bytes its owner allows).
    package private(set) var dropped = 0
    /// What the entries hold (`HeldBytes`), kept as entries come and go: the memory cap counts it.
    package private(set) var heldBytes = 0

    package init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The number of entries held.
    package var count: Int { held }

    /// The entry `offset` places after the oldest.
    private func entry(_ offset: Int) -> JournalEntry { ring[(start + offset) % ring.count] }

    /// Adds an entry; returns its sequence number.
    @discardableResult
    package mutating func record(_ entry: JournalEntry) -> Int {
        var entry = JournalRedaction.redact(entry)
        entry.sequence = nextSequence
        nextSequence += 1
        if entry.body.utf8.count > Self.bodyLimit {
            let cut = entry.body.utf8.prefix(Self.bodyLimit)
            entry.body = String(decoding: cut, as: UTF8.self) + "…[cut at \(Self.bodyLimit) bytes]"
        }
        if entry.reply.utf8.count > Self.bodyLimit {
            let cut = entry.reply.utf8.prefix(Self.bodyLimit)
            entry.reply = String(decoding: cut, as: UTF8.self) + "…[cut at \(Self.bodyLimit) bytes]"
        }
        heldBytes += Self.bytes(of: entry)
        if held < ring.count {
            ring[(start + held) % ring.count] = entry  // a slot a trim freed
            held += 1
        } else if ring.count < capacity {
            if start != 0 {  // slots freed by trims are all in use again: unwrap once before growing
                ring = Array(ring[start...] + ring[..<start])
                start = 0
            }
            ring.append(entry)
            held += 1
        } else {
            heldBytes -= Self.bytes(of: ring[start])
            ring[start] = entry
            start = (start + 1) % ring.count
            dropped += 1
        }
        return entry.sequence
    }

    /// The entries that match, oldest first.
    package func entries(matching filter: JournalFilter = JournalFilter()) -> [JournalEntry] {
        var found: [JournalEntry] = []
        for offset in 0..<held {
            let entry = entry(offset)
            if filter.matches(entry) { found.append(entry) }
        }
        if let limit = filter.limit, found.count > limit { found.removeFirst(found.count - max(0, limit)) }
        return found
    }

    /// The sequence number of the last entry recorded (0 before the first); it survives `clear`.
    package var lastSequence: Int { nextSequence - 1 }

    /// The entries recorded after sequence number `after`, oldest first; only the newest `limit` when more.
    /// Costs the entries returned plus a binary search, so a page can poll it often.
    package func entries(after: Int, limit: Int) -> [JournalEntry] {
        let count = held
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if entry(middle).sequence <= after { low = middle + 1 } else { high = middle }
        }
        let first = max(low, count - max(0, limit))
        return (first..<count).map { entry($0) }
    }

    /// Drops the `count` oldest entries (they count as dropped), to make room in memory.
    package mutating func dropOldest(_ count: Int) {
        let count = min(max(0, count), held)
        guard count > 0 else { return }
        for offset in 0..<count {
            let slot = (start + offset) % ring.count
            heldBytes -= Self.bytes(of: ring[slot])
            ring[slot] = Self.freed  // its text is released now
        }
        start = (start + count) % ring.count
        held -= count
        dropped += count
    }

    /// Forgets every entry (sequence numbers keep counting).
    package mutating func clear() {
        ring.removeAll(keepingCapacity: true)
        start = 0
        held = 0
        dropped = 0
        heldBytes = 0
    }

    /// What a slot holds once its entry was dropped.
    private static let freed = JournalEntry(method: "", path: "", status: 0)

    /// What one entry holds.
    static func bytes(of entry: JournalEntry) -> Int {
        HeldBytes.perRecord * 2 + HeldBytes.of(entry.path) + HeldBytes.of(entry.query) + HeldBytes.of(entry.body)
            + HeldBytes.of(entry.reply) + (entry.json.map { HeldBytes.of($0) } ?? 0)
    }
}
