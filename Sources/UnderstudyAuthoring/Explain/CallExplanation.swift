package import Understudy

/// `understudy explain CALL`: a declared call (an operation or a console call) as its declaration says it: where a
/// scenario calls it, its arguments, its result, its routes and order of checks, and the misuse messages its Lua
/// call raises (`OperationDeclaration.misuseExamples`, the texts the Lua adapter raises).
package enum CallExplanation {
    /// The declarations named `name`: an operation's name (`users.update`), a Lua path (`clock.advance`,
    /// `data.users.find`) or a module call (`understudy.app`), of either flavour.
    package static func find(_ name: String, flavour: Flavour?) -> [OperationDeclaration] {
        var found: [OperationDeclaration] = []
        for current in Flavour.allCases where flavour == nil || flavour == current {
            let operations = current == .backendless ? BackendlessOperation.declarations : KiiOperation.declarations
            found += operations.filter { $0.name == name || $0.lua == name }
            found += ConsoleCall.declarations(of: current).filter { $0.name == name || $0.lua == name }
        }
        let module = name.hasPrefix("understudy.") ? name : "understudy." + name
        if found.isEmpty, let call = ConsoleCall(rawValue: module), call.isModuleCall {
            found.append(call.declaration(for: .backendless))
        }
        return found
    }

    /// The explanation of one declaration.
    package static func render(_ declaration: OperationDeclaration) -> String {
        let console = ConsoleCall(rawValue: declaration.name) != nil
            || ConsoleCall(rawValue: "understudy." + declaration.name) != nil
        let module = ConsoleCall(rawValue: "understudy." + (declaration.lua ?? ""))?.isModuleCall == true
        let flavour = module ? "the understudy module" : (declaration.flavour == .backendless ? "Backendless" : "Kii")
        var text = "\(declaration.name) — \(console ? "console call" : "operation"), \(flavour)"
        if !console { text += ", contract version \(declaration.version)" }
        text += "\n\n"
        if let signature = declaration.luaSignature {
            text += "lua:        \(module ? "understudy" : "app").\(signature)\n"
        } else {
            text += "lua:        — (HTTP only)\n"
        }
        for route in declaration.routes {
            text += "http:       \(route.method.rawValue) \(route.fullPath(of: declaration.flavour))\n"
        }
        text += "returns:    \(declaration.result.lua)\(declaration.result == .http ? " (HTTP only)" : ", or nil and the error")\n"
        if !declaration.arguments.isEmpty {
            text += "\narguments\n"
            for argument in declaration.arguments { text += line(argument, indent: "  ") }
        }
        if !console {
            text += "\nchecks, in order: \(declaration.checkNames.joined(separator: ", "))\n"
        }
        let misuse = declaration.misuseExamples
        if declaration.lua != nil, !misuse.isEmpty {
            text += "\nmisuse (raised as Lua errors)\n"
            for message in misuse { text += "  \(message)\n" }
        }
        return text
    }

    static func line(_ argument: ArgumentDeclaration, indent: String) -> String {
        var text = "\(indent)\(argument.name)\(argument.optional ? "?" : "")  \(argument.type.lua)"
        if argument.http != .none { text += "  (HTTP: \(argument.http.description))" }
        if !argument.summary.isEmpty { text += "  \(argument.summary)" }
        text += "\n"
        if case .table(_, let fields) = argument.type {
            for field in fields { text += line(field, indent: indent + "  ") }
        }
        return text
    }
}
