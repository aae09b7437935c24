import ArgumentParser
import Understudy
import UnderstudyAuthoring

/// `understudy explain [CODE]`: what an error code means and how to produce it.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain an error code (status, message, operations, settings, check order, a scenario and curl commands producing it) or a call (its arguments, result, routes and misuse messages).",
        discussion: """
            CODE is a Backendless number (3033) or a Kii errorCode (USER_ALREADY_EXISTS). With no CODE, lists the \
            whole catalogue. The examples come from the same catalogue as `understudy run --codes`. A call's name \
            (users.update, clock.advance, data.users.find, understudy.app) explains the call from its declaration.
            """
    )

    @Argument(help: "The error code; none lists the catalogue.")
    var code: String?

    @Option(help: "backendless or kii, when a code exists in both.")
    var flavour: String?

    func run() throws {
        var selected: Flavour?
        if let flavour {
            guard let known = Flavour(rawValue: flavour.lowercased()) else {
                throw UsageSuggestions.flavourRefusal(flavour)
            }
            selected = known
        }
        guard let code else {
            FileOutput.standardOutput.write(CodeExplanation.list())
            return
        }
        let entries = ErrorCatalogue.lookup(code, flavour: selected)
        if entries.isEmpty {
            let calls = CallExplanation.find(code, flavour: selected)
            if !calls.isEmpty {
                FileOutput.standardOutput.write(calls.map(CallExplanation.render).joined(separator: "\n"))
                return
            }
        }
        switch entries.count {
        case 0:
            let candidates = ErrorCatalogue.all.filter { selected == nil || $0.flavour == selected }
                .flatMap { entry in [entry.number.map(String.init), entry.code].compactMap { $0 } }
            let suggestion = NearestName.suggestion(for: code, among: candidates)
            throw ValidationError("\(code) is not in the \(selected.map { $0.rawValue + " " } ?? "")catalogue\(suggestion) (understudy explain lists it)")
        case 1:
            FileOutput.standardOutput.write(CodeExplanation.render(entries[0]))
        default:
            if Set(entries.map(\.flavour)).count > 1 {
                throw ValidationError("\(code) is a code of both flavours: add --flavour backendless or --flavour kii")
            }
            FileOutput.standardOutput.write(entries.map(CodeExplanation.render).joined(separator: "\n"))
        }
    }
}
