/// What every emulated backend has, whatever its flavour: an app id, settings by name, a virtual clock, an
/// outbox and faults. Adapters (the Lua bindings, the HTTP routes) reach a flavour's own calls through
/// `flavoured`, an exhaustive switch, never a downcast.
package protocol EmulatedApp: AnyObject {
    /// The operations `faults.inject` accepts for this flavour, and that the journal records.
    associatedtype Operations: Operation
    /// The flavour's console settings.
    associatedtype Settings: NamedSettings

    /// The console settings; changes apply to the next call.
    var settings: Settings { get set }

    /// The virtual clock; it moves through `moveClock(to:allow:)`.
    var clock: VirtualClock { get }
    /// Sets the clock to `seconds`, doing on the way what comes due (Backendless: scheduled pushes, in time
    /// order, each at its own firing time). `allow` is asked before each firing with the number of pushes it
    /// will deliver; when it answers false the clock stays at the last firing done and `ClockMoveStopped` is
    /// thrown. Answers the new time, or nil (the clock unmoved) for a time the clock cannot show.
    @discardableResult
    func moveClock(to seconds: Double, allow: (_ pushes: Int) -> Bool) throws(ClockMoveStopped) -> Double?
    /// Asks `allow` about each firing a move to `seconds` would do, as `moveClock` would, without doing any:
    /// false when `allow` refused one. A move of several clocks checks them all first, so a refused move moves none.
    func canMoveClock(to seconds: Double, allow: (_ pushes: Int) -> Bool) -> Bool
    var outbox: Outbox { get set }
    var faults: FaultInjector { get set }
    /// Where the links in emails and text messages point (the HTTP server sets its own address).
    var linkBase: String { get set }

    /// This app as its flavour's own type.
    var flavoured: FlavouredApp { get }

    /// The id the app is served under (the `app_id` setting).
    var appID: String { get }
    /// The keys a client sends with the app id: `api_key` (Backendless) or `app_key` (Kii), by setting name.
    var keys: [(name: String, value: String)] { get }
    /// How many users the app holds (Backendless guests excluded).
    var userCount: Int { get }
    /// A user as scenarios see it.
    associatedtype UserRecord: Presentable
    /// Every user, as `users.all()` lists them (in the order they registered).
    var allUsers: [UserRecord] { get }
    /// How many push registrations the app holds (Backendless device registrations, Kii installations).
    var registrationCount: Int { get }
    /// The path under the server's address where the app's REST API is served: `/APP/KEY` or `/api/apps/APP`.
    var restPath: String { get }
    /// What the app's records hold (`HeldBytes`): users with their properties, push registrations, the outbox and
    /// scheduled messages. A running total, kept as records change: reading it costs nothing.
    var heldBytes: Int { get }
    /// What `heldBytes` counts that an export leaves out (sessions and tokens, the outbox, faults): an imported
    /// app holds `heldBytes - transientBytes` of the app exported.
    var transientBytes: Int { get }
    /// What the console's definitions and settings hold (`HeldBytes`), part of `heldBytes`.
    var consoleBytes: Int { get set }
    /// Asked before a call builds what its arguments do not bound (`GrowthCheck`); its owner installs it.
    var admitsGrowth: GrowthCheck { get set }

}

/// A flavour's console settings, readable and writable by the names scenarios use (`registration`,
/// `email_verification`, ...).
package protocol NamedSettings: Sendable {
    /// Every setting's name, in the order the documentation lists them.
    static var names: [String] { get }
    /// A setting's value by name; nil for a name the flavour does not have.
    func value(of name: String) -> Value?
    /// Changes a setting by name, checking the value.
    mutating func set(_ name: String, to value: Value) throws(SettingError)
    /// The request quota (`rate_limit`, `rate_limit_seconds`).
    var rateLimit: RateLimitSettings { get }
}

extension BackendlessSettings: NamedSettings {}
extension KiiSettings: NamedSettings {}

/// A clock move stopped before its end because `allow` refused a firing: the clock shows `time`, the last firing
/// done (or where it was).
package struct ClockMoveStopped: Error, Sendable {
    package var time: Double
    package init(time: Double) { self.time = time }
}

extension EmulatedApp {
    /// Moves the clock with no limit on the work done on the way.
    @discardableResult
    package func moveClock(to seconds: Double) -> Double? {
        do {
            return try moveClock(to: seconds, allow: { _ in true })
        } catch {
            return clock.now
        }
    }

    /// The flavour of this app.
    package var flavour: Flavour { Operations.flavour }

    /// The operation names `faults.inject` accepts for this flavour.
    package static var operations: [String] { Operations.names }

