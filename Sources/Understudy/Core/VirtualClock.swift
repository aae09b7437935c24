/// The emulator's clock: seconds since the Unix epoch that move only when a scenario says so.
package struct VirtualClock: Sendable {
    /// 2030-01-01T00:00:00Z, where every new backend starts.
    package static let start: Double = 1_893_456_000

    /// How far from the epoch the clock may be, in seconds (about 31 million years either way): in milliseconds
    /// every time within it fits a 64-bit integer, as Backendless dates and Kii token lifetimes need.
    package static let limit: Double = 1e15

    /// True when `seconds` is a time the clock can show: finite and within `limit` of the epoch.
    package static func accepts(_ seconds: Double) -> Bool {
        seconds.isFinite && abs(seconds) <= limit
    }

    /// Seconds since the epoch.
    package private(set) var now: Double

    package init(now: Double = VirtualClock.start) {
        self.now = now
    }

    /// Milliseconds since the epoch, as Backendless reports dates.
    package var milliseconds: Int64 {
        // `set` and `advance` keep `now` within `limit`; clamping guards the conversion all the same.
        Int64((min(max(now, -Self.limit), Self.limit) * 1000).rounded(.down))
    }

    /// Moves the clock forward (or back, for a negative amount) when the new time is one it `accepts`. Returns
    /// the new time, or nil (leaving the clock where it was) when it is not.
    @discardableResult
    package mutating func advance(by seconds: Double) -> Double? {
        set(to: now + seconds)
    }

    /// Sets the clock when it `accepts` the time. Returns the new time, or nil (leaving the clock where it was).
    @discardableResult
    package mutating func set(to seconds: Double) -> Double? {
        guard Self.accepts(seconds) else { return nil }
        now = seconds
        return now
    }
}
