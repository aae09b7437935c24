#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import CLua
internal import CLuaShim

/// The limits a scenario runs under.
package struct ScenarioLimits: Sendable, Hashable {
    /// Lua VM instructions one scenario may run (API calls count too).
    package var maxInstructions: Int64
    /// Bytes the Lua state of one scenario may allocate.
    package var maxMemory: Int
    /// Open the whole standard library (io, os, debug, require) instead of the sandbox.
    package var unsafe: Bool
    /// Seconds of wall time one scenario, one file's loading, one setup script or one control chunk may take
    /// (0: no deadline).
    package var timeout: Double

    package init(maxInstructions: Int64 = 100_000_000, maxMemory: Int = 256 * 1024 * 1024, unsafe: Bool = false, timeout: Double = 30) {
        self.maxInstructions = maxInstructions
        self.maxMemory = maxMemory
        self.unsafe = unsafe
        self.timeout = timeout
    }

    /// What a run past its deadline of `seconds` reports.
    package static func timeoutMessage(_ seconds: Double) -> String { LuaState.timeoutMessage(seconds) }
}

/// A failure reported by Lua: the message, where in the scenario file it happened, and a traceback.
struct LuaFailure: Error, Sendable {
    var message: String
    var location: String?
    var traceback: String?
    var skipReason: String?
    var fatal: Bool = false
}

/// One sandboxed Lua state with Understudy's bindings. Confined to the thread that made it.
final class LuaState {
    let L: OpaquePointer
    let host: ScenarioHost

    /// Makes a state with the sandbox, the `understudy` module and the prelude.
    init(limits: ScenarioLimits, randomSeed: Int64) throws(LuaFailure) {
        host = ScenarioHost()
        guard let state = us_newstate(limits.maxMemory, limits.maxInstructions, Unmanaged.passUnretained(host).toOpaque()) else {
            throw LuaFailure(message: "could not create a Lua state (out of memory)")
        }
        L = state
        host.L = state
        us_set_deadline(L, limits.timeout)
        if us_open_sandbox(L, limits.unsafe ? 1 : 0, lua_Integer(randomSeed)) != LUA_OK {
            let message = popMessage()
            us_close(L)
            throw LuaFailure(message: "could not open the Lua standard library: \(message)")
        }
        withRelaxedLimit { UnderstudyModule.install(in: L) }
        do throws(LuaFailure) {
            try load(trusted: Prelude.compiled, chunkName: Prelude.chunkName)
            let status = us_run_prelude(L)
            if status != LUA_OK { throw failure(status: status) }
        } catch {
            us_close(L)
            throw error
        }
    }

    deinit {
        us_close(L)
    }

    var info: UnsafeMutablePointer<us_info> { us_info_of(L) }

    /// True once the budget or the memory cap stopped a scenario: the state must not be reused.
    var isSpent: Bool { info.pointee.fatal != Int32(US_FATAL_NONE.rawValue) }

    /// Runs `body` with the memory limit lifted, for Swift code that allocates Lua values.
    func withRelaxedLimit<T>(_ body: () throws -> T) rethrows -> T {
        info.pointee.relaxed += 1
        defer { info.pointee.relaxed -= 1 }
        return try body()
    }

