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
            sandbox's globals and Lua 5.4. Both files are regenerated (overwritten) on every run.
            """
    )

    @Argument(help: "The folder to write into (default: the current folder).")
    var directory = "."

    func run() throws {
        for (name, text) in [(EditorTypes.annotationPath, EditorTypes.annotations), (".luarc.json", EditorTypes.luarc)] {
            let path = ProjectFiles.join(directory, name)
            do throws(FileProblem) {
                try ProjectFiles.write(text, to: path)
            } catch {
                throw ValidationError(error.message)
            }
            FileOutput.standardOutput.write("wrote \(path)\n")
        }
    }
}
