package import UnderstudyLua
internal import Dispatch
internal import Synchronization
internal import Understudy

/// Which scenarios of a suite to run.
package struct ScenarioSelection: Sendable {
    /// Only scenarios whose name contains this text (case-insensitively).
    package var filter: String?
    /// Only scenarios with at least one of these tags (none: every scenario).
    package var tags: [String] = []
    /// Only the scenarios of shard `index` of `count` (1-based), a stable partition for CI matrix jobs.
    package var shard: (index: Int, count: Int)?

    package init(filter: String? = nil, tags: [String] = [], shard: (index: Int, count: Int)? = nil) {
        self.filter = filter
        self.tags = tags
        self.shard = shard
    }

    /// The declarations of one file that the selection includes, in order. Scenarios that share a name are told
    /// apart by their occurrence, so shards stay stable.
    func select(_ declarations: [ScenarioDeclaration], file: String) -> [ScenarioDeclaration] {
        var occurrences: [String: Int] = [:]
        return declarations.filter { declaration in
            let occurrence = occurrences[declaration.name, default: 0]
            occurrences[declaration.name] = occurrence + 1
            return includes(file: file, declaration, occurrence: occurrence)
        }
    }

    func includes(file: String, _ declaration: ScenarioDeclaration, occurrence: Int) -> Bool {
        if let filter, !filter.isEmpty, !declaration.name.lowercased().contains(filter.lowercased()) { return false }
        if !tags.isEmpty, !declaration.tags.contains(where: tags.contains) { return false }
        if let shard {
            let key = StableHash.of(StableHash.canonical(file), declaration.name, String(occurrence))
            if Int(key % UInt64(shard.count)) != shard.index - 1 { return false }
        }
        return true
    }
}

/// How to run a suite.
package struct RunConfiguration: Sendable {
    /// Decides every id, token and code (each scenario derives its own from it, its file and its position).
    package var seed: UInt64
    package var limits: ScenarioLimits
    /// Worker threads; each has its own Lua states.
    package var jobs: Int
    package var selection: ScenarioSelection
    /// Run the scenarios in worker processes started with this command (the same binary in its worker mode), so
    /// that a crash or a hang inside C code costs one scenario; nil runs them on threads of this process.
    package var workers: WorkerCommand?

    package init(seed: UInt64 = 1, limits: ScenarioLimits = ScenarioLimits(), jobs: Int = 1, selection: ScenarioSelection = ScenarioSelection(), workers: WorkerCommand? = nil) {
        self.seed = seed
        self.limits = limits
        self.jobs = max(1, jobs)
        self.selection = selection
        self.workers = workers
    }
}

/// What a run reports, in suite order: a file that did not load, or a scenario's outcome.
package enum SuiteEvent: Sendable {
    case loadFailed(LoadError)
    case finished(ScenarioOutcome)
}

/// The outcome of a whole run.
package struct SuiteResult: Sendable {
    package var events: [SuiteEvent]
    package var seed: UInt64
    /// Seconds of wall time.
    package var duration: Double
    package var jobs: Int

    package var outcomes: [ScenarioOutcome] {
        events.compactMap { if case .finished(let outcome) = $0 { return outcome } else { return nil } }
    }
    package var loadErrors: [LoadError] {
        events.compactMap { if case .loadFailed(let error) = $0 { return error } else { return nil } }
    }
    package var passed: Int { outcomes.count { $0.status == .passed } }
    package var failed: Int { outcomes.count { $0.status == .failed } + loadErrors.count }
    package var skipped: Int { outcomes.count { $0.status == .skipped } }
}

/// Lists the declared scenarios of files without running them.
package struct ScenarioListing: Sendable {
    package var file: String
    package var declarations: [ScenarioDeclaration]
}

/// Runs scenario files: loads them, selects scenarios, spreads them over worker threads and reports outcomes in
/// suite order (the same order, results and ids as a serial run).
package struct SuiteRunner: Sendable {
    package var configuration: RunConfiguration

    package init(configuration: RunConfiguration) {
        self.configuration = configuration
    }

    /// The seed of one scenario: independent of jobs, shards and filters.
    package static func scenarioSeed(suiteSeed: UInt64, file: String, index: Int) -> UInt64 {
        var generator = SeededGenerator(seed: suiteSeed ^ StableHash.of(StableHash.canonical(file), String(index)))
        return generator.next()
    }

    /// The scenarios each file declares that the selection (filter, tags, shard) includes, load errors
    /// included, without running any.
    package func list(_ files: [ScenarioFile]) -> [Result<ScenarioListing, LoadError>] {
        let pool = SessionPool(files: files, configuration: configuration)
        let selection = configuration.selection
        return files.indices.map { index in
            pool.declarations(of: index).map { declarations in
                ScenarioListing(file: files[index].path, declarations: selection.select(declarations, file: files[index].path))
            }
        }
    }

    /// Runs the files. `report` receives events in suite order as soon as they are ready (under a lock).
    package func run(_ files: [ScenarioFile], report: @escaping @Sendable (SuiteEvent) -> Void = { _ in }) -> SuiteResult {
        if let workers = configuration.workers {
            return WorkerSuite(configuration: configuration, command: workers).run(files, report: report)
        }
        let start = MonotonicClock.now()
        let jobs = configuration.jobs
        let pool = SessionPool(files: files, configuration: configuration)

        // 1. Load every file (in parallel) to learn its scenarios.
        let declared = Mutex<[Result<[ScenarioDeclaration], LoadError>?]>(Array(repeating: nil, count: files.count))
        let nextFile = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(files.count, 1))) { _ in
            while true {
                let index = nextFile.add(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                let result = pool.declarations(of: index)
                declared.withLock { $0[index] = result }
            }
        }

        // 2. Select scenarios and cut them into work items (contiguous runs of one file).
        let plan = WorkPlan(files: files, declared: declared.withLock { $0 }, configuration: configuration)
        let items = plan.items
        // 3. Run the items on the workers; emit events in order.
        let board = Mutex(Board(slots: plan.slots))
        board.withLock { $0.flush(report) }
        let nextItem = Atomic<Int>(0)
        let suiteSeed = configuration.seed
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(items.count, 1))) { _ in
            while true {
                let position = nextItem.add(1, ordering: .relaxed).oldValue
                guard position < items.count else { return }
                let item = items[position]
                let path = files[item.file].path
                pool.withSession(for: item.file) { session in
                    for (offset, index) in item.indices.enumerated() {
                        let outcome: ScenarioOutcome
                        if let session {
                            outcome = session.run(index, seed: Self.scenarioSeed(suiteSeed: suiteSeed, file: path, index: index))
                        } else {
                            outcome = ScenarioOutcome.unloadable(file: path, index: index)
                        }
                        board.withLock {
                            $0.slots[item.firstSlot + offset] = .finished(outcome)
                            $0.flush(report)
                        }
                    }
                }
            }
        }
        let events = board.withLock { $0.events }
        return SuiteResult(events: events, seed: configuration.seed, duration: MonotonicClock.seconds(since: start), jobs: jobs)
    }
}

