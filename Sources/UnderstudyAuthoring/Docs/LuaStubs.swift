package import Understudy

/// The LuaLS stubs of the operations scenarios call (`function BackendlessUsers.update(objectId, props, token)`),
/// with their parameters' names and types and their results, made from the declarations. They live in the
/// annotation file between markers; the tables' classes and the helpers (`users.find`, `users.seed`) are written
/// by hand around them.
enum LuaStubs {
    /// The annotation file, relative to the repository.
    static let file = "Sources/UnderstudyAuthoring/Resources/understudy_types.lua"

    /// The class of an app table: `BackendlessUsers` for Backendless `users`.
    static func className(_ flavour: Flavour, table: String) -> String {
        GeneratedDocs.flavourName(flavour) + table.split(separator: ".").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func render(_ flavour: Flavour) -> String {
        let error = flavour == .backendless ? "BackendlessError" : "KiiError"
        var text = ""
        for declaration in ErrorCatalogue.declarations(of: flavour) {
            guard let (table, function) = declaration.luaTableAndFunction else { continue }
            if declaration.version > 1 { text += "---(contract v\(declaration.version))\n" }
            var parameters: [String] = []
            for argument in declaration.arguments {
                let summary = argument.summary.isEmpty ? "" : " " + argument.summary
                text += "---@param \(argument.name)\(argument.optional ? "?" : "") \(argument.type.lua)\(summary)\n"
                parameters.append("\(argument.name)\(argument.optional ? "?" : ""): \(argument.type.lua)")
            }
            switch declaration.result {
            case .record(let type, let name), .value(let type, let name): text += "---@return \(type) \(name)\n"
            case .optionalRecord(let type): text += "---@return \(type)|nil\n"
            case .true: text += "---@return true\n"
            case .http: continue
            }
            text += "---@overload fun(\(parameters.joined(separator: ", "))): nil, \(error)\n"
            let names = declaration.arguments.map(\.name).joined(separator: ", ")
            text += "function \(className(flavour, table: table)).\(function)(\(names)) end\n\n"
        }
        return text
    }
}
