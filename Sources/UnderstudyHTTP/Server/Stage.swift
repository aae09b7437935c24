internal import Foundation
package import Understudy
package import UnderstudyLua

/// How `understudy serve` is set up.
package struct ServerOptions: Sendable {
    package var host: String
    package var port: Int
    /// A Lua file run at start (and at every reset) that creates apps, seeds users, sets settings and faults.
    package var setupScript: ScenarioFile?
    package var seed: UInt64
    package var limits: ScenarioLimits
    /// Required on `/_understudy/` requests (header `X-Understudy-Token`) when set. `understudy serve` insists
    /// on one when it listens beyond the loopback interface.
    package var controlToken: String?
    /// The largest request body accepted.
    package var maxBodyBytes: Int
    /// The most journal entries kept.
    package var journalCapacity: Int
    /// Seconds a connection may stay without a complete request part (an idle keep-alive connection, a request
    /// head or body that stops arriving) before the server closes it; 0: never.
    package var idleTimeout: Double
    /// Where the apps' clocks start (seconds since the epoch); nil: the real time of the start, and of each reset,
    /// because a real app computes times (`publishAt`, device expirations) from its own clock.
    package var clockStart: Double?
    /// The MQTT broker's TCP port (`installations.mqtt_endpoint`'s `portTCP`); 0: no TCP listener.
    package var mqttPort: Int = 1883
    /// Whether the HTTP port answers MQTT over WebSocket at `/mqtt` (`portWS`); off: `portWS` is 0.
    package var mqttWebSocket = true
    /// False when `mqttPort` is the default: if that port is taken, the server serves without MQTT over TCP (and
    /// says so) rather than not at all, so two servers on one machine both start.
    package var mqttPortRequired = false

    /// Where `installations.mqtt_endpoint` says the broker listens.
    package var mqttAddress: MqttBrokerAddress {
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return MqttBrokerAddress(host: shownHost, portTCP: mqttPort, portWS: mqttWebSocket ? port : 0)
    }
    /// How the apps' clocks move: only when told (`virtual`), or with the real time as well (`real`).
    package var clockMode: ClockMode
    /// The real time, in seconds since the epoch: what a `real` clock follows (tests give their own).
    package var realTime: @Sendable () -> Double

    package init(
        host: String = "127.0.0.1", port: Int = 8080, setupScript: ScenarioFile? = nil, seed: UInt64 = 1,
        limits: ScenarioLimits = ScenarioLimits(), controlToken: String? = nil, maxBodyBytes: Int = 1 << 20,
        journalCapacity: Int = 100_000, idleTimeout: Double = 10, clockStart: Double? = nil,
        clockMode: ClockMode = .virtual, realTime: @escaping @Sendable () -> Double = Stage.realTime
    ) {
        self.clockStart = clockStart
        self.clockMode = clockMode
        self.realTime = realTime
        self.host = host
        self.port = port
        self.setupScript = setupScript
        self.seed = seed
        self.limits = limits
        self.controlToken = controlToken
        self.maxBodyBytes = maxBodyBytes
        self.journalCapacity = journalCapacity
        self.idleTimeout = idleTimeout
    }

    /// Where confirmation and verification links point.
    package var linkBase: String {
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "http://\(shownHost.contains(":") ? "[\(shownHost)]" : shownHost):\(port)"
    }
}

/// How the served apps' clocks move (`understudy serve --clock`).
package enum ClockMode: String, Sendable, CaseIterable {
    /// Only when told: a scenario's, a control call's or the dashboard's advance or set.
    case virtual
    /// With the real time, from each app's start; advance and set still move a clock (an offset that stays).
    case real
}

/// The app ids and keys served when no setup script creates apps.
package enum DefaultApps {
    package static let backendlessAppID = BackendlessSettings().appID
    package static let backendlessAPIKey = BackendlessSettings().apiKey
    package static let kiiAppID = KiiSettings().appID
    package static let kiiAppKey = KiiSettings().appKey
}

