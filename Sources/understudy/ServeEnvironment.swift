import ArgumentParser

/// `understudy serve`'s options from the environment, for containers and CI services where a command line is
/// awkward to change: every option `--NAME` is also read from `UNDERSTUDY_NAME` (upper case, `-` as `_`:
/// `UNDERSTUDY_CONTROL_TOKEN`, `UNDERSTUDY_PORT`, ...), a flag from `UNDERSTUDY_NAME=1`/`true`, and
/// `UNDERSTUDY_OPTIONS` may hold more options (`--seed 7 --clock real`, split at spaces). The command line wins
/// over both, and `UNDERSTUDY_OPTIONS` over the single variables.
enum ServeEnvironment {
    /// One option of `serve`, as its help lists it.
    struct Option: Equatable {
        var name: String
        var takesValue: Bool
        /// The environment variable that sets it.
        var variable: String { "UNDERSTUDY_" + name.uppercased().replacingDashes() }
    }

    /// Every option `understudy serve --help` lists (not `--help`), so that a new option is read from the
    /// environment without a line here.
    static let options: [Option] = {
        let help = UnderstudyCommand.helpMessage(for: ServeCommand.self, columns: 10_000)
        var found: [Option] = []
        for line in help.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = words.first else { continue }
            let flag = first.hasSuffix(",") && words.count > 1 ? words[1] : first
            guard flag.hasPrefix("--"), flag.count > 2 else { continue }
            let name = String(flag.dropFirst(2))
            guard name != "help", name != "version", !found.contains(where: { $0.name == name }) else { continue }
            let next = words.dropFirst(first == flag ? 1 : 2).first
            found.append(Option(name: name, takesValue: next?.hasPrefix("<") == true))
        }
        return found
    }()

    /// `serve`'s arguments with those the environment gives placed before the command line's (so the command
    /// line's win: an option given twice takes its last value). Other commands' arguments come back unchanged.
    static func arguments(_ given: [String], environment: [String: String]) -> [String] {
        guard given.first == "serve" else { return given }
        var added: [String] = []
        for option in options {
            guard let value = environment[option.variable], !value.isEmpty else { continue }
            if option.takesValue {
                added += ["--" + option.name, value]
            } else if ["1", "true", "yes", "on"].contains(value.lowercased()) {
                added.append("--" + option.name)
            }
        }
        if let more = environment["UNDERSTUDY_OPTIONS"] {
            added += more.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        }
        return ["serve"] + added + given.dropFirst()
    }
}

extension String {
    fileprivate func replacingDashes() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}
