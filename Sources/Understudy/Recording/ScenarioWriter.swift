/// One scenario of a recorded file: the apps as the session began, then the session's moments as Lua; or, for a
/// session whose requests named tests (`X-Understudy-Test`), the whole session in parts, one per stretch of one
/// test's requests, and one scenario per test that replays the parts up to its test's last request (`writeParts`).
/// Keeps the variables results are bound to, so a later argument reads an id, a token or a code from where it
/// first appeared.
struct ScenarioWriter {
    /// One line (or block) of the scenario's body.
    struct Statement {
        /// The text, without `local NAME = ` (added when something reads `binds`).
        var text: String
        /// The variable the statement's result is bound to, if something reads it.
        var binds: String?
        /// A call with nothing attached (no fault, no outbox): repeats of it collapse into a loop.
        var repeatable = false
        /// The journal sequence it came from, for the `-- #N` note.
        var sequence: Int?
    }

    let recorder: ScenarioRecorder
    /// The test whose requests this scenario holds; nil: those that named none. Unused by `writeParts`.
    let test: String?
    /// True while writing the whole session in parts: the values results are bound to live in the scenario's
    /// environment (`_ENV`, shared by the parts), not in locals.
    private var inParts = false
    private var statements: [Statement] = []
    /// Values first seen in an answer or the outbox, and the expression that reads each.
    private var bindings: [String: String] = [:]
    /// Values the app sent (never bound to an answer that repeats them).
    private var sent: Set<String> = []
    private var counters: [String: Int] = [:]
    private var used: Set<String> = []
    /// How many items of the outbox went to each recipient, by app and kind.
    private var received: [String: Int] = [:]
    private var appVariables: [Int: String] = [:]
    private var appFlavours: [Int: Flavour] = [:]
    /// The snapshots the session took since it began, by name: what the outbox had received then, and how many
    /// apps there were (a restore brings both back).
    private var snapshots: [String: (received: [String: Int], apps: Int)] = [:]
    private var calls = 0
    private var comments = 0
    /// While a call's arguments are written: its app and the virtual time it was made at.
    private var clockAtCall: (app: String, index: Int?, time: Double)?

    /// Arguments that are times on the virtual clock: written as an offset from the clock (`clock.now() + 3600`),
    /// since a client computes them from its own clock (the session's started at the real time, the replay's at
    /// 2030-01-01).
    static let timeArguments: Set<String> = ["expiration", "publish_at", "repeat_expires_at", "from", "until"]

    init(recorder: ScenarioRecorder, test: String?) {
        self.recorder = recorder
        self.test = test
    }

    private var log: SessionLog { recorder.log }

    // MARK: The scenario

    mutating func write(name: String) -> [String] {
        declareApps()
        for moment in recorder.moments {
            switch moment {
            case .request(let entry, let step):
                guard entry.test == test else { continue }
                request(entry, step)
            case .control(let control): self.control(control)
            }
        }
        var lines = ["scenario(\(LuaSource.string(name)), { tags = { \"recorded\" } }, function()"]
        lines.append("  -- \(countsText)")
        lines += render(statements.indices).map { "  " + $0 }
        lines.append("end)")
        return lines
    }

    private var countsText: String {
        "\(calls) call\(calls == 1 ? "" : "s") and \(comments) comment\(comments == 1 ? "" : "s") for requests no Lua call makes"
    }

