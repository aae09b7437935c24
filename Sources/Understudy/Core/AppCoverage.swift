/// How an answer reached the app under test.
package enum CodeOrigin: String, Sendable, Hashable, CaseIterable {
    /// The operation's own rules answered it (a real trigger).
    case real
    /// An injected fault answered it (its `code`, or a rate limit).
    case injected
    /// An injected network or reply fault: the connection dropped or reset, or the body was empty, cut or malformed.
    case network
}

/// What a client met when an injected network or reply fault took the place of the reply: the names the coverage
/// report lists them under, beside the vendor codes.
package enum NetworkOutcome: String, Sendable, CaseIterable {
    case dropped = "connection dropped"
    case reset = "connection reset"
    case emptyBody = "empty body"
    case truncatedBody = "truncated body"
    case malformedBody = "malformed body"
}

/// One request the app under test made, as the coverage report counts it: its app and operation, what it was
/// answered, how, and which of the app's tests made it (the `X-Understudy-Test` header).
package struct CoverageObservation: Sendable {
    package var sequence: Int
    package var flavour: Flavour?
    package var appID: String?
    /// Nil when no route answered it (then `method` and `path` say what was asked).
    package var operation: String?
    package var method: String
    package var path: String
    package var status: Int
    /// The vendor code answered; nil on success.
    package var code: String?
    /// How it was answered; for `.network`, `network` says what the client met.
    package var origin: CodeOrigin
    package var network: NetworkOutcome?
    /// The test's name from `X-Understudy-Test`; nil when the request named none.
    package var test: String?
    /// The connection it came on, for "what did the app do next" without a test name.
    package var connection: Int?
    /// No route answers its method and path.
    package var unmatched = false

    package init(
        sequence: Int, flavour: Flavour?, appID: String?, operation: String?, method: String, path: String, status: Int,
        code: String?, origin: CodeOrigin, network: NetworkOutcome? = nil, test: String? = nil, connection: Int? = nil
    ) {
        self.sequence = sequence
        self.flavour = flavour
        self.appID = appID
        self.operation = operation
        self.method = method
        self.path = path
        self.status = status
        self.code = code
        self.origin = origin
        self.network = network
        self.test = test
        self.connection = connection
    }

    /// What the app met: the code, the network outcome, or `ok`.
    package var outcome: String { network?.rawValue ?? code ?? CoverageTally.success }
    /// True when the app met an error (a code or a network fault).
    package var isError: Bool { code != nil || network != nil }
}