    /// Whether this app has an operation of that name.
    package func knows(operation name: String) -> Bool { Operations(rawValue: name) != nil }

    /// Every setting's name, in the order the documentation lists them.
    package static var settingNames: [String] { Settings.names }

    /// A setting's value by name; nil for a name the flavour does not have.
    package func setting(_ name: String) -> Value? { settings.value(of: name) }

    /// Changes a setting by name; the value is checked as `app.settings.NAME = value` checks it.
    package func changeSetting(_ name: String, to value: Value) throws(SettingError) {
        let before = settings.value(of: name)
        try settings.set(name, to: value)
        consoleBytes += HeldBytes.of(value) - (before.map(HeldBytes.of) ?? 0)
    }

    /// Changes several settings, all or nothing: the first bad one throws and nothing changes.
    package func changeSettings(_ changes: [(name: String, value: Value)]) throws(SettingError) {
        var changed = settings
        var grown = 0
        for change in changes {
            let before = changed.value(of: change.name)
            try changed.set(change.name, to: change.value)
            grown += HeldBytes.of(change.value) - (before.map(HeldBytes.of) ?? 0)
        }
        settings = changed
        consoleBytes += grown
    }
}

extension NamedSettings {
    /// What the settings' values hold (`HeldBytes`).
    package var heldBytes: Int {
        Self.names.reduce(0) { $0 + (value(of: $1).map(HeldBytes.of) ?? 0) }
    }
}

/// An app as its flavour's own type: what an adapter switches over to reach flavour-only calls.
package enum FlavouredApp {
    case backendless(BackendlessApp)
    case kii(KiiApp)
}

extension BackendlessApp {
    package typealias Operations = BackendlessOperation
    package var flavoured: FlavouredApp { .backendless(self) }
    package var appID: String { settings.appID }
    package var keys: [(name: String, value: String)] { [("api_key", settings.apiKey)] }
    package var restPath: String { "/\(settings.appID)/\(settings.apiKey)" }
    package var heldBytes: Int {
        HeldBytes.perApp + userBytes + devices.heldBytes + outbox.heldBytes + schedule.heldBytes + faults.heldBytes
            + consoleBytes + oauth.requestBytes
            + (sessions.count + confirmationTokens.count + recoveryLinks.count) * HeldBytes.perToken
    }

    /// What `heldBytes` counts that an export leaves out (sessions, password-recovery links, the outbox, faults,
    /// OAuth sign-ins in progress): an imported app holds `heldBytes - transientBytes` of the app exported.
    package var transientBytes: Int {
        outbox.heldBytes + faults.heldBytes + oauth.requestBytes + (sessions.count + recoveryLinks.count) * HeldBytes.perToken
    }
}

extension KiiApp {
    package typealias Operations = KiiOperation
    package var flavoured: FlavouredApp { .kii(self) }
    package var appID: String { settings.appID }
    package var keys: [(name: String, value: String)] { [("app_key", settings.appKey)] }
    package var restPath: String { "/api/apps/\(settings.appID)" }
    package var heldBytes: Int {
        HeldBytes.perApp + userBytes + registrationCount * HeldBytes.perRegistration + outbox.heldBytes
            + faults.heldBytes + consoleBytes + topicStore.aclBytes + mqttEndpoints.heldBytes + lifecycle.installations.textBytes
            + (sessions.count + adminTokens.count) * HeldBytes.perToken
    }

    /// What `heldBytes` counts that an export leaves out (access and administrator tokens, the outbox, faults):
    /// an imported app holds `heldBytes - transientBytes` of the app exported.
    package var transientBytes: Int {
        outbox.heldBytes + faults.heldBytes + (sessions.count + adminTokens.count) * HeldBytes.perToken
    }

    /// Nothing in a Kii app waits for the clock: it just moves.
    @discardableResult
    package func moveClock(to seconds: Double, allow: (_ pushes: Int) -> Bool) throws(ClockMoveStopped) -> Double? {
        clock.set(to: seconds)
    }

    package func canMoveClock(to seconds: Double, allow: (_ pushes: Int) -> Bool) -> Bool { true }
}

/// How large the emulator lets one backend grow, so a runaway script cannot exhaust the machine.
package struct Capacity: Sendable {
    /// The most users (and guests) one backend stores.
    package var maxUsers: Int
    /// The most device registrations one backend stores.
    package var maxDevices: Int

    package init(maxUsers: Int = 5_000_000, maxDevices: Int = 5_000_000) {
        self.maxUsers = maxUsers
        self.maxDevices = maxDevices
    }
}