    /// The whole session, for a session whose requests named tests: the apps as it began (`start`), then one part
    /// per stretch of one test's requests (the control actions before a request go with it), then one scenario per
    /// entry of `scenarios` (a test, or nil for the requests that named none) that replays the parts up to the
    /// last one holding its requests. A test's requests may need what earlier tests made (the user it logs in, the
    /// token it sends), so each scenario starts from the world its test saw, not from the apps as they began.
    mutating func writeParts(_ scenarios: [(name: String, test: String?)]) -> [String] {
        inParts = true
        declareApps()
        let startEnd = statements.count
        // Each moment's part: a new part where a request names another test than the one before it.
        var partTests: [String?] = []
        var partOfMoment = [Int](repeating: 0, count: recorder.moments.count)
        var waiting: [Int] = []
        for (index, moment) in recorder.moments.enumerated() {
            switch moment {
            case .request(let entry, _):
                if let last = partTests.last, last == entry.test {} else { partTests.append(entry.test) }
                for control in waiting + [index] { partOfMoment[control] = partTests.count - 1 }
                waiting = []
            case .control: waiting.append(index)
            }
        }
        for control in waiting { partOfMoment[control] = max(0, partTests.count - 1) }
        var partStarts = [Int](repeating: startEnd, count: partTests.count + 1)
        var firstSequence = [Int?](repeating: nil, count: partTests.count)
        var lastSequence = [Int?](repeating: nil, count: partTests.count)
        var current = -1
        for (index, moment) in recorder.moments.enumerated() {
            let part = partOfMoment[index]
            while current < part {
                current += 1
                partStarts[current] = statements.count
            }
            switch moment {
            case .request(let entry, let step):
                firstSequence[part] = firstSequence[part] ?? entry.sequence
                lastSequence[part] = entry.sequence
                request(entry, step)
            case .control(let control): self.control(control)
            }
        }
        while current < partTests.count {
            current += 1
            partStarts[current] = statements.count
        }
        var lines = [
            "-- The session's requests named tests (X-Understudy-Test): a test may need what earlier ones made, so the",
            "-- session is written once, in parts (each a stretch of one test's requests, with the control actions before",
            "-- them), and each test's scenario replays the parts up to its last request, from the apps as the session",
            "-- began. The values the parts read from earlier results live in the scenario's environment (_ENV).",
            "-- \(countsText).",
            "local function start(_ENV)",
        ]
        lines += render(0..<startEnd).map { "  " + $0 }
        lines.append("end")
        lines.append("")
        lines.append("local part = {}")
        for (index, test) in partTests.enumerated() {
            let requests = firstSequence[index].map { first in
                let last = lastSequence[index] ?? first
                return first == last ? "request #\(first)" : "requests #\(first)-#\(last)"
            } ?? "no request"
            let owner = test.map { "test " + LuaSource.string($0) } ?? "the requests that named no test"
            lines.append("")
            lines.append("-- part \(index + 1): \(owner.replacing("\n", with: " ")), \(requests)")
            lines.append("part[\(index + 1)] = function(_ENV)")
            lines += render(partStarts[index]..<partStarts[index + 1]).map { "  " + $0 }
            lines.append("end")
        }
        lines += [
            "",
            "-- Runs the apps' start and parts 1 to `last` in one environment, as the session ran them.",
            "local function replay(last)",
            "  local env = setmetatable({}, { __index = _G })",
            "  start(env)",
            "  for index = 1, last do part[index](env) end",
            "end",
        ]
        for scenario in scenarios {
            let last = (partTests.lastIndex { $0 == scenario.test } ?? -1) + 1
            lines.append("")
            lines.append("scenario(\(LuaSource.string(scenario.name)), { tags = { \"recorded\" } }, function()")
            lines.append("  replay(\(last))  -- " + (last == 1 ? "part 1" : "parts 1 to \(last)"))
            lines.append("end)")
        }
        return lines
    }

    /// `local ` in a scenario; nothing in the parts of a whole session (their values live in `_ENV`).
    private var localKeyword: String { inParts ? "" : "local " }

    /// The statements `range` of them as text: `local` only for variables something reads; runs of the same call
    /// (a polling loop) as one loop.
    private func render(_ range: Range<Int>) -> [String] {
        var lines: [String] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let statement = statements[index]
            var end = index + 1
            if statement.repeatable, statement.binds.map({ !used.contains($0) }) ?? true {
                while end < range.upperBound, statements[end].repeatable, statements[end].text == statement.text,
                    statements[end].binds.map({ !used.contains($0) }) ?? true
                {
                    end += 1
                }
            }
            if end - index > 1 {
                let first = statement.sequence.map { "#\($0)" } ?? ""
                let last = statements[end - 1].sequence.map { "#\($0)" } ?? ""
                lines.append("for _ = 1, \(end - index) do  -- \(first)-\(last): the same call \(end - index) times (a polling loop)")
                lines.append("  " + statement.text)
                lines.append("end")
            } else {
                var text = statement.text
                if let binds = statement.binds, used.contains(binds) { text = "\(localKeyword)\(binds) = " + text }
                if let sequence = statement.sequence { text += "  -- #\(sequence)" }
                lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
            index = end
        }
        return lines
    }

    private mutating func add(_ text: String, binds: String? = nil, repeatable: Bool = false, sequence: Int? = nil) {
        statements.append(Statement(text: text, binds: binds, repeatable: repeatable, sequence: sequence))
    }

    private mutating func comment(_ text: String) {
        add("-- " + text.replacing("\n", with: " "))
    }

    // MARK: Apps

