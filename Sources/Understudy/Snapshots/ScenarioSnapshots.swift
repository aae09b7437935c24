/// The snapshots one scenario keeps (`understudy.snapshot(name)`, `understudy.restore(name)`): images of the
/// scenario's backends, restored in place as `POST /_understudy/snapshots/{name}/restore` restores the served
/// world's, so a recorded session that restored a snapshot between an app's tests replays as it ran.
package final class ScenarioSnapshots {
    private var kept: [(name: String, image: WorldImage)] = []
    /// Makes the scenario's backends the apps a restore brought back, in their order.
    private let serve: ([any EmulatedApp]) -> Void
    /// Charges (a positive count) or credits (a negative one) bytes against the scenario's memory cap; false when a
    /// charge does not fit.
    private let charge: (Int) -> Bool

    package init(serve: @escaping ([any EmulatedApp]) -> Void, charge: @escaping (Int) -> Bool) {
        self.serve = serve
        self.charge = charge
    }

    /// The names kept, in the order they were first taken.
    package var names: [String] { kept.map(\.name) }

    /// Keeps `apps` as they are now under `name`, replacing a snapshot of that name. A snapshot counts what the
    /// apps hold against the memory cap.
    package func take(_ name: String, of apps: [any EmulatedApp]) throws(CallMisuse) {
        let image = WorldImage(of: apps)
        guard charge(image.appBytes) else {
            throw CallMisuse("the snapshot '\(name)' would hold \(image.appBytes) bytes, more than the memory cap leaves")
        }
        if let index = kept.firstIndex(where: { $0.name == name }) {
            _ = charge(-kept[index].image.appBytes)
            kept[index].image = image
        } else {
            kept.append((name, image))
        }
    }

    /// Brings back the apps kept under `name` as they were, in place; backends made since leave the scenario.
    package func restore(_ name: String) throws(CallMisuse) {
        guard let image = kept.first(where: { $0.name == name })?.image else {
            let known = names.isEmpty ? "none is kept yet: understudy.snapshot(name) keeps one" : "snapshots: " + names.joined(separator: ", ")
            throw CallMisuse("no snapshot is named '\(name)' (\(known))")
        }
        serve(image.restoreApps())
    }

    /// Drops every snapshot, crediting what they held.
    package func forget() {
        for snapshot in kept { _ = charge(-snapshot.image.appBytes) }
        kept.removeAll()
    }
}
