public import Understudy
public import UnderstudyLua

/// How `understudy serve` is set up.
public struct ServerOptions: Sendable {
    public var host: String
    public var port: Int
    /// A Lua file run at start (and at every reset) that creates apps, seeds users, sets settings and faults.
    public var setupScript: ScenarioFile?
    public var seed: UInt64
    public var limits: ScenarioLimits
    /// Required on `/_understudy/` requests (header `X-Understudy-Token`) when set. `understudy serve` insists
    /// on one when it listens beyond the loopback interface.
    public var controlToken: String?
    /// The largest request body accepted.
    public var maxBodyBytes: Int
    /// The most journal entries kept.
    public var journalCapacity: Int

    public init(
        host: String = "127.0.0.1", port: Int = 8080, setupScript: ScenarioFile? = nil, seed: UInt64 = 1,
        limits: ScenarioLimits = ScenarioLimits(), controlToken: String? = nil, maxBodyBytes: Int = 1 << 20,
        journalCapacity: Int = 100_000
    ) {
        self.host = host
        self.port = port
        self.setupScript = setupScript
        self.seed = seed
        self.limits = limits
        self.controlToken = controlToken
        self.maxBodyBytes = maxBodyBytes
        self.journalCapacity = journalCapacity
    }

    /// Where confirmation and verification links point.
    public var linkBase: String {
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "http://\(shownHost.contains(":") ? "[\(shownHost)]" : shownHost):\(port)"
    }
}

/// The app ids and keys served when no setup script creates apps.
public enum DefaultApps {
    public static let backendlessAppID = BackendlessSettings().appID
    public static let backendlessAPIKey = BackendlessSettings().apiKey
    public static let kiiAppID = KiiSettings().appID
    public static let kiiAppKey = KiiSettings().appKey
}

/// Why the server cannot start or reset: a setup script that fails, or two apps with one id.
public struct StageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Everything the server serves: the live Lua session and its apps, found by app id. Not thread-safe: the
/// server keeps it behind one lock, so requests, control calls and Lua chunks see one consistent world.
public final class Stage {
    public let options: ServerOptions
    public private(set) var session: LiveSession
    public private(set) var backendless: [String: BackendlessApp] = [:]
    public private(set) var kii: [String: KiiApp] = [:]

    public init(options: ServerOptions) throws(StageError) {
        self.options = options
        session = try Self.makeSession(options)
        try refreshApps(strict: true)
    }

    private static func makeSession(_ options: ServerOptions) throws(StageError) -> LiveSession {
        let session: LiveSession
        do {
            session = try LiveSession(seed: options.seed, limits: options.limits)
        } catch {
            throw StageError(message: error.message)
        }
        session.journal = RequestJournal(capacity: options.journalCapacity)
        if let script = options.setupScript {
            do {
                try session.runSetup(script)
            } catch {
                var message = "the setup script \(script.path) failed: \(error.message)"
                if let traceback = error.traceback, !traceback.isEmpty { message += "\n" + traceback }
                throw StageError(message: message)
            }
        }
        if session.apps.isEmpty {
            session.adopt(BackendlessApp(seed: session.nextAppSeed()))
            session.adopt(KiiApp(seed: session.nextAppSeed()))
        }
        return session
    }

    /// Starts again from the state right after start-up: the setup script runs again on fresh apps. The journal
    /// is kept unless `clearJournal`.
    public func reset(clearJournal: Bool = false) throws(StageError) {
        let journal = session.journal
        session = try Self.makeSession(options)
        if !clearJournal { session.journal = journal }
        try refreshApps(strict: false)
    }

    /// Finds the apps by id again: a Lua chunk may have created apps or changed an `app_id`. With `strict`, two
    /// apps of one flavour with one id are an error; otherwise the first one created wins.
    public func refreshApps(strict: Bool = false) throws(StageError) {
        var backendless: [String: BackendlessApp] = [:]
        var kii: [String: KiiApp] = [:]
        for app in session.apps {
            switch app {
            case let app as BackendlessApp:
                app.linkBase = options.linkBase
                if backendless[app.settings.appID] != nil {
                    if strict { throw StageError(message: "two Backendless apps have the app_id '\(app.settings.appID)'") }
                    continue
                }
                backendless[app.settings.appID] = app
            case let app as KiiApp:
                app.linkBase = options.linkBase
                if kii[app.settings.appID] != nil {
                    if strict { throw StageError(message: "two Kii apps have the app_id '\(app.settings.appID)'") }
                    continue
                }
                kii[app.settings.appID] = app
            default: continue
            }
        }
        self.backendless = backendless
        self.kii = kii
    }

    /// Every app, in the order they were created.
    public var apps: [any EmulatedApp] { session.apps }

    /// The app served under `id` (either flavour), or the only app when `id` is nil and there is one.
    public func app(id: String?) -> (any EmulatedApp)? {
        guard let id else { return apps.count == 1 ? apps[0] : nil }
        if let app = backendless[id] { return app }
        if let app = kii[id] { return app }
        return nil
    }
}

extension EmulatedApp {
    /// `backendless` or `kii`.
    public var flavourName: String { self is KiiApp ? "kii" : "backendless" }

    /// The id the app is served under.
    public var servedID: String {
        switch self {
        case let app as BackendlessApp: return app.settings.appID
        case let app as KiiApp: return app.settings.appID
        default: return ""
        }
    }
}
