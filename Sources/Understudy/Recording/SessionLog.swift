/// What `understudy serve` keeps, beside the request journal, to write the session since the last reset as a
/// scenario (`GET /_understudy/record`): the apps as the session began, every control action with what it
/// changed, and for each vendor request the operation it ran as a Lua call would have made it (its arguments as
/// the declaration names them, its outcome, the fault that fired, what the outbox received).
///
/// Nothing here is shown as it is: the captured arguments hold passwords and tokens, which the recorder turns
/// into placeholders and variables (`ScenarioRecorder`). A `ServedWorld` makes a new log at every reset.
package final class SessionLog {
    /// The journal's last sequence number when the session began: the session's requests come after it.
    package let startSequence: Int
    /// Each app as the session began, in the world's order.
    package private(set) var start: [AppState] = []
    /// The setup script the session began with (its path and text), when the server has one.
    package private(set) var setup: (path: String, text: String)?
    /// True when the apps' clocks started at a time given on the command line (`--clock-start`), not the real time.
    package private(set) var fixedClockStart = false
    /// Control actions and vendor calls, in the order they happened (those the journal still holds).
    package var steps: ArraySlice<SessionStep> { storage[head...] }
    /// Vendor calls forgotten with their journal entries (a full journal, the memory cap).
    package private(set) var droppedCalls = 0
    /// What the steps hold (`HeldBytes`), kept as steps come and go: the memory cap counts it with the journal's.
    package private(set) var heldBytes = 0
    /// The steps from `head` on are kept; the slots before it are freed and reused when the array is compacted.
    private var storage: [SessionStep] = []
    private var sizes: [Int] = []
    private var head = 0
    /// Where the served apps' fault checks and performers leave the call being made.
    package let capturer = CallCapturer()
    /// How many emails, SMS and pushes of each app the log has seen, so each step takes only what is new.
    private var seen: [ObjectIdentifier: OutboxCounts] = [:]

    package init(startSequence: Int) {
        self.startSequence = startSequence
    }

    /// Notes the apps as the session begins (after the setup script ran).
    package func begin(apps: [any EmulatedApp], setup: (path: String, text: String)?, fixedClockStart: Bool) {
        start = apps.map(AppState.init)
        self.setup = setup
        self.fixedClockStart = fixedClockStart
        for app in apps { seen[ObjectIdentifier(app)] = OutboxCounts(app.outbox) }
    }

    /// The state of `apps` now, to compare with after a control action.
    package func states(of apps: [any EmulatedApp]) -> [AppState] { apps.map(AppState.init) }

    /// Records a vendor request the journal recorded under `sequence`: the call the capturer holds (if the
    /// request reached an operation), the fault that fired and what the outbox of `apps` received.
    package func noteRequest(
        sequence: Int, app: (any EmulatedApp)?, apps: [any EmulatedApp], fired: Fault?, reply: @autoclosure () -> [UInt8]
    ) {
        var call = capturer.take()
        if var captured = call {
            captured.appIndex = app.flatMap { app in apps.firstIndex { $0 === app } }
            captured.fault = fired.map(PinnedFault.init)
            // A hand-written handler's outcome is its answer: kept as sent (the journal shows it redacted).
            if captured.result == nil { captured.reply = String(decoding: reply(), as: UTF8.self) }
            call = captured
        }
        let outbox = newOutbox(apps)
        var bytes = HeldBytes.perRecord + outbox.reduce(0) { $0 + HeldBytes.perRecord + HeldBytes.of($1.item) }
        if let call {
            bytes += call.arguments.reduce(0) { $0 + HeldBytes.of($1) }
            if case .value(let value)? = call.result { bytes += HeldBytes.of(value) }
            bytes += call.reply?.utf8.count ?? 0
        }
        append(.request(RequestStep(sequence: sequence, call: call, outbox: outbox)), bytes: bytes)
    }

    /// Forgets the steps before the journal's entry `sequence` (the journal dropped the entries before it).
    package func forget(before sequence: Int) {
        while head < storage.count {
            switch storage[head] {
            case .request(let request) where request.sequence >= sequence: return compact()
            case .control(let control) where control.afterSequence >= sequence - 1: return compact()
            case .request: droppedCalls += 1
            case .control: break
            }
            heldBytes -= sizes[head]
            storage[head] = .control(.freed)
            head += 1
        }
        compact()
    }

    /// Moves the kept steps to the front once the freed slots are more than half of them.
    private func compact() {
        guard head > 64, head * 2 > storage.count else { return }
        storage.removeFirst(head)
        sizes.removeFirst(head)
        head = 0
    }

    /// Records a control request that changed something (or tried to): `before` are the apps' states before it.
    package func noteControl(
        method: String, path: String, query: String, body: String, status: Int, afterSequence: Int, before: [AppState],
        apps: [any EmulatedApp]
    ) {
        let call = capturer.take()
        let after = states(of: apps)
        let step = ControlStep(
            method: method, path: path, query: query, body: body, status: status, afterSequence: afterSequence,
            before: before, after: after, call: call, outbox: newOutbox(apps)
        )
        append(.control(step), bytes: HeldBytes.perRecord * (2 + before.count + after.count) + body.utf8.count)
    }

    private func append(_ step: SessionStep, bytes: Int) {
        storage.append(step)
        sizes.append(bytes)
        heldBytes += bytes
    }

    /// What the outbox of each app received since the last step (an outbox cleared starts again from its count).
    private func newOutbox(_ apps: [any EmulatedApp]) -> [SentItem] {
        var items: [SentItem] = []
        for (index, app) in apps.enumerated() {
            let key = ObjectIdentifier(app)
            let now = OutboxCounts(app.outbox)
            let was = seen[key] ?? now
            if now.emails > was.emails {
                items += app.outbox.emails[was.emails...].map { SentItem(appIndex: index, kind: .email, item: $0.value) }
            }
            if now.sms > was.sms { items += app.outbox.sms[was.sms...].map { SentItem(appIndex: index, kind: .sms, item: $0.value) } }
            if now.pushes > was.pushes {
                items += app.outbox.pushes[was.pushes...].map { SentItem(appIndex: index, kind: .push, item: $0.value) }
            }
            seen[key] = now
        }
        return items
    }
}

