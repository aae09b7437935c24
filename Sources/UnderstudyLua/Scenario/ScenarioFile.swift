/// A scenario file as read from disk: its path as the user named it and its text.
package struct ScenarioFile: Sendable, Hashable {
    /// The path as shown in reports (relative when the user gave a relative path).
    package var path: String
    /// The text as Lua loads it: like `lua file.lua`, without a leading UTF-8 BOM, and with a first line that
    /// starts with `#` (a shebang) blanked, its newline kept so line numbers stay right.
    package var contents: [UInt8]
    /// Why the file cannot load before Lua sees it (discovery met a broken symbolic link).
    package var problem: String?

    package init(path: String, contents: [UInt8]) {
        self.path = path
        self.contents = Self.loadable(contents)
    }

    /// A file whose contents were already made loadable (sent to a worker process).
    package init(path: String, loadable contents: [UInt8]) {
        self.path = path
        self.contents = contents
    }

    /// A file that reports `problem` as its load error.
    package init(path: String, problem: String) {
        self.path = path
        self.contents = []
        self.problem = problem
    }

    /// Drops a leading UTF-8 BOM and blanks a first line that starts with `#`, as `luaL_loadfilex` does.
    static func loadable(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "#") else {
            return start == 0 ? bytes : Array(bytes[start...])
        }
        let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        return Array(bytes[newline...])
    }
}

/// A scenario as its file declared it.
package struct ScenarioDeclaration: Sendable, Hashable {
    package var name: String
    package var tags: [String]
    /// The line of the `scenario(...)` call.
    package var line: Int
    /// 1-based position in its file.
    package var index: Int

    package init(name: String, tags: [String], line: Int, index: Int) {
        self.name = name
        self.tags = tags
        self.line = line
        self.index = index
    }
}

/// How one scenario ended.
package struct ScenarioOutcome: Sendable {
    package enum Status: String, Sendable {
        case passed
        case failed
        case skipped
    }

    package var file: String
    package var declaration: ScenarioDeclaration
    package var status: Status
    /// Why it failed, or why it was skipped.
    package var message: String?
    /// `file:line` of the failing statement in the scenario file.
    package var location: String?
    package var traceback: String?
    /// What the scenario printed.
    package var output: String
    /// Seconds of wall time.
    package var duration: Double
    /// The error codes the scenario's calls answered, by flavour, code and whether a fault injected them.
    package var codes: [ProducedCode: Int] = [:]

    package init(
        file: String, declaration: ScenarioDeclaration, status: Status, message: String?, location: String?,
        traceback: String?, output: String, duration: Double, codes: [ProducedCode: Int] = [:]
    ) {
        self.file = file
        self.declaration = declaration
        self.status = status
        self.message = message
        self.location = location
        self.traceback = traceback
        self.output = output
        self.duration = duration
        self.codes = codes
    }
}

extension ScenarioOutcome {
    /// Records what the scenario raised: skipped when it asked to be (`skip(reason)`), failed otherwise, with
    /// the message, location and a tidied traceback.
    mutating func settle(with failure: LuaFailure) {
        if let reason = failure.skipReason {
            status = .skipped
            message = reason
        } else {
            status = .failed
            message = failure.message
            location = failure.location
            traceback = failure.traceback.map(ScenarioSession.tidy)
        }
    }
}

/// A file that could not be loaded (a syntax error, or an error while declaring its scenarios).
package struct LoadError: Error, Sendable {
    package var file: String
    package var message: String
    package var traceback: String?

    package init(file: String, message: String, traceback: String? = nil) {
        self.file = file
        self.message = message
        self.traceback = traceback
    }
}
