internal import Understudy

/// `/_understudy/faults`: list, inject, remove and clear faults. A fault sent as JSON is checked by the rules
/// and messages of the Lua `app.faults.inject` (FaultBindings.swift); faults with a `when` predicate are Lua
/// functions and go through `POST /_understudy/lua`.
extension ControlRoutes {
    static let faultFields = ["app", "op", "code", "message", "status", "times", "probability", "delay_ms", "drop"]

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
        let fault = try readFault(fields, for: app)
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
            let knowing = request.stage.apps.filter { type(of: $0).operations.contains(operation) }
            let kiiCode: Bool? =
                switch fields["code"] {
                case .string(let text)?: Int(text) == nil
                case .integer?, .number?: false
                default: nil
                }
            if let kiiCode, let app = knowing.first(where: { ($0 is KiiApp) == kiiCode }) { return app }
            if let app = knowing.first { return app }
        }
        guard let first = request.stage.apps.first else { throw ControlRefusal(404, "UNKNOWN_APP", "the server has no apps") }
        return first
    }

    /// The fault the fields describe, checked like `app.faults.inject{...}` checks its table. JSON `null` counts
    /// as an absent field (Lua's nil).
    static func readFault(_ fields: [String: JSON], for app: any EmulatedApp) throws(ControlRefusal) -> Fault {
        func value(_ name: String) -> Value? {
            guard let json = fields[name], json != .null else { return nil }
            return json.value
        }
        let operations = type(of: app).operations
        guard let opValue = value("op") else {
            throw .invalid("fault.op is required (one of: \(operations.joined(separator: ", ")))")
        }
        guard case .string(let operation) = opValue else {
            throw .invalid("fault.op must be a string, got \(opValue.kindName)")
        }
        guard operations.contains(operation) else {
            throw .invalid("unknown operation '\(operation)' in fault.op (known: \(operations.joined(separator: ", ")))")
        }
        var code: FaultCode?
        switch value("code") {
        case .int(let number)?: code = .number(Int(number))
        case .string(let text)? where !text.isEmpty: code = .text(text)
        case nil: code = nil
        case let other?: throw .invalid("fault.code must be an integer or a non-empty string, got \(other.kindName)")
        }
        switch (app, code) {
        case (is BackendlessApp, .text(let text)?):
            guard let number = Int(text) else {
                throw .invalid("fault.code of a Backendless backend is an error number such as 3033, got \"\(text)\"")
            }
            code = .number(number)
        case (is KiiApp, .number(let number)?):
            throw .invalid(
                "fault.code of a Kii backend is an errorCode string such as \"RESOURCE_TEMPORARILY_UNAVAILABLE\", got "
                    + "\(number); put an HTTP status in fault.status"
            )
        default: break
        }
        var fault = Fault(operation: operation, code: code)
        if let message = value("message") {
            guard case .string(let text) = message else {
                throw .invalid("fault.message must be a string, got \(message.kindName)")
            }
            fault.message = text
        }
        if let status = value("status") {
            guard case .int(let number) = status, (100...599).contains(number) else {
                throw .invalid("fault.status must be an HTTP status (an integer from 100 to 599)")
            }
            fault.status = Int(number)
        }
        if let times = value("times") {
            guard case .int(let number) = times, number >= 0 else {
                throw .invalid("fault.times must be a whole number of at least 0")
            }
            fault.remaining = Int(number)
        }
        if let probability = value("probability") {
            guard let number = probability.numberValue, number >= 0, number <= 1 else {
                throw .invalid("fault.probability must be a number from 0 to 1")
            }
            fault.probability = number
        }
        if let delay = value("delay_ms") {
            guard case .int(let number) = delay, number >= 0, number <= 600_000 else {
                throw .invalid("fault.delay_ms must be a whole number of milliseconds from 0 to 600000")
            }
            fault.delayMilliseconds = Int(number)
        }
        if let drop = value("drop") {
            guard case .bool(let flag) = drop else { throw .invalid("fault.drop must be true or false") }
            fault.dropConnection = flag
        }
        if code == nil, fault.delayMilliseconds == 0, !fault.dropConnection {
            throw .invalid(
                "fault.code is required (a Backendless error number or a Kii error code), unless the fault only "
                    + "delays replies (delay_ms) or drops connections (drop) over HTTP"
            )
        }
        return fault
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
                "the app '\(app.servedID)' has no active fault \(id) (GET /_understudy/faults lists them)"
            )
        }
        return Reply(
            body: [
                "removed": true, "app": .string(app.servedID), "id": .integer(Int64(id)),
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