/// How many emails, SMS and pushes an outbox holds.
struct OutboxCounts: Hashable {
    var emails: Int
    var sms: Int
    var pushes: Int

    init(_ outbox: Outbox) {
        emails = outbox.emails.count
        sms = outbox.sms.count
        pushes = outbox.pushes.count
    }
}

/// One thing that happened in a session: a vendor request or a control action.
package enum SessionStep {
    case request(RequestStep)
    case control(ControlStep)
}

/// A vendor request: its journal sequence, the call it made (nil when it was answered before an operation ran)
/// and what the outbox received.
package struct RequestStep {
    package var sequence: Int
    package var call: CapturedCall?
    package var outbox: [SentItem]
}

/// A control request (`POST /_understudy/...`, `PATCH`, `DELETE`): what it asked, what it answered, the apps
/// before and after it, the operation it made (a dashboard action), what the outbox received (a clock move's
/// scheduled pushes).
package struct ControlStep {
    package var method: String
    package var path: String
    package var query: String
    /// The body as text (a Lua chunk, a fault, settings).
    package var body: String
    package var status: Int
    /// The journal's last sequence when it happened.
    package var afterSequence: Int
    package var before: [AppState]
    package var after: [AppState]
    package var call: CapturedCall?
    package var outbox: [SentItem]

    /// An empty step, in a slot the log freed.
    static let freed = ControlStep(
        method: "", path: "", query: "", body: "", status: 0, afterSequence: 0, before: [], after: [], call: nil, outbox: []
    )
}

/// An email, text message or push an app sent, as scenarios see it.
package struct SentItem {
    package enum Kind: String { case email, sms, push }
    package var appIndex: Int
    package var kind: Kind
    /// Its fields, as `app.outbox.*` lists them.
    package var item: Value
}

/// What the recorder needs of an app at one moment: who it is, its settings, its clock, its counts.
package struct AppState: Equatable {
    package var flavour: Flavour
    package var appID: String
    /// Every setting by name, in the documented order.
    package var settings: [(name: String, value: Value)]
    package var now: Double
    package var users: Int
    package var registrations: Int
    package var faults: [Int]
    package var outbox: Int

    init(_ app: any EmulatedApp) {
        flavour = app.flavour
        appID = app.appID
        settings = type(of: app).settingNames.compactMap { name in app.setting(name).map { (name, $0) } }
        now = app.clock.now
        users = app.userCount
        registrations = app.registrationCount
        faults = app.faults.active.map(\.id)
        outbox = app.outbox.emails.count + app.outbox.sms.count + app.outbox.pushes.count
    }

    package static func == (lhs: AppState, rhs: AppState) -> Bool {
        lhs.flavour == rhs.flavour && lhs.appID == rhs.appID && lhs.now == rhs.now && lhs.users == rhs.users
            && lhs.registrations == rhs.registrations && lhs.faults == rhs.faults && lhs.outbox == rhs.outbox
            && lhs.settings.elementsEqual(rhs.settings) { $0.name == $1.name && $0.value == $1.value }
    }

    /// A setting's value by name.
    package func setting(_ name: String) -> Value? { settings.first { $0.name == name }?.value }
}

