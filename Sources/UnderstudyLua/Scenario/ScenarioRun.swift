internal import CLua
internal import CLuaShim

extension LuaState {
    /// Runs one declared scenario of the file loaded in this state, under a fresh instruction budget and the
    /// deadline, and reports it: what the file runner and the live session (`POST /_understudy/scenarios`) share.
    /// `spent` is true when the scenario spent the state (budget, memory or deadline): the caller recovers it or
    /// makes a new one.
    func runScenario(
        _ declaration: ScenarioDeclaration, of file: String, seed: UInt64, limits: ScenarioLimits
    ) -> (outcome: ScenarioOutcome, spent: Bool) {
        let start = MonotonicClock.now()
        var outcome = ScenarioOutcome(
            file: file, declaration: declaration, status: .passed, message: nil, location: nil, traceback: nil,
            output: "", duration: 0
        )
        us_reset_budget(L, limits.maxInstructions)
        startDeadline(limits.timeout)
        host.uncheckedErrors.begin(L)
        host.raisedPredicateError = nil
        let status = us_run_scenario(L, Int32(declaration.index), lua_Integer(Int64(bitPattern: seed)))
        startDeadline(0)
        var spent = false
        if status != LUA_OK {
            var failure = failure(status: status)
            if !failure.fatal, failure.skipReason == nil {
                failure.message = UncheckedErrors.explain(failure.message, with: host.uncheckedErrors.unlooked(L))
            }
            outcome.settle(with: failure)
            spent = failure.fatal
        } else if let predicate = host.raisedPredicateError {
            outcome.status = .failed
            outcome.message = predicate + " (a pcall caught the error; a 'when' predicate that raises fails its scenario)"
        } else {
            let unlooked = host.uncheckedErrors.unlooked(L)
            if let first = unlooked.first {
                outcome.status = .failed
                outcome.message = UncheckedErrors.message(for: unlooked)
                outcome.location = first.location
            }
        }
        host.uncheckedErrors.end()
        outcome.output = takeOutput()
        outcome.codes = host.producedCodes
        outcome.duration = MonotonicClock.seconds(since: start)
        return (outcome, spent)
    }
}
