internal import UnderstudyLua
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import CLuaShim
internal import Dispatch
internal import Synchronization

/// The worker side of `understudy run`: loads the files and runs the scenarios its parent sends over standard
/// input, answering on standard output. A watchdog thread ends the process when a scenario passes its deadline
/// where the count hook cannot stop it (inside a C function), after telling the parent the last line it saw.
package enum ScenarioWorker {
    /// Serves until standard input ends.
    package static func serve(configuration: RunConfiguration) {
        WorkerIO.ignoreBrokenPipes()
        WorkerIO.watchParent()
        let watch = Watch()
        if configuration.limits.timeout > 0 { watch.startWatchdog(timeout: configuration.limits.timeout) }
        var files: [Int: ScenarioFile] = [:]
        var sessions: [Int: ScenarioSession] = [:]
        var buffer: [UInt8] = []
        while let message = WorkerIO.readMessage(0, &buffer) {
            switch message {
            case .load(let id, let path, let contents):
                let file = ScenarioFile(path: path, loadable: contents)
                files[id] = file
                let reply: WorkerMessage
                do throws(LoadError) {
                    let session = try watch.watching(nil) { () throws(LoadError) -> ScenarioSession in
                        try ScenarioSession(
                            file: file, limits: configuration.limits,
                            seed: SuiteRunner.scenarioSeed(suiteSeed: configuration.seed, file: path, index: 0),
                            onState: watch.follow
                        )
                    }
                    sessions[id] = session
                    reply = .declared(file: id, declarations: session.declarations)
                } catch {
                    reply = .loadFailed(file: id, message: error.message, traceback: error.traceback)
                }
                watch.send(reply)
            case .run(let id, let indices, let seeds):
                for (index, seed) in zip(indices, seeds) {
                    let outcome: ScenarioOutcome
                    if let session = sessions[id] {
                        outcome = watch.watching(session) { session.run(index, seed: seed) }
                    } else {
                        outcome = ScenarioOutcome.unloadable(file: files[id]?.path ?? "?", index: index)
                    }
                    watch.send(.finished(outcome))
                }
            default:
                continue
            }
        }
    }
}

/// What the worker is running, shared with its watchdog thread.
private final class Watch: @unchecked Sendable {
    private struct Running {
        var sequence = 0
        var started: UInt64 = 0
        var active = false
        /// The address of the running state's us_info (an integer: pointers are not Sendable).
        var info: UInt = 0
    }

    private let running = Mutex(Running())

    /// Runs `body` as the watched work; replies are sent by `send` under the same lock.
    func watching<T, E: Error>(_ session: ScenarioSession?, _ body: () throws(E) -> T) throws(E) -> T {
        running.withLock {
            $0.sequence += 1
            $0.started = MonotonicClock.now()
            $0.active = true
            if let session { $0.info = UInt(bitPattern: session.currentInfo) }
        }
        return try body()
    }

    /// Points the watchdog at the Lua state now running (a file's state is made inside the watched work).
    func follow(_ info: UnsafeMutablePointer<us_info>) {
        let address = UInt(bitPattern: info)
        running.withLock { $0.info = address }
    }

    func send(_ message: WorkerMessage) {
        running.withLock {
            $0.active = false
            _ = WorkerIO.writeAll(1, message.encoded())
        }
    }

    func startWatchdog(timeout: Double) {
        let limit = UInt64(timeout * 1e9) + 1_000_000_000 // the count hook reports Lua code in time; this is for C
        let thread = DispatchQueue(label: "understudy.watchdog")
        thread.async { [self] in
            while true {
                usleep(50_000)
                running.withLock {
                    guard $0.active, MonotonicClock.now() - $0.started > limit else { return }
                    let line = Int(UnsafeMutablePointer<us_info>(bitPattern: $0.info)?.pointee.last_line ?? 0)
                    _ = WorkerIO.writeAll(1, WorkerMessage.timedOut(line: line).encoded())
                    _exit(3)
                }
            }
        }
    }
}
