/// A per-app request quota on the virtual clock, as the vendors enforce one: at most `requests` calls in each
/// window of `windowSeconds` (fixed windows from the epoch); the calls past it fail until the window ends, and the
/// answer says when (`Retry-After`). Off (`requests` 0) by default. Both flavours' settings hold one.
package struct RateLimitSettings: Sendable, Equatable {
    /// Calls allowed per window; 0 turns the limit off.
    package var requests = 0
    /// The window's length in seconds of virtual time.
    package var windowSeconds: Double = 60

    package init() {}

    /// The settings' names, in the order documentation lists them.
    package static let names = ["rate_limit", "rate_limit_seconds"]

    package func value(of name: String) -> Value? {
        switch name {
        case "rate_limit": return .int(Int64(requests))
        case "rate_limit_seconds":
            return windowSeconds == windowSeconds.rounded() ? .int(Int64(windowSeconds)) : .double(windowSeconds)
        default: return nil
        }
    }

    /// Sets `name`; false for a name that is not one of these settings.
    package mutating func set(_ name: String, to value: Value) throws(SettingError) -> Bool {
        switch name {
        case "rate_limit": requests = try value.count(for: name)
        case "rate_limit_seconds":
            let seconds = try value.nonNegativeNumber(for: name)
            guard seconds > 0 else { throw SettingError(setting: name, expected: "a number of seconds greater than 0", got: value) }
            windowSeconds = seconds
        default: return false
        }
        return true
    }
}

/// The calls counted in the current window of an app's rate limit.
package struct RateLimitCounter: Sendable {
    private var windowStart: Double = -.infinity
    private var count = 0

    package init() {}

    /// Counts a call at virtual time `now`; returns the seconds until the window ends (the `Retry-After`) when
    /// the call is past the limit, nil when it may go on.
    package mutating func admit(at now: Double, _ settings: RateLimitSettings) -> Double? {
        guard settings.requests > 0 else { return nil }
        let start = (now / settings.windowSeconds).rounded(.down) * settings.windowSeconds
        if start != windowStart {
            windowStart = start
            count = 0
        }
        count += 1
        guard count > settings.requests else { return nil }
        return start + settings.windowSeconds - now
    }
}
