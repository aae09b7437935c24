/// The error an injected fault answers with: a Backendless number or a Kii error code.
public enum FaultCode: Sendable, Hashable {
    case number(Int)
    case text(String)
}

/// A rule that makes matching calls of one operation fail on purpose.
public struct Fault {
    /// Decides from the call's arguments whether the fault applies (a Lua `when` predicate, for instance).
    public typealias Condition = (Value) -> Bool

    /// Stable id, for `hits`, `remove` and listing.
    public let id: Int
    /// The operation name, such as `users.register`.
    public let operation: String
    /// The error it answers with; nil for a fault that only delays the reply or drops the connection (over HTTP)
    /// and lets the call go through.
    public var code: FaultCode?
    public var message: String?
    /// The HTTP status to answer with (Kii errors; Backendless over HTTP).
    public var status: Int?
    /// How many more times it fires; nil for no limit.
    public var remaining: Int?
    /// The chance, from 0 to 1, that a matching call fails (drawn from the seeded generator).
    public var probability: Double
    public var condition: Condition?
    /// Extra delay before an HTTP reply, in milliseconds.
    public var delayMilliseconds: Int
    /// Over HTTP: close the connection without a reply.
    public var dropConnection: Bool
    /// How many calls it has failed so far.
    public internal(set) var hits: Int = 0

    public init(
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
    }
}

/// The faults injected into one backend, and the bookkeeping of how often each fired.
public struct FaultInjector {
    public private(set) var active: [Fault] = []
    private var finishedHits: [Int: Int] = [:]
    private var nextID = 1
    private var random: SeededGenerator
    /// The fault that fired last, for the HTTP server's latency and dropped connections. Set it to nil before a
    /// call to see whether that call fired one.
    public var lastFired: Fault?

    public init(random: SeededGenerator) {
        self.random = random
    }

    /// Adds a fault. Returns its id.
    @discardableResult
    public mutating func inject(_ fault: Fault) -> Int {
        let id = nextID
        nextID += 1
        if fault.remaining == 0 {
            finishedHits[id] = 0
        } else {
            active.append(Fault(fault, id: id))
        }
        return id
    }

    /// How often the fault fired, also after it was used up or removed. Nil for an unknown id.
    public func hits(of id: Int) -> Int? {
        if let fault = active.first(where: { $0.id == id }) { return fault.hits }
        return finishedHits[id]
    }

    /// The fault with this id while it is active.
    public func fault(id: Int) -> Fault? {
        active.first { $0.id == id }
    }

    /// Removes a fault. Returns false when it was not active.
    @discardableResult
    public mutating func remove(id: Int) -> Bool {
        guard let index = active.firstIndex(where: { $0.id == id }) else { return false }
        finishedHits[id] = active[index].hits
        active.remove(at: index)
        return true
    }

    /// Removes every fault.
    public mutating func clear() {
        for fault in active { finishedHits[fault.id] = fault.hits }
        active.removeAll()
    }

    /// The fault that fails this call of `operation`, if one applies. Counts the hit.
    public mutating func trigger(_ operation: String, arguments: @autoclosure () -> Value) -> Fault? {
        if active.isEmpty { return nil }
        var index = 0
        var lazyArguments: Value?
        while index < active.count {
            defer { index += 1 }
            guard active[index].operation == operation else { continue }
            if let condition = active[index].condition {
                if lazyArguments == nil { lazyArguments = arguments() }
                guard condition(lazyArguments!) else { continue }
            }
            if active[index].probability < 1 {
                let draw = Double(random.next() >> 11) * 0x1p-53
                guard draw < active[index].probability else { continue }
            }
            active[index].hits += 1
            let fired = active[index]
            lastFired = fired
            if let remaining = active[index].remaining {
                if remaining <= 1 {
                    finishedHits[fired.id] = fired.hits
                    active.remove(at: index)
                } else {
                    active[index].remaining = remaining - 1
                }
            }
            return fired
        }
        return nil
    }
}
