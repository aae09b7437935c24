internal import CLua
internal import CLuaShim
internal import Understudy

/// Building the tables scenarios see: functions bound to one backend through its handle.
enum Binding {
    /// `table[name] = fn`, with the backend handle as the function's upvalue.
    static func function(_ L: OpaquePointer, _ table: Int32, _ name: StaticString, _ handle: Int64, _ fn: us_swift_fn) {
        lua_pushinteger(L, lua_Integer(handle))
        us_push_swift_function(L, fn, 1)
        LuaValues.setField(L, table, name)
    }

    /// Pushes a new table of functions bound to `handle`.
    static func table(_ L: OpaquePointer, _ handle: Int64, _ functions: [(StaticString, us_swift_fn)]) {
        lua_createtable(L, 0, Int32(functions.count))
        let table = lua_gettop(L)
        for (name, fn) in functions { function(L, table, name, handle, fn) }
    }
}

/// The functions of an app table (`app.users.update`, `app.push.templates.list`) by their dotted Lua paths:
/// an operation's comes from its declaration (`OperationDeclaration.lua`) and is served by `OperationAdapter` when
/// the declaration names its domain method; a helper's (`users.find`) is listed by its flavour's bindings.
struct BindingTree {
    /// A function of the tree: a hand-written binding, or the operation adapter with a declaration's index.
    enum Function {
        case binding(us_swift_fn)
        case operation(Int)
    }

    private var functions: [(name: String, fn: Function)] = []
    private var children: [(name: String, tree: BindingTree)] = []

    init() {}

    /// The functions of every operation of `Op` that scenarios can call, then `helpers`. `binding` is the
    /// flavour's exhaustive switch: an operation declared with a Lua path and no domain method must have one.
    init<Op: Operation>(_: Op.Type, binding: (Op) -> us_swift_fn?, console: (ConsoleCall) -> us_swift_fn?) {
        for operation in Op.allCases {
            add(operation.declaration, binding(operation))
        }
        for call in ConsoleCall.allCases where !call.isModuleCall && call.flavours.contains(Op.flavour) {
            add(call.declaration(for: Op.flavour), console(call))
        }
    }

    /// Adds a declared call at its Lua path: `binding` when the flavour still writes one (its HTTP routes may be
    /// derived all the same), else the adapter when the declaration names its domain method.
    private mutating func add(_ declaration: OperationDeclaration, _ binding: us_swift_fn?) {
        guard let path = declaration.lua else { return }
        if let binding {
            add(path, .binding(binding))
            return
        }
        if let index = OperationAdapter.index(of: declaration) {
            add(path, .operation(index))
            return
        }
        guard let fn = binding else {
            preconditionFailure("\(declaration.flavour.rawValue) \(declaration.name) is declared at \(path) but has no binding")
        }
        add(path, .binding(fn))
    }

    /// Adds `fn` at a dotted path (`users.find`).
    mutating func add(_ path: String, _ fn: Function) {
        add(path.split(separator: ".").map(String.init)[...], fn)
    }

    private mutating func add(_ path: ArraySlice<String>, _ fn: Function) {
        guard let first = path.first else { return }
        if path.count == 1 {
            functions.append((first, fn))
            return
        }
        if let index = children.firstIndex(where: { $0.name == first }) {
            children[index].tree.add(path.dropFirst(), fn)
        } else {
            var child = BindingTree()
            child.add(path.dropFirst(), fn)
            children.append((first, child))
        }
    }

    /// Sets each table into the table at `index` (the app table), its functions bound to `handle`.
    func install(_ L: OpaquePointer, into index: Int32, handle: Int64) {
        for (name, fn) in functions {
            lua_pushinteger(L, lua_Integer(handle))
            switch fn {
            case .binding(let fn): us_push_swift_function(L, fn, 1)
            case .operation(let operation):
                lua_pushinteger(L, lua_Integer(operation))
                us_push_swift_function(L, OperationAdapter.perform, 2)
            }
            LuaValues.setField(L, index, name)
        }
        for (name, child) in children {
            lua_createtable(L, 0, Int32(child.functions.count + child.children.count))
            child.install(L, into: lua_gettop(L), handle: handle)
            LuaValues.setField(L, index, name)
        }
    }
}