    /// The apps as the session began: made with their settings (those not at their defaults), or by the setup
    /// script.
    private mutating func declareApps() {
        var perFlavour: [Flavour: Int] = [:]
        for state in log.start { perFlavour[state.flavour, default: 0] += 1 }
        if log.setup != nil { add("setup()") }
        var seen: [Flavour: Int] = [:]
        for (index, state) in log.start.enumerated() {
            seen[state.flavour, default: 0] += 1
            let number = seen[state.flavour]!
            let name = log.start.count == 1 ? "app" : state.flavour.rawValue + (number > 1 ? String(number) : "")
            appVariables[index] = name
            appFlavours[index] = state.flavour
            used.insert(name)
            let made = "understudy.\(state.flavour.rawValue)\(Self.settingsArgument(state))"
            if log.setup != nil {
                add("\(localKeyword)\(name) = understudy.app(\(LuaSource.string(state.appID))) or \(made)")
            } else {
                add("\(localKeyword)\(name) = \(made)")
            }
            if log.fixedClockStart, state.now != VirtualClock.start {
                add("\(name).clock.set(\(LuaSource.number(state.now)))")
            }
        }
    }

    /// `{ registration = false }`: the settings that differ from a fresh app's, or `()`.
    private static func settingsArgument(_ state: AppState) -> String {
        let defaults: [(name: String, value: Value)]
        switch state.flavour {
        case .backendless:
            let fresh = BackendlessSettings()
            defaults = BackendlessSettings.names.compactMap { name in fresh.value(of: name).map { (name, $0) } }
        case .kii:
            let fresh = KiiSettings()
            defaults = KiiSettings.names.compactMap { name in fresh.value(of: name).map { (name, $0) } }
        }
        let changed = state.settings.filter { setting in defaults.first { $0.name == setting.name }?.value != setting.value }
        if changed.isEmpty { return "()" }
        return "{ " + changed.map { LuaSource.key($0.name) + " = " + LuaSource.literal($0.value) }.joined(separator: ", ") + " }"
    }

    /// The variable of the app at `index` in the world; an app made during the session is looked up by its id.
    private mutating func app(_ index: Int?, appID: String? = nil) -> String {
        if let index, let name = appVariables[index] { return name }
        let name = "app\((index ?? appVariables.count) + 1)"
        if let index { appVariables[index] = name }
        used.insert(name)
        add("\(localKeyword)\(name) = understudy.app(\(LuaSource.string(appID ?? "")))")
        return name
    }

    // MARK: Requests

    private mutating func request(_ entry: JournalEntry, _ step: RequestStep?) {
        let where_ = "\(entry.method) \(pathReadingBoundValues(entry.path))"
        guard let step, let call = step.call else {
            comments += 1
            if entry.operation == nil, entry.status == 404 || entry.status == 405 {
                let nearest = recorder.options.nearestRoute(entry.method, entry.path).map { "; nearest route: \($0)" } ?? ""
                comment("#\(entry.sequence) \(where_): no route answered it (\(entry.status))\(nearest)")
            } else {
                let code = entry.code.map { " code \(Self.codeText($0))" } ?? ""
                let operation = entry.operation.map { " (\($0))" } ?? ""
                comment("#\(entry.sequence) \(where_)\(operation): answered \(entry.status)\(code) before any operation ran; no Lua call makes this request")
            }
            if let step { unrepeated(step.outbox) }
            return
        }
        let flavour = entry.flavour.flatMap(Flavour.init(rawValue:))
        if perform(call, flavour: flavour, entry: entry, sequence: entry.sequence, where: where_) {
            outbox(step.outbox)
        } else {
            unrepeated(step.outbox)
        }
    }

    /// What the outbox received from a request the scenario cannot make: named in a comment, not checked.
    private mutating func unrepeated(_ items: [SentItem]) {
        for item in items {
            let (_, to) = recipient(item)
            let shown = ScenarioRecorder.looksIssued(to) && !sent.contains(to) ? "" : " to \(to)"
            comment("  it sent a \(item.kind.rawValue)\(shown), which the replay does not send")
        }
    }

