/// A stored user that notes its own first change since its app was last made equal to a snapshot's image of it
/// (`StoredUser`, `KiiStoredUser`): every stored property's `didSet` calls `noteChange()`.
protocol ChangeNoting: AnyObject {
    /// True once the user is in its app's `UserChanges.changed` (so it is noted once).
    var isNoted: Bool { get set }
}

/// The users of one app changed since the app was last made equal to an image of it (a snapshot taken or
/// restored), so that restoring that same image resets only them instead of every user.
///
/// An app's snapshot image keeps the app's tables as values (shared until either side changes them) and each
/// user's fields apart; the user objects themselves stay the app's. A restore puts the tables back and resets the
/// users' fields: every user when the app last equalled another image, else only those noted here. Nothing is
/// noted until the app has an image (`baseline`), so an app nobody snapshots pays one test per change.
final class UserChanges<User: ChangeNoting> {
    /// The serial number of the image the app's users equal, except those in `changed`; nil before any image.
    private(set) var baseline: UInt64?
    /// The serial number the next image of this app gets.
    private var nextSerial: UInt64 = 1
    /// The users changed since `baseline`, each once.
    private(set) var changed: [User] = []
    /// False while a restore resets users (their changes then are the image's, not the app's).
    private var isListening = true

    /// Notes `user`'s first change since the baseline.
    @inline(__always)
    func note(_ user: User) {
        guard isListening, baseline != nil, !user.isNoted else { return }
        user.isNoted = true
        changed.append(user)
    }

    /// A serial number for an image of the app taken now.
    func serialForNewImage() -> UInt64 {
        defer { nextSerial += 1 }
        return nextSerial
    }

    /// Makes `serial` the baseline: every user equals that image now. Forgets the changes noted.
    func equal(_ serial: UInt64) {
        for user in changed { user.isNoted = false }
        changed.removeAll(keepingCapacity: true)
        baseline = serial
    }

    /// Drops the users noted (they hold this log: the app calls this as it goes, so neither keeps the other).
    func forget() {
        changed.removeAll()
    }

    /// Makes the app equal to the image numbered `serial` again, without noting what that changes: resets the users
    /// the image keeps (`kept`, each with its fields then) that changed since the app last equalled it (every one when
    /// it last equalled another image), then `putBack` restores everything else.
    func restore<State>(
        image serial: UInt64, users kept: [ObjectIdentifier: (user: User, state: State)], resetting reset: (User, State) -> Void,
        putBack: () -> Void
    ) {
        isListening = false
        if baseline == serial {
            for user in changed {
                if let entry = kept[ObjectIdentifier(user)] { reset(user, entry.state) }
            }
        } else {
            for entry in kept.values { reset(entry.user, entry.state) }
        }
        putBack()
        isListening = true
        equal(serial)
    }
}

/// A stored user a snapshot keeps apart from its app (`StoredUser`, `KiiStoredUser`): its changing fields as one
/// value, and a reset to such a value.
protocol SnapshotUser: ChangeNoting {
    associatedtype State
    var state: State { get }
    func reset(to state: State)
}

/// The users' part of an app's image (`AppImageOf`): each user the app's tables reach, with its fields then, by
/// object, and the image's serial number in the app's `UserChanges`.
struct UserImage<User: SnapshotUser> {
    let serial: UInt64
    private let kept: [ObjectIdentifier: (user: User, state: User.State)]

    /// Keeps each user `reaching` hands to its argument (once, however many tables hold it) with its `state`, and
    /// makes this image the one the app's users equal.
    init(_ changes: UserChanges<User>, capacity: Int, reaching: ((User) -> Void) -> Void) {
        serial = changes.serialForNewImage()
        var kept: [ObjectIdentifier: (user: User, state: User.State)] = [:]
        kept.reserveCapacity(capacity)
        reaching { user in
            let key = ObjectIdentifier(user)
            if kept[key] == nil { kept[key] = (user, user.state) }
        }
        self.kept = kept
        changes.equal(serial)
    }

    /// Makes the app equal to the image again: `UserChanges.restore` with the users kept, then `putBack`.
    func restore(_ changes: UserChanges<User>, putBack: () -> Void) {
        changes.restore(image: serial, users: kept, resetting: { $0.reset(to: $1) }, putBack: putBack)
    }
}
