import Foundation

/// What `understudy ARGUMENTS` did: its exit status and what it printed.
package struct CommandResult: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

/// Runs this build's `understudy` binary to its end, in `directory` (default: the repository), with no
/// `UNDERSTUDY_*` variable from the test's environment but those in `environment`.
///
/// The process is waited for on a thread of its own, not on one of Swift concurrency's few shared threads (one per
/// core): a test that blocked one of those while a process ran would stall every other test's tasks, and tests
/// that wait with a deadline would then fail on a loaded machine (CI runs the suites in parallel on two cores).
package func runCommand(
    _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
) async throws -> CommandResult {
    try await offTheSharedThreads {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: repositoryRoot + "/.build/debug/understudy")
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? repositoryRoot)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
            .merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read on another thread meanwhile, so a process that fills that pipe cannot stall.
        let errors = ReadToEnd(err.fileHandleForReading)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = errors.text()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

/// A pipe read to its end on a thread of its own.
private final class ReadToEnd: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    /// What was read, once the writer closed the pipe.
    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Runs blocking work (a process to its end, a long Lua run) on a thread of its own and awaits its result, leaving
/// Swift concurrency's shared threads to the other tests. At most one such work per core runs at once (as many as
/// the shared threads would have run), so CPU-bound tests do not crowd each other past their deadlines either.
package func offTheSharedThreads<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            blockingWorkSlots.wait()
            defer { blockingWorkSlots.signal() }
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// `offTheSharedThreads` for work that cannot throw.
package func offTheSharedThreads<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            blockingWorkSlots.wait()
            defer { blockingWorkSlots.signal() }
            continuation.resume(returning: work())
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// A new empty folder under the temporary folder, removed by the caller (`defer { removeFolder(path) }`).
package func makeTemporaryFolder(_ prefix: String = "understudy-test") throws -> String {
    let path = NSTemporaryDirectory() + "/" + prefix + "-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Removes a folder and what it holds.
package func removeFolder(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// One slot per core for `offTheSharedThreads`.
private let blockingWorkSlots = DispatchSemaphore(value: max(2, ProcessInfo.processInfo.activeProcessorCount))
