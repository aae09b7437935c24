package import Understudy

/// The text the operations' declarations generate into the repository's docs and editor types, between markers,
/// merged with what is written by hand: `understudy docs --write` rewrites it, `understudy docs --check` (and a
/// test) fails when the committed text differs.
///
/// A Markdown section is `<!-- BEGIN GENERATED name ... -->` … `<!-- END GENERATED name -->`; a Lua section is
/// `-- BEGIN GENERATED name` … `-- END GENERATED name`. A generated table may keep columns written by hand
/// (notes, replies): they are carried over by the row's key (its first generated cells), so a new row arrives
/// with them empty and a removed row takes them away.
package enum GeneratedDocs {
    /// One generated section: the file it lives in (relative to the repository) and its name there.
    package struct Section: Sendable {
        package var file: String
        package var name: String
        /// The section's new body, given its current body (for the columns kept by hand).
        var render: @Sendable (String) -> String
    }

    /// Every generated section.
    package static let sections: [Section] = [
        Section(file: "docs/lua-api.md", name: "operations") { _ in operationsTable() },
        Section(file: "docs/lua-api.md", name: "fault-arguments") { _ in faultArgumentsTable() },
        Section(file: "docs/lua-api.md", name: "console-calls") { _ in consoleCallsTable() },
        Section(file: "docs/errors.md", name: "check-order-backendless") { current in checkOrderTable(.backendless, current) },
        Section(file: "docs/errors.md", name: "check-order-kii") { current in checkOrderTable(.kii, current) },
        Section(file: "docs/http.md", name: "routes-backendless") { current in routesTable(.backendless, current) },
        Section(file: "docs/http.md", name: "routes-kii") { current in routesTable(.kii, current) },
        Section(file: LuaStubs.file, name: "backendless-operations") { _ in LuaStubs.render(.backendless) },
        Section(file: LuaStubs.file, name: "kii-operations") { _ in LuaStubs.render(.kii) },
    ]

    /// The files holding generated sections.
    package static var files: [String] {
        var files: [String] = [OpenAPIPaths.file]
        for section in sections where !files.contains(section.file) { files.append(section.file) }
        return files
    }

    /// A problem with a file's markers.
    package struct MarkerError: Error, Sendable {
        package var message: String
    }

    /// `text` (the content of `file`) with every generated section of that file rewritten.
    package static func regenerate(_ text: String, file: String) throws(MarkerError) -> String {
        if file == OpenAPIPaths.file { return try OpenAPIPaths.regenerate(text) }
        var text = text
        for section in sections where section.file == file {
            let lua = file.hasSuffix(".lua")
            let begin = lua ? "-- BEGIN GENERATED \(section.name)" : "<!-- BEGIN GENERATED \(section.name) "
            let end = lua ? "-- END GENERATED \(section.name)" : "<!-- END GENERATED \(section.name) -->"
            guard let start = text.firstRange(of: begin) else {
                throw MarkerError(message: "\(file) has no '\(begin)' marker")
            }
            guard let lineEnd = text[start.upperBound...].firstIndex(of: "\n") else {
                throw MarkerError(message: "\(file): nothing follows '\(begin)'")
            }
            let bodyStart = text.index(after: lineEnd)
            guard let stop = text[bodyStart...].firstRange(of: end) else {
                throw MarkerError(message: "\(file) has no '\(end)' marker")
            }
            let current = String(text[bodyStart..<stop.lowerBound])
            text.replaceSubrange(bodyStart..<stop.lowerBound, with: section.render(current))
        }
        return text
    }

    // MARK: Tables

    /// A Markdown table: `generated` columns made from the declarations, then `kept` columns carried over by key.
    static func table(
        generated: [String], kept: [String], keyColumns: Int = 1, rows: [[String]], current: String
    ) -> String {
        var keptCells: [String: [String]] = [:]
        for line in current.split(separator: "\n") where line.hasPrefix("|") && !line.hasPrefix("|---") {
            let cells = cellsOf(String(line))
            guard cells.count == generated.count + kept.count else { continue }
            keptCells[cells.prefix(keyColumns).joined(separator: "|")] = Array(cells.dropFirst(generated.count))
        }
        let columns = generated + kept
        var lines = ["| " + columns.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: columns.count)]
        for row in rows {
            let carried = keptCells[row.prefix(keyColumns).joined(separator: "|")] ?? Array(repeating: "", count: kept.count)
            lines.append("| " + (row + carried).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cells of a table row, trimmed; `\|` does not split a cell.
    static func cellsOf(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var previous: Character = " "
        for character in line.dropFirst() {
            if character == "|", previous != "\\" {
                cells.append(cell.trimmingSpaces())
                cell = ""
            } else {
                cell.append(character)
            }
            previous = character
        }
        return cells
    }

    static func flavourName(_ flavour: Flavour) -> String { flavour == .backendless ? "Backendless" : "Kii" }

    static func declarations(_ flavour: Flavour) -> [OperationDeclaration] { ErrorCatalogue.declarations(of: flavour) }

    /// `GET /users/{objectId}`, as declared (under the flavour's base path).
    static func route(_ route: RouteDeclaration) -> String { "`\(route.method.rawValue) \(route.path)`" }

    /// docs/lua-api.md: every operation with its Lua call and its routes.
    static func operationsTable() -> String {
        var rows: [[String]] = []
        for flavour in Flavour.allCases {
            for declaration in declarations(flavour) {
                let call = declaration.luaSignature.map { "`app.\($0)`" } ?? "— (HTTP only)"
                let routes = declaration.routes.isEmpty ? "—" : declaration.routes.map(route).joined(separator: ", ")
                rows.append([flavourName(flavour), "`\(declaration.name)`", call, routes])
            }
        }
        return table(
            generated: ["flavour", "operation (`op`)", "Lua call", "HTTP route (under the app's base path)"], kept: [],
            rows: rows, current: ""
        )
    }

    /// docs/lua-api.md: every console call (an app table's calls that are not operations, and the `understudy`
    /// module's), with its flavours, its Lua call and its result.
    static func consoleCallsTable() -> String {
        var rows: [[String]] = []
        for call in ConsoleCall.allCases {
            let declaration = call.declaration(for: call.flavours.first ?? .backendless)
            let owner = call.isModuleCall ? "understudy" : "app"
            let flavours = call.isModuleCall ? "—" : call.flavours.map(flavourName).joined(separator: ", ")
            let signature = declaration.luaSignature.map { "`\(owner).\($0)`" } ?? "—"
            // A `|` in a cell (a union type) would end it in a Markdown table, code span or not.
            let cell = { (text: String) in text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
            rows.append(["`\(call.rawValue)`", flavours, cell(signature), cell("`\(declaration.result.lua)`")])
        }
        return table(generated: ["call", "flavours", "Lua call", "returns"], kept: [], rows: rows, current: "")
    }

    /// docs/lua-api.md: what a fault's `when(args)` sees, by operation.
    static func faultArgumentsTable() -> String {
        var rows: [[String]] = []
        for flavour in Flavour.allCases {
            for declaration in declarations(flavour) {
                var seen = declaration.arguments.enumerated().map { "`\($1.name)` (`args[\($0 + 1)]`)" }
                if case .table(_, let fields)? = declaration.arguments.first?.type {
                    seen.append("and its fields directly: " + fields.map { "`\($0.name)`" }.joined(separator: ", "))
                } else if case .properties? = declaration.arguments.first?.type {
                    seen.append("and its properties directly (`args.email`, ...)")
                }
                let name = "\(flavourName(flavour)) `\(declaration.name)`" + (declaration.lua == nil ? " (HTTP only)" : "")
                rows.append([name, seen.isEmpty ? "none" : seen.joined(separator: ", ")])
            }
        }
        return table(generated: ["operation", "`args`"], kept: [], rows: rows, current: "")
    }

    /// docs/errors.md: each operation's checks in order, with notes kept by hand.
    static func checkOrderTable(_ flavour: Flavour, _ current: String) -> String {
        let rows = declarations(flavour).map { declaration in
            ["`\(declaration.name)`", declaration.checks.map(\.shown).joined(separator: " → ")]
        }
        return table(generated: ["operation", "checks, first to last"], kept: ["notes"], rows: rows, current: current)
    }

    /// docs/http.md: each vendor route with its operation, with the body and reply (and Kii's credentials)
    /// kept by hand.
    static func routesTable(_ flavour: Flavour, _ current: String) -> String {
        var rows: [[String]] = []
        for declaration in declarations(flavour) {
            for route in declaration.routes {
                rows.append([route.method.rawValue, "`\(route.path)`", "`\(declaration.name)`"])
            }
        }
        let kept = flavour == .backendless ? ["body", "reply"] : ["credentials", "body", "reply"]
        return table(generated: ["method", "path", "operation"], kept: kept, keyColumns: 2, rows: rows, current: current)
    }
}

extension Check {
    /// How the docs' order tables write it: `fault`, a Backendless number, a Kii code in backticks.
    var shown: String {
        switch self {
        case .fault: return "fault"
        case .backendless(let code): return String(code)
        case .kii(let code): return "`\(code)`"
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
