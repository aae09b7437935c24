internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.import{...}`: the apps of an exported world (what `WorldExport` writes), created, filled and
/// returned in order. In a scenario they are the scenario's backends; under `understudy serve` they join the
/// served world.
enum ImportBindings {
    /// `12.3 MiB`.
    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    /// Not derived (issue 28): it creates backends, which the scenario host adopts, and answers their app tables, as
    /// `understudy.backendless` does.
    static let importWorld: us_swift_fn = { L in
        LuaCall.run(L, "understudy.import") { call throws(LuaMisuse) in
            try call.table(1, "world")
            let value: Value
            switch LuaValues.value(call.L, at: 1) {
            case .success(let read): value = read
            case .failure(let error): throw LuaMisuse("understudy.import: world\(error.path.isEmpty ? "" : "." + error.path) cannot be \(error.found)")
            }
            let host = call.host
            var indices: [Int] = []
            do throws(ArchiveError) {
                let archives = try WorldArchive.apps(in: value, path: "understudy.import")
                // Every app is made and checked before any joins: a damaged export adds nothing.
                var made: [(archive: ArchiveReader, app: any EmulatedApp)] = []
                for archive in archives {
                    made.append((archive, try WorldArchive.makeApp(archive, seed: host.nextAppSeed() &+ UInt64(made.count))))
                }
                for (archive, app) in made { try WorldArchive.restore(archive, into: app) }
                // Admitted whole before any joins: an import that would pass the memory cap adds nothing.
                let held = made.reduce(0) { HeldBytes.sum($0, $1.app.heldBytes) }
                guard host.world?.admitsGrowth(held) ?? host.admitsGrowth(held) else {
                    throw ArchiveError(
                        "the world would hold about \(ImportBindings.mebibytes(held)) of records, more than the memory cap (--max-memory) leaves room for; nothing was imported"
                    )
                }
                for (_, app) in made {
                    indices.append(host.apps.count)
                    _ = host.adopt(app, keepingItsClock: true)
                }
            } catch {
                throw LuaMisuse(error.message)
            }
            lua_createtable(call.L, Int32(indices.count), 0)
            for (position, index) in indices.enumerated() {
                ServedBindings.pushApp(call.L, host: host, index: index)
                lua_rawseti(call.L, -2, lua_Integer(position + 1))
            }
            return 1
        }
    }
}
