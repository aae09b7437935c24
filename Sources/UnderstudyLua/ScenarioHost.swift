internal import CLua
internal import CLuaShim
internal import Understudy

/// What a Lua state's bindings share: the backends the running scenario created, and where its ids come from.
/// Backends are reached from Lua through integer handles that carry the scenario's epoch, so a backend kept
/// in a file-level variable cannot be used by a later scenario.
final class ScenarioHost {
    var L: OpaquePointer?
    /// The thread of the binding now running (a coroutine's, perhaps): where predicates are called.
    var currentL: OpaquePointer?
    /// The backends of the running scenario, in order (a live session's live in its world instead).
    private var scenarioApps: [any EmulatedApp] = []
    /// Every backend the running scenario made, by the number its handle carries. A snapshot restore can drop a
    /// backend from `scenarioApps`; its handle then finds nothing, and no later backend takes its number.
    private var madeApps: [any EmulatedApp] = []
    /// The number of each of `scenarioApps` in `madeApps`.
    private var scenarioNumbers: [Int] = []
    /// The snapshots the running scenario keeps (`understudy.snapshot`, `understudy.restore`).
    private(set) lazy var snapshots = ScenarioSnapshots(
        serve: { [unowned self] apps in serveRestored(apps) },
        charge: { [unowned self] bytes in
            guard let L = currentL ?? self.L else { return true }
            let fits = us_charge_memory(L, Int64(bytes)) != 0
            if !fits { us_charge_memory(L, -Int64(bytes)) }
            return fits
        }
    )
    private(set) var epoch: Int64 = 0
    private var scenarioSeed: UInt64 = 0
    /// Registry references to `when` predicates, released when the scenario ends.
    var predicateReferences: [Int32] = []
    /// Set when a Lua predicate fails inside a backend call; raised once the call returns.
    var pendingError: String?
    /// The first predicate failure raised in the running scenario: it fails the scenario even when a `pcall`
    /// caught it (a predicate that raises is a bug of the scenario, not an answer of the backend).
    var raisedPredicateError: String?
    /// Set for a live session (`understudy serve`): the server's world, whose apps outlive chunks and whose
    /// journal Lua reads.
    var world: ServedWorld?
    /// A live session's instruction budget for each chunk, request predicate and scenario.
    var liveBudget: Int64 = 0

    /// The backends reachable now: the scenario's, or the served world's.
    var apps: [any EmulatedApp] { world?.apps ?? scenarioApps }
    /// The error codes handed to Lua since the scenario began (`understudy run --codes`).
    var producedCodes: [ProducedCode: Int] = [:]
    /// The memory each backend was last charged for (BackendMemory.footprint), so that a nested call's growth
    /// is charged once: by the innermost call that sees it.
    var chargedFootprints: [ObjectIdentifier: Int] = [:]
    /// The errors calls handed the running scenario, and which of them it never looked at.
    let uncheckedErrors = UncheckedErrors()
    /// How deep binding calls are nested now (a fault predicate calling a binding is one deeper).
    var callDepth = 0

    /// Starts a scenario: earlier backends become unreachable.
    func beginScenario(seed: UInt64) {
        if let L {
            for reference in predicateReferences { luaL_unref(L, us_registryindex(), reference) }
        }
        predicateReferences.removeAll()
        snapshots.forget()
        scenarioApps.removeAll(keepingCapacity: true)
        madeApps.removeAll(keepingCapacity: true)
        scenarioNumbers.removeAll(keepingCapacity: true)
        epoch += 1
        scenarioSeed = seed
        pendingError = nil
        raisedPredicateError = nil
        producedCodes.removeAll()
        chargedFootprints.removeAll()
    }

    /// Adds a backend; returns its handle. Under `serve` its clock starts where the world's clocks start, unless
    /// `keepingItsClock` (an imported app).
    func adopt(_ app: any EmulatedApp, keepingItsClock: Bool = false) -> Int64 {
        if let world { return handle(ofAppAt: world.add(app, keepingItsClock: keepingItsClock)) }
        app.admitsGrowth = { [weak self] bytes in self?.admitsGrowth(bytes) ?? true }
        scenarioApps.append(app)
        madeApps.append(app)
        scenarioNumbers.append(madeApps.count - 1)
        return handle(ofAppAt: scenarioApps.count - 1)
    }

    /// Makes the scenario's backends `apps` (what a snapshot restore brought back: backends the scenario made, in
    /// the order it made them).
    private func serveRestored(_ apps: [any EmulatedApp]) {
        scenarioApps = apps
        scenarioNumbers = apps.map { app in madeApps.firstIndex { $0 === app } ?? madeApps.count }
    }

    /// True when `handle` is one of the running scenario's backends that a snapshot restore dropped.
    func wasDroppedByRestore(_ handle: Int64) -> Bool {
        world == nil && handle >> 24 == epoch && Int(handle & 0xFF_FFFF) < madeApps.count && app(handle) == nil
    }

    /// Whether `bytes` more fit under the memory cap of the state whose binding is calling (an app's
    /// `admitsGrowth`); true while no binding is calling (a served request). A refusal spends the state (the
    /// trampoline raises the cap's failure once the binding returns).
    func admitsGrowth(_ bytes: Int) -> Bool {
        guard let L = currentL else { return true }
        let charge = Int64(clamping: bytes)
        let fits = us_charge_memory(L, charge) != 0
        us_charge_memory(L, -charge)
        return fits
    }

    /// The seed for the next backend of this scenario.
    func nextAppSeed() -> UInt64 {
        var generator = SeededGenerator(seed: scenarioSeed ^ UInt64(apps.count &+ 1) &* 0x9E37_79B9_7F4A_7C15)
        return generator.next()
    }

    /// The backend behind a handle, if it belongs to the running scenario.
    func app(_ handle: Int64) -> (any EmulatedApp)? {
        guard handle >> 24 == epoch else { return nil }
        let index = Int(handle & 0xFF_FFFF)
        if let world { return index < world.apps.count ? world.apps[index] : nil }
        // Usually the backend at the number's place; after a restore dropped some, found by its number.
        if index < scenarioNumbers.count, scenarioNumbers[index] == index { return scenarioApps[index] }
        return scenarioNumbers.firstIndex(of: index).map { scenarioApps[$0] }
    }

    /// The handle of the backend at `index` in `apps`.
    func handle(ofAppAt index: Int) -> Int64 {
        epoch << 24 | Int64(world == nil ? scenarioNumbers[index] : index)
    }

    /// The host of a state made with one (the prelude's compiler state has none).
    static func ifAny(_ L: OpaquePointer) -> ScenarioHost? {
        guard let host = us_info_of(L).pointee.host else { return nil }
        return Unmanaged<ScenarioHost>.fromOpaque(host).takeUnretainedValue()
    }

    static func of(_ L: OpaquePointer) -> ScenarioHost {
        Unmanaged<ScenarioHost>.fromOpaque(us_info_of(L).pointee.host).takeUnretainedValue()
    }
}