    /// A captured call as a Lua call with its outcome asserted (the fault that fired pinned before it); false when
    /// no Lua call makes it (a comment says so).
    @discardableResult
    private mutating func perform(_ call: CapturedCall, flavour: Flavour?, entry: JournalEntry?, sequence: Int?, where place: String) -> Bool {
        let flavour = flavour ?? call.appIndex.flatMap { appFlavours[$0] }
        guard let declaration = ScenarioRecorder.declaration(call.operation, flavour: flavour) else {
            comments += 1
            comment("\(sequence.map { "#\($0) " } ?? "")\(place): operation \(call.operation) is not one this build knows")
            return false
        }
        let appName = app(call.appIndex, appID: entry?.appID)
        guard let lua = declaration.lua else {
            comments += 1
            let answer = entry.map { "answered \($0.status)" + ($0.code.map { " code \(Self.codeText($0))" } ?? "") } ?? ""
            comment("\(sequence.map { "#\($0) " } ?? "")\(place): \(call.operation) is HTTP only (no Lua call), \(answer)")
            noteSent(call.arguments)
            return false
        }
        if let fault = call.fault { pin(fault, operation: call.operation, app: appName) }
        let text: String
        if let entry, let link = linkInPath(entry.path), declaration.arguments.count == 1,
            case .resolved = declaration.arguments[0].http, case .string = declaration.arguments[0].type
        {
            // The request opened a link the outbox carried (a confirmation link): the call takes the link itself.
            use(link)
            text = "\(appName).\(lua)(\(link))"
        } else {
            clockAtCall = entry.map { (appName, call.appIndex, $0.time) }
            text = "\(appName).\(lua)" + arguments(call.arguments, declaration)
            clockAtCall = nil
        }
        noteSent(call.arguments)
        calls += 1
        var result = outcome(call, entry: entry)
        if call.result == nil, case .value(let wire) = result, case .record(let type, _) = declaration.result, type.hasSuffix("Session"),
            case .object(var user) = wire, user["user"] == nil, let token = user["token"]
        {
            // A session over HTTP is the user with its token beside it; in Lua, `{ user, token }`.
            user["token"] = nil
            result = .value(.object(["user": .object(user), "token": token]))
        }
        var note = ""
        if entry?.connectionDropped == true { note = "  -- over HTTP the connection was dropped: the app saw no answer" }
        switch result {
        case .value(let value):
            let name = variable(for: declaration.result)
            add("expect.ok(\(text))" + note, binds: name, repeatable: call.fault == nil, sequence: sequence)
            if let name { bind(value, at: name) }
        case .nothing:
            add("expect.is_nil(\(text))" + note, repeatable: call.fault == nil, sequence: sequence)
        case .failed(let code):
            add("expect.error(\(LuaSource.literal(code)), \(text))" + note, repeatable: call.fault == nil, sequence: sequence)
        }
        return true
    }

    /// The outbox link whose token is a segment of `path` (the expression that reads the whole link), if any.
    private func linkInPath(_ path: String) -> String? {
        for segment in path.split(separator: "/").reversed() {
            guard let expression = bindings[String(segment)], let colon = expression.firstRange(of: ":match(") else { continue }
            return String(expression[..<colon.lowerBound])
        }
        return nil
    }

    /// How the call ended for a Lua caller: what the performer saw, an `after_commit` fault's error, or, for an
    /// operation a hand-written handler answers, the HTTP answer.
    private func outcome(_ call: CapturedCall, entry: JournalEntry?) -> CapturedResult {
        if let fault = call.fault, fault.afterCommit, let code = fault.code {
            switch code {
            case .number(let number): return .failed(.int(Int64(number)))
            case .text(let text): return .failed(.string(text))
            }
        }
        if let result = call.result { return result }
        guard let entry else { return .value(.bool(true)) }
        if let code = entry.code { return .failed(code) }
        return .value(Self.luaShaped(recorder.options.decodeJSON(call.reply ?? entry.reply) ?? .bool(true)))
    }

    /// An HTTP answer read as the Lua result it stands for: a field holding a token (`_accessToken`, `user-token`,
    /// `access_token`) is the record's `token`, as both flavours' Lua records name it.
    static func luaShaped(_ wire: Value) -> Value {
        guard case .object(var members) = wire, members["token"] == nil,
            let key = members.keys.sorted().first(where: { $0.lowercased().contains("token") })
        else { return wire }
        members["token"] = members[key]
        members[key] = nil
        return .object(members)
    }

    /// `app.faults.inject{ op = ..., code = ..., times = 1 }`: the fault as it fired, for this one call.
    private mutating func pin(_ fault: PinnedFault, operation: String, app: String) {
        var fields = ["op = \(LuaSource.string(operation))"]
        switch fault.code {
        case .number(let number)?: fields.append("code = \(number)")
        case .text(let text)?: fields.append("code = \(LuaSource.string(text))")
        case nil: break
        }
        if let status = fault.status { fields.append("status = \(status)") }
        if let message = fault.message { fields.append("message = \(LuaSource.string(message))") }
        if fault.afterCommit { fields.append("after_commit = true") }
        if fault.drop { fields.append("drop = true") }
        if fault.reset { fields.append("reset = true") }
        if let reply = fault.reply { fields.append("reply = \(LuaSource.string(reply))") }
        if fault.delayMilliseconds > 0 { fields.append("delay_ms = \(fault.delayMilliseconds)") }
        fields.append("times = 1")
        add("\(app).faults.inject{ \(fields.joined(separator: ", ")) }  -- fired on the next call in the session")
    }

    /// The call's argument list: `{ ... }` for one table argument, else `(a, b)`, trailing absent ones left out.
    private mutating func arguments(_ values: [Value], _ declaration: OperationDeclaration) -> String {
        var shown: [String] = []
        for (argument, value) in zip(declaration.arguments, values) { shown.append(render(value, name: argument.name)) }
        while shown.last == "nil" { shown.removeLast() }
        if shown.count == 1, declaration.arguments.count == 1, case .table = declaration.arguments[0].type, shown[0].hasPrefix("{") {
            return shown[0]
        }
        if shown.count == 1, declaration.arguments.count == 1, case .properties = declaration.arguments[0].type, shown[0].hasPrefix("{") {
            return shown[0]
        }
        return "(" + shown.joined(separator: ", ") + ")"
    }

    /// A value as an argument: a bound value as its expression, a password as its placeholder, a token no answer
    /// issued as a placeholder, anything else as a literal.
    private mutating func render(_ value: Value, name: String) -> String {
        if let (app, index, time) = clockAtCall, Self.timeArguments.contains(name), let seconds = value.numberValue, time > 0 {
            if let replayed = replayTime(seconds, app: index) {
                // Where the replay's clock stands when the session's stood there, exactly: a time the session's
                // clock was then set to (a scheduled push's publish_at) is reached in the replay too.
                return LuaSource.number(replayed)
            }
            var offset = seconds - time
            offset = abs(offset) >= 60 ? offset.rounded() : (offset * 1000).rounded() / 1000
            return "\(app).clock.now() \(offset < 0 ? "-" : "+") \(LuaSource.number(abs(offset)))"
        }
        switch value {
        case .string(let text): return render(text, name: name)
        case .array(let items): return items.isEmpty ? "{}" : "{ " + items.map { render($0, name: name) }.joined(separator: ", ") + " }"
        case .object(let members):
            let shown = members.filter { $0.value != .null }.sorted { $0.key < $1.key }
            if shown.isEmpty { return "{}" }
            return "{ " + shown.map { LuaSource.key($0.key) + " = " + render($0.value, name: $0.key) }.joined(separator: ", ") + " }"
        default: return LuaSource.literal(value)
        }
    }

    private mutating func render(_ text: String, name: String) -> String {
        if let expression = bindings[text] {
            use(expression)
            return expression
        }
        if ScenarioRecorder.isPassword(name), !text.isEmpty { return LuaSource.string(recorder.secrets.password(text)) }
        if ScenarioRecorder.isToken(name), ScenarioRecorder.looksIssued(text) {
            // A token a Lua chunk or the setup script wrote (a provider's token) is already in the file: kept, so
            // the call finds what the chunk defined; any other is a placeholder.
            return LuaSource.string(recorder.writtenInLua(text) ? text : recorder.secrets.token(text))
        }
        // A bound value inside the text (`Bearer <token>`, a link around a code): the longest one.
        var best: (value: String, expression: String)?
        for (value, expression) in bindings where value.utf8.count >= 8 && text.contains(value) {
            if best == nil || value.utf8.count > best!.value.utf8.count
                || (value.utf8.count == best!.value.utf8.count && value < best!.value)
            {
                best = (value, expression)
            }
        }
        if let best, let range = text.firstRange(of: best.value) {
            use(best.expression)
            var parts: [String] = []
            if range.lowerBound > text.startIndex { parts.append(LuaSource.string(String(text[..<range.lowerBound]))) }
            parts.append(best.expression)
            if range.upperBound < text.endIndex { parts.append(render(String(text[range.upperBound...]), name: name)) }
            return parts.joined(separator: " .. ")
        }
        return LuaSource.string(text)
    }

    /// Marks the variable an expression reads as read.
    private mutating func use(_ expression: String) {
        let name = expression.prefix { $0 != "." && $0 != "[" && $0 != ":" }
        used.insert(String(name))
    }

    /// Remembers what the app sent, so an answer that repeats it is not taken for a value the server issued.
    private mutating func noteSent(_ values: [Value]) {
        for value in values { noteSent(value) }
    }

    private mutating func noteSent(_ value: Value) {
        switch value {
        case .string(let text): sent.insert(text)
        case .array(let items): for item in items { noteSent(item) }
        case .object(let members): for member in members.values { noteSent(member) }
        default: break
        }
    }

    /// A fresh variable for a result of this kind (`user1`, `session2`); nil for a result with nothing to read.
    private mutating func variable(for result: ResultKind) -> String? {
        let base: String
        switch result {
        case .record(_, let name): base = name
        case .optionalRecord(let type): base = type.hasSuffix("User") ? "user" : type.hasPrefix("Device") ? "reg" : "record"
        case .value(_, let name): base = name
        case .true, .http: return nil
        }
        return fresh(base)
    }

    private mutating func fresh(_ base: String) -> String {
        counters[base, default: 0] += 1
        return base + String(counters[base]!)
    }

    /// Binds every value of an answer that looks issued (and that the app did not send) to where it sits.
    private mutating func bind(_ value: Value, at expression: String) {
        switch value {
        case .string(let text):
            guard ScenarioRecorder.looksIssued(text), !sent.contains(text) else { return }
            if bindings[text] == nil { bindings[text] = expression }
            bindParts(ofLink: text, at: expression)
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) { bind(member, at: LuaSource.field(expression, key)) }
        case .array(let items):
            for (index, item) in items.enumerated() { bind(item, at: "\(expression)[\(index + 1)]") }
        default: break
        }
    }

    /// A link's last path segment and its query values, each read from the link (`mail1.link:match("[^/]+$")`).
    private mutating func bindParts(ofLink link: String, at expression: String) {
        guard link.hasPrefix("http://") || link.hasPrefix("https://") else { return }
        let parts = link.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0]
        if let segment = path.split(separator: "/").last.map(String.init), ScenarioRecorder.looksIssued(segment), bindings[segment] == nil,
            !sent.contains(segment)
        {
            bindings[segment] = parts.count > 1 ? "\(expression):match(\"([^/?]+)%?\")" : "\(expression):match(\"[^/]+$\")"
        }
        guard parts.count > 1 else { return }
        for item in parts[1].split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, LuaSource.isIdentifier(String(pair[0])) else { continue }
            let value = String(pair[1])
            guard ScenarioRecorder.looksIssued(value), bindings[value] == nil, !sent.contains(value), !value.contains("%") else { continue }
            bindings[value] = "\(expression):match(\"[?&]\(pair[0])=([^&#]+)\")"
        }
    }

    // MARK: The outbox

    /// Checks what the outbox received, each item read by its recipient, and binds what it carries.
    private mutating func outbox(_ items: [SentItem]) {
        var inStep: [String: Int] = [:]
        var totals: [String: Int] = [:]
        for item in items {
            let key = "\(item.appIndex)|\(item.kind.rawValue)|\(recipient(item).key)"
            inStep[key, default: 0] += 1
        }
        for (key, count) in inStep { totals[key] = received[key, default: 0] + count }
        var done: [String: Int] = [:]
        for item in items {
            let (recipientKey, recipientValue) = recipient(item)
            let key = "\(item.appIndex)|\(item.kind.rawValue)|\(recipientKey)"
            done[key, default: 0] += 1
            let position = received[key, default: 0] + done[key]!
            let total = totals[key]!
            let appName = app(item.appIndex)
            let to = render(recipientValue, name: "to")
            let read: String
            let name: String
            switch item.kind {
            case .email:
                name = fresh("mail")
                read = position == total ? "\(appName).outbox.last_email(\(to))" : "\(appName).outbox.emails(\(to))[\(position)]"
            case .sms:
                name = fresh("sms")
                read = position == total ? "\(appName).outbox.last_sms(\(to))" : "\(appName).outbox.sms(\(to))[\(position)]"
            case .push:
                name = fresh("push")
                read = "\(appName).outbox.pushes(\(to))[\(position)]"
            }
            used.insert(name)
            add("\(localKeyword)\(name) = expect.not_nil(\(read), \(LuaSource.string("the outbox's " + item.kind.rawValue)))")
            if case .object(let fields) = item.item {
                for field in ["kind", "subject", "message", "channel"] {
                    if case .string(let text)? = fields[field], !ScenarioRecorder.looksIssued(text) || sent.contains(text) {
                        add("expect.equal(\(name).\(field), \(LuaSource.string(text)))")
                    }
                }
            }
            var carried = item.item
            if case .object(var fields) = carried {
                fields["to"] = nil
                carried = .object(fields)
            }
            bind(carried, at: name)
        }
        for (key, total) in totals { received[key] = total }
    }

    /// Who an outbox item went to: its key for counting, and the value `app.outbox.*(to)` filters by.
    private func recipient(_ item: SentItem) -> (key: String, value: String) {
        guard case .object(let fields) = item.item else { return ("", "") }
        let value = fields["to"]?.stringValue ?? fields["device_id"]?.stringValue ?? fields["installation_id"]?.stringValue ?? ""
        return (item.kind == .email ? value.lowercased() : value, value)
    }

    // MARK: Control actions

    private mutating func control(_ step: ControlStep) {
        let route = step.path.hasPrefix("/_understudy") ? String(step.path.dropFirst("/_understudy".count)) : step.path
        let place = "\(step.method) \(step.path)\(step.query.isEmpty ? "" : "?" + step.query)"
        guard step.status < 400 else {
            comment("control: \(place) was refused (\(step.status)): it changed nothing")
            return
        }
        // Apps a Lua chunk made.
        for index in step.before.count..<max(step.before.count, step.after.count) where appVariables[index] == nil {
            appFlavours[index] = step.after[index].flavour
        }
        switch route {
        case "/settings":
            comment("control: \(place)")
            settings(step)
        case "/clock/advance", "/clock/set":
            comment("control: \(place) \(Self.oneLine(step.body))")
            for (index, (before, after)) in zip(step.before, step.after).enumerated() where before.now != after.now {
                let name = app(index)
                if route == "/clock/advance" {
                    add("\(name).clock.advance(\(LuaSource.number(after.now - before.now)))")
                } else if let replayed = replayTime(after.now, app: index), !log.fixedClockStart {
                    // The session's clock started at the real time, this one at 2030-01-01: as far from its start.
                    add("\(name).clock.set(\(LuaSource.number(replayed)))  -- the session set it to \(LuaSource.number(after.now))")
                } else {
                    add("\(name).clock.set(\(LuaSource.number(after.now)))")
                }
            }
        case "/outbox":
            for (index, (before, after)) in zip(step.before, step.after).enumerated() where after.outbox < before.outbox {
                add("\(app(index)).outbox.clear()  -- control: \(place)")
                received = received.filter { !$0.key.hasPrefix("\(index)|") }
            }
        case "/lua":
            let faultsChanged = !zip(step.before, step.after).allSatisfy { $0.faults == $1.faults }
            let text = readingBoundValues(in: recorder.secrets.replacingPasswords(in: step.body))
            add(
                "-- control: \(place): a Lua chunk ran against the live apps; here it runs as it was sent\n"
                    + "do\n  local function chunk()\n"
                    + text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
                    + "\n  end\n  chunk()\nend"
            )
            for (index, state) in step.after.enumerated() where index >= step.before.count {
                _ = app(index, appID: state.appID)
            }
            if faultsChanged {
                for (index, (before, after)) in zip(step.before, step.after).enumerated() where before.faults != after.faults {
                    add("\(app(index)).faults.clear()  -- the chunk's faults fire below only where the session saw them fire")
                }
            }
        case "/snapshots" where step.method == "POST":
            guard let name = Self.snapshotName(inBody: step.body) else {
                comment("control: \(place) \(Self.oneLine(step.body))\(describe(step))")
                break
            }
            add("understudy.snapshot(\(LuaSource.string(name)))  -- control: \(place)")
            snapshots[name] = (received, step.after.count)
        case _ where step.method == "POST" && route.hasPrefix("/snapshots/") && route.hasSuffix("/restore"):
            let name = String(route.dropFirst("/snapshots/".count).dropLast("/restore".count))
            guard let kept = snapshots[name] else {
                comment("control: \(place): a snapshot taken before this session began\(describe(step))")
                break
            }
            add("understudy.restore(\(LuaSource.string(name)))  -- control: \(place)")
            received = kept.received
            // Apps made after the snapshot are gone: a later app at their place is another.
            for index in appVariables.keys where index >= kept.apps { appVariables[index] = nil }
        default:
            if route == "/journal" {
                comment("control: \(place): the journal was emptied; the requests before it are not in this file")
            } else if route.hasPrefix("/faults") {
                comment("control: \(place) \(Self.oneLine(step.body)): faults are pinned below where they fired")
            } else if let call = step.call {
                comment("control: \(place): the console call it made")
                perform(call, flavour: nil, entry: nil, sequence: nil, where: place)
            } else {
                comment("control: \(place) \(Self.oneLine(step.body))\(describe(step))")
                if route == "/scenarios" { settings(step) }
            }
        }
        outbox(step.outbox)
    }

    /// The replay's time for the session's time `seconds` on the clock of the app at `index`: as far from where the
    /// replay's clock starts (2030-01-01, or the session's start under `--clock-start`) as it was from the session's
    /// start. The same formula for a clock move and a time argument, so two equal times stay equal. Nil for an app
    /// the session made (its start is unknown).
    private func replayTime(_ seconds: Double, app index: Int?) -> Double? {
        guard let index, log.start.indices.contains(index) else { return nil }
        if log.fixedClockStart { return seconds }
        return VirtualClock.start + (seconds - log.start[index].now)
    }

    /// Lua text with each string literal that is a value bound to an earlier result (a user id the chunk was
    /// written with) replaced by the expression that reads it, since the replay issues other ids.
    private mutating func readingBoundValues(in text: String) -> String {
        var text = text
        let values = bindings.keys.filter { value in text.contains(value) }.sorted { ($0.utf8.count, $1) > ($1.utf8.count, $0) }
        for value in values {
            let expression = bindings[value]!
            for quote in ["\"", "'"] where text.contains(quote + value + quote) {
                text = text.replacing(quote + value + quote, with: expression)
                use(expression)
            }
        }
        return text
    }

    /// A request path with each value bound to an earlier result shown as `{expression}`, so a comment names no
    /// id the session was issued.
    private mutating func pathReadingBoundValues(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            bindings[String(segment)].map { "{\($0)}" } ?? String(segment)
        }.joined(separator: "/")
    }

    /// The settings a control action changed, set as it set them.
    private mutating func settings(_ step: ControlStep) {
        for (index, (before, after)) in zip(step.before, step.after).enumerated() {
            for setting in after.settings where before.setting(setting.name) != setting.value {
                add("\(app(index)).settings.\(setting.name) = \(LuaSource.literal(setting.value))")
            }
        }
    }

    /// What a control action the scenario cannot repeat changed, as a comment's tail.
    private func describe(_ step: ControlStep) -> String {
        var changes: [String] = []
        for (before, after) in zip(step.before, step.after) {
            if before.users != after.users { changes.append("\(after.appID) users \(before.users) → \(after.users)") }
            if before.registrations != after.registrations {
                changes.append("\(after.appID) registrations \(before.registrations) → \(after.registrations)")
            }
            if before.now != after.now { changes.append("\(after.appID) clock \(LuaSource.number(before.now)) → \(LuaSource.number(after.now))") }
        }
        if step.after.count != step.before.count { changes.append("apps \(step.before.count) → \(step.after.count)") }
        return changes.isEmpty ? " (it changed nothing the scenario sees)" : " (changed: " + changes.joined(separator: ", ") + "; not repeated here)"
    }

    /// The name a `POST /_understudy/snapshots` body gave (`{"name": "seeded"}`); nil when it gave none this
    /// simple reading finds (the route refused such a body, so the step was not recorded as a snapshot).
    static func snapshotName(inBody body: String) -> String? {
        let bytes = Array(body.utf8)
        let key = Array(#""name""#.utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: key) }) else { return nil }
        var rest = bytes[(start + key.count)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        guard rest.first == UInt8(ascii: ":") else { return nil }
        rest = rest.dropFirst().drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        guard rest.first == UInt8(ascii: "\"") else { return nil }
        // Names are letters, digits, `.`, `_` and `-` (the route refuses others): no escape to read.
        let name = rest.dropFirst().prefix { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        guard !name.isEmpty, rest.dropFirst().count > name.count, rest.dropFirst()[name.endIndex] == UInt8(ascii: "\"") else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    static func oneLine(_ text: String) -> String {
        let flat = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        return flat.count > 200 ? String(flat.prefix(200)) + "…" : flat
    }

    static func codeText(_ code: Value) -> String {
        switch code {
        case .int(let number): return String(number)
        case .string(let text): return text
        default: return LuaSource.literal(code)
        }
    }
}
