import Foundation
import Testing

/// Text that is another language (Lua, HTML, JSON) lives in a file of that language, where its own tooling reads
/// it, not in a long Swift string: no multi-line Swift string literal in the repository's Swift may run over 150
/// lines (the scenario prelude was 451 lines of Lua in one; it is `Sources/UnderstudyLua/Resources/prelude.lua`).
@Suite("Source shape")
struct SourceShapeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let limit = 150

    /// The multi-line string literals of a Swift source (`"""` or `#"""` ending its line opens one; the line
    /// starting with the same delimiter closes it): the line each opens on, and how many lines it spans.
    static func multilineLiterals(in text: String) -> [(line: Int, lines: Int)] {
        var found: [(line: Int, lines: Int)] = []
        var open: (line: Int, closer: String)?
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if let current = open {
                if line.hasPrefix(current.closer) {
                    found.append((current.line, offset - current.line))
                    open = nil
                }
                continue
            }
            guard line.hasSuffix("\"\"\"") else { continue }
            var hashes = ""
            var head = line.dropLast(3)
            while head.hasSuffix("#") {
                hashes += "#"
                head = head.dropLast()
            }
            // `"""` closing a one-line literal (`""""`, `#""""#`) is not an opening.
            if head.hasSuffix("\"") { continue }
            open = (offset + 1, "\"\"\"" + hashes)
        }
        return found
    }

    @Test("the scanner finds a long literal and its length, raw or not")
    func scanner() {
        let body = Array(repeating: "x", count: 151).joined(separator: "\n")
        let source = "let a = #\"\"\"\n\(body)\n\"\"\"#\nlet b = \"\"\"\nshort\n\"\"\"\nlet c = #\"\"\"\"#\n"
        let literals = Self.multilineLiterals(in: source)
        #expect(literals.map(\.lines) == [151, 1])
        #expect(literals.first?.line == 1)
    }

    @Test("no Swift string literal is over 150 lines")
    func noLongLiterals() throws {
        var swiftFiles: [URL] = [Self.root.appendingPathComponent("Package.swift")]
        for folder in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "swift" { swiftFiles.append(url) }
            }
        }
        #expect(swiftFiles.count > 100)
        for file in swiftFiles {
            let text = try String(contentsOf: file, encoding: .utf8)
            for literal in Self.multilineLiterals(in: text) where literal.lines > Self.limit {
                Issue.record(
                    "\(file.path.dropFirst(Self.root.path.count + 1)):\(literal.line): a string literal of \(literal.lines) lines (at most \(Self.limit)): move the text into a resource file"
                )
            }
        }
    }

    // MARK: Hand-written adapter closures

    /// The Lua and HTTP closures that are the adapters themselves or serve no declared call: not counted.
    static let infrastructure: [String: String] = [
        "OperationAdapter.swift perform": "the Lua adapter of every declared call",
        "VendorAdapter.swift handler": "the HTTP adapter of every declared route",
        "BackendlessAMFGateway.swift answer": "the AMF adapter: maps each SDK call to a declared REST route",
        "APITables.swift unknownName": "an API table's __index: a misspelt name, no call",
        "KnownCodes.swift check": "the prelude's own helper (expect.code), no app call",
        "UncheckedErrors.swift bind": "the prelude's own helper (unchecked errors), no app call",
        "FaultBindings.swift faultField": "a fault handle's __index (the table faults.inject returns)",
        "FaultBindings.swift faultRemove": "a fault handle's remove()",
        "FaultBindings.swift unknownArgument": "a `when(args)` table's __index: a name the operation does not declare, no call",
        "SharedBindings.swift settingsGet": "the settings table's __index: settings are fields, not calls",
        "SharedBindings.swift settingsSet": "the settings table's __newindex",
        "SharedBindings.swift settingsPairs": "the settings table's __pairs",
    ]

    /// Where the adapters live: every other `us_swift_fn` or `RouteHandler` closure written there serves one
    /// declared call by hand.
    static let adapterFolders = ["Sources/UnderstudyLua/Bindings", "Sources/UnderstudyHTTP/Routes"]

    /// Hand-written closures that serve one call (an operation or a console call) from Lua or over HTTP: `FILE NAME`
    /// of each `static let NAME: us_swift_fn = {`, `static let NAME: RouteHandler = {` and `func NAME(...) ->
    /// RouteHandler {` in the adapters' folders, less `infrastructure`.
    static func handWrittenClosures() throws -> [String] {
        var found: [String] = []
        for folder in adapterFolders {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    var name: Substring?
                    if trimmed.hasSuffix(": us_swift_fn = { L in") || trimmed.hasSuffix(": RouteHandler = { exchange in")
                        || trimmed.hasSuffix(": RouteHandler = {") || trimmed.hasSuffix(": us_swift_fn = {")
                    {
                        name = trimmed.split(separator: ":").first?.split(separator: " ").last
                    } else if trimmed.hasSuffix("-> RouteHandler {"), let open = trimmed.firstIndex(of: "(") {
                        // `func handler<Op: Operation>(...)` is `handler`.
                        let signature = trimmed[..<open]
                        name = signature[..<(signature.firstIndex(of: "<") ?? signature.endIndex)].split(separator: " ").last
                    }
                    guard let name else { continue }
                    let key = "\(url.lastPathComponent) \(name)"
                    if infrastructure[key] == nil { found.append(key) }
                }
            }
        }
        return found.sorted()
    }

    /// Issue 28 asks for at most 15; each conversion lowers this ceiling so the count cannot drift back up.
    static let closureCeiling = 12

    @Test("hand-written per-call adapter closures stay at or below the ceiling (issue 28: at most 15)")
    func handWrittenAdapterClosures() throws {
        let closures = try Self.handWrittenClosures()
        #expect(closures.count > 0)
        #expect(
            closures.count <= Self.closureCeiling,
            "\(closures.count) hand-written adapter closures (at most \(Self.closureCeiling)): declare the operation's domain method and its route's named resolvers and presenters instead:\n\(closures.joined(separator: "\n"))"
        )
    }

    @Test("the closure counter finds a binding and a handler, and skips the adapters")
    func closureCounter() throws {
        let closures = try Self.handWrittenClosures()
        #expect(!closures.contains("OperationAdapter.swift perform"))
        #expect(!closures.contains("VendorAdapter.swift handler"))
        #expect(closures.contains { $0.hasPrefix("FaultBindings.swift ") })
    }
}
