internal import Understudy

/// The arguments of one Lua call of an operation, read and checked as its declaration lists them
/// (`LuaCall.arguments(of:)`), by the declared names.
struct DeclaredArguments {
    /// One argument as read.
    enum Read {
        case absent
        case string(String)
        case bool(Bool)
        case number(Double)
        case properties([Property])
        /// A table argument: its stack index (`LuaCall.fields(of:_:)` reads its declared fields).
        case table(Int32)
        case value(Value)
    }

    let names: [String]
    let values: [Read]

    private func read(_ name: String) -> Read {
        guard let index = names.firstIndex(of: name) else {
            preconditionFailure("no argument \(name) is declared (declared: \(names.joined(separator: ", ")))")
        }
        return values[index]
    }

    /// A declared string argument (also one of a few strings); nil when an optional one is absent.
    func optionalString(_ name: String) -> String? {
        if case .string(let text) = read(name) { return text }
        return nil
    }

    /// A declared string argument that is not optional.
    func string(_ name: String) -> String { optionalString(name) ?? "" }

    /// A declared boolean argument; false when an optional one is absent.
    func bool(_ name: String) -> Bool {
        if case .bool(let flag) = read(name) { return flag }
        return false
    }

    /// A declared table of properties; nil when an optional one is absent.
    func optionalProperties(_ name: String) -> [Property]? {
        if case .properties(let properties) = read(name) { return properties }
        return nil
    }

    /// A declared table of properties that is not optional.
    func properties(_ name: String) -> [Property] { optionalProperties(name) ?? [] }

    /// The stack index of a declared table argument (its fields are known to be declared ones).
    func table(_ name: String) -> Int32 {
        if case .table(let index) = read(name) { return index }
        return 0
    }
}
