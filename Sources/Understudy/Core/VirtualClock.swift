/// The emulator's clock: seconds since the Unix epoch that move only when a scenario says so.
public struct VirtualClock: Sendable {
    /// 2030-01-01T00:00:00Z, where every new backend starts.
    public static let start: Double = 1_893_456_000

    /// Seconds since the epoch.
    public private(set) var now: Double

    public init(now: Double = VirtualClock.start) {
        self.now = now
    }

    /// Milliseconds since the epoch, as Backendless reports dates.
    public var milliseconds: Int64 { Int64((now * 1000).rounded(.down)) }

    /// Moves the clock forward (or back, for a negative amount). Returns the new time.
    @discardableResult
    public mutating func advance(by seconds: Double) -> Double {
        now += seconds
        return now
    }

    /// Sets the clock. Returns the new time.
    @discardableResult
    public mutating func set(to seconds: Double) -> Double {
        now = seconds
        return now
    }
}
