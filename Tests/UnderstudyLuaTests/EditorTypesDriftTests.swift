import Foundation
import Testing
import Understudy
import UnderstudyAuthoring

/// For every call the editor types annotate, the runtime's parameter names are the types' names, in order: an
/// operation's and a console call's from their declarations (what misuse messages and `when(args)` say), the
/// prelude's (`expect.*`, `fail`, `understudy.ignore`) from `prelude.lua`, and the few the C shim binds from the
/// names its messages use. A call whose names drift (`outbox.pushes` filtering by `recipient` while the types say
/// `device_id`) fails here.
@Suite("Editor types name the runtime's parameters")
struct EditorTypesDriftTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `function T.name(a, b)` → (T, name, [a, b]); `T` is the table as the annotation file spells it.
    static func functions(in text: String, prefix: String = "function ") -> [(table: String, name: String, parameters: [String])] {
        var found: [(String, String, [String])] = []
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(prefix), let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")") else { continue }
            let signature = line[line.index(line.startIndex, offsetBy: prefix.count)..<open]
            let parameters = line[line.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if let separator = signature.lastIndex(where: { $0 == "." || $0 == ":" }) {
                found.append((String(signature[..<separator]), String(signature[signature.index(after: separator)...]), parameters))
            } else {
                found.append(("_G", String(signature), parameters))
            }
        }
        return found
    }

    /// The annotation file's tables (`BackendlessUsers = {}` after `---@class BackendlessUsers`) → their class.
    static func classes(in text: String) -> [String: String] {
        var tables: [String: String] = [:]
        var current: String?
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("---@class ") {
                current = line.dropFirst("---@class ".count).split(separator: " ").first.map(String.init)
            } else if line.hasSuffix(" = {}"), let current {
                var table = String(line.dropLast(" = {}".count))
                if table.hasPrefix("local ") { table = String(table.dropFirst("local ".count)) }
                tables[table] = current
            } else if !line.hasPrefix("---") {
                current = nil
            }
        }
        return tables
    }

    /// The functions the C shim binds, by the names their messages use (`scenario: the name (argument 1) ...`).
    static let boundInC: [String: [String]] = ["_G.scenario": ["name", "fn"], "_G.skip": ["reason"], "Fault.remove": []]

    /// The runtime's parameter names of the call the annotation `table.name` stands for, for each place a
    /// scenario reaches it; nil when the runtime has no such call.
    static func runtime(_ owner: String, _ name: String, prelude: [String: [String]]) -> [[String]]? {
        let flavours = EditorTypesTests.bindingClasses[owner] ?? []
        if let fixed = boundInC["\(owner).\(name)"] { return [fixed] }
        var found: [[String]] = []
        for place in flavours {
            let parts = place.split(separator: ".", maxSplits: 1).map(String.init)
            let path = (parts.count > 1 ? parts[1] + "." : "") + name
            switch parts[0] {
            case "backendless", "kii":
                let flavour: Flavour = parts[0] == "kii" ? .kii : .backendless
                let declarations = (flavour == .kii ? KiiOperation.declarations : BackendlessOperation.declarations)
                    + ConsoleCall.declarations(of: flavour)
                guard let declaration = declarations.first(where: { $0.lua == path }) else { return nil }
                found.append(declaration.argumentNames)
            case "understudy":
                if let declaration = ConsoleCall.moduleDeclarations.first(where: { $0.lua == path }) {
                    found.append(declaration.argumentNames)
                } else if let parameters = prelude["understudy." + path] {
                    found.append(parameters)
                } else {
                    return nil
                }
            case "expect", "_G":
                guard let parameters = prelude[parts[0] == "_G" ? name : "expect." + name] else { return nil }
                found.append(parameters)
            default: return nil
            }
        }
        return found.isEmpty ? nil : found
    }

    /// The prelude's functions by the names scenarios call them: `expect.equal`, `fail` (a local the prelude
    /// exports), `understudy.ignore`.
    static func preludeFunctions() throws -> [String: [String]] {
        let text = try String(contentsOf: root.appendingPathComponent("Sources/UnderstudyLua/Resources/prelude.lua"), encoding: .utf8)
        var functions: [String: [String]] = [:]
        for function in Self.functions(in: text) where function.table == "expect" { functions["expect." + function.name] = function.parameters }
        for function in Self.functions(in: text, prefix: "local function ") {
            switch function.name {
            case "fail": functions["fail"] = function.parameters
            case "ignore": functions["understudy.ignore"] = function.parameters
            default: break
            }
        }
        return functions
    }

    @Test("every annotated call's parameters are the runtime's, by name and order, console calls included")
    func parametersAgree() throws {
        let text = EditorTypes.annotations
        let tables = Self.classes(in: text)
        let prelude = try Self.preludeFunctions()
        var checked = 0
        var disagreements: [String] = []
        for function in Self.functions(in: text) {
            let owner = function.table == "_G" ? "_G" : (tables[function.table] ?? function.table)
            guard let places = Self.runtime(owner, function.name, prelude: prelude) else {
                disagreements.append("\(function.table).\(function.name): no runtime call found")
                continue
            }
            for parameters in places where parameters != function.parameters {
                disagreements.append(
                    "\(function.table).\(function.name): the types say (\(function.parameters.joined(separator: ", "))), the runtime (\(parameters.joined(separator: ", ")))"
                )
            }
            checked += 1
        }
        #expect(disagreements == [])
        // Every operation with a Lua path, and the console, is annotated and so compared.
        #expect(checked > 100, "only \(checked) annotated calls were compared")
    }
}
