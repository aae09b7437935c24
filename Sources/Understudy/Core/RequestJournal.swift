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
    /// The app's test that sent it (the `X-Understudy-Test` header); nil when it named none.
    package var test: String?
    /// The injected fault that changed the answer (the last, when several fired), and what it did.
    package var fault: FaultMark?

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

/// Which fault changed a request's answer, and how (`Fault.effect`: `error`, `after_commit`, `drop`, `reset`,
/// `reply:empty`, `delay`, ...; `rate_limit` for the app's request quota).
package struct FaultMark: Sendable, Hashable {
    /// The fault's id; nil for the rate limit, which is a setting.
    package var id: Int?
    package var effect: String

    package init(id: Int?, effect: String) {
        self.id = id
        self.effect = effect
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
    /// The `X-Understudy-Test` name.
    package var test: String?
    /// Only the last `limit` matches.
    package var limit: Int?

    package init(
        method: String? = nil, path: String? = nil, operation: String? = nil, appID: String? = nil, status: Int? = nil,
        code: Value? = nil, test: String? = nil, limit: Int? = nil
    ) {
        self.method = method
        self.path = path
        self.operation = operation
        self.appID = appID
        self.status = status
        self.code = code
        self.test = test
        self.limit = limit
    }

    static func sameCode(_ wanted: Value, _ found: Value?) -> Bool {
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

/// One request as the server hands it to the journal: the texts as the bytes that came and went. Recording copies
/// them into one buffer; nothing is decoded, parsed or redacted until the entry is read.
package struct JournalRecord {
    package var method: String
    package var path: String
    package var query: String
    package var flavour: String?
    package var appID: String?
    package var operation: String?
    /// The request body as it came.
    package var body: [UInt8]
    /// True when the body was read as JSON: readers then see it parsed, as `JournalEntry.json`.
    package var bodyIsJSON: Bool
    package var status: Int
    package var code: Value?
    package var time: Double
    package var delayMilliseconds: Int
    package var connectionDropped: Bool
    /// The reply body as it was sent.
    package var reply: [UInt8]
    package var durationMilliseconds: Double
    package var test: String?
    package var fault: FaultMark?

    package init(
        method: String, path: String, query: String, flavour: String?, appID: String?, operation: String?,
        body: [UInt8], bodyIsJSON: Bool, status: Int, code: Value?, time: Double, delayMilliseconds: Int,
        connectionDropped: Bool, reply: [UInt8], durationMilliseconds: Double, test: String? = nil, fault: FaultMark? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.flavour = flavour
        self.appID = appID
        self.operation = operation
        self.body = body
        self.bodyIsJSON = bodyIsJSON
        self.status = status
        self.code = code
        self.time = time
        self.delayMilliseconds = delayMilliseconds
        self.connectionDropped = connectionDropped
        self.reply = reply
        self.durationMilliseconds = durationMilliseconds
        self.test = test
        self.fault = fault
    }
}

/// Every request the served apps answered, oldest first, bounded so a load test cannot exhaust memory.
///
/// Recording is on the server's hot path (every request, under its lock), so an entry is stored compactly: its
/// path, query, body and reply as bytes in one buffer (one allocation, one copy), its other fields inline. Reading
/// makes the `JournalEntry` readers see: the texts decoded, the body parsed as JSON (by `decodeJSON`, which the
/// owner supplies), and the secrets replaced (`JournalRedaction`). Every read goes through `shown(_:)`; nothing
/// hands out what is stored.
package struct RequestJournal: Sendable {
    /// Bodies longer than this are cut (the entry says so).
    package static let bodyLimit = 64 * 1024
    /// The most entries kept; older ones are dropped first.
    package let capacity: Int
    /// Reads a JSON body into a value, for `JournalEntry.json` (the domain has no JSON parser of its own).
    private let decodeJSON: (@Sendable ([UInt8]) -> Value?)?
    /// A ring: `held` entries from `start` (wrapping), in slots that grow up to `capacity`. Dropping the oldest
    /// only moves `start`, so trimming the journal under the memory cap never copies the entries it keeps.
    private var ring: [StoredEntry] = []
    private var start = 0
    private var held = 0
    private var nextSequence = 1
    /// Entries dropped because the journal was full (of entries, or of the bytes its owner allows).
    package private(set) var dropped = 0
    /// What the entries hold (`HeldBytes`), kept as entries come and go: the memory cap counts it.
    package private(set) var heldBytes = 0

    /// A journal of at most `capacity` entries; `decodeJSON` reads JSON bodies for readers.
    package init(capacity: Int = 100_000, decodeJSON: (@Sendable ([UInt8]) -> Value?)? = nil) {
        self.capacity = max(1, capacity)
        self.decodeJSON = decodeJSON
    }

    /// The number of entries held.
    package var count: Int { held }

    /// The stored entry `offset` places after the oldest.
    private func stored(_ offset: Int) -> StoredEntry { ring[(start + offset) % ring.count] }

    /// An entry as every reader sees it: decoded, its body parsed, its secrets replaced.
    private func shown(_ stored: StoredEntry) -> JournalEntry {
        var entry = JournalEntry(
            method: stored.method, path: stored.text(.path), query: stored.text(.query), flavour: stored.flavour,
            appID: stored.appID, operation: stored.operation, body: stored.text(.body),
            json: stored.json ?? (stored.bodyIsJSON ? decodeJSON?(Array(stored.bytes(.body))) : nil),
            status: stored.status, code: stored.code, time: stored.time, delayMilliseconds: stored.delayMilliseconds,
            connectionDropped: stored.connectionDropped
        )
        entry.sequence = stored.sequence
        entry.reply = stored.text(.reply)
        entry.durationMilliseconds = stored.durationMilliseconds
        entry.test = stored.test
        entry.fault = stored.fault
        return JournalRedaction.redact(entry)
    }

    /// Adds a request the server answered; returns its sequence number. Costs one allocation and a copy of its
    /// texts: no decoding, no scan of the bodies.
    @discardableResult
    package mutating func record(_ record: JournalRecord) -> Int {
        append(StoredEntry(record, sequence: takeSequence()))
    }

    /// Adds an entry given as a reader sees it (a test, a tool); returns its sequence number.
    @discardableResult
    package mutating func record(_ entry: JournalEntry) -> Int {
        let record = JournalRecord(
            method: entry.method, path: entry.path, query: entry.query, flavour: entry.flavour, appID: entry.appID,
            operation: entry.operation, body: Array(entry.body.utf8), bodyIsJSON: false, status: entry.status,
            code: entry.code, time: entry.time, delayMilliseconds: entry.delayMilliseconds,
            connectionDropped: entry.connectionDropped, reply: Array(entry.reply.utf8),
            durationMilliseconds: entry.durationMilliseconds, test: entry.test, fault: entry.fault
        )
        var stored = StoredEntry(record, sequence: takeSequence())
        stored.json = entry.json
        return append(stored)
    }

    private mutating func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    private mutating func append(_ entry: StoredEntry) -> Int {
        heldBytes += entry.heldBytes
        if held < ring.count {
            ring[(start + held) % ring.count] = entry  // a slot a trim freed
            held += 1
        } else if ring.count < capacity {
            // All the slots at once, on the first entry: doubling would copy the ring at every power of two, a
            // stall of milliseconds for the request that happens to cross it. (The pages are only touched as
            // entries fill them.)
            if ring.isEmpty { ring.reserveCapacity(capacity) }
            if start != 0 {  // slots freed by trims are all in use again: unwrap once before growing
                ring = Array(ring[start...] + ring[..<start])
                start = 0
            }
            ring.append(entry)
            held += 1
        } else {
            heldBytes -= ring[start].heldBytes
            ring[start] = entry
            start = (start + 1) % ring.count
            dropped += 1
        }
        return entry.sequence
    }

    /// The entries that match, oldest first (the newest `filter.limit` when it is set).
    package func entries(matching filter: JournalFilter = JournalFilter()) -> [JournalEntry] {
        var offsets: [Int] = []
        for offset in 0..<held where stored(offset).matches(filter) { offsets.append(offset) }
        if let limit = filter.limit, offsets.count > limit { offsets.removeFirst(offsets.count - max(0, limit)) }
        return offsets.map { shown(stored($0)) }
    }

    /// How many entries match (`filter.limit` aside).
    package func count(matching filter: JournalFilter) -> Int {
        var count = 0
        for offset in 0..<held where stored(offset).matches(filter) { count += 1 }
        return count
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
            if stored(middle).sequence <= after { low = middle + 1 } else { high = middle }
        }
        let first = max(low, count - max(0, limit))
        return (first..<count).map { shown(stored($0)) }
    }

    /// Drops the `count` oldest entries (they count as dropped), to make room in memory.
    package mutating func dropOldest(_ count: Int) {
        let count = min(max(0, count), held)
        guard count > 0 else { return }
        for offset in 0..<count {
            let slot = (start + offset) % ring.count
            heldBytes -= ring[slot].heldBytes
            ring[slot] = StoredEntry.freed  // its text is released now
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
}

/// One journal entry as the journal keeps it: the texts in one byte buffer, cut at `RequestJournal.bodyLimit`.
private struct StoredEntry {
    enum Part { case path, query, body, reply }

    var sequence: Int
    var method: String
    var flavour: String?
    var appID: String?
    var operation: String?
    var status: Int
    var code: Value?
    var time: Double
    var delayMilliseconds: Int
    var connectionDropped: Bool
    var durationMilliseconds: Double
    var test: String?
    var fault: FaultMark?
    var bodyIsJSON: Bool
    /// Set only for entries recorded as `JournalEntry` (their JSON as given).
    var json: Value?
    /// path, query, body and reply, one after the other.
    private var texts: [UInt8]
    private var pathEnd: Int32
    private var queryEnd: Int32
    private var bodyEnd: Int32
    private var bodyCut: Bool
    private var replyCut: Bool

    init(_ record: JournalRecord, sequence: Int) {
        self.sequence = sequence
        method = record.method
        flavour = record.flavour
        appID = record.appID
        operation = record.operation
        status = record.status
        code = record.code
        time = record.time
        delayMilliseconds = record.delayMilliseconds
        connectionDropped = record.connectionDropped
        durationMilliseconds = record.durationMilliseconds
        test = record.test
        fault = record.fault
        bodyCut = record.body.count > RequestJournal.bodyLimit
        replyCut = record.reply.count > RequestJournal.bodyLimit
        bodyIsJSON = record.bodyIsJSON && !bodyCut
        let body = record.body.prefix(RequestJournal.bodyLimit)
        let reply = record.reply.prefix(RequestJournal.bodyLimit)
        var texts: [UInt8] = []
        texts.reserveCapacity(record.path.utf8.count + record.query.utf8.count + body.count + reply.count)
        texts.append(contentsOf: record.path.utf8)
        pathEnd = Int32(texts.count)
        texts.append(contentsOf: record.query.utf8)
        queryEnd = Int32(texts.count)
        texts.append(contentsOf: body)
        bodyEnd = Int32(texts.count)
        texts.append(contentsOf: reply)
        self.texts = texts
    }

    static let freed = StoredEntry(
        JournalRecord(
            method: "", path: "", query: "", flavour: nil, appID: nil, operation: nil, body: [], bodyIsJSON: false,
            status: 0, code: nil, time: 0, delayMilliseconds: 0, connectionDropped: false, reply: [],
            durationMilliseconds: 0
        ),
        sequence: 0
    )

    func bytes(_ part: Part) -> ArraySlice<UInt8> {
        switch part {
        case .path: return texts[0..<Int(pathEnd)]
        case .query: return texts[Int(pathEnd)..<Int(queryEnd)]
        case .body: return texts[Int(queryEnd)..<Int(bodyEnd)]
        case .reply: return texts[Int(bodyEnd)...]
        }
    }

    /// A part as text (invalid UTF-8 repaired); a cut body or reply says where it was cut.
    func text(_ part: Part) -> String {
        let text = String(decoding: bytes(part), as: UTF8.self)
        let cut = (part == .body && bodyCut) || (part == .reply && replyCut)
        return cut ? text + "…[cut at \(RequestJournal.bodyLimit) bytes]" : text
    }

    /// What it holds (`HeldBytes`). A stored JSON value is estimated from the body's length, not walked.
    var heldBytes: Int {
        HeldBytes.perRecord * 2 + texts.count + (json == nil ? 0 : HeldBytes.perRecord + 2 * (Int(bodyEnd) - Int(queryEnd)))
    }

    func matches(_ filter: JournalFilter) -> Bool {
        if let method = filter.method, method.uppercased() != self.method { return false }
        if let path = filter.path, !bytes(.path).hasSuffix(path.utf8) { return false }
        if let operation = filter.operation, operation != self.operation { return false }
        if let appID = filter.appID, appID != self.appID { return false }
        if let status = filter.status, status != self.status { return false }
        if let code = filter.code, !JournalFilter.sameCode(code, self.code) { return false }
        if let test = filter.test, test != self.test { return false }
        return true
    }
}

extension ArraySlice<UInt8> {
    fileprivate func hasSuffix(_ suffix: String.UTF8View) -> Bool {
        count >= suffix.count && self.suffix(suffix.count).elementsEqual(suffix)
    }
}