    /// Loads a chunk Understudy produced itself (text or a dump of it).
    func load(trusted bytes: [UInt8], chunkName: String) throws(LuaFailure) {
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { us_load_trusted(L, $0.baseAddress, $0.count, chunkName) }
        }
        if status != LUA_OK { throw LuaFailure(message: popMessage()) }
    }

    /// Loads a scenario file's text (never binary).
    func load(text bytes: [UInt8], chunkName: String) throws(LuaFailure) {
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { us_load_text(L, $0.baseAddress, $0.count, chunkName) }
        }
        if status != LUA_OK { throw LuaFailure(message: popMessage()) }
    }

    /// Pops the value on top as a message (a plain string or a stringified value).
    func popMessage() -> String {
        defer { us_pop(L, 1) }
        return LuaValues.string(L, at: -1) ?? "(error object is a \(String(cString: lua_typename(L, lua_type(L, -1)))) value)"
    }

    /// Turns a non-OK status and the report on top of the stack into a failure (and pops it).
    func failure(status: Int32) -> LuaFailure {
        withRelaxedLimit { readFailure(status: status) }
    }

    private func readFailure(status: Int32) -> LuaFailure {
        let fatal = isSpent
        if status == LUA_ERRMEM {
            us_pop(L, 1)
            return LuaFailure(message: memoryMessage, location: memoryLocation, fatal: true)
        }
        if status == LUA_ERRERR {
            us_pop(L, 1)
            return LuaFailure(message: fatal ? fatalMessage : "error while reporting an error (the error handler failed)", fatal: fatal)
        }
        guard lua_type(L, -1) == LUA_TTABLE else { return LuaFailure(message: popMessage(), fatal: fatal) }
        let report = lua_gettop(L)
        var failure = LuaFailure(message: "")
        if us_rawgetfield(L, report, "skip", 4) == LUA_TSTRING {
            failure.skipReason = LuaValues.string(L, at: -1)
        }
        us_pop(L, 1)
        _ = us_rawgetfield(L, report, "message", 7)
        failure.message = LuaValues.string(L, at: -1) ?? ""
        us_pop(L, 1)
        if us_rawgetfield(L, report, "where", 5) == LUA_TSTRING { failure.location = LuaValues.string(L, at: -1) }
        us_pop(L, 1)
        if us_rawgetfield(L, report, "traceback", 9) == LUA_TSTRING { failure.traceback = LuaValues.string(L, at: -1) }
        us_pop(L, 1)
        us_pop(L, 1)
        failure.fatal = fatal
        if fatal, failure.skipReason == nil { failure.message = fatalMessage }
        // A memory error raised later (at the next instruction, after a pcall caught the first) points where the
        // cap was passed.
        if fatal, info.pointee.fatal == Int32(US_FATAL_MEMORY.rawValue), let memoryLocation { failure.location = memoryLocation }
        return failure
    }

    /// `file:line` of the scenario file's line whose allocation passed the memory cap, when the allocator saw it.
    private var memoryLocation: String? {
        let line = info.pointee.memory_line
        guard line > 0, let chunk = info.pointee.scenario_chunk else { return nil }
        let name = String(cString: chunk)
        return (name.hasPrefix("@") ? String(name.dropFirst()) : name) + ":\(line)"
    }

    private var memoryMessage: String {
        let limit = info.pointee.memory_cap
        if limit == 0 { return "out of memory" }
        return "memory cap exceeded: the scenario used more than \(limit / (1024 * 1024)) MiB (raise it with --max-memory)"
    }

    private var fatalMessage: String {
        if info.pointee.fatal == Int32(US_FATAL_MEMORY.rawValue) { return memoryMessage }
        if info.pointee.fatal == Int32(US_FATAL_TIMEOUT.rawValue) { return Self.timeoutMessage(info.pointee.timeout) }
        return "instruction budget exhausted: the scenario ran more than \(info.pointee.budget_limit) instructions (raise it with --max-instructions)"
    }

    /// What a run past its deadline reports.
    static func timeoutMessage(_ seconds: Double) -> String {
        "timed out after \(DurationText.seconds(seconds)) s (raise it with --timeout)"
    }

    /// Starts the wall-clock deadline of one run (a scenario, a file's loading, a chunk).
    func startDeadline(_ seconds: Double) {
        us_set_deadline(L, seconds)
    }

    /// Text captured from `print` since the last clear.
    func takeOutput() -> String {
        var length = 0
        let pointer = us_output(L, &length)
        let text = length == 0 ? "" : String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
        let truncated = info.pointee.output_truncated != 0
        us_output_clear(L)
        return truncated ? text + "[output truncated at 1 MiB]\n" : text
    }
}

extension Prelude {
    /// The prelude, compiled once per process and loaded from its dump afterwards.
    static let compiled: [UInt8] = {
        let text = Prelude.text
        guard let L = us_newstate(0, Int64.max, nil) else { return text }
        defer { us_close(L) }
        let status = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { us_load_text(L, $0.baseAddress, $0.count, chunkName) }
        }
        guard status == LUA_OK else { return text }
        var length = 0
        guard let dump = us_dump(L, &length) else { return text }
        defer { free(dump) }
        return Array(UnsafeRawBufferPointer(start: dump, count: length))
    }()
}

/// Seconds as people write them: `30`, `0.5`.
enum DurationText {
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