/// The selected scenarios cut into work items (contiguous runs of one file) and the report's slots.
struct WorkPlan {
    var slots: [Slot] = []
    var items: [WorkItem] = []
    /// The declarations of each file (empty when it did not load).
    var declarations: [[ScenarioDeclaration]]

    init(files: [ScenarioFile], declared results: [Result<[ScenarioDeclaration], LoadError>?], configuration: RunConfiguration) {
        declarations = results.map { if case .success(let declarations)? = $0 { return declarations } else { return [] } }
        let selected = declarations.enumerated().map { fileIndex, declarations in
            configuration.selection.select(declarations, file: files[fileIndex].path)
        }
        let total = selected.reduce(0) { $0 + $1.count }
        let jobs = configuration.jobs
        let chunk = max(8, (total + jobs * 8 - 1) / (jobs * 8))
        for (fileIndex, result) in results.enumerated() {
            if case .failure(let error)? = result {
                slots.append(.loadFailed(error))
                continue
            }
            let scenarios = selected[fileIndex]
            var start = 0
            while start < scenarios.count {
                let end = min(start + chunk, scenarios.count)
                items.append(WorkItem(file: fileIndex, indices: scenarios[start..<end].map(\.index), firstSlot: slots.count))
                for _ in start..<end { slots.append(.pending) }
                start = end
            }
        }
    }
}

struct WorkItem: Sendable {
    var file: Int
    var indices: [Int]
    var firstSlot: Int
}

enum Slot: Sendable {
    case pending
    case loadFailed(LoadError)
    case finished(ScenarioOutcome)
}

/// Results waiting to be reported in order.
struct Board: Sendable {
    var slots: [Slot]
    var emitted = 0
    var events: [SuiteEvent] = []

    mutating func flush(_ report: (SuiteEvent) -> Void) {
        while emitted < slots.count {
            let event: SuiteEvent
            switch slots[emitted] {
            case .pending: return
            case .loadFailed(let error): event = .loadFailed(error)
            case .finished(let outcome): event = .finished(outcome)
            }
            events.append(event)
            report(event)
            emitted += 1
        }
    }
}

extension ScenarioOutcome {
    static func unloadable(file: String, index: Int) -> ScenarioOutcome {
        ScenarioOutcome(
            file: file, declaration: ScenarioDeclaration(name: "scenario #\(index)", tags: [], line: 0, index: index),
            status: .failed, message: "the file could not be loaded on this worker", location: nil, traceback: nil,
            output: "", duration: 0
        )
    }
}

/// Idle sessions per file, shared by the workers. A session is used by one worker at a time.
private final class SessionPool: @unchecked Sendable {
    private let files: [ScenarioFile]
    private let configuration: RunConfiguration
    private let idle: Mutex<[[SessionBox]]>

    init(files: [ScenarioFile], configuration: RunConfiguration) {
        self.files = files
        self.configuration = configuration
        idle = Mutex(Array(repeating: [], count: files.count))
    }

    func declarations(of file: Int) -> Result<[ScenarioDeclaration], LoadError> {
        do {
            let session = try makeSession(file)
            let declarations = session.declarations
            idle.withLock { $0[file].append(SessionBox(session)) }
            return .success(declarations)
        } catch {
            return .failure(error)
        }
    }

    func withSession(for file: Int, _ body: (ScenarioSession?) -> Void) {
        let box = idle.withLock { $0[file].popLast() }
        let session = box?.session ?? (try? makeSession(file))
        body(session)
        if let session { idle.withLock { $0[file].append(SessionBox(session)) } }
    }

    private func makeSession(_ file: Int) throws(LoadError) -> ScenarioSession {
        try ScenarioSession(
            file: files[file], limits: configuration.limits,
            seed: SuiteRunner.scenarioSeed(suiteSeed: configuration.seed, file: files[file].path, index: 0)
        )
    }
}

/// Moves a session between worker threads; the pool guarantees one user at a time.
private struct SessionBox: @unchecked Sendable {
    let session: ScenarioSession
    init(_ session: ScenarioSession) { self.session = session }
}

/// FNV-1a over strings: stable across runs, machines and Swift versions (unlike `Hasher`).
enum StableHash {
    /// A path as seeds and shards see it: `./a//b/./c.lua` and `a/b/c.lua` are the same file.
    static func canonical(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." { parts.append(part) }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    static func of(_ parts: String...) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            hash ^= 0xFF
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
