/// The fields of a fault as a scenario (`app.faults.inject{...}`) or an HTTP client (`POST /_understudy/faults`)
/// describes it, checked by one set of rules with one set of messages. The adapters only turn a Lua table or a
/// JSON object into `[String: Value]`; a `when` predicate is theirs to add (it is a Lua function).
package enum FaultSpec {
    /// The fields a fault may have, besides `when` (a Lua predicate) and, over HTTP, `app`.
    package static let fieldNames = ["op", "code", "message", "status", "times", "probability", "delay_ms", "drop"]

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
        guard App.Operations(rawValue: operation) != nil else {
            throw FaultSpecError("unknown operation '\(operation)' in fault.op (known: \(known))")
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
            guard case .int(let number) = delay, number >= 0, number <= 600_000 else {
                throw FaultSpecError("fault.delay_ms must be a whole number of milliseconds from 0 to 600000")
            }
            fault.delayMilliseconds = Int(number)
        }
        if let drop = value("drop") {
            guard case .bool(let flag) = drop else { throw FaultSpecError("fault.drop must be true or false") }
            fault.dropConnection = flag
        }
        if fault.code == nil, fault.delayMilliseconds == 0, !fault.dropConnection {
            throw FaultSpecError(
                "fault.code is required (a Backendless error number or a Kii error code), unless the fault only "
                    + "delays replies (delay_ms) or drops connections (drop) over HTTP"
            )
        }
        return fault
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
