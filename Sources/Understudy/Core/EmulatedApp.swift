/// What every emulated backend has, whatever its flavour: a virtual clock, an outbox and faults.
public protocol EmulatedApp: AnyObject {
    var clock: VirtualClock { get set }
    var outbox: Outbox { get set }
    var faults: FaultInjector { get set }
    /// The operation names `faults.inject` accepts for this flavour.
    static var operations: [String] { get }
}

/// How large the emulator lets one backend grow, so a runaway script cannot exhaust the machine.
public struct Capacity: Sendable {
    /// The most users (and guests) one backend stores.
    public var maxUsers: Int
    /// The most device registrations one backend stores.
    public var maxDevices: Int

    public init(maxUsers: Int = 5_000_000, maxDevices: Int = 5_000_000) {
        self.maxUsers = maxUsers
        self.maxDevices = maxDevices
    }
}
