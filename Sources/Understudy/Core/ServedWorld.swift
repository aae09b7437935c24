/// The apps `understudy serve` serves and the journal of the requests they answered: one world, owned by the
/// server, that HTTP requests, control calls and Lua chunks all act on. Not thread-safe: the server keeps it
/// behind one lock, so every request sees one consistent world.
package final class ServedWorld {
    /// Every app, in the order it was added.
    package private(set) var apps: [any EmulatedApp] = []
    /// The requests the server answered.
    package var journal: RequestJournal
    /// What the app under test met, per app, operation and test (`GET /_understudy/coverage`).
    package var coverage = CoverageTally()
    /// Where the links in emails and text messages point: the server's own address.
    package let linkBase: String
    /// Where the clock of every app added starts (seconds since the epoch); nil: `VirtualClock.start`.
    package private(set) var clockStart: Double?
    /// The session since the world was made, for `GET /_understudy/record`: the apps at the start, the control
    /// actions, each request's call.
    package private(set) var recording: SessionLog
    /// Where the MQTT broker listens: every Kii app added reports it in `installations.mqtt_endpoint`.
    package var mqttBroker = MqttBrokerAddress.standard
    /// The broker every Kii app added delivers its MQTT pushes to; nil: none.
    package var mqttDeliveries: (any MqttDeliveries)?

    /// Asked before a call of a served app builds what its arguments do not bound (each app's `admitsGrowth`):
    /// every check must admit it. The server adds its `--max-memory`, the live Lua session its state's cap (which
    /// admits everything while no chunk is calling).
    package var growthChecks: [GrowthCheck] = []

    package init(linkBase: String, journalCapacity: Int = 100_000, clockStart: Double? = nil) {
        self.linkBase = linkBase
        self.clockStart = clockStart
        journal = RequestJournal(capacity: journalCapacity)
        recording = SessionLog(startSequence: 0)
    }

    /// Starts the session's recording from the apps as they are now (after the setup script): the requests after
    /// the journal's last entry belong to it.
    package func beginRecording(setup: (path: String, text: String)?, fixedClockStart: Bool) {
        recording = SessionLog(startSequence: journal.lastSequence)
        for app in apps { app.faults.capturer = recording.capturer }
        recording.begin(apps: apps, setup: setup, fixedClockStart: fixedClockStart)
    }

    /// Adds an app; its links then point at this server, its clock shows `clockStart` (unless `keepingItsClock`:
    /// an imported app's clock shows the time it was exported at). Returns its position in `apps`.
    @discardableResult
    package func add(_ app: any EmulatedApp, keepingItsClock: Bool = false) -> Int {
        app.linkBase = linkBase
        if let clockStart, !keepingItsClock { app.moveClock(to: clockStart) }
        adopt(app)
        app.faults.capturer = recording.capturer
        if case .kii(let kii) = app.flavoured {
            kii.mqttBroker = mqttBroker
            kii.mqttDeliveries = mqttDeliveries
        }
        apps.append(app)
        return apps.count - 1
    }

    /// Moves where the clock of an app added from now on starts (a real-time clock's start follows the time).
    package func moveClockStart(by seconds: Double) {
        if let start = clockStart, VirtualClock.accepts(start + seconds) { clockStart = start + seconds }
    }

    /// What the apps hold (`EmulatedApp.heldBytes`; the journal apart) and the MQTT broker's connections and
    /// queued bytes: what `--max-memory` bounds under `serve`.
    package var appBytes: Int {
        var total = mqttDeliveries?.heldBytes ?? 0
        for app in apps { total += app.heldBytes }
        return total
    }

    /// Serves `replacement` as it is (clocks and links untouched: `replaceApps(with:)`); answers the apps it had.
    func swapApps(_ replacement: [any EmulatedApp]) -> [any EmulatedApp] {
        var replaced = replacement
        for app in replaced {
            adopt(app)
            app.faults.capturer = recording.capturer
        }
        swap(&replaced, &apps)
        return replaced
    }

    /// Whether the world may grow by `bytes` (every one of `growthChecks` admits it): what an app's
    /// `admitsGrowth` asks, and an import before its apps join.
    package func admitsGrowth(_ bytes: Int) -> Bool {
        for check in growthChecks where !check(bytes) { return false }
        return true
    }

    /// Makes the world's checks the app's `admitsGrowth`.
    private func adopt(_ app: any EmulatedApp) {
        app.admitsGrowth = { [weak self] bytes in self?.admitsGrowth(bytes) ?? true }
    }

    /// The sequence number of the oldest entry the journal holds (the next one when it holds none).
    package var oldestJournalSequence: Int { journal.lastSequence - journal.count + 1 }

    /// Forgets every app (the journal stays).
    package func removeAllApps() {
        apps.removeAll()
    }

    /// The app served under `appID` among the apps of one flavour; the first one added wins where two share it.
    package func app(_ flavour: Flavour, id appID: String) -> (any EmulatedApp)? {
        apps.first { $0.flavour == flavour && $0.appID == appID }
    }

    /// The app whose app id is `name` (either flavour); else, for `backendless` or `kii`, the first app of that
    /// flavour. What `understudy.app(name)` and the control API's `?app=` read.
    package func app(named name: String) -> (any EmulatedApp)? {
        if let app = apps.first(where: { $0.appID == name }) { return app }
        guard let flavour = Flavour(rawValue: name) else { return nil }
        return apps.first { $0.flavour == flavour }
    }

    /// The Backendless app served under `appID`.
    package func backendless(id appID: String) -> BackendlessApp? {
        guard case .backendless(let app)? = app(.backendless, id: appID)?.flavoured else { return nil }
        return app
    }

    /// The Kii app served under `appID`.
    package func kii(id appID: String) -> KiiApp? {
        guard case .kii(let app)? = app(.kii, id: appID)?.flavoured else { return nil }
        return app
    }

    /// Another app of `flavour` served under `appID` than `app`, if there is one: two apps cannot share an id
    /// (requests would reach only the first), so creating or renaming an app to it is refused.
    package func app(_ flavour: Flavour, id appID: String, other app: any EmulatedApp) -> (any EmulatedApp)? {
        apps.first { $0.flavour == flavour && $0.appID == appID && $0 !== app }
    }

    /// The first pair of apps of one flavour that share an app id, if any: such a world serves only the first.
    package var sharedAppID: (flavour: Flavour, appID: String)? {
        var seen = Set<String>()
        for app in apps where !seen.insert(app.flavour.rawValue + "\u{0}" + app.appID).inserted {
            return (app.flavour, app.appID)
        }
        return nil
    }

    /// `apps: ID (flavour), …`, for messages that list what is served.
    package var appList: String {
        apps.isEmpty ? "the server has no apps" : "apps: " + apps.map { "\($0.appID) (\($0.flavour.rawValue))" }.joined(separator: ", ")
    }
}
