import ArgumentParser
import UnderstudyAuthoring

/// `understudy docs --write|--check [ROOT]`: the operation tables of the docs and the LuaLS operation stubs,
/// generated from the operations' declarations into the repository's files between their markers.
struct DocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs",
        abstract: "Regenerate (--write) or verify (--check) the docs' operation tables and the editor types' operation stubs.",
        discussion: """
            For contributors, in a checkout of the repository: every operation is declared once \
            (Sources/Understudy/*/…Declarations.swift); this writes what the declarations say into docs/lua-api.md, \
            docs/errors.md, docs/http.md and the LuaLS annotations, between BEGIN/END GENERATED markers, keeping the \
            columns written by hand. --check exits 1 and names the files that differ.
            """
    )

    @Flag(help: "Rewrite the generated sections.") var write = false
    @Flag(help: "Exit 1 when a generated section differs from what the declarations make.") var check = false
    @Argument(help: "The repository's root (default: the current folder).") var root = "."

    func validate() throws {
        if write == check { throw ValidationError("give exactly one of --write and --check") }
    }

    func run() throws {
        var stale: [String] = []
        for file in GeneratedDocs.files {
            let path = ProjectFiles.join(root, file)
            guard let text = ProjectFiles.read(path) else {
                throw ValidationError("cannot read \(path) (run this in the repository's root, or give the root)")
            }
            let regenerated: String
            do throws(GeneratedDocs.MarkerError) {
                regenerated = try GeneratedDocs.regenerate(text, file: file)
            } catch {
                throw ValidationError(error.message)
            }
            guard regenerated != text else { continue }
            stale.append(path)
            if write {
                do throws(FileProblem) { try ProjectFiles.write(regenerated, to: path) } catch { throw ValidationError(error.message) }
                FileOutput.standardOutput.write("wrote \(path)\n")
            }
        }
        if check, !stale.isEmpty {
            FileOutput.standardError.write("generated text differs from the declarations in: \(stale.joined(separator: ", ")); run understudy docs --write\n")
            throw ExitCode(1)
        }
    }
}
