internal import HTTPTypes
internal import Understudy
internal import UnderstudyLua

/// `--max-memory` under `serve`: what the served apps hold (`ServedWorld.appBytes`: users with their properties,
/// push registrations, outboxes, scheduled messages), the snapshots (`Stage.heldBytes`) and the journal share the
/// cap. Once the apps hold more than
/// the cap, every request that could add to them (POST, PUT, PATCH, vendor or control, `reset` apart) is refused
/// with 507 and a "memory cap" message, so the world stops growing one request past the cap (a request adds at
/// most its body (1 MiB by default); a control chunk at most the cap its own Lua state has); GET and DELETE keep
/// working, so a client can read and free. The journal drops its oldest entries to stay within what the apps
/// leave of the cap (it may always keep a quarter of it).
enum MemoryCap {
    /// 507 when the apps hold more than the cap and the request could add to them.
    static func refusal(_ method: HTTPRequest.Method, path: String, area: RouteArea, stage: Stage) -> Reply? {
        guard method == .post || method == .put || method == .patch else { return nil }
        if area == .control, path == "/" + ControlRoutes.prefix + "/reset" { return nil }
        let limit = stage.options.limits.maxMemory
        let held = stage.heldBytes
        guard held > limit else { return nil }
        var reply = ServerFailures.reply(
            area, status: 507, backendlessCode: 8000, kiiCode: "MEMORY_CAP_REACHED",
            message: "memory cap reached: the served apps (and snapshots) hold about \(held / (1024 * 1024)) MiB, more than --max-memory \(limit / (1024 * 1024)) MiB; "
                + "free some (DELETE users, DELETE /_understudy/outbox) DELETE /_understudy/snapshots/NAME, or POST /_understudy/reset"
        )
        reply.encodeBody()
        return reply
    }

    /// Drops the journal's oldest entries (an eighth at a time) while it holds more than what the apps leave of
    /// the cap, and more than a quarter of it (which it may always keep).
    static func trimJournal(_ stage: Stage) {
        let limit = stage.options.limits.maxMemory
        // The session's recording keeps a call per journal entry: it is trimmed with the journal.
        func held() -> Int { stage.world.journal.heldBytes + stage.world.recording.heldBytes }
        guard held() > limit / 4 else { return }
        let allowed = max(limit / 4, limit - stage.heldBytes)
        while stage.world.journal.count > 1, held() > allowed {
            stage.world.journal.dropOldest(max(1, stage.world.journal.count / 8))
            stage.world.recording.forget(before: stage.world.oldestJournalSequence)
        }
    }
}
