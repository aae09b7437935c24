#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Wall-clock measurement for reports (never used for emulated time).
package enum MonotonicClock {
    package static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    package static func seconds(since start: UInt64) -> Double {
        Double(now() - start) / 1e9
    }
}