/// The call a served app is making, as its fault check and its performer see it. The server empties it before a
/// request and takes it after; the first operation checked wins (a `when` predicate's own calls come later).
package final class CallCapturer {
    package var call: CapturedCall?

    package init() {}

    /// Notes the operation whose faults are being checked, with its arguments in the declared order.
    func begin(_ operation: String, _ arguments: () -> [Value]) {
        guard call == nil else { return }
        call = CapturedCall(operation: operation, arguments: arguments())
    }

    /// Notes a call a hand-written route made and how it ended (Kii's client-credentials token as the console's
    /// `admin.token`), unless an operation was captured first.
    package func note(_ operation: String, arguments: [Value] = [], result: CapturedResult) {
        guard call == nil else { return }
        call = CapturedCall(operation: operation, arguments: arguments)
        call?.result = result
    }

    /// Notes how the operation being captured ended, as a Lua call would see it.
    func finish(_ operation: String, _ result: CapturedResult) {
        guard call?.operation == operation, call?.result == nil else { return }
        call?.result = result
    }

    /// Runs `body` (an operation's fault check and method) and notes how it ended under `operation`, its error as
    /// `code` names it; without a capturer (not under `serve`) it only runs `body`.
    static func capturing<Failure: Error>(
        _ capturer: CallCapturer?, _ operation: String, code: (Failure) -> Value, _ body: () throws(Failure) -> Outcome
    ) throws(Failure) -> Outcome {
        guard let capturer else { return try body() }
        do throws(Failure) {
            let outcome = try body()
            capturer.finish(operation, CapturedResult(outcome))
            return outcome
        } catch {
            capturer.finish(operation, .failed(code(error)))
            throw error
        }
    }

    /// The call captured since the last `take`, and forgets it.
    package func take() -> CapturedCall? {
        defer { call = nil }
        return call
    }
}

/// One operation a request made.
package struct CapturedCall {
    /// The operation's name (`users.login`).
    package var operation: String
    /// Its arguments in the declared order, as the adapter read them (secrets included: never shown as they are).
    package var arguments: [Value]
    /// How it ended, when a declared performer ran it; nil for an operation answered by a hand-written handler
    /// (the HTTP answer then tells).
    package var result: CapturedResult?
    /// The app it ran on, by its position in the world.
    package var appIndex: Int?
    /// The fault that fired on it.
    package var fault: PinnedFault?
    /// The reply body as sent, for an operation a hand-written handler answers (no `result`).
    package var reply: String?

    package init(operation: String, arguments: [Value]) {
        self.operation = operation
        self.arguments = arguments
    }
}

/// How a call ended, as the Lua call sees it.
package enum CapturedResult: Equatable {
    /// A result (a record in the scenarios' shape, a text, `true`).
    case value(Value)
    /// No record (`nil` without an error).
    case nothing
    /// An error with this code (a Backendless number, a Kii `errorCode`).
    case failed(Value)

    init(_ outcome: Outcome) {
        switch outcome {
        case .record(let record): self = .value(record.value)
        case .nothing: self = .nothing
        case .done: self = .value(.bool(true))
        case .text(let text): self = .value(.string(text))
        case .value(let value): self = .value(value)
        case .records(let records): self = .value(.array(records.map(\.value)))
        case .recordsByName(let records):
            var object: [String: Value] = [:]
            for (name, record) in records { object[name] = record.value }
            self = .value(.object(object))
        case .app(let app): self = .value(.string(app.appID))
        case .apps(let apps): self = .value(.array(apps.map { .string($0.appID) }))
        }
    }
}

/// A fault as it fired on one call: what `faults.inject` needs to make it fire there again.
package struct PinnedFault: Equatable {
    package var code: FaultCode?
    package var message: String?
    package var status: Int?
    package var afterCommit: Bool
    package var drop: Bool
    package var reset: Bool
    package var reply: String?
    package var delayMilliseconds: Int

    init(_ fault: Fault) {
        code = fault.code
        message = fault.message
        status = fault.status
        afterCommit = fault.afterCommit
        drop = fault.dropConnection
        reset = fault.resetConnection
        reply = fault.replyFault?.rawValue
        delayMilliseconds = fault.delayMilliseconds
    }
}


extension BackendlessError {
    /// The code a scenario's `expect.error` names: the number.
    var recordedCode: Value { .int(Int64(code)) }
}

extension KiiError {
    /// The code a scenario's `expect.error` names: the `errorCode`.
    var recordedCode: Value { .string(code) }
}