/// The coverage of the app under test, kept as requests are answered (`understudy serve`): per app and
/// operation, what was answered and how; what the app did after each error; the requests no route answered.
/// Counts survive the journal's trimming; `clear` starts over.
package struct CoverageTally: Sendable {
    /// The outcome name of a successful answer.
    package static let success = "ok"
    /// The most distinct unmatched requests and the most reaction events kept (the counts go on).
    package static let listLimit = 1_000

    /// One cell of the matrix: an app's operation, an outcome, its origin, a test (nil: every request).
    package struct Cell: Sendable, Hashable {
        package var flavour: Flavour
        package var appID: String
        package var operation: String
        package var outcome: String
        package var origin: CodeOrigin
        package var test: String?
    }

    /// How often a cell was met and the first request that met it.
    package struct Count: Sendable {
        package var count: Int
        package var firstSequence: Int
    }

    /// A request no route answered.
    package struct Unmatched: Sendable {
        package var method: String
        package var path: String
        package var count: Int
        package var firstSequence: Int
        package var tests: [String]
    }

    /// An error the app met and the next request of the same test (or connection), once it came.
    package struct Reaction: Sendable {
        package var error: CoverageObservation
        package var next: CoverageObservation?

        /// `retry` (the same operation again), `recovery` (a call that gets the user out of it: resend, reset,
        /// verify, log in), `other`, or `none` (no request followed).
        package var kind: String {
            guard let next else { return "none" }
            guard let nextOperation = next.operation else { return "other" }
            if nextOperation == error.operation { return "retry" }
            return CoverageTally.isRecovery(nextOperation) ? "recovery" : "other"
        }
    }

    package private(set) var cells: [Cell: Count] = [:]
    package private(set) var unmatched: [Unmatched] = []
    package private(set) var reactions: [Reaction] = []
    /// Reactions past `listLimit` are counted, not kept.
    package private(set) var reactionsDropped = 0
    /// The test names seen, in order of first request, with their request counts (the first `testLimit`).
    package private(set) var tests: [(name: String, requests: Int)] = []
    /// Where each name is in `tests`.
    private var testIndex: [String: Int] = [:]
    /// Requests whose test came after `testLimit` others: counted for the session only, so that a client
    /// naming a new test in every request cannot grow the tally without bound.
    package private(set) var requestsOfDroppedTests = 0
    /// The most test names kept.
    package static let testLimit = 10_000
    /// For each stream (a test, else a connection, else the app), the reaction waiting for its next request.
    private var waiting: [String: Int] = [:]

    package init() {}

    /// Counts one answered request.
    package mutating func record(_ observation: CoverageObservation) {
        var observation = observation
        if let test = observation.test {
            if let index = testIndex[test] {
                tests[index].requests += 1
            } else if tests.count < Self.testLimit {
                testIndex[test] = tests.count
                tests.append((test, 1))
            } else {
                requestsOfDroppedTests += 1
                observation.test = nil
            }
        }
        let stream = observation.test.map { "t:" + $0 } ?? observation.connection.map { "c:\($0)" }
            ?? "a:" + (observation.appID ?? "")
        if let pending = waiting.removeValue(forKey: stream), pending < reactions.count {
            reactions[pending].next = observation
        }
        guard let flavour = observation.flavour, let appID = observation.appID, let operation = observation.operation else {
            recordUnmatched(observation)
            return
        }
        // Once for the whole session, once more for the test that made it.
        for test in observation.test == nil ? [nil] : [nil, observation.test] {
            let cell = Cell(
                flavour: flavour, appID: appID, operation: operation, outcome: observation.outcome, origin: observation.origin,
                test: test
            )
            cells[cell, default: Count(count: 0, firstSequence: observation.sequence)].count += 1
        }
        if observation.isError {
            if reactions.count < Self.listLimit {
                waiting[stream] = reactions.count
                reactions.append(Reaction(error: observation))
            } else {
                reactionsDropped += 1
            }
        }
    }

    private mutating func recordUnmatched(_ observation: CoverageObservation) {
        guard observation.unmatched else { return }
        if let index = unmatched.firstIndex(where: { $0.method == observation.method && $0.path == observation.path }) {
            unmatched[index].count += 1
            if let test = observation.test, unmatched[index].tests.count < 100, !unmatched[index].tests.contains(test) {
                unmatched[index].tests.append(test)  // the first hundred tests that met it
            }
        } else if unmatched.count < Self.listLimit {
            unmatched.append(Unmatched(
                method: observation.method, path: observation.path, count: 1, firstSequence: observation.sequence,
                tests: observation.test.map { [$0] } ?? []
            ))
        }
    }

    /// Forgets everything counted.
    package mutating func clear() {
        self = CoverageTally()
    }

    /// The operations a client reaches for to get out of an error: resend a confirmation or a code, reset a
    /// password, verify, log in.
    package static func isRecovery(_ operation: String) -> Bool {
        let name = operation.split(separator: ".").last.map(String.init) ?? operation
        return name.hasPrefix("resend") || name.contains("password") || name.hasPrefix("verify") || name.hasPrefix("confirm")
            || name == "login" || name == "open_reset_link"
    }

    /// The codes an operation can answer: its declared checks and the catalogue entries that name it.
    package static func reachableCodes(of operation: String, flavour: Flavour) -> [String] {
        var codes: [String] = []
        if let declaration = ErrorCatalogue.declarations(of: flavour).first(where: { $0.name == operation }) {
            for name in declaration.checkNames where name != "fault" && !codes.contains(name) { codes.append(name) }
        }
        // Codes every operation can answer (a wrong app id, the rate limit) would list under each: left out.
        let everyOperation = ErrorCatalogue.declarations(of: flavour).count
        for entry in ErrorCatalogue.entries(of: flavour)
        where entry.operations.count < everyOperation && entry.operations.contains(operation) && !codes.contains(entry.code) {
            codes.append(entry.code)
        }
        return codes
    }

    /// The tally of one flavour's codes as `run --codes-json` counts them: code → real, injected, network.
    package func codeCounts(test: String? = nil) -> [Flavour: [String: [CodeOrigin: Int]]] {
        var counts: [Flavour: [String: [CodeOrigin: Int]]] = [:]
        for (cell, count) in cells where cell.test == test && cell.outcome != Self.success {
            counts[cell.flavour, default: [:]][cell.outcome, default: [:]][cell.origin, default: 0] += count.count
        }
        return counts
    }
}
