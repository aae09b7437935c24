/// Writes a served session as a Lua scenario file (`GET /_understudy/record`, `understudy record`): the apps as
/// they began, then every vendor request as the Lua call its operation is, in order, with the control actions in
/// place, each call's outcome asserted and what the outbox received checked. See docs/http.md "Recording a
/// session" and docs/decisions.md for the rules; in short:
///
/// - **No secret or volatile literal.** A password becomes a placeholder of the same length (`password1xxx`),
///   the same one wherever the session used the same password; a value that first appeared in an answer (an id,
///   a token, a code, a link) becomes the expression that reads it from that answer or from the outbox
///   (`user1.objectId`, `mail1.code`); an unknown token becomes a placeholder too.
/// - **Faults pinned as observed.** A fault that fired is injected for that one call (`times = 1`) just before it;
///   injecting and clearing faults are comments. So the file does not depend on the seed or on probabilities.
/// - **Split by test.** One scenario per `X-Understudy-Test` name, in order of first appearance; the requests that
///   named none in one scenario named by `name`. A test may build on earlier ones (log in the user an earlier test
///   registered, send its token), so the session is written once, in parts, and each test's scenario replays the
///   parts up to its test's last request (`ScenarioWriter.writeParts`).
/// - **Nothing silently dropped.** A request no route answered, or one answered before its operation ran, is a
///   comment naming it (and the nearest route); the header counts them.
package struct ScenarioRecorder {
    /// How to write the file.
    package struct Options {
        /// The scenario of the requests that named no test.
        package var name: String
        /// The server's seed (for the header).
        package var seed: UInt64
        /// Reads a reply body as JSON (the domain has no JSON parser of its own).
        package var decodeJSON: (String) -> Value?
        /// The route nearest to a request no route answered, as text (`GET /users/{objectId} (users.get)`).
        package var nearestRoute: (_ method: String, _ path: String) -> String?
        /// Journal entries dropped (full journal) or cleared during the session.
        package var droppedEntries: Int

        package init(
            name: String, seed: UInt64, decodeJSON: @escaping (String) -> Value?,
            nearestRoute: @escaping (String, String) -> String?, droppedEntries: Int = 0
        ) {
            self.name = name
            self.seed = seed
            self.decodeJSON = decodeJSON
            self.nearestRoute = nearestRoute
            self.droppedEntries = droppedEntries
        }
    }

    /// One moment of the session, in order.
    enum Moment {
        case request(JournalEntry, RequestStep?)
        case control(ControlStep)
    }

    let log: SessionLog
    let options: Options
    let moments: [Moment]
    let secrets: Placeholders
    /// The Lua texts the file repeats (the setup script, the Lua chunks): a value they write is no secret of the
    /// session's.
    let luaTexts: [String]

    /// The scenario file for `log`'s session; `entries` are the journal's entries after `log.startSequence`.
    package static func write(_ log: SessionLog, entries: [JournalEntry], options: Options) -> String {
        ScenarioRecorder(log: log, entries: entries, options: options).file()
    }

    init(log: SessionLog, entries: [JournalEntry], options: Options) {
        self.log = log
        self.options = options
        var requests: [Int: RequestStep] = [:]
        var controls: [ControlStep] = []
        for step in log.steps {
            switch step {
            case .request(let request): requests[request.sequence] = request
            case .control(let control): controls.append(control)
            }
        }
        // Requests by sequence; a control action after the entry it followed and before the next.
        var moments: [Moment] = []
        var next = 0
        for entry in entries where entry.sequence > log.startSequence {
            while next < controls.count, controls[next].afterSequence < entry.sequence {
                moments.append(.control(controls[next]))
                next += 1
            }
            moments.append(.request(entry, requests[entry.sequence]))
        }
        moments += controls[next...].map(Moment.control)
        self.moments = moments
        var luaTexts = log.setup.map { [$0.text] } ?? []
        for case .control(let control) in moments where control.path.hasSuffix("/lua") && control.status < 400 {
            luaTexts.append(control.body)
        }
        self.luaTexts = luaTexts
        secrets = Placeholders()
        collectPasswords()
    }

    // MARK: The file

    func file() -> String {
        let requests = moments.reduce(0) { count, moment in if case .request = moment { count + 1 } else { count } }
        let controls = moments.count - requests
        var tests: [String] = []
        var untagged = 0
        for case .request(let entry, _) in moments {
            if let test = entry.test { if !tests.contains(test) { tests.append(test) } } else { untagged += 1 }
        }
        var scenarios: [(name: String, test: String?)] = tests.map { ($0, $0) }
        if untagged > 0 || tests.isEmpty { scenarios.append((options.name, nil)) }

        var lines: [String] = [
            "-- Recorded by `understudy record` from an `understudy serve` session (seed \(options.seed)): the session",
            "-- since the last reset, \(requests) request\(requests == 1 ? "" : "s") and \(controls) control action\(controls == 1 ? "" : "s"), as \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s").",
            "-- Passwords are placeholders; ids, tokens, codes and links are read from earlier results and the outbox.",
            "-- Faults appear only where the session saw them fire (times = 1 on that call).",
        ]
        if !log.fixedClockStart {
            lines.append("-- The session's clocks started at the real time: here they start at 2030-01-01 and move as the session moved them.")
        }
        if options.droppedEntries > 0 {
            lines.append("-- \(options.droppedEntries) journal entr\(options.droppedEntries == 1 ? "y was" : "ies were") dropped or cleared during the session: their requests are missing below.")
        }
        if log.droppedCalls > 0 {
            lines.append("-- \(log.droppedCalls) call\(log.droppedCalls == 1 ? " was" : "s were") dropped from the recording (its capacity): their requests are comments below.")
        }
        if let setup = log.setup {
            lines.append("")
            lines.append("-- The setup script the session began with (\(setup.path)), run at the start of each scenario.")
            lines.append("local function setup()")
            lines.append(contentsOf: secrets.replacingPasswords(in: setup.text).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 })
            lines.append("end")
        }
        if scenarios.count > 1 {
            var writer = ScenarioWriter(recorder: self, test: nil)
            lines.append("")
            lines.append(contentsOf: writer.writeParts(scenarios))
        } else if let scenario = scenarios.first {
            var writer = ScenarioWriter(recorder: self, test: scenario.test)
            lines.append("")
            lines.append(contentsOf: writer.write(name: scenario.name))
        }
        return lines.map { $0.trimmingTrailingSpaces }.joined(separator: "\n") + "\n"
    }

    /// Every password the session used, in order of first use, so each gets one placeholder for the whole file
    /// (the setup script's and Lua chunks' `password = "..."` literals included).
    private func collectPasswords() {
        if let setup = log.setup { secrets.notePasswords(inLua: setup.text) }
        for moment in moments {
            switch moment {
            case .request(_, let step): if let call = step?.call { notePasswords(call) }
            case .control(let control):
                if control.path.hasSuffix("/lua") { secrets.notePasswords(inLua: control.body) }
                if let call = control.call { notePasswords(call) }
            }
        }
    }

    private func notePasswords(_ call: CapturedCall) {
        guard let declaration = Self.declaration(call.operation) else { return }
        func walk(_ value: Value, _ name: String) {
            switch value {
            case .string(let text) where Self.isPassword(name) && !text.isEmpty: secrets.notePassword(text)
            case .object(let members): for (key, member) in members.sorted(by: { $0.key < $1.key }) { walk(member, key) }
            case .array(let items): for item in items { walk(item, name) }
            default: break
            }
        }
        for (argument, value) in zip(declaration.arguments, call.arguments) { walk(value, argument.name) }
    }

    /// True when a Lua text the file repeats writes `text` as a string literal (a provider token a chunk defined).
    func writtenInLua(_ text: String) -> Bool {
        luaTexts.contains { lua in lua.contains("\"" + text + "\"") || lua.contains("'" + text + "'") }
    }

    /// An argument or field that holds a password.
    static func isPassword(_ name: String) -> Bool {
        JournalRedaction.isSecret(name) && !name.lowercased().contains("token")
    }

    /// An argument or field that holds a token.
    static func isToken(_ name: String) -> Bool { name.lowercased().contains("token") }

    /// A value the server made up (an id, a token, a code, a link) rather than a word: six characters or more,
    /// a digit among them.
    static func looksIssued(_ text: String) -> Bool {
        text.utf8.count >= 6 && text.utf8.contains { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The declaration of the operation named `name` (either flavour's; the names of the two flavours that
    /// coincide share their arguments' order), or of the console call a request stood for (`admin.token`: Kii's
    /// client-credentials token request).
    static func declaration(_ name: String, flavour: Flavour? = nil) -> OperationDeclaration? {
        let operation: OperationDeclaration?
        switch flavour {
        case .backendless?: operation = BackendlessOperation(rawValue: name)?.declaration
        case .kii?: operation = KiiOperation(rawValue: name)?.declaration
        case nil: operation = (BackendlessOperation(rawValue: name)?.declaration) ?? KiiOperation(rawValue: name)?.declaration
        }
        if let operation { return operation }
        guard let console = ConsoleCall(rawValue: name), !console.isModuleCall,
            let flavour = flavour.flatMap({ console.flavours.contains($0) ? $0 : nil }) ?? console.flavours.first
        else { return nil }
        return console.declaration(for: flavour)
    }
}

/// Placeholders for the session's secrets, one per distinct value, the same in every scenario of the file.
final class Placeholders {
    private var passwords: [String: String] = [:]
    private var passwordOrder: [String] = []
    private var tokens: [String: String] = [:]

    /// Gives `password` its placeholder (the first time it is seen).
    func notePassword(_ password: String) {
        guard passwords[password] == nil else { return }
        passwordOrder.append(password)
        var number = passwordOrder.count
        var placeholder = Self.placeholder(for: password, number: number)
        // A short password leaves few placeholders of its length: after a few tries a collision is accepted.
        for _ in 0..<20 where placeholder == password || passwords.values.contains(placeholder) {
            number += 100
            placeholder = Self.placeholder(for: password, number: number)
        }
        passwords[password] = placeholder
    }

    /// The placeholder of a password (noted first if it was not).
    func password(_ password: String) -> String {
        notePassword(password)
        return passwords[password]!
    }

    /// The placeholder of a token no answer of the session issued.
    func token(_ token: String) -> String {
        if let known = tokens[token] { return known }
        let placeholder = "token-\(tokens.count + 1)"
        tokens[token] = placeholder
        return placeholder
    }

    /// `passwordN` padded with `x` to the password's length, so a length rule (Kii's 4 to 50 characters) answers
    /// the same; a password with a character outside printable ASCII keeps one (`é`), for the same reason.
    static func placeholder(for password: String, number: Int) -> String {
        let length = password.count
        let candidates = ["password\(number)", "pw\(number)", "p\(number)", String(number, radix: 36)]
        var text = candidates.first { $0.count <= length } ?? String(String(number, radix: 36).suffix(max(1, length)))
        if text.count < length { text += String(repeating: "x", count: length - text.count) }
        if password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value > 0x7E }) { text = String(text.dropLast()) + "é" }
        return text
    }

    /// Notes the passwords a Lua text writes as `password = "..."` (or `new_password`, ...).
    func notePasswords(inLua text: String) {
        for literal in Self.passwordLiterals(in: text) { notePassword(literal) }
    }

    /// Lua text with each known password's string literal replaced by its placeholder's.
    func replacingPasswords(in text: String) -> String {
        var text = text
        for password in passwordOrder {
            let placeholder = passwords[password]!
            for quote in ["\"", "'"] {
                text = text.replacing(quote + password + quote, with: LuaSource.string(placeholder))
            }
        }
        return text
    }

    /// The contents of string literals assigned to a name holding "password" (`password = "x"`, `new_password='y'`).
    static func passwordLiterals(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        let word = Array("password".utf8)
        var found: [String] = []
        var index = 0
        while index + word.count <= bytes.count {
            let matches = (0..<word.count).allSatisfy { bytes[index + $0] | 0x20 == word[$0] }
            guard matches else { index += 1; continue }
            var position = index + word.count
            while position < bytes.count, bytes[position] == 0x5F || (bytes[position] | 0x20 >= 0x61 && bytes[position] | 0x20 <= 0x7A) {
                position += 1
            }
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            // `password = "x"` or `["password"] = "x"`.
            if position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 || bytes[position] == 0x5D {
                position += 1
                while position < bytes.count, bytes[position] == 0x5D || bytes[position] == 0x20 { position += 1 }
            }
            guard position < bytes.count, bytes[position] == 0x3D, position + 1 < bytes.count, bytes[position + 1] != 0x3D else {
                index += word.count
                continue
            }
            position += 1
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else { index = position; continue }
            let quote = bytes[position]
            var end = position + 1
            while end < bytes.count, bytes[end] != quote, bytes[end] != 0x5C, bytes[end] != 0x0A { end += 1 }
            if end < bytes.count, bytes[end] == quote, end > position + 1 {
                found.append(String(decoding: bytes[(position + 1)..<end], as: UTF8.self))
            }
            index = end + 1
        }
        return found
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

}
