/// The error an injected fault answers with: a Backendless number or a Kii error code.
package enum FaultCode: Sendable, Hashable {
    case number(Int)
    case text(String)
}

/// What a reply fault puts in place of the body: the operation ran and the client gets a 200 with this.
package enum ReplyFault: String, Sendable, CaseIterable {
    /// No body at all.
    case empty
    /// The first half of the real body.
    case truncated
    /// Text that is not JSON.
    case malformed
}

/// A rule that makes matching calls of one operation (or of several: `users.*`, `*`) fail on purpose.
package struct Fault {
    /// Decides from the call's arguments whether the fault applies (a Lua `when` predicate, for instance).
    package typealias Condition = (FaultArguments) -> Bool

    /// Stable id, for `hits`, `remove` and listing.
    package let id: Int
    /// The operation name, such as `users.register`; `users.*` for every operation under `users.`, `*` for all.
    package let operation: String
    /// The error it answers with; nil for a fault that only delays the reply or drops the connection (over HTTP)
    /// and lets the call go through.
    package var code: FaultCode?
    package var message: String?
    /// The HTTP status to answer with (Kii errors; Backendless over HTTP).
    package var status: Int?
    /// How many more times it fires; nil for no limit.
    package var remaining: Int?
    /// The chance, from 0 to 1, that a matching call fails (drawn from the seeded generator).
    package var probability: Double
    package var condition: Condition?
    /// Extra delay before an HTTP reply, in milliseconds.
    package var delayMilliseconds: Int
    /// Over HTTP: close the connection without a reply.
    package var dropConnection: Bool
    /// Over HTTP: close with a reset (RST) instead of a clean close, without a reply.
    package var resetConnection = false
    /// Over HTTP: the operation runs and the client gets a 200 with an empty, truncated or malformed body.
    package var replyFault: ReplyFault?
    /// The operation's change is made first; then the error is answered (or the connection dropped).
    package var afterCommit = false
    /// The virtual time (seconds since the epoch) from which the fault applies; nil: from the start.
    package var from: Double?
    /// The virtual time at which the fault stops applying (the outage ends by itself); nil: never.
    package var until: Double?
    /// A delay drawn for each reply from the seeded generator, from `lowerBound` to `upperBound` milliseconds;
    /// nil: the fixed `delayMilliseconds`.
    package var delayRange: ClosedRange<Int>?
    /// How many calls it has failed so far.
    package internal(set) var hits: Int = 0

    package init(
        operation: String, code: FaultCode?, message: String? = nil, status: Int? = nil, times: Int? = nil,
        probability: Double = 1, condition: Condition? = nil, delayMilliseconds: Int = 0, dropConnection: Bool = false
    ) {
        self.id = 0
        self.operation = operation
        self.code = code
        self.message = message
        self.status = status
        self.remaining = times
        self.probability = probability
        self.condition = condition
        self.delayMilliseconds = delayMilliseconds
        self.dropConnection = dropConnection
    }

    fileprivate init(_ template: Fault, id: Int) {
        self.id = id
        operation = template.operation
        code = template.code
        message = template.message
        status = template.status
        remaining = template.remaining
        probability = template.probability
        condition = template.condition
        delayMilliseconds = template.delayMilliseconds
        dropConnection = template.dropConnection
        resetConnection = template.resetConnection
        replyFault = template.replyFault
        afterCommit = template.afterCommit
        from = template.from
        until = template.until
        delayRange = template.delayRange
    }

    /// What it holds (`HeldBytes`): its record and its text. A `when` predicate lives in the Lua state, which
    /// counts it.
    var heldBytes: Int {
        var total = HeldBytes.perRecord + HeldBytes.of(operation) + HeldBytes.of(message)
        if case .text(let text)? = code { total += HeldBytes.of(text) }
        return total
    }

    /// True when a call of `operation` is one this fault names: the same name, a `prefix.*` it starts with, or `*`.
    package func covers(_ operation: String) -> Bool {
        if self.operation == operation || self.operation == "*" { return true }
        guard self.operation.hasSuffix(".*") else { return false }
        return operation.hasPrefix(self.operation.dropLast())
    }

    /// True when the virtual time `now` is inside the fault's window (`from` included, `until` excluded).
    package func isOpen(at now: Double) -> Bool {
        (from.map { now >= $0 } ?? true) && (until.map { now < $0 } ?? true)
    }

    /// What it did to the request, for the journal: `error`, `after_commit`, `drop`, `reset`, `reply:empty`, `delay`.
    package var effect: String {
        if resetConnection { return "reset" }
        if dropConnection { return afterCommit ? "after_commit+drop" : "drop" }
        if let replyFault { return "reply:" + replyFault.rawValue }
        if code != nil { return afterCommit ? "after_commit" : "error" }
        return "delay"
    }
}

