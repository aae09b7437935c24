internal import CLua
internal import CLuaShim
internal import Understudy

/// `app.installations.*` (Kii's push device registration) and `app.push.send_to_user`.
enum KiiInstallationBindings {
    /// `register{ user, type, token?, development? }`
    static let register: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.registerInstallation) { call throws(LuaMisuse) in
            _ = try call.arguments(of: KiiOperation.registerInstallation)
            let app = try call.kii()
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
            let id = try call.arguments(of: KiiOperation.getInstallation).string("installationID")
            let app = try call.kii()
            return call.answer(optional: { () throws(KiiError) in
                try app.checkAdapterFaults(.getInstallation, [.string(id)])
                return app.installation(id: id)
            })
        }
    }

    static let list: us_swift_fn = { L in
        LuaCall.run(L, KiiOperation.listInstallations) { call throws(LuaMisuse) in
            let userID = try call.arguments(of: KiiOperation.listInstallations).string("userID")
            let app = try call.kii()
            do throws(KiiError) {
                try app.checkAdapterFaults(.listInstallations, [.string(userID)])
            } catch {
                return call.fail(error)
            }
            SharedBindings.pushList(call.L, app.installations(userID: userID)) { L, item in LuaRecordWriter.push(L, item) }
            return 1
        }
    }
}
