internal import CLua
package import CLuaShim
internal import Understudy

/// One scenario file loaded into one Lua state, ready to run its scenarios one after another. Each scenario gets
/// fresh backends and fresh globals; a scenario that exhausts its budget or memory spends the state, and the
/// next scenario gets a new one.
package final class ScenarioSession {
    let file: ScenarioFile
    let limits: ScenarioLimits
    let seed: UInt64
    package private(set) var declarations: [ScenarioDeclaration] = []
    private var state: LuaState?
    /// Told about every Lua state the session makes (a worker's watchdog reads the last line from it).
    private let onState: (UnsafeMutablePointer<us_info>) -> Void

    package init(file: ScenarioFile, limits: ScenarioLimits, seed: UInt64, onState: @escaping (UnsafeMutablePointer<us_info>) -> Void = { _ in }) throws(LoadError) {
        self.file = file
        self.limits = limits
        self.seed = seed
        self.onState = onState
        let state = try makeState()
        declarations = Self.readDeclarations(state.L)
        self.state = state
    }

    private func makeState() throws(LoadError) -> LuaState {
        if let problem = file.problem { throw LoadError(file: file.path, message: problem) }
        let state: LuaState
        do {
            state = try LuaState(limits: limits, randomSeed: Int64(bitPattern: seed))
            onState(state.info)
            let chunkName = "@" + file.path
            us_set_scenario_chunk(state.L, chunkName)
            us_clear_scenarios(state.L)
            try state.load(text: file.contents, chunkName: chunkName)
            state.host.beginScenario(seed: seed)
            us_release_backend_memory(state.L)
            state.startDeadline(limits.timeout)
            let status = us_run_chunk(state.L)
            state.startDeadline(0)
            if status != LUA_OK {
                let failure = state.failure(status: status)
                var message = failure.message
                if let reason = failure.skipReason {
                    message = "skip() can only end a scenario, but the file called it while loading (reason: \(reason))"
                } else if let location = failure.location, failure.fatal {
                    message += " (at \(location))"
                }
                throw LoadError(file: file.path, message: message, traceback: failure.traceback)
            }
        } catch let error as LoadError {
            throw error
        } catch let failure as LuaFailure {
            throw LoadError(file: file.path, message: failure.message, traceback: failure.traceback)
        } catch {
            throw LoadError(file: file.path, message: "\(error)")
        }
        return state
    }

    static func readDeclarations(_ L: OpaquePointer) -> [ScenarioDeclaration] {
        let count = Int(us_scenario_count(L))
        var declarations: [ScenarioDeclaration] = []
        declarations.reserveCapacity(count)
        for index in 1...max(count, 1) where index <= count {
            var length = 0
            let name = us_scenario_name(L, Int32(index), &length)
            var tags: [String] = []
            let tagCount = us_scenario_tag_count(L, Int32(index))
            if tagCount > 0 {
                for tag in 1...tagCount {
                    var tagLength = 0
                    let text = us_scenario_tag(L, Int32(index), tag, &tagLength)
                    tags.append(String(decoding: UnsafeRawBufferPointer(start: text, count: tagLength), as: UTF8.self))
                }
            }
            declarations.append(
                ScenarioDeclaration(
                    name: String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self),
                    tags: tags, line: Int(us_scenario_line(L, Int32(index))), index: index
                )
            )
        }
        return declarations
    }

    /// The bookkeeping of the state the next scenario runs in (nil when it must be made again).
    package var currentInfo: UnsafeMutablePointer<us_info>? { state?.info }

    /// Runs scenario `index` (1-based) with its own seed.
    package func run(_ index: Int, seed scenarioSeed: UInt64) -> ScenarioOutcome {
        let declaration = declarations[index - 1]
        let state: LuaState
        if let existing = self.state {
            state = existing
        } else {
            do {
                state = try makeState()
                self.state = state
            } catch {
                var outcome = ScenarioOutcome(
                    file: file.path, declaration: declaration, status: .failed, message: nil, location: nil,
                    traceback: nil, output: "", duration: 0
                )
                outcome.message = "the file could not be loaded again after a spent scenario: \(error.message)"
                return outcome
            }
        }
        state.host.beginScenario(seed: scenarioSeed)
        us_release_backend_memory(state.L)
        let (outcome, spent) = state.runScenario(declaration, of: file.path, seed: scenarioSeed, limits: limits)
        if spent { self.state = nil }
        state.host.beginScenario(seed: 0)
        us_release_backend_memory(state.L)
        return outcome
    }

    /// Keeps the traceback lines a scenario writer cares about.
    static func tidy(_ traceback: String) -> String {
        traceback.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.drop { $0 == "\t" || $0 == " " } }
            .filter { line in
                line != "stack traceback:" && !line.hasPrefix("understudy:") && !line.hasPrefix("[C]: in ?")
                    && !(line.hasPrefix("[C]: in ") && line.hasSuffix("'error'"))
            }
            .map { line -> String in
                let suffix = "in local 'fn'"
                guard line.hasSuffix(suffix) else { return String(line) }
                return line.dropLast(suffix.count) + "in the scenario function"
            }
            .joined(separator: "\n")
    }
}
