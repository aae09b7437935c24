internal import Understudy

/// `/_understudy/faults`: list, inject, remove and clear faults. A fault sent as JSON is checked by the domain's
/// `FaultSpec`, as `app.faults.inject{...}` is; faults with a `when` predicate are Lua functions and go through
/// `POST /_understudy/lua`.
extension ControlRoutes {
    static let faultFields = ["app"] + FaultSpec.fieldNames

    /// `GET /_understudy/faults[?app=ID]` → `{"faults":[…]}`, the active faults of every (or one) app.
    static let listFaults = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var faults: [JSON] = []
        for app in try request.selectedApps() {
            for fault in app.faults.active { faults.append(ControlPresentation.fault(fault, app: app)) }
        }
        return Reply(body: ["faults": .array(faults)])
    }

    /// `POST /_understudy/faults {"app"?, "op", "code"?, …}` → 201 with the fault as the listing shows it.
    static let injectFault = ControlRequest.handler { request throws(ControlRefusal) in
        let members = try request.object(example: #"{"op": "users.register", "code": 3033}"#)
        if members.contains(where: { $0.key == "when" }) {
            throw .invalid(
                "fault.when is a Lua function and cannot travel as JSON: inject the fault with POST /_understudy/lua "
                    + "(understudy.app(ID).faults.inject{ op = ..., code = ..., when = function(args) ... end })"
            )
        }
        try ControlRequest.rejectUnknownFields(members, known: faultFields, in: "the fault")
        let fields = JSON.lookup(members)
        let app = try faultApp(request, fields)
        let fault: Fault
        do throws(FaultSpecError) {
            fault = try FaultSpec.fault(from: fields.mapValues(\.value), for: app)
        } catch {
            throw .invalid(error.message)
        }
        let id = app.faults.inject(fault)
        // A fault with `times: 0` is used up at once and never listed; show it as injected.
        let injected = app.faults.fault(id: id) ?? fault
        var body = ControlPresentation.fault(injected, app: app)
        if case .object(var shown) = body, let index = shown.firstIndex(where: { $0.key == "id" }) {
            shown[index].value = .integer(Int64(id))
            body = .object(shown)
        }
        return Reply(status: 201, body: body)
    }

    /// The app a fault goes to: `app` when given; else the first app whose flavour knows the operation and whose
    /// kind of code it is (a Kii errorCode string such as `"USER_NOT_FOUND"` goes to a Kii app, a number or a
    /// numeric string to a Backendless app); else the first app that knows the operation; else the first app
    /// (whose check then lists the operations it knows).
    static func faultApp(_ request: ControlRequest, _ fields: [String: JSON]) throws(ControlRefusal) -> any EmulatedApp {
        switch fields["app"] {
        case .string(let name)?: return try request.app(named: name, field: "fault.app")
        case nil, .null?: break
        case let other?: throw .invalid("fault.app must be a string (an app id), got \(other.kindName)")
        }
        if case .string(let operation)? = fields["op"] {
            let knowing = request.stage.apps.filter { $0.knows(operation: operation) }
            let code = fields["code"]?.value
            if let app = knowing.first(where: { FaultSpec.looksLike($0.flavour, code: code) == true }) { return app }
            if let app = knowing.first { return app }
        }
        guard let first = request.stage.apps.first else { throw ControlRefusal(404, "UNKNOWN_APP", "the server has no apps") }
        return first
    }

    /// `DELETE /_understudy/faults/{app}/{id}` → `{"removed": true, "app", "id", "hits"}`; 404 when the fault is
    /// not active (used up, removed, or never injected).
    static let removeFault = ControlRequest.handler { request throws(ControlRefusal) in
        let app = try request.app(named: request.exchange.parameters["app"], field: "the path's app")
        let text = request.exchange.parameters["id"]
        guard let id = Int(text), id > 0 else {
            throw .invalid("the path's fault id must be a whole number of at least 1, got '\(text)'")
        }
        guard app.faults.remove(id: id) else {
            throw ControlRefusal(
                404, "FAULT_NOT_FOUND",
                "the app '\(app.appID)' has no active fault \(id) (GET /_understudy/faults lists them)"
            )
        }
        return Reply(
            body: [
                "removed": true, "app": .string(app.appID), "id": .integer(Int64(id)),
                "hits": .integer(Int64(app.faults.hits(of: id) ?? 0)),
            ]
        )
    }

    /// `DELETE /_understudy/faults[?app=ID]` → `{"cleared": N}`, the number of active faults removed.
    static let clearFaults = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var cleared = 0
        for app in try request.selectedApps() {
            cleared += app.faults.active.count
            app.faults.clear()
        }
        return Reply(body: ["cleared": .integer(Int64(cleared))])
    }
}
