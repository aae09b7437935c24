internal import CLua
internal import CLuaShim
internal import Understudy

/// The one Lua binding of every operation whose declaration names its domain method: it reads and checks the
/// declared arguments (`LuaCall.arguments(of:)`, misuse named by the declaration), calls the method
/// (`OperationDeclaration.perform`, faults first), and pushes the outcome, or `nil, err` for the flavour's error.
/// Each app table's function carries the backend's handle (upvalue 2) and the declaration's index here (upvalue 3).
enum OperationAdapter {
    /// Every declaration the adapter serves, by index.
    static let declarations: [OperationDeclaration] = (
        BackendlessOperation.declarations + KiiOperation.declarations + ConsoleCall.declarations(of: .backendless)
            + ConsoleCall.declarations(of: .kii) + ConsoleCall.moduleDeclarations
    ).filter { $0.perform != nil && $0.lua != nil }

    /// What each declaration's misuse messages start with: its name, but `journal.entries` for the journal's calls
    /// (as they have always been named there).
    static let functionNames: [String] = declarations.map { declaration in
        declaration.name.hasPrefix("understudy.journal.") ? declaration.lua ?? declaration.name : declaration.name
    }

    /// The index of `declaration` in `declarations`; nil when it names no domain method.
    static func index(of declaration: OperationDeclaration) -> Int? {
        declarations.firstIndex { $0.flavour == declaration.flavour && $0.name == declaration.name && $0.lua == declaration.lua }
    }

    static let perform: us_swift_fn = { L in
        guard let L else { return US_RAISE }
        let index = Int(us_tointeger(L, us_upvalueindex(3), nil))
        guard declarations.indices.contains(index), let performer = declarations[index].perform else { return US_RAISE }
        return LuaCall.run(L, functionNames[index]) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: declarations[index])
            do throws(CallMisuse) {
                try performer.misuse?.check(arguments)
            } catch {
                throw LuaMisuse(error.message)
            }
            if let runOnWorld = performer.runOnWorld {  // a module call: no app
                do {
                    return call.present(try runOnWorld(ModuleContext(world: call.host.world, apps: call.host.apps, snapshots: call.host.snapshots), arguments))
                } catch let misuse as CallMisuse {
                    throw LuaMisuse(misuse.message)
                } catch {
                    throw LuaMisuse("\(error)")
                }
            }
            let app = try call.app()
            var pushes: Int64 = 0
            do {
                if declarations[index].answeredByAdapter, let check = performer.adapterFaults { try check(app, arguments) }
                let outcome = try withUnsafeMutablePointer(to: &pushes) { pushes in
                    try performer.run(app, arguments, LuaLimits(L: call.L, pushes: pushes))
                }
                if let failed = call.afterCommit() { return failed }  // an `after_commit` fault, now the change is made
                return call.present(outcome)
            } catch let error as any LuaPresentable {
                return call.fail(error)
            } catch let misuse as CallMisuse {
                throw LuaMisuse(misuse.message)
            } catch {
                throw LuaMisuse("\(error)")
            }
        }
    }
}

/// What a scenario's call may spend: its instruction budget and its memory cap. A clock move charges each firing
/// before it is made (instructions, and the pushes the move has added so far against the cap: they are counted in
/// the backend's footprint when the call returns), so a repeating message cannot turn one move into unbounded work.
struct LuaLimits: CallLimits {
    let L: OpaquePointer
    /// The pushes the call's clock move has delivered so far.
    let pushes: UnsafeMutablePointer<Int64>

    func allowFiring(pushes count: Int) -> Bool {
        pushes.pointee += Int64(count)
        guard us_charge(L, BackendMemory.instructionsPerFiring + Int64(count) * BackendMemory.instructionsPerPush) != 0 else {
            return false
        }
        let bytes = pushes.pointee * Int64(BackendMemory.perPush)
        let fits = us_charge_memory(L, bytes) != 0
        us_charge_memory(L, -bytes)
        return fits
    }

    func charge(instructions: Int64, users: Int, bytesPerUser: Int) throws(CallMisuse) {
        do {
            try LuaCall(L: L, function: "").charge(instructions: instructions, users: users, bytesPerUser: bytesPerUser)
        } catch {
            throw CallMisuse(error.message)
        }
    }
}