/// Why the server cannot start or reset: a setup script that fails, or two apps with one id.
package struct StageError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// Everything the server serves: the world (apps and journal) and the live Lua session that acts on it. Not
/// thread-safe: the server keeps it behind one lock, so requests, control calls and Lua chunks see one
/// consistent world.
package final class Stage {
    package private(set) var options: ServerOptions
    /// The apps and the journal.
    package private(set) var world: ServedWorld
    /// Where the setup script, control chunks and fault predicates run.
    package private(set) var session: LiveSession
    /// The real time the clocks last followed (`--clock real`).
    private var followedRealTime: Double
    /// Named copies of the world (`/_understudy/snapshots`); a reset keeps them.
    package let snapshots = SnapshotStore()

    /// The MQTT broker the Kii apps deliver to.
    let mqttDeliveries: (any MqttDeliveries)?

    package init(options: ServerOptions, mqttDeliveries: (any MqttDeliveries)? = nil) throws(StageError) {
        self.options = options
        self.mqttDeliveries = mqttDeliveries
        followedRealTime = options.realTime()
        (world, session) = try Self.makeWorld(options, journal: Self.journal(options), mqttDeliveries: mqttDeliveries)
        admitGrowthWithinCap()
        if let shared = world.sharedAppID {
            throw StageError(message: "two \(shared.flavour.displayName) apps have the app_id '\(shared.appID)'")
        }
    }

    /// Serves without MQTT over TCP (its port was taken): every Kii app's endpoint then reports `portTCP = 0`.
    package func turnOffMQTTOverTCP() {
        options.mqttPort = 0
        world.mqttBroker = options.mqttAddress
        for app in world.apps {
            if case .kii(let kii) = app.flavoured { kii.mqttBroker = options.mqttAddress }
        }
    }

    /// A fresh world with `journal`, its setup script run; the default apps when the script creates none.
    private static func makeWorld(
        _ options: ServerOptions, journal: RequestJournal, mqttDeliveries: (any MqttDeliveries)?
    ) throws(StageError) -> (ServedWorld, LiveSession) {
        let world = ServedWorld(
            linkBase: options.linkBase, journalCapacity: options.journalCapacity,
            clockStart: options.clockStart ?? options.realTime()
        )
        world.mqttBroker = options.mqttAddress
        world.mqttDeliveries = mqttDeliveries
        world.journal = journal
        // The setup script's calls and imports grow the world within --max-memory too (snapshots, kept across a
        // reset, join the check once the world is served: `admitGrowthWithinCap`).
        let limit = options.limits.maxMemory
        world.growthChecks.append { [unowned world] bytes in HeldBytes.sum(world.appBytes, bytes) <= limit }
        let session: LiveSession
        do {
            session = try LiveSession(world: world, seed: options.seed, limits: options.limits)
        } catch {
            throw StageError(message: error.message)
        }
        if let script = options.setupScript {
            do {
                try session.runSetup(script)
            } catch {
                var message = "the setup script \(script.path) failed: \(error.message)"
                if let traceback = error.traceback, !traceback.isEmpty { message += "\n" + traceback }
                throw StageError(message: message)
            }
        }
        if world.apps.isEmpty {
            world.add(BackendlessApp(seed: session.nextAppSeed()))
            world.add(KiiApp(seed: session.nextAppSeed()))
        }
        world.beginRecording(
            setup: options.setupScript.map { ($0.path, String(decoding: $0.contents, as: UTF8.self)) },
            fixedClockStart: options.clockStart != nil && options.clockMode == .virtual
        )
        return (world, session)
    }

    /// An empty journal; it reads JSON bodies with the server's parser when they are read.
    private static func journal(_ options: ServerOptions) -> RequestJournal {
        RequestJournal(capacity: options.journalCapacity) { bytes in
            guard let parsed = try? JSONParser.parse(bytes) else { return nil }
            return parsed.value
        }
    }

    /// Seconds since the epoch now, to the millisecond (Backendless dates are milliseconds).
    package static func realTime() -> Double {
        (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000
    }

    /// Starts again from the state right after start-up: the setup script runs again on fresh apps. The journal
    /// is kept unless `clearJournal`.
    package func reset(clearJournal: Bool = false) throws(StageError) {
        let journal = clearJournal ? Self.journal(options) : world.journal
        mqttDeliveries?.disconnectAll()
        followedRealTime = options.realTime()
        let coverage = world.coverage  // what the app met survives resets (an app's suite resets between tests)
        (world, session) = try Self.makeWorld(options, journal: journal, mqttDeliveries: mqttDeliveries)
        world.coverage = coverage
        admitGrowthWithinCap()
    }

    /// Under `--clock real`, moves every app's clock (and where a new app's starts) on by the real time passed
    /// since the last call, doing what comes due on the way; nothing under `--clock virtual`. The server calls it
    /// before anything reads or acts on the world, so each request sees its app's clock where real time put it.
    package func followRealTime() {
        guard options.clockMode == .real else { return }
        let now = options.realTime()
        let passed = now - followedRealTime
        followedRealTime = now
        guard passed > 0 else { return }
        for app in world.apps { _ = app.moveClock(to: app.clock.now + passed) }
        world.moveClockStart(by: passed)
    }

    /// Makes `--max-memory` one of the world's growth checks: a call may build what its arguments do not bound
    /// only while the apps and snapshots stay within the cap.
    private func admitGrowthWithinCap() {
        world.growthChecks.append { [unowned self] bytes in
            HeldBytes.sum(heldBytes, bytes) <= options.limits.maxMemory
        }
    }

    /// What counts against `--max-memory` beside the journal: the served apps and the snapshots.
    package var heldBytes: Int { world.appBytes + snapshots.heldBytes }

    /// Takes a snapshot of the world's apps under `name` (replacing one of that name). Answers it and whether one
    /// was replaced.
    package func takeSnapshot(named name: String) -> (snapshot: WorldSnapshot, replaced: Bool) {
        let snapshot = WorldSnapshot(name: name, image: WorldImage(of: world.apps))
        return (snapshot, snapshots.keep(snapshot))
    }

    /// Serves the apps of a snapshot as they were when it was taken; the journal and the Lua session stay.
    package func restore(_ snapshot: WorldSnapshot) {
        snapshot.restore(into: world)
    }

    /// Every app, in the order they were created.
    package var apps: [any EmulatedApp] { world.apps }
}

