internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.import{...}`: the apps of an exported world, created and filled (what `WorldExport` wrote).
enum ImportBindings {
    static let importWorld: us_swift_fn = { L in
        LuaCall.run(L, "understudy.import") { call throws(LuaMisuse) in
            try call.table(1, "world")
            let value: Value
            switch LuaValues.value(call.L, at: 1) {
            case .success(let read): value = read
            case .failure(let error): throw LuaMisuse("understudy.import: world\(error.path.isEmpty ? "" : "." + error.path) cannot be \(error.found)")
            }
            let host = call.host
            do throws(ArchiveError) {
                for archive in try WorldArchive.apps(in: value, path: "understudy.import") {
                    let app = try WorldArchive.makeApp(archive, seed: host.nextAppSeed())
                    _ = host.adopt(app)
                    try WorldArchive.restore(archive, into: app)
                }
            } catch {
                throw LuaMisuse(error.message)
            }
            return 0
        }
    }
}
