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
}
