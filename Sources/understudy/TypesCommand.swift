import ArgumentParser
import UnderstudyAuthoring

/// `understudy types [DIR]`: the editor files for the Lua language server.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Write LuaLS editor types for scenarios (types/understudy.lua) and a .luarc.json into DIR.",
        discussion: """
            Run it in the folder you open in your editor (the project root, not the scenarios folder): the Lua \
            language server then completes understudy.*, app.users.*, expect.* and the settings, and knows the \
            sandbox's globals and Lua 5.4. types/understudy.lua is regenerated on every run. A .luarc.json that \
            exists already is merged, not overwritten: its settings are kept, lists gain the names Understudy \
            needs, and runtime.version becomes Lua 5.4. One that is not plain JSON (comments) is left as it is, \
            and the command fails, printing the settings to add.
            """
    )

    @Argument(help: "The folder to write into (default: the current folder).")
    var directory = "."

    func run() throws {
        let annotations = ProjectFiles.join(directory, EditorTypes.annotationPath)
        let luarc = ProjectFiles.join(directory, ".luarc.json")
        var text = EditorTypes.luarc
        var verb = "wrote"
        if ProjectFiles.exists(luarc) {
            guard let existing = ProjectFiles.read(luarc) else { throw ValidationError("cannot read \(luarc)") }
            do throws(LuarcMerge.Refusal) {
                text = try LuarcMerge.merge(existing, with: EditorTypes.luarc)
                verb = text == existing ? "kept" : "merged into"
            } catch {
                throw ValidationError(
                    "understudy types leaves \(luarc) as it is: \(error.reason). Add these settings to it yourself "
                        + "(or move it away and run understudy types again):\n\(EditorTypes.luarc)"
                )
            }
        }
        for (path, contents, done) in [(annotations, EditorTypes.annotations, "wrote"), (luarc, text, verb)] {
            do throws(FileProblem) {
                if done != "kept" { try ProjectFiles.write(contents, to: path) }
            } catch {
                throw ValidationError(error.message)
            }
            FileOutput.standardOutput.write("\(done) \(path)\n")
        }
    }
}