/// The faults injected into one backend, and the bookkeeping of how often each fired.
package struct FaultInjector {
    package private(set) var active: [Fault] = []
    private var finishedHits: [Int: Int] = [:]
    /// The ids of `finishedHits` in the order they finished, from `finishedStart` on (those before it are
    /// forgotten): only the last `keptFinishedHits` are remembered, so injecting and clearing faults again and
    /// again does not grow the backend.
    private var finishedOrder: [Int] = []
    private var finishedStart = 0
    /// How many finished faults' hits are remembered (`hits` of an older one answers nil).
    package static let keptFinishedHits = 1024
    private var nextID = 1
    /// The faults whose `when` predicate is running: calls made by a predicate are not subject to its own fault.
    var evaluating: Set<Int> = []
    private var random: SeededGenerator
    /// The fault that fired last, for the HTTP server's latency and dropped connections. Set it to nil before a
    /// call to see whether that call fired one.
    package var lastFired: Fault?
    /// The `after_commit` fault that matched the call being made: it fires once the call has made its change
    /// (`firePendingAfterCommit`). The adapters set it to nil before a call, with `lastFired`.
    package var pendingAfterCommit: Int?
    /// The calls counted in the current window of the app's rate limit (`rate_limit`).
    var rateCounter = RateLimitCounter()
    /// What the faults hold (`HeldBytes`: the active ones, and the hits kept of finished ones), kept as faults
    /// come and go: the memory cap counts it.
    package private(set) var heldBytes = 0
    /// Under `serve`: where each call's operation, arguments and outcome are left for the session's recording.
    package var capturer: CallCapturer?

    package init(random: SeededGenerator) {
        self.random = random
    }

    /// Adds a fault. Returns its id.
    @discardableResult
    package mutating func inject(_ fault: Fault) -> Int {
        let id = nextID
        nextID += 1
        if fault.remaining == 0 {
            finish(id: id, hits: 0)
        } else {
            active.append(Fault(fault, id: id))
            heldBytes += fault.heldBytes
        }
        return id
    }

    /// How often the fault fired, also after it was used up or removed. Nil for an unknown id.
    package func hits(of id: Int) -> Int? {
        if let fault = active.first(where: { $0.id == id }) { return fault.hits }
        return finishedHits[id]
    }

    /// The fault with this id while it is active.
    package func fault(id: Int) -> Fault? {
        active.first { $0.id == id }
    }

    /// Removes a fault. Returns false when it was not active.
    @discardableResult
    package mutating func remove(id: Int) -> Bool {
        guard let index = active.firstIndex(where: { $0.id == id }) else { return false }
        finish(active.remove(at: index))
        return true
    }

    /// Removes every fault.
    package mutating func clear() {
        for fault in active { finish(fault) }
        active.removeAll()
    }

    /// Keeps a finished fault's hits (its id's `hits` answer them) and stops counting what it held.
    private mutating func finish(_ fault: Fault) {
        heldBytes -= fault.heldBytes
        finish(id: fault.id, hits: fault.hits)
    }

    private mutating func finish(id: Int, hits: Int) {
        guard finishedHits.updateValue(hits, forKey: id) == nil else { return }
        heldBytes += HeldBytes.perEntry
        finishedOrder.append(id)
        if finishedOrder.count - finishedStart > Self.keptFinishedHits {
            finishedHits[finishedOrder[finishedStart]] = nil
            heldBytes -= HeldBytes.perEntry
            finishedStart += 1
            if finishedStart >= Self.keptFinishedHits {
                finishedOrder.removeFirst(finishedStart)
                finishedStart = 0
            }
        }
    }

    /// Counts a hit of the fault with this id, which a call of its operation matched (its `when` predicate, if
    /// any, said yes): draws its probability, counts down `times`, and records it as `lastFired`. Returns the
    /// fault when it fires, nil when the draw spared the call or the fault is gone (its predicate removed it).
    package mutating func fire(_ id: Int) -> Fault? {
        guard let index = active.firstIndex(where: { $0.id == id }) else { return nil }
        if active[index].probability < 1 {
            let draw = Double(random.next() >> 11) * 0x1p-53
            guard draw < active[index].probability else { return nil }
        }
        active[index].hits += 1
        var fired = active[index]
        if let range = fired.delayRange {
            fired.delayMilliseconds = range.lowerBound + Int(random.next() % UInt64(range.count))
        }
        lastFired = fired
        if let remaining = fired.remaining {
            if remaining <= 1 {
                finish(active.remove(at: index))
            } else {
                active[index].remaining = remaining - 1
            }
        }
        return fired
    }
}

