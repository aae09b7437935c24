internal import Understudy
internal import UnderstudyLua

/// The control routes that run Lua against the live apps (a chunk, or a scenario file), and the journal.
extension ControlRoutes {
    // MARK: Lua

    /// `POST /_understudy/lua[?name=NAME]`, body a Lua chunk → `{"results":[…],"output":"…"}`, or 400
    /// `{"error":"LUA_ERROR","message","location","traceback","output"}`. The chunk runs in the server's live
    /// session (what it creates or changes stays) under the instruction budget; `NAME` (default `control`) is
    /// the chunk's name in locations and tracebacks.
    static let lua = ControlRequest.handler(query: ["name"]) { request throws(ControlRefusal) in
        let source = try request.luaText()
        let name = request.query("name") ?? "control"
        let result = request.stage.session.evaluate(source, chunkName: "@" + name)
        switch result {
        case .success(let result):
            return Reply(body: ["results": .array(result.values.map(JSON.init)), "output": .string(result.output)])
        case .failure(let failure):
            var reply = Reply(
                status: 400,
                body: [
                    "error": "LUA_ERROR", "message": .string(failure.message),
                    "location": (failure.location ?? location(name, failure.message, failure.traceback)).map(JSON.string) ?? .null,
                    "traceback": failure.traceback.map(JSON.string) ?? .null, "output": .string(failure.output),
                ]
            )
            reply.code = "LUA_ERROR"
            return reply
        }
    }

    /// `chunk:line` from the start of an error message (`control:3: attempt to index…`) or, failing that, of the
    /// traceback's first line: the live session reports no location for errors outside scenario functions.
    static func location(_ chunk: String, _ message: String, _ traceback: String?) -> String? {
        for text in [message, traceback ?? ""] {
            guard text.hasPrefix(chunk + ":") else { continue }
            let rest = text.dropFirst(chunk.count + 1)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == ":" { return chunk + ":" + digits }
        }
        return nil
    }

    /// `POST /_understudy/scenarios[?name=FILE]`, body a scenario file → 200
    /// `{"file","passed","failed","skipped","scenarios":[{name,tags,line,status,message,location,traceback,output,
    /// duration}]}` (200 also when scenarios fail), or 400 `SCENARIO_LOAD_ERROR` when the file does not load. The
    /// scenarios run one after another against the live apps, not fresh ones.
    static let scenarios = ControlRequest.handler(query: ["name"]) { request throws(ControlRefusal) in
        let source = try request.luaText()
        let file = ScenarioFile(path: request.query("name") ?? "<request>", contents: Array(source.utf8))
        let result = request.stage.session.runScenarios(file)
        switch result {
        case .failure(let error):
            var reply = Reply(
                status: 400,
                body: [
                    "error": "SCENARIO_LOAD_ERROR", "message": .string(error.message), "file": .string(error.file),
                    "traceback": error.traceback.map(JSON.string) ?? .null,
                ]
            )
            reply.code = "SCENARIO_LOAD_ERROR"
            return reply
        case .success(let outcomes):
            func count(_ status: ScenarioOutcome.Status) -> JSON {
                .integer(Int64(outcomes.count { $0.status == status }))
            }
            let listed = outcomes.map { outcome -> JSON in
                [
                    "name": .string(outcome.declaration.name), "tags": .array(outcome.declaration.tags.map(JSON.string)),
                    "line": .integer(Int64(outcome.declaration.line)), "status": .string(outcome.status.rawValue),
                    "message": outcome.message.map(JSON.string) ?? .null,
                    "location": outcome.location.map(JSON.string) ?? .null,
                    "traceback": outcome.traceback.map(JSON.string) ?? .null, "output": .string(outcome.output),
                    "duration": .number(outcome.duration),
                ]
            }
            return Reply(
                body: [
                    "file": .string(file.path), "passed": count(.passed), "failed": count(.failed),
                    "skipped": count(.skipped), "scenarios": .array(listed),
                ]
            )
        }
    }

    // MARK: Journal

    static let journalQuery = ["method", "path", "op", "app", "status", "code", "test", "limit"]

    /// `GET /_understudy/journal[?method=&path=&op=&app=&status=&code=&test=&limit=]` → `{"entries":[…],"dropped":N}`,
    /// oldest first. `path` matches the end of the path (`users/register`); `app` is an app id or a flavour name;
    /// `code` matches a number or a text code; `limit` keeps the newest N matches; `dropped` counts entries the full
    /// journal let go.
    static let journal = ControlRequest.handler(query: journalQuery) { request throws(ControlRefusal) in
        var filter = JournalFilter()
        filter.method = request.query("method")
        filter.path = request.query("path")
        filter.operation = request.query("op")
        // An app id, or `backendless` / `kii` for the first app of that flavour as on the other control routes; a
        // name no app is served under is taken as it is (entries outlive a reset or a changed app_id).
        filter.appID = request.query("app").map { name in (try? request.app(named: name))?.appID ?? name }
        if let status = request.query("status") {
            guard let number = Int(status) else { throw .invalid("query parameter status must be an integer, got '\(status)'") }
            filter.status = number
        }
        filter.code = request.query("code").map(Value.string)
        filter.test = request.query("test")
        filter.limit = try request.count("limit")
        let journal = request.stage.world.journal
        return Reply(
            body: [
                "entries": .array(journal.entries(matching: filter).map(ControlPresentation.entry)),
                "dropped": .integer(Int64(journal.dropped)),
            ]
        )
    }

    /// `DELETE /_understudy/journal` → `{"cleared": N}` (sequence numbers keep counting).
    static let clearJournal = ControlRequest.handler { request throws(ControlRefusal) in
        var journal = request.stage.world.journal
        let count = journal.count
        journal.clear()
        request.stage.world.journal = journal
        return Reply(body: ["cleared": .integer(Int64(count))])
    }
}
