internal import CLua
internal import CLuaShim
package import Understudy

/// A long-lived Lua state that acts on a served world: what `understudy serve` runs its setup script, its
/// control-API chunks and request predicates in. The world belongs to the server; backends created by any chunk
/// (`understudy.backendless{...}`) join it and are served. Not thread-safe: one caller at a time (the server holds
/// a lock).
package final class LiveSession {
    package let seed: UInt64
    package let limits: ScenarioLimits
    /// The apps and journal this session's Lua reaches.
    package let world: ServedWorld
    private let state: LuaState

    /// A session acting on `world`.
    package init(world: ServedWorld, seed: UInt64, limits: ScenarioLimits = ScenarioLimits()) throws(LiveSessionError) {
        self.world = world
        self.seed = seed
        self.limits = limits
        do {
            state = try LuaState(limits: limits, randomSeed: Int64(bitPattern: seed))
        } catch {
            throw LiveSessionError(message: error.message)
        }
        state.host.world = world
        world.growthChecks.append { [weak host = state.host] bytes in host?.admitsGrowth(bytes) ?? true }
        state.host.liveBudget = limits.maxInstructions
        state.host.beginScenario(seed: seed)
        us_reset_budget(state.L, limits.maxInstructions)
    }

    /// The version `understudy.version` reports.
    package static var understudyVersion: String { UnderstudyModule.version }

    /// A seed for a backend made in Swift (the server's default apps), drawn like the seeds of backends made
    /// from Lua.
    package func nextAppSeed() -> UInt64 {
        state.host.nextAppSeed()
    }

    /// Call before a served request reaches a backend: its fault predicates then run outside any Lua call.
    package func beginRequest() {
        state.host.currentL = nil
        state.host.pendingError = nil
        settleAccount()
    }

    /// Starts the state's memory account afresh from the world as it is: what earlier chunks and predicates
    /// charged for backends is credited back (users deleted since, over HTTP or by a chunk, no longer count), and
    /// each chunk is charged what it grows the world by. What the world holds in all is `--max-memory`'s to bound.
    private func settleAccount() {
        us_release_backend_memory(state.L)
        if !state.host.chargedFootprints.isEmpty { state.host.chargedFootprints.removeAll() }
    }

    /// The error of a fault predicate that failed during the last request, if one did.
    package func takePredicateError() -> String? {
        defer { state.host.pendingError = nil }
        return state.host.pendingError
    }

    /// Runs a setup script (a file of plain Lua: create backends, seed users, set settings and faults).
    package func runSetup(_ file: ScenarioFile) throws(LoadError) {
        switch evaluate(file.contents, chunkName: "@" + file.path) {
        case .success: return
        case .failure(let failure):
            throw LoadError(file: file.path, message: failure.message, traceback: failure.traceback)
        }
    }

    /// Runs a chunk of Lua text against the live backends and returns its results (tables as lists and objects;
    /// functions shown as `"<function>"`).
    package func evaluate(_ source: String, chunkName: String = "=control") -> Result<LiveResult, LiveFailure> {
        evaluate(Array(source.utf8), chunkName: chunkName)
    }

    func evaluate(_ bytes: [UInt8], chunkName: String) -> Result<LiveResult, LiveFailure> {
        let L = state.L
        let base = lua_gettop(L)
        us_reset_budget(L, limits.maxInstructions)
        us_restore_file_globals(L) // each chunk starts with pristine globals and libraries, like a scenario
        state.host.currentL = nil
        settleAccount()
        defer {
            lua_settop(L, base)
            if state.isSpent { us_recover(L) }
        }
        do {
            try state.load(text: bytes, chunkName: chunkName)
        } catch {
            return .failure(LiveFailure(message: error.message, location: nil, traceback: nil, output: state.takeOutput()))
        }
        let status = us_run_live_chunk(L)
        if status != LUA_OK {
            let failure = state.failure(status: status)
            return .failure(
                LiveFailure(
                    message: failure.skipReason.map { "skipped: \($0)" } ?? failure.message, location: failure.location,
                    traceback: failure.traceback.map(ScenarioSession.tidy), output: state.takeOutput()
                )
            )
        }
        let values = state.withRelaxedLimit { () -> [Value] in
            var values: [Value] = []
            let top = lua_gettop(L)
            if top > base {
                for index in (base + 1)...top {
                    if case .success(let value) = LuaValues.value(L, at: index, lenient: true) { values.append(value) }
                }
            }
            return values
        }
        return .success(LiveResult(values: values, output: state.takeOutput()))
    }

    /// Runs the scenarios a file declares, one after another, against the live backends (not fresh ones):
    /// what a QA engineer uses to check a running server, its journal and outbox, from a scenario file.
    package func runScenarios(_ file: ScenarioFile) -> Result<[ScenarioOutcome], LoadError> {
        let L = state.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        us_reset_budget(L, limits.maxInstructions)
        us_restore_file_globals(L) // each posted file starts with pristine globals and libraries
        us_clear_scenarios(L)
        settleAccount()
        let chunkName = "@" + file.path
        us_set_scenario_chunk(L, chunkName)
        do {
            try state.load(text: file.contents, chunkName: chunkName)
        } catch {
            return .failure(LoadError(file: file.path, message: error.message))
        }
        let status = us_run_chunk(L)
        if status != LUA_OK {
            let failure = state.failure(status: status)
            if state.isSpent { us_recover(L) }
            return .failure(LoadError(file: file.path, message: failure.message, traceback: failure.traceback))
        }
        var outcomes: [ScenarioOutcome] = []
        for declaration in ScenarioSession.readDeclarations(L) {
            state.host.currentL = nil
            let (outcome, spent) = state.runScenario(declaration, of: file.path, seed: seed, limits: limits)
            if spent { us_recover(L) }
            outcomes.append(outcome)
        }
        us_clear_scenarios(L)
        us_restore_file_globals(L)
        return .success(outcomes)
    }
}

/// What a chunk returned, and what it printed.
package struct LiveResult: Sendable {
    package var values: [Value]
    package var output: String
}

/// Why a chunk failed: the message, the chunk's line, a traceback, and what it printed before.
package struct LiveFailure: Error, Sendable {
    package var message: String
    package var location: String?
    package var traceback: String?
    package var output: String
}

/// A live session could not be made.
package struct LiveSessionError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
