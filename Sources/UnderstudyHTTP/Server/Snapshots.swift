internal import Foundation
internal import Synchronization
package import Understudy

/// One named snapshot of the served world (`POST /_understudy/snapshots`): an image of the apps that is never
/// served, and a spare copy of it made ahead of time, so a restore only swaps the spare in (microseconds, whatever
/// the number of users) and the next spare is copied on a thread of its own, off the stage's lock. A restore that
/// finds no spare (two restores closer together than one copy takes) copies under the lock.
package final class WorldSnapshot: Sendable {
    package let name: String
    /// The apps as they were; only ever read.
    package let image: WorldImage
    /// A copy of `image` ready to serve, when one is.
    private let spare = Mutex<[any EmulatedApp]?>(nil)

    init(name: String, image: WorldImage) {
        self.name = name
        self.image = image
        prepareSpare()
    }

    /// What the snapshot holds against `--max-memory`: the image and its spare.
    package var heldBytes: Int { 2 * image.appBytes }

    /// Serves apps equal to the image in `world`: the spare when it is ready, else a copy made now. Starts the next
    /// spare, on a thread that first frees the apps served until now (freeing 10,000 users takes far longer than
    /// swapping them), so nothing of the size of the world is done under the stage's lock when a spare is ready.
    func restore(into world: ServedWorld) {
        let ready = spare.withLock { spare in
            defer { spare = nil }
            return spare.map(UncheckedApps.init)
        }
        let replaced = world.replaceApps(with: ready?.apps ?? image.copyApps())
        prepareSpare(freeing: UncheckedApps(apps: consume replaced))
    }

    /// Copies the image on a thread of its own (the image never changes, so no lock is needed to read it), after
    /// dropping `freed` there (nobody else holds those apps any more).
    private func prepareSpare(freeing freed: UncheckedApps = UncheckedApps(apps: [])) {
        let image = image
        Thread.detachNewThread { [weak self] in
            var freed = freed
            freed.apps.removeAll()
            let copy = UncheckedApps(apps: image.copyApps())
            self?.spare.withLock { $0 = copy.apps }
        }
    }
}

/// Apps handed from the thread that copied them to the stage; nobody else holds them.
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
