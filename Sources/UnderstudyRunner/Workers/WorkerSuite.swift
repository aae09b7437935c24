internal import UnderstudyLua
internal import Dispatch
internal import Synchronization

/// Runs a suite in worker processes: a scenario that crashes its process or hangs inside C code is reported
/// (as crashed with its signal, or as timed out with its last line) and its worker replaced; every other
/// scenario still runs. Results, ids and order are those of an in-process run with the same seed.
struct WorkerSuite {
    let configuration: RunConfiguration
    let command: WorkerCommand

    /// How long past the deadline the parent waits for a silent worker before killing it.
    private static let grace: UInt64 = 5_000_000_000

    func run(_ files: [ScenarioFile], report: @escaping @Sendable (SuiteEvent) -> Void) -> SuiteResult {
        WorkerIO.ignoreBrokenPipes()
        let start = MonotonicClock.now()
        let jobs = configuration.jobs
        let pool = WorkerPool(command: command)
        // 1. Load every file in the workers to learn its scenarios. Forked workers (a single-threaded parent on
        //    Linux) start in a fraction of a millisecond, so each is forked when there is work for it: one per
        //    file now (a single one loads on this thread, which stays single-threaded), more before the run if
        //    the plan has more items. Spawned workers take an executable's start-up: with fewer files than jobs,
        //    a second one starts and loads the first file meanwhile, so that it is ready to share a big file's
        //    scenarios (starting it only once the file's scenarios are known would put its start-up on the path).
        let forking = pool.prestart(files.isEmpty ? 0 : min(jobs, files.count), configuration: configuration)
        let loaders = forking ? min(jobs, max(files.count, 1)) : (files.isEmpty ? 1 : min(jobs, max(files.count, 2)))
        let declared = Mutex<[Result<[ScenarioDeclaration], LoadError>?]>(Array(repeating: nil, count: files.count))
        let nextFile = Atomic<Int>(0)
        Self.perform(loaders) { iteration in
            var worker: WorkerProcess?
            defer { if let worker { pool.giveBack(worker) } }
            var loadedAny = false
            while true {
                let index = nextFile.add(1, ordering: .relaxed).oldValue
                guard index < files.count else { break }
                let result = load(index, files, &worker, pool)
                declared.withLock { $0[index] = result }
                loadedAny = true
            }
            if !loadedAny, !files.isEmpty { _ = load(iteration % files.count, files, &worker, pool) }
        }

        // 2. Cut the selected scenarios into work items, as the in-process runner does.
        let results = declared.withLock { $0 }
        let plan = WorkPlan(files: files, declared: results, configuration: configuration)
        let board = Mutex(Board(slots: plan.slots))
        board.withLock { $0.flush(report) }

        // 3. Run the items; a crash or a hang costs its scenario only.
        let nextItem = Atomic<Int>(0)
        let items = plan.items
        let runners = min(jobs, max(items.count, 1))
        if forking, runners > loaders { _ = pool.prestart(runners - loaders, configuration: configuration) }
        Self.perform(runners) { _ in
            var worker: WorkerProcess?
            defer { if let worker { pool.giveBack(worker) } }
            while true {
                let position = nextItem.add(1, ordering: .relaxed).oldValue
                guard position < items.count else { return }
                let item = items[position]
                var remaining = Array(item.indices.enumerated())
                while !remaining.isEmpty {
                    let outcomes = runPart(item.file, remaining.map(\.element), files, plan.declarations[item.file], &worker, pool)
                    for outcome in outcomes {
                        let (offset, _) = remaining.removeFirst()
                        board.withLock {
                            $0.slots[item.firstSlot + offset] = .finished(outcome)
                            $0.flush(report)
                        }
                    }
                }
            }
        }
        pool.stopAll()
        let events = board.withLock { $0.events }
        return SuiteResult(events: events, seed: configuration.seed, duration: MonotonicClock.seconds(since: start), jobs: jobs)
    }

    /// Runs `body` for each iteration: on this thread when there is one (so the process stays single-threaded
    /// and can still fork workers), on Dispatch's threads otherwise.
    private static func perform(_ iterations: Int, _ body: @Sendable (Int) -> Void) {
        if iterations == 1 { body(0) } else { DispatchQueue.concurrentPerform(iterations: iterations, execute: body) }
    }

    private var timeoutText: String { ScenarioLimitsText.timeout(configuration.limits.timeout) }

    private func deadline() -> UInt64? {
        configuration.limits.timeout > 0 ? MonotonicClock.now() + UInt64(configuration.limits.timeout * 1e9) + Self.grace : nil
    }

    private func load(_ index: Int, _ files: [ScenarioFile], _ worker: inout WorkerProcess?, _ pool: WorkerPool) -> Result<[ScenarioDeclaration], LoadError> {
        let file = files[index]
        if let problem = file.problem { return .failure(LoadError(file: file.path, message: problem)) }
        guard let process = worker ?? pool.take() else {
            return .failure(LoadError(file: file.path, message: "could not start a worker process"))
        }
        worker = process
        guard process.send(.load(file: index, path: file.path, contents: file.contents)) else {
            worker = nil
            return .failure(LoadError(file: file.path, message: "the worker process \(process.stop()) before loading the file"))
        }
        process.loadedFiles.insert(index)
        switch process.receive(deadline: deadline()) {
        case .message(.declared(_, let declarations)):
            return .success(declarations)
        case .message(.loadFailed(_, let message, let traceback)):
            return .failure(LoadError(file: file.path, message: message, traceback: traceback))
        case .message(.timedOut(let line)):
            worker = nil
            process.stop()
            let place = line > 0 ? " (last known line \(file.path):\(line))" : ""
            return .failure(LoadError(file: file.path, message: timeoutText + " while the file loaded" + place))
        case .message:
            worker = nil
            process.stop()
            return .failure(LoadError(file: file.path, message: "the worker process answered out of turn"))
        case .ended(let how):
            worker = nil
            return .failure(LoadError(file: file.path, message: "loading the file ended its worker process (\(how))"))
        case .silent:
            worker = nil
            return .failure(LoadError(file: file.path, message: timeoutText + " while the file loaded (the worker stopped answering)"))
        }
    }

