internal import Understudy
internal import UnderstudyLua

/// The control routes that keep the world under a name and bring it back: per-test isolation for an app's suite
/// (restore before every test), without a reset's setup script.
extension ControlRoutes {
    /// `{"name", "users", "bytes"}`: a snapshot as the routes list it.
    static func snapshotJSON(_ snapshot: WorldSnapshot) -> JSON {
        [
            "name": .string(snapshot.name), "users": .integer(Int64(snapshot.image.userCount)),
            "bytes": .integer(Int64(snapshot.heldBytes)),
        ]
    }

    /// The `name` of a snapshot: 1 to 64 letters, digits, `.`, `_` or `-` (it appears in paths).
    static func snapshotName(_ name: String, field: String) throws(ControlRefusal) -> String {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard !name.isEmpty, name.utf8.count <= 64, allowed else {
            throw .invalid("\(field) must be 1 to 64 letters, digits, '.', '_' or '-', got '\(name)'")
        }
        return name
    }

    /// The snapshot the path's `name` names; 404 `SNAPSHOT_NOT_FOUND` listing the snapshots otherwise.
    static func namedSnapshot(_ request: ControlRequest) throws(ControlRefusal) -> WorldSnapshot {
        let name = request.exchange.parameters["name"]
        guard let snapshot = request.stage.snapshots.named(name) else {
            let names = request.stage.snapshots.all.map(\.name)
            let known = names.isEmpty ? "there are none; POST /_understudy/snapshots {\"name\"} takes one" : "snapshots: " + names.joined(separator: ", ")
            let nearest = NearestName.suggestion(for: name, among: names, quote: "'")
            throw ControlRefusal(404, "SNAPSHOT_NOT_FOUND", "no snapshot is named '\(name)'\(nearest) (\(known))")
        }
        return snapshot
    }

    /// `POST /_understudy/snapshots {"name"}` → 201 `{"name","users","bytes","replaced"}`: keeps an image of every
    /// app (users, sessions, settings, clocks, outboxes, faults, generators) under `name`, replacing a snapshot of
    /// that name. It counts what the apps hold against `--max-memory` (what it keeps apart once the apps have
    /// changed it all): 507 `MEMORY_CAP_REACHED` when it would not fit.
    static let takeSnapshot = ControlRequest.handler { request throws(ControlRefusal) in
        let members = try request.object(example: #"{"name": "seeded"}"#)
        try ControlRequest.rejectUnknownFields(members, known: ["name"], in: "the body")
        guard let value = JSON.lookup(members)["name"] else { throw .invalid(#"name is required: send {"name": "seeded"}"#) }
        guard case .string(let text) = value else { throw .invalid("name must be a string, got \(value.kindName)") }
        let name = try snapshotName(text, field: "name")
        let stage = request.stage
        let limit = stage.options.limits.maxMemory
        let replacedBytes = stage.snapshots.named(name)?.heldBytes ?? 0
        let needed = stage.heldBytes - replacedBytes + stage.world.appBytes
        guard needed <= limit else {
            throw ControlRefusal(
                507, "MEMORY_CAP_REACHED",
                "memory cap reached: the snapshot '\(name)' would hold \(stage.world.appBytes / (1024 * 1024)) MiB (what the apps hold), "
                    + "the served apps and snapshots would then hold about \(needed / (1024 * 1024)) MiB, more than --max-memory \(limit / (1024 * 1024)) MiB; "
                    + "delete a snapshot (DELETE /_understudy/snapshots/NAME) or start serve with a larger --max-memory"
            )
        }
        let (snapshot, replaced) = stage.takeSnapshot(named: name)
        var body = snapshotJSON(snapshot)
        if case .object(var fields) = body {
            fields.append(.init("replaced", .bool(replaced)))
            body = .object(fields)
        }
        return Reply(status: 201, body: body)
    }

    /// `GET /_understudy/snapshots` → `{"snapshots":[{name, users, bytes}], "bytes"}`, oldest first.
    static let listSnapshots = ControlRequest.handler { request throws(ControlRefusal) in
        let store = request.stage.snapshots
        return Reply(body: ["snapshots": .array(store.all.map(snapshotJSON)), "bytes": .integer(Int64(store.heldBytes))])
    }

    /// `POST /_understudy/snapshots/{name}/restore` → `{"restored": name, "apps":[…]}`: the apps become what they
    /// were when the snapshot was taken (users, sessions, settings, clocks, outboxes, faults, and the generators,
    /// so the ids handed out next are the ones handed out after the snapshot). The journal is kept; the snapshot
    /// stays, to be restored again.
    /// `Server-Timing: restore;dur=MS` says what the restore itself took (without HTTP's share).
    static let restoreSnapshot = ControlRequest.handler { request throws(ControlRefusal) in
        let snapshot = try namedSnapshot(request)
        let started = ContinuousClock.now
        request.stage.restore(snapshot)
        let took = started.duration(to: .now)
        let linkBase = request.stage.options.linkBase
        var reply = Reply(
            body: [
                "restored": .string(snapshot.name),
                "apps": .array(request.stage.apps.map { ControlPresentation.summary($0, linkBase: linkBase) }),
            ]
        )
        let microseconds = took.components.seconds * 1_000_000 + took.components.attoseconds / 1_000_000_000_000
        reply.headers.append((name: "Server-Timing", value: "restore;dur=\(microseconds / 1000).\(String(microseconds % 1000 + 1000).dropFirst())"))
        return reply
    }

    /// `DELETE /_understudy/snapshots/{name}` → `{"deleted": name}`; its memory is freed.
    static let deleteSnapshot = ControlRequest.handler { request throws(ControlRefusal) in
        let snapshot = try namedSnapshot(request)
        _ = request.stage.snapshots.remove(snapshot.name)
        return Reply(body: ["deleted": .string(snapshot.name)])
    }
}
