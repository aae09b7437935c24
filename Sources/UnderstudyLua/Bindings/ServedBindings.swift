internal import CLua
internal import CLuaShim
internal import Understudy

/// `understudy.app(name)`, `understudy.apps()`, `understudy.snapshot` / `restore` and `understudy.journal`: reaching
/// the backends a script did not create itself (under `understudy serve`, the served apps), keeping and bringing
/// back a scenario's backends, and the requests the server answered.
enum ServedBindings {
    static func install(_ L: OpaquePointer, module: Int32) {
        functions.install(L, into: module, handle: 0)
    }

    /// `understudy.app`, `understudy.apps` and `understudy.journal.*`: their declarations name their methods,
    /// `OperationAdapter` serves them.
    static let functions: BindingTree = {
        var tree = BindingTree()
        for call in [ConsoleCall.moduleApp, .moduleApps, .moduleSnapshot, .moduleRestore, .journalEntries, .journalLast, .journalCount, .journalClear] {
            let declaration = call.declaration(for: .backendless)
            guard let path = declaration.lua, let index = OperationAdapter.index(of: declaration) else {
                preconditionFailure("\(call.rawValue) names no method")
            }
            tree.add(path, .operation(index))
        }
        return tree
    }()

    /// Pushes the app table of the backend at `index`.
    static func pushApp(_ L: OpaquePointer, host: ScenarioHost, index: Int) {
        let handle = host.handle(ofAppAt: index)
        switch host.apps[index].flavoured {
        case .backendless: BackendlessBindings.pushApp(L, handle: handle)
        case .kii: KiiBindings.pushApp(L, handle: handle)
        }
    }
}
