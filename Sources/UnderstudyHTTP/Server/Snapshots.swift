internal import Foundation
package import Understudy

/// One named snapshot of the served world (`POST /_understudy/snapshots`): an image of the apps
/// (`WorldImage`). A restore makes the apps what they were in place, at the cost of what changed since they last
/// equalled this image (microseconds for a test's worth of changes, whatever the number of users).
package final class WorldSnapshot: Sendable {
    package let name: String
    /// The apps as they were; read and restored under the stage's lock only.
    package let image: WorldImage

    init(name: String, image: WorldImage) {
        self.name = name
        self.image = image
    }

    /// What the snapshot holds against `--max-memory`: what the apps held when it was taken (the image shares
    /// what has not changed since with the apps, and keeps what has).
    package var heldBytes: Int { image.appBytes }

    /// Serves the image's apps, made what they were, in `world`. Apps made since the snapshot leave the world;
    /// freeing one with many users takes long, so that happens on a thread of its own, off the stage's lock.
    func restore(into world: ServedWorld) {
        let restored = image.restoreApps()
        let replaced = world.replaceApps(with: restored)
        let dropped = replaced.filter { app in !restored.contains { $0 === app } }
        guard !dropped.isEmpty else { return }
        let freed = UncheckedApps(apps: dropped)
        Thread.detachNewThread {
            var freed = freed
            freed.apps.removeAll()
        }
    }
}

/// Apps handed to the thread that frees them; nobody else holds them.
private struct UncheckedApps: @unchecked Sendable {
    var apps: [any EmulatedApp]
}

/// The snapshots a server keeps, by name, in the order they were taken.
package final class SnapshotStore {
    package private(set) var all: [WorldSnapshot] = []

    /// What all the snapshots hold (`WorldSnapshot.heldBytes`).
    package var heldBytes: Int { all.reduce(0) { $0 + $1.heldBytes } }

    package func named(_ name: String) -> WorldSnapshot? { all.first { $0.name == name } }

    /// Keeps `snapshot`, replacing one of the same name (in place). Answers whether one was replaced.
    @discardableResult
    func keep(_ snapshot: WorldSnapshot) -> Bool {
        if let index = all.firstIndex(where: { $0.name == snapshot.name }) {
            all[index] = snapshot
            return true
        }
        all.append(snapshot)
        return false
    }

    /// Forgets the snapshot named `name`; false when there is none.
    func remove(_ name: String) -> Bool {
        guard let index = all.firstIndex(where: { $0.name == name }) else { return false }
        all.remove(at: index)
        return true
    }
}
