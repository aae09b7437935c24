import Testing
import Understudy

/// The `BackendlessError` that `body` throws, or nil when it succeeds.
func backendlessFailure<T>(_ body: () throws -> T) -> BackendlessError? {
    do {
        _ = try body()
        return nil
    } catch let error as BackendlessError {
        return error
    } catch {
        Issue.record("expected a BackendlessError, got \(error)")
        return nil
    }
}
