/// One app as a snapshot keeps it (`AppImageOf`).
protocol AppImage: AnyObject {
    /// The app the image was taken of: a restore makes it equal to the image again.
    var app: any EmulatedApp { get }
    /// What the app held when the image was taken (`EmulatedApp.heldBytes`).
    var heldBytes: Int { get }
    /// How many users the app held.
    var userCount: Int { get }
    /// Makes the app equal to the image: its tables and values put back, the users changed since reset in place.
    func restore()
}

/// An app a snapshot can keep (`BackendlessApp`, `KiiApp`): everything it holds besides its users' own fields as
/// one value (`Held`: settings, clock, outbox, faults, generators, the tables of users, ...), the changes its users
/// note, and every user its tables reach.
protocol SnapshotApp: EmulatedApp {
    associatedtype Held
    associatedtype User: SnapshotUser
    var held: Held { get set }
    var userChanges: UserChanges<User> { get }
    /// Hands `body` every user any table points at (a user in several tables, several times).
    func forEachUserTheTablesReach(_ body: (User) -> Void)
}

/// The app as a snapshot keeps it: its tables and values as they were (`Held`, shared with the app until either
/// changes them: copy-on-write, no copy made now) and each user's fields apart (`UserImage`). The users stay the
/// app's: a restore puts the tables back and resets the users' fields in place, only the users changed since the
/// app last equalled this image (`UserChanges`), so it costs what the test between changed, not the world's size.
final class AppImageOf<App: SnapshotApp>: AppImage {
    private let source: App
    private let held: App.Held
    private let users: UserImage<App.User>
    let heldBytes: Int
    let userCount: Int

    init(of app: App) {
        source = app
        held = app.held
        users = UserImage(app.userChanges, capacity: app.userCount) { keep in app.forEachUserTheTablesReach(keep) }
        heldBytes = app.heldBytes
        userCount = app.userCount
    }

    var app: any EmulatedApp { source }

    func restore() {
        users.restore(source.userChanges) { source.held = held }
    }
}

/// The apps of a served world at one moment: what a snapshot holds. The image keeps the apps themselves and
/// what they held as values; the world goes on changing the apps (copy-on-write keeps the image's values apart,
/// and each app notes the users it changes), and a restore makes them what they were, however many times.
///
/// Not thread-safe: taking, restoring and the world's calls all run under one lock (the server's stage).
package final class WorldImage: @unchecked Sendable {
    /// The apps, in the world's order.
    private let apps: [any AppImage]
    /// What the apps held when the image was taken (`EmulatedApp.heldBytes`).
    package let appBytes: Int
    /// How many users the apps held.
    package let userCount: Int

    /// An image of `apps` as they are now.
    package init(of apps: [any EmulatedApp]) {
        self.apps = apps.map { app -> any AppImage in
            switch app.flavoured {
            case .backendless(let app): return AppImageOf(of: app)
            case .kii(let app): return AppImageOf(of: app)
            }
        }
        appBytes = self.apps.reduce(0) { $0 + $1.heldBytes }
        userCount = self.apps.reduce(0) { $0 + $1.userCount }
    }

    /// Makes every app of the image what it was and answers them, in the world's order, to be served.
    /// Costs what changed since the apps last equalled this image, not what they hold.
    package func restoreApps() -> [any EmulatedApp] {
        apps.map { image in
            image.restore()
            return image.app
        }
    }
}

extension ServedWorld {
    /// Serves `apps` instead of the present ones (a snapshot restored): same order, their links already point at
    /// this server. The journal stays. Answers the apps served until now (the caller decides where they are freed).
    package func replaceApps(with apps: [any EmulatedApp]) -> [any EmulatedApp] {
        swapApps(apps)
    }
}
