/// An emulated Backendless application: users, sessions, email confirmation and push device registrations,
/// with its own virtual clock, outbox and faults. Not thread-safe: one owner at a time.
package final class BackendlessApp: EmulatedApp {
    package var settings: BackendlessSettings {
        didSet {
            if settings.identity != oldValue.identity { rebuildIdentityIndex() }
        }
    }
    /// The virtual clock. It moves through `moveClock(to:allow:)`, which delivers the scheduled pushes on the way.
    package internal(set) var clock = VirtualClock()
    package var outbox = Outbox()
    package var faults: FaultInjector
    /// Where confirmation links point (the HTTP server sets its own address).
    package var linkBase = "http://127.0.0.1:8080"
    package let capacity: Capacity

    var random: SeededGenerator
    var users: ShardedDictionary<Identifier128, StoredUser> = [:]
    /// Users (guests included) in registration order, for paging. A user no longer in `users` (deleted) is
    /// skipped and dropped by the next `userPage` call, so code that removes users need not touch this.
    var registrationOrder: ChunkedList<StoredUser> = []
    /// Users by identity value (lower-cased for `email`).
    var identityIndex: ShardedDictionary<IndexKey, StoredUser> = [:]
    var sessions: ShardedDictionary<Identifier128, StoredUser> = [:]
    var confirmationTokens: ShardedDictionary<String, Identifier128> = [:]
    /// Password-recovery links by token (`BackendlessApp+Lifecycle.swift`).
    var recoveryLinks: [String: RecoveryLink] = [:]
    var guestCount = 0
    /// What the users hold (`HeldBytes`: each user and its properties), kept as users are added, changed and
    /// deleted; the memory cap counts it.
    package internal(set) var userBytes = 0
    /// What the console's definitions hold (`HeldBytes`: push and email templates, roles and who holds them, OAuth
    /// accounts and the users they registered, the columns `users.describe` lists, settings' text), kept as each
    /// is defined or dropped; the memory cap counts it.
    package var consoleBytes = 0
    /// Asked before a call builds what its arguments do not bound (`GrowthCheck`); its owner installs it.
    package var admitsGrowth: GrowthCheck = { _ in true }
    /// Every dynamic property any user has held, with the type of its first non-null value (`users.describe`).
    var heldColumns: [String: UsersColumn.ColumnType?] = [:]
    /// Custom roles and who holds them (`BackendlessApp+Roles.swift`).
    var roles = RoleDirectory()
    /// Email templates by name (`BackendlessApp+EmailTemplates.swift`).
    var emailTemplates: [String: EmailTemplate] = [:]
    /// OAuth provider accounts and the users they registered (`BackendlessApp+OAuth.swift`).
    var oauth = OAuthDirectory()
    /// Push device registrations and channels.
    package var devices: DeviceRegistry
    /// Published messages, their status and the firings to come (`BackendlessApp+ScheduledPush.swift`).
    var schedule = MessageSchedule()
    /// Push templates by name.
    var pushTemplates: [String: PushTemplate] = [:]
    /// Where message ids come from (its own stream, so that publishing does not change other ids).
    var messageIDs: SeededGenerator
    /// The users changed since the app last equalled a snapshot's image of it (`BackendlessApp+Image.swift`).
    let userChanges = UserChanges<StoredUser>()

    /// A fresh app. `seed` decides every id, token and code it will hand out.
    package init(settings: BackendlessSettings = BackendlessSettings(), seed: UInt64, capacity: Capacity = Capacity()) {
        self.settings = settings
        self.capacity = capacity
        let root = SeededGenerator(seed: seed)
        random = root.derived(1)
        faults = FaultInjector(random: root.derived(2))
        devices = DeviceRegistry(random: root.derived(3), capacity: capacity.maxDevices)
        messageIDs = root.derived(40)
        consoleBytes = settings.heldBytes
    }

    deinit {
        userChanges.forget()
    }

    /// The error an injected fault answers with.
    package func failure(for fault: Fault) -> BackendlessError {
        let code: Int
        switch fault.code {
        case .number(let number)?: code = number
        case .text(let text)?: code = Int(text) ?? 0
        case nil: code = 0
        }
        return BackendlessError(
            code: code, message: fault.message ?? BackendlessError.catalogueMessage(for: code), httpStatus: fault.status
        )
    }

    /// Throws the fault's error when one applies to this call.
    /// `arguments` are the call's, in the order the operation declares them: a fault's `when(args)` sees them by
    /// their declared names, whether the call came from Lua or over HTTP.
    func checkFaults(_ operation: BackendlessOperation, _ arguments: @autoclosure () -> [Value]) throws(BackendlessError) {
        faults.capturer?.begin(operation.name, arguments)
        if let wait = rateLimitWait() { throw .rateLimited(retryAfter: wait) }
        if let fault = triggerFault(operation.name, arguments: operation.faultArguments(arguments())), fault.code != nil {
            throw failure(for: fault)
        }
    }

    /// For an operation an adapter answers without a domain call (`isAnsweredByAdapter`): throws the error of the
    /// fault that applies to this call, if one does.
    package func checkAdapterFaults(_ operation: BackendlessOperation, _ arguments: @autoclosure () -> [Value]) throws(BackendlessError) {
        try checkFaults(operation, arguments())
    }

    func identityKey(_ value: Value) -> IndexKey? {
        let text: String
        switch value {
        case .string(let string): text = string
        case .int(let number): text = String(number)
        case .double(let number): text = String(number)
        case .bool(let flag): text = String(flag)
        default: return nil
        }
        if text.isEmpty { return nil }
        return IndexKey(settings.identity == "email" ? text.lowercasedIfNeeded() : text)
    }

    func rebuildIdentityIndex() {
        identityIndex.removeAll(keepingCapacity: true)
        let property = settings.identity
        for user in users.values where user.status != .guest {
            if let value = user.properties[named: property], let key = identityKey(value), identityIndex[key] == nil {
                identityIndex[key] = user
            }
        }
    }
}

