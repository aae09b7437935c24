/// The apps of a served world at one moment, kept apart from it: what a snapshot holds. Nothing ever changes the
/// apps of an image (they are never served); the world gets copies of them, so one image can be restored many
/// times, and copies can be made on another thread while the world goes on.
package final class WorldImage: @unchecked Sendable {
    /// The apps as they were, in the world's order. Never served, never changed.
    private let apps: [any EmulatedApp]
    /// What the apps held when the image was taken (`EmulatedApp.heldBytes`).
    package let appBytes: Int
    /// How many users the apps held.
    package let userCount: Int

    /// An image of `apps` (copied: the apps go on changing, the image does not).
    package init(copying apps: [any EmulatedApp]) {
        self.apps = apps.map { $0.copied() }
        appBytes = apps.reduce(0) { $0 + $1.heldBytes }
        userCount = apps.reduce(0) { $0 + $1.userCount }
    }

    /// Fresh copies of the apps, ready to serve: changing them leaves the image as it is.
    package func copyApps() -> [any EmulatedApp] {
        apps.map { $0.copied() }
    }
}

extension EmulatedApp {
    /// An independent copy of this app (`BackendlessApp.copy()`, `KiiApp.copy()`).
    package func copied() -> any EmulatedApp {
        switch flavoured {
        case .backendless(let app): return app.copy()
        case .kii(let app): return app.copy()
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
