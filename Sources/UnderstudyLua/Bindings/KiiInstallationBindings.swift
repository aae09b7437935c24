internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.installations.*` (Kii's push device registration) and `app.push.send_to_user`.
enum KiiInstallationBindings {
    /// Adds `installations` and `push` to the app table at `table`.
    static func install(_ L: OpaquePointer, app table: Int32, handle: Int64) {
        Binding.table(L, handle, [("register", register), ("get", get), ("list", list), ("unregister", unregister)])
        LuaValues.setField(L, table, "installations")
        Binding.table(L, handle, [("send_to_user", sendToUser)])
        LuaValues.setField(L, table, "push")
    }

    static let registrationFields = ["user", "type", "token", "development"]

    /// `register{ user, type, token?, development? }`
    static let register: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.registerInstallation) { call throws(LuaMisuse) in
            let app = try call.kii()
            try call.table(1, "registration")
            try call.rejectUnknownFields(1, known: registrationFields, in: "the registration")
            guard let user = try call.field(1, "user", string: "registration.user") else {
                throw LuaMisuse("registration.user is required (the userID)")
            }
            guard let type = try call.field(1, "type", string: "registration.type") else {
                throw LuaMisuse("registration.type is required (\"ANDROID\", \"IOS\", \"JPUSH\" or \"MQTT\")")
            }
            let token = try call.field(1, "token", string: "registration.token")
            var development = false
            switch try call.field(1, "development", value: "registration.development") {
            case nil: break
            case .bool(let flag)?: development = flag
            case let other?: throw LuaMisuse("registration.development must be a boolean, got \(other.kindName)")
            }
            return call.answer { () throws(KiiError) in
                try app.registerInstallation(userID: user, type: type, token: token, development: development)
            }
        }
    }

    static let get: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.getInstallation) { call throws(LuaMisuse) in
            call.arguments("installationID")
            let app = try call.kii()
            let id = try call.string(1, "installationID")
            return call.answer(optional: { () throws(KiiError) in
                try app.checkAdapterFaults(.getInstallation, .object(["installationID": .string(id)]))
                return app.installation(id: id)
            })
        }
    }

    static let list: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.listInstallations) { call throws(LuaMisuse) in
            call.arguments("userID")
            let app = try call.kii()
            let userID = try call.string(1, "userID")
            do throws(KiiError) {
                try app.checkAdapterFaults(.listInstallations, .object(["userID": .string(userID)]))
            } catch {
                return call.fail(error)
            }
            SharedBindings.pushList(call.L, app.installations(userID: userID)) { L, item in LuaRecordWriter.push(L, item) }
            return 1
        }
    }

    static let unregister: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.unregisterInstallation) { call throws(LuaMisuse) in
            call.arguments("installationID")
            let app = try call.kii()
            let id = try call.string(1, "installationID")
            return call.answerTrue { () throws(KiiError) in try app.unregisterInstallation(id: id) }
        }
    }

    /// `send_to_user{ user, message }` → `{ delivered = { installationID, ... } }`
    static let sendToUser: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.sendToUser) { call throws(LuaMisuse) in
            let app = try call.kii()
            try call.table(1, "push")
            try call.rejectUnknownFields(1, known: ["user", "message"], in: "the push")
            guard let user = try call.field(1, "user", string: "push.user") else {
                throw LuaMisuse("push.user is required (the userID)")
            }
            guard let message = try call.field(1, "message", string: "push.message") else {
                throw LuaMisuse("push.message is required")
            }
            do throws(KiiError) {
                let delivered = try app.sendToUser(userID: user, message: message)
                lua_createtable(call.L, 0, 1)
                let table = lua_gettop(call.L)
                LuaValues.push(call.L, strings: delivered)
                LuaValues.setField(call.L, table, "delivered")
                return 1
            } catch {
                return call.fail(error)
            }
        }
    }
}