extension String {
    /// Lower-cases only when needed, so already lower-case strings share their storage.
    func lowercasedIfNeeded() -> String {
        isLowercaseASCII ? self : lowercased()
    }
}

extension BackendlessApp {
    /// A domain method as a declaration names it: the app and the declared arguments in, the outcome out.
    package typealias Method = @Sendable (BackendlessApp, CallArguments) throws(BackendlessError) -> Outcome

    /// What `operation` performs: its faults checked with the arguments as read, then `method`.
    /// Without `checkingFaults`, the adapter (an adapter-answered operation) or the method itself checks them.
    static func performer(
        _ operation: BackendlessOperation, misuse: MisuseCheck? = nil, checkingFaults: Bool = true, _ method: @escaping Method
    ) -> Performer {
        Performer(misuse: misuse) { app, arguments, _ in
            guard case .backendless(let app) = app.flavoured else { preconditionFailure("\(operation.name) is a Backendless operation") }
            return try CallCapturer.capturing(app.faults.capturer, operation.name, code: \.recordedCode) { () throws(BackendlessError) -> Outcome in
                if checkingFaults { try app.checkFaults(operation, arguments.faultValues) }
                return try method(app, arguments)
            }
        }
    }

    /// Performs `operation` with arguments given by name (the others absent), as its adapters do.
    package func perform(_ operation: BackendlessOperation, _ given: [String: ArgumentValue]) throws(BackendlessError) -> Outcome {
        guard let performer = operation.declaration.perform else { preconditionFailure("\(operation.name) declares no method") }
        do {
            return try performer.run(self, CallArguments(operation.declaration, given), Unlimited())
        } catch let error as BackendlessError {
            throw error
        } catch {
            throw BackendlessError(code: 8001, message: "\(error)")
        }
    }
}