    /// Runs `indices` of a file; returns the outcomes of a prefix of them (all, unless the worker was lost).
    private func runPart(_ fileIndex: Int, _ indices: [Int], _ files: [ScenarioFile], _ declarations: [ScenarioDeclaration], _ worker: inout WorkerProcess?, _ pool: WorkerPool) -> [ScenarioOutcome] {
        let file = files[fileIndex]
        let declaration = { (index: Int) in
            declarations.first { $0.index == index } ?? ScenarioDeclaration(name: "scenario #\(index)", tags: [], line: 0, index: index)
        }
        var outcomes: [ScenarioOutcome] = []
        // The scenario that was running when the worker was lost: the first one not reported yet.
        let lost = { (message: String, location: String?) -> [ScenarioOutcome] in
            [ScenarioOutcome(file: file.path, declaration: declaration(indices[outcomes.count]), status: .failed, message: message,
                             location: location, traceback: nil, output: "", duration: 0)]
        }
        guard let process = worker ?? pool.take() else { return lost("could not start a worker process", nil) }
        worker = process
        if !process.loadedFiles.contains(fileIndex) {
            process.loadedFiles.insert(fileIndex)
            guard process.send(.load(file: fileIndex, path: file.path, contents: file.contents)) else {
                worker = nil
                return lost("the worker process \(process.stop())", nil)
            }
            switch process.receive(deadline: deadline()) {
            case .message(.declared), .message(.loadFailed): break
            default:
                worker = nil
                process.stop()
                return lost("the file could not be loaded again in a new worker process", nil)
            }
        }
        let seeds = indices.map { SuiteRunner.scenarioSeed(suiteSeed: configuration.seed, file: file.path, index: $0) }
        guard process.send(.run(file: fileIndex, indices: indices, seeds: seeds)) else {
            worker = nil
            return lost("the worker process \(process.stop())", nil)
        }
        let started = { MonotonicClock.now() }
        var scenarioStart = started()
        while outcomes.count < indices.count {
            switch process.receive(deadline: deadline()) {
            case .message(.finished(let outcome)):
                outcomes.append(outcome)
                scenarioStart = started()
            case .message(.timedOut(let line)):
                worker = nil
                process.stop()
                let location = line > 0 ? "\(file.path):\(line)" : nil
                return outcomes + lost(timeoutText + " (stuck inside a library call)", location).map { outcome in
                    var outcome = outcome
                    outcome.duration = MonotonicClock.seconds(since: scenarioStart)
                    return outcome
                }
            case .message:
                worker = nil
                process.stop()
                return outcomes + lost("the worker process answered out of turn", nil)
            case .ended(let how):
                worker = nil
                return outcomes + lost("the scenario ended its worker process (\(how)); the other scenarios ran in a new one", nil)
            case .silent:
                worker = nil
                return outcomes + lost(timeoutText + " (the worker process stopped answering and was killed)", nil)
            }
        }
        return outcomes
    }
}

/// The command that starts a worker process: the executable and its arguments.
package struct WorkerCommand: Sendable {
    package var executable: String
    package var arguments: [String]

    package init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }
}

/// Idle workers, shared by the parent's threads.
private final class WorkerPool: @unchecked Sendable {
    let command: WorkerCommand
    private let idle = Mutex<[WorkerBox]>([])
    private let all = Mutex<[WorkerBox]>([])

    /// This process's ends of the forked workers' pipes, closed in each later fork.
    private var forkedDescriptors: [Int32] = []

    init(command: WorkerCommand) { self.command = command }

    /// Forks `count` workers while this process has no other thread yet (the first run of `understudy run`),
    /// so that the run does not wait for executables to load; a parent already multithreaded spawns on demand.
    /// True when all of them were forked.
    func prestart(_ count: Int, configuration: RunConfiguration) -> Bool {
        #if canImport(Glibc)
        for _ in 0..<count {
            guard let process = WorkerProcess.fork(serving: configuration, closing: forkedDescriptors) else { return false }
            forkedDescriptors += process.descriptors
            idle.withLock { $0.append(WorkerBox(process: process)) }
            all.withLock { $0.append(WorkerBox(process: process)) }
        }
        return true
        #else
        return false
        #endif
    }

    func take() -> WorkerProcess? {
        if let box = idle.withLock({ $0.popLast() }) { return box.process }
        guard let process = WorkerProcess.spawn(executable: command.executable, arguments: command.arguments) else { return nil }
        all.withLock { $0.append(WorkerBox(process: process)) }
        return process
    }

    func giveBack(_ process: WorkerProcess) {
        idle.withLock { $0.append(WorkerBox(process: process)) }
    }

    func stopAll() {
        idle.withLock { $0.removeAll() }
        all.withLock { $0.removeAll() }
    }
}

private struct WorkerBox: @unchecked Sendable {
    let process: WorkerProcess
}

enum ScenarioLimitsText {
    static func timeout(_ seconds: Double) -> String { ScenarioLimits.timeoutMessage(seconds) }
}
