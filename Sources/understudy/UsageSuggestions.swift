import ArgumentParser
import Understudy

/// "Did you mean ...?" for the names the command line refuses that argument-parser leaves without one (it
/// suggests for a misspelt option only): a subcommand (`understudy rn`), an option's value from a fixed list
/// (`--format junitt`).
enum UsageSuggestions {
    /// The message for a subcommand `arguments` name that the command at `path` (with `subcommands`) does not
    /// have (`understudy rn`, `understudy codes mrege`), or nil when the arguments name one, or none.
    static func unknownSubcommand(_ arguments: [String], path: String = "understudy", subcommands: [any ParsableCommand.Type]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return nil }
        var names: [String] = []
        for subcommand in subcommands {
            let configuration = subcommand.configuration
            guard let name = configuration.commandName else { continue }
            if name == first {
                return unknownSubcommand(Array(arguments.dropFirst()), path: path + " " + name, subcommands: configuration.subcommands)
            }
            if configuration.shouldDisplay { names.append(name) }
        }
        guard !names.isEmpty else { return nil }
        return "Error: '\(first)' is not a subcommand of \(path)\(NearestName.suggestion(for: first, among: names, quote: "'"))"
            + " (subcommands: \(names.joined(separator: ", ")))\n  See '\(path) --help' for more information."
    }

    /// argument-parser's message for a value outside an option's list ("The value 'junitt' is invalid for
    /// '--format <format>'. Please provide one of 'pretty', 'tap' or 'junit'.") with the nearest value added.
    static func improving(_ message: String) -> String {
        guard let refusal = message.firstMatch(of: /The value '([^']*)' is invalid for '[^']*'\. Please provide one of ([^\n]*)\./) else {
            return message
        }
        let values = refusal.output.2.matches(of: /'([^']*)'/).map { String($0.output.1) }
        let suggestion = NearestName.to(String(refusal.output.1), among: values)
        guard let suggestion else { return message }
        var improved = message
        improved.replaceSubrange(refusal.range, with: String(message[refusal.range]) + " Did you mean '\(suggestion)'?")
        return improved
    }

    /// `--flavour must be backendless or kii, got 'kiii' (did you mean 'kii'?)`.
    static func flavourRefusal(_ name: String) -> ValidationError {
        let names = Flavour.allCases.map(\.rawValue)
        return ValidationError("--flavour must be backendless or kii, got '\(name)'\(NearestName.suggestion(for: name, among: names, quote: "'"))")
    }
}
