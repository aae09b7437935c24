internal import Dispatch

/// The thread that runs, for the async paths, the work that takes the stage lock: a route's handler (a control
/// chunk may run Lua up to its deadline) and the journal's records of unanswered requests.
///
/// Waiting for the lock, or running Lua, must never hold one of the threads that read requests: `serve` runs Swift
/// concurrency on NIO's event loops, and tests run it on a pool as small as the machine's cores. Either way a
/// looping chunk would stall every client whose connection, or whose task, shares that thread, even one asking
/// for nothing the lock guards (a CORS preflight). The work here runs one piece at a time, in the order it was
/// handed over, which is the order the lock would have let it in anyway.
final class StageWorker: Sendable {
    private let queue = DispatchQueue(label: "understudy.stage")

    /// Runs `work` on the stage's thread and returns its result.
    func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Runs `work` on the stage's thread, later; for the event loop, which must not wait.
    func runLater(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}
