/// The fields of a fault as a scenario (`app.faults.inject{...}`) or an HTTP client (`POST /_understudy/faults`)
/// describes it, checked by one set of rules with one set of messages. The adapters only turn a Lua table or a
/// JSON object into `[String: Value]`; a `when` predicate is theirs to add (it is a Lua function).
package enum FaultSpec {
    /// The fields a fault may have, besides `when` (a Lua predicate) and, over HTTP, `app`.
    package static let fieldNames = [
        "op", "code", "message", "status", "times", "probability", "delay_ms", "drop", "reset", "reply", "after_commit",
        "from", "until", "for_seconds",
    ]

    /// The fault the fields describe, for an app of `App`'s flavour. An absent field (or JSON null) takes its
    /// default: `times` unlimited, `probability` 1, no delay, no drop.
    package static func fault<App: EmulatedApp>(from fields: [String: Value], for app: App) throws(FaultSpecError) -> Fault {
        func value(_ name: String) -> Value? {
            guard let found = fields[name], found != .null else { return nil }
            return found
        }
        let known = App.operations.joined(separator: ", ")
        guard let opValue = value("op") else { throw FaultSpecError("fault.op is required (one of: \(known))") }
        guard case .string(let operation) = opValue else {
            throw FaultSpecError("fault.op must be a string, got \(opValue.kindName)")
        }
        guard App.Operations(rawValue: operation) != nil || isWildcard(operation, among: App.operations) else {
            throw FaultSpecError(
                "unknown operation '\(operation)' in fault.op\(NearestName.suggestion(for: operation, among: App.operations, quote: "'")) (known: \(known); or a wildcard: \"*\" for every operation, "
                    + "\"users.*\" for those under users.)"
            )
        }
        var fault = Fault(operation: operation, code: try code(value("code"), flavour: app.flavour))
        if let message = value("message") {
            guard case .string(let text) = message else {
                throw FaultSpecError("fault.message must be a string, got \(message.kindName)")
            }
            fault.message = text
        }
        if let status = value("status") {
            guard case .int(let number) = status, (100...599).contains(number) else {
                throw FaultSpecError("fault.status must be an HTTP status (an integer from 100 to 599)")
            }
            fault.status = Int(number)
        }
        if let times = value("times") {
            guard case .int(let number) = times, number >= 0 else {
                throw FaultSpecError("fault.times must be a whole number of at least 0")
            }
            fault.remaining = Int(number)
        }
        if let probability = value("probability") {
            guard let number = probability.numberValue, number >= 0, number <= 1 else {
                throw FaultSpecError("fault.probability must be a number from 0 to 1")
            }
            fault.probability = number
        }
        if let delay = value("delay_ms") {
            try readDelay(delay, into: &fault)
        }
        fault.dropConnection = try flag(value("drop"), "drop")
        fault.resetConnection = try flag(value("reset"), "reset")
        fault.afterCommit = try flag(value("after_commit"), "after_commit")
        if let reply = value("reply") {
            let kinds = ReplyFault.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            guard case .string(let text) = reply, let kind = ReplyFault(rawValue: text) else {
                let nearest = reply.stringValue.map { NearestName.suggestion(for: $0, among: ReplyFault.allCases.map(\.rawValue), quote: "\"") } ?? ""
                throw FaultSpecError("fault.reply must be one of \(kinds), got \(reply.kindName == "string" ? "\"\(reply.stringValue!)\"" : reply.kindName)\(nearest)")
            }
            fault.replyFault = kind
        }
        fault.from = try time(value("from"), "from")
        fault.until = try time(value("until"), "until")
        if let seconds = value("for_seconds") {
            guard let number = seconds.numberValue, number > 0, number <= VirtualClock.limit else {
                throw FaultSpecError("fault.for_seconds must be a number of seconds greater than 0")
            }
            guard fault.until == nil else { throw FaultSpecError("fault.for_seconds and fault.until cannot both be given") }
            fault.until = max(fault.from ?? app.clock.now, app.clock.now) + number
        }
        if let from = fault.from, let until = fault.until, until <= from {
            throw FaultSpecError("fault.until (\(until)) must be later than fault.from (\(from))")
        }
        try checkCombination(fault)
        return fault
    }

    /// `delay_ms`: a whole number of milliseconds, or `{ min, max }` (also `{ min = ..., max = ... }`) drawn for
    /// each reply from the seeded generator.
    private static func readDelay(_ delay: Value, into fault: inout Fault) throws(FaultSpecError) {
        func milliseconds(_ value: Value?) -> Int? {
            guard case .int(let number)? = value, number >= 0, number <= 600_000 else { return nil }
            return Int(number)
        }
        var bounds: (low: Value?, high: Value?)?
        switch delay {
        case .int:
            if let fixed = milliseconds(delay) {
                fault.delayMilliseconds = fixed
                return
            }
        case .array(let items) where items.count == 2: bounds = (items[0], items[1])
        case .object(let fields) where Set(fields.keys) == ["min", "max"]: bounds = (fields["min"], fields["max"])
        default: break
        }
        guard let bounds, let low = milliseconds(bounds.low), let high = milliseconds(bounds.high), low <= high else {
            throw FaultSpecError(
                "fault.delay_ms must be a whole number of milliseconds from 0 to 600000, or { min, max } with 0 <= min <= max <= 600000"
            )
        }
        fault.delayRange = low...high
        fault.delayMilliseconds = high
    }

    private static func flag(_ value: Value?, _ name: String) throws(FaultSpecError) -> Bool {
        guard let value else { return false }
        guard case .bool(let flag) = value else { throw FaultSpecError("fault.\(name) must be true or false") }
        return flag
    }

    /// `from` / `until`: a virtual time in seconds since the epoch (what `clock.now()` answers).
    private static func time(_ value: Value?, _ name: String) throws(FaultSpecError) -> Double? {
        guard let value else { return nil }
        guard let seconds = value.numberValue, VirtualClock.accepts(seconds) else {
            throw FaultSpecError("fault.\(name) must be a virtual time in seconds since the epoch (as clock.now() gives), got \(value.kindName)")
        }
        return seconds
    }

    /// The fields that cannot go together, and the one a fault needs.
    private static func checkCombination(_ fault: Fault) throws(FaultSpecError) {
        let network = [fault.dropConnection ? "drop" : nil, fault.resetConnection ? "reset" : nil, fault.replyFault.map { _ in "reply" }]
            .compactMap { $0 }
        if network.count > 1 {
            throw FaultSpecError("fault.\(network[0]) and fault.\(network[1]) cannot both be given: the client meets one of them")
        }
        if fault.replyFault != nil, fault.code != nil {
            throw FaultSpecError("fault.reply answers a 200 with a broken body and cannot have a fault.code")
        }
        if fault.afterCommit, fault.code == nil, !fault.dropConnection, !fault.resetConnection {
            throw FaultSpecError("fault.after_commit needs a fault.code to answer (or drop/reset) once the change is made")
        }
        if fault.code == nil, fault.delayMilliseconds == 0, network.isEmpty {
            throw FaultSpecError(
                "fault.code is required (a Backendless error number or a Kii error code), unless the fault only "
                    + "delays replies (delay_ms), drops or resets connections (drop, reset) or breaks the reply's body "
                    + "(reply) over HTTP"
            )
        }
    }

    /// True for `*`, and for `prefix.*` when some operation starts with `prefix.`.
    static func isWildcard(_ operation: String, among operations: [String]) -> Bool {
        if operation == "*" { return true }
        guard operation.hasSuffix(".*"), operation.count > 2 else { return false }
        let prefix = operation.dropLast()
        return operations.contains { $0.hasPrefix(prefix) }
    }

    /// The error code for a flavour: a Backendless number (a numeric string is read as one) or a Kii errorCode.
    static func code(_ value: Value?, flavour: Flavour) throws(FaultSpecError) -> FaultCode? {
        let code: FaultCode
        switch value {
        case nil: return nil
        case .int(let number)?: code = .number(Int(number))
        case .string(let text)? where !text.isEmpty: code = .text(text)
        case let other?: throw FaultSpecError("fault.code must be an integer or a non-empty string, got \(other.kindName)")
        }
        switch (flavour, code) {
        case (.backendless, .text(let text)):
            guard let number = Int(text) else {
                throw FaultSpecError("fault.code of a Backendless backend is an error number such as 3033, got \"\(text)\"")
            }
            return .number(number)
        case (.kii, .number(let number)):
            throw FaultSpecError(
                "fault.code of a Kii backend is an errorCode string such as \"RESOURCE_TEMPORARILY_UNAVAILABLE\", got "
                    + "\(number); put an HTTP status in fault.status"
            )
        default: return code
        }
    }

    /// Whether a code has the form a flavour's codes have (a Kii errorCode is not a number), for picking the app
    /// a fault without an `app` goes to.
    package static func looksLike(_ flavour: Flavour, code: Value?) -> Bool? {
        switch code {
        case .string(let text)?: return (Int(text) == nil) == (flavour == .kii)
        case .int?, .double?: return flavour == .backendless
        default: return nil
        }
    }
}

/// Why a fault's fields cannot be injected; the message names the field.
package struct FaultSpecError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }

    package init(_ message: String) {
        self.message = message
    }
}
