import ArgumentParser
import UnderstudyLua

/// The Lua limits `run` and `serve` share.
struct LuaLimitOptions: ParsableArguments {
    @Option(help: "Lua instructions one scenario, file load, setup script or control chunk may run.")
    var maxInstructions: Int64 = 100_000_000

    @Option(help: "Memory one Lua state may use, in MiB (the backends' users and apps count too).")
    var maxMemory: Int = 256

    @Option(help: "Seconds of wall time one scenario, file load, setup script or control chunk may take (0: none).")
    var timeout: Double = 30

    func validate() throws {
        if maxInstructions < 1000 { throw ValidationError("--max-instructions must be at least 1000") }
        if maxMemory < 1 { throw ValidationError("--max-memory must be at least 1 (MiB)") }
        if !(timeout >= 0) || timeout > 1e9 { throw ValidationError("--timeout must be a number of seconds, 0 or more") }
    }

    func limits(unsafe: Bool = false) -> ScenarioLimits {
        ScenarioLimits(maxInstructions: maxInstructions, maxMemory: maxMemory * 1024 * 1024, unsafe: unsafe, timeout: timeout)
    }

    /// The same limits as arguments, for a worker process.
    var arguments: [String] {
        ["--max-instructions", String(maxInstructions), "--max-memory", String(maxMemory), "--timeout", String(timeout)]
    }
}
