internal import CLua
internal import CLuaShim
internal import Understudy

/// The one Lua binding of every operation whose declaration names its domain method: it reads and checks the
/// declared arguments (`LuaCall.arguments(of:)`, misuse named by the declaration), calls the method
/// (`OperationDeclaration.perform`, faults first), and pushes the outcome, or `nil, err` for the flavour's error.
/// Each app table's function carries the backend's handle (upvalue 2) and the declaration's index here (upvalue 3).
enum OperationAdapter {
    /// Every declaration the adapter serves, by index.
    static let declarations: [OperationDeclaration] = (BackendlessOperation.declarations + KiiOperation.declarations)
        .filter { $0.perform != nil && $0.lua != nil }

    /// The index of `declaration` in `declarations`; nil when it names no domain method.
    static func index(of declaration: OperationDeclaration) -> Int? {
        declarations.firstIndex { $0.flavour == declaration.flavour && $0.name == declaration.name }
    }

    static let perform: us_swift_fn = { L in
        guard let L else { return US_RAISE }
        let index = Int(us_tointeger(L, us_upvalueindex(3), nil))
        guard declarations.indices.contains(index), let performer = declarations[index].perform else { return US_RAISE }
        return LuaCall.run(L, declarations[index].name) { call throws(LuaMisuse) in
            let arguments = try call.arguments(of: declarations[index])
            let app = try call.app()
            do {
                return call.present(try performer.run(app, arguments))
            } catch let error as any LuaPresentable {
                return call.fail(error)
            } catch {
                throw LuaMisuse("\(error)")
            }
        }
    }
}