extension EmulatedApp {
    /// Counts this call against the app's rate limit (`rate_limit` calls per `rate_limit_seconds`): the whole
    /// seconds until the window ends (at least 1, the `Retry-After`) when it is past the limit, else nil.
    package func rateLimitWait() -> Int? {
        guard let wait = faults.rateCounter.admit(at: clock.now, settings.rateLimit) else { return nil }
        return max(1, Int(wait.rounded(.up)))
    }

    /// The fault that fails this call of `operation`, if one applies; counts its hit. Faults are tried in the
    /// order they were injected; one without a code (delay or drop only) fires and lets the search go on, so the
    /// result is the first error fault that applies, carrying the delay and drop of those that fired before it,
    /// or, when no error fault applies, the delay and drop alone. A `when` predicate runs
    /// while the app's faults are not being changed, so it may read `hits`, inject or remove faults, and call
    /// the app; the calls it makes are not subject to its own fault (no endless recursion).
    package func triggerFault(_ operation: String, arguments: @autoclosure () -> FaultArguments) -> Fault? {
        let candidates = faults.active  // a copy: what predicates do to the faults does not disturb this loop
        if candidates.isEmpty { return nil }
        var lazyArguments: FaultArguments?
        // A fault without a code (a delay or a dropped connection) lets the call through: it fires, and the search
        // goes on, so a delay never hides an error fault behind it. What fired is combined into one: the error's
        // code, the longest delay, a drop if any asked for one.
        var passing: Fault?
        let now = clock.now
        for candidate in candidates where candidate.covers(operation) && !faults.evaluating.contains(candidate.id) {
            guard candidate.isOpen(at: now) else { continue }
            if let condition = candidate.condition {
                if lazyArguments == nil { lazyArguments = arguments() }
                faults.evaluating.insert(candidate.id)
                let applies = condition(lazyArguments!)
                faults.evaluating.remove(candidate.id)
                guard applies else { continue }
            }
            if candidate.afterCommit {
                // Fires once the call has made its change (`firePendingAfterCommit`); the first one waits.
                if faults.pendingAfterCommit == nil { faults.pendingAfterCommit = candidate.id }
                continue
            }
            guard var fired = faults.fire(candidate.id) else { continue }
            if let earlier = passing {
                fired.delayMilliseconds = max(fired.delayMilliseconds, earlier.delayMilliseconds)
                fired.dropConnection = fired.dropConnection || earlier.dropConnection
            }
            faults.lastFired = fired
            if fired.code != nil { return fired }
            passing = fired
        }
        return passing
    }

    /// Fires the `after_commit` fault the call matched, now that the call has made its change: returns it when
    /// it fires (the adapter then answers its error, or drops the connection), nil when none waits or the draw
    /// spared the call. Delays and drops of faults that fired before it are kept.
    package func firePendingAfterCommit() -> Fault? {
        guard let id = faults.pendingAfterCommit else { return nil }
        faults.pendingAfterCommit = nil
        let earlier = faults.lastFired
        guard var fired = faults.fire(id) else {
            faults.lastFired = earlier
            return nil
        }
        if let earlier {
            fired.delayMilliseconds = max(fired.delayMilliseconds, earlier.delayMilliseconds)
            fired.dropConnection = fired.dropConnection || earlier.dropConnection
        }
        faults.lastFired = fired
        return fired
    }
}
