import ArgumentParser
import Understudy
import UnderstudyHTTP
import UnderstudyLua
import UnderstudyRunner

/// `understudy codes merge A.json B.json ...`: the error-code coverage of a suite run in shards.
struct CodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes",
        abstract: "Combine the error-code coverage of several runs (shards of one suite).",
        subcommands: [Merge.self]
    )

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Add up the files `understudy run --codes-json FILE` wrote and print the --codes table of the whole suite.",
            discussion: """
                Each shard of a CI matrix runs `understudy run scenarios/ --shard K/N --codes-json codes-K.json`; a \
                last job runs `understudy codes merge codes-*.json --min 90`. Exit status: 0, 1 when a flavour is \
                below --min, 2 for a file that cannot be read.
                """
        )

        @Argument(help: "The JSON files `understudy run --codes-json` wrote.")
        var files: [String] = []

        @Option(help: ArgumentHelp("Fail when less than PCT % of the codes reachable in Lua are produced by their real trigger (each flavour).", valueName: "PCT"))
        var min: Double?

        func validate() throws {
            if files.isEmpty { throw ValidationError("give the files `understudy run --codes-json FILE` wrote, e.g. `understudy codes merge codes-1.json codes-2.json`") }
            if let min, !(0...100).contains(min) { throw ValidationError("--min must be a percentage from 0 to 100") }
        }

        func run() throws {
            var shards: [[ProducedCode: Int]] = []
            for path in files { shards.append(try Self.read(path)) }
            let coverage = CodeCoverage.merging(shards)
            FileOutput.standardOutput.write(coverage.renderTable())
            if let min {
                let shortfalls = coverage.shortfalls(below: min)
                for line in shortfalls { FileOutput.standardError.write("understudy codes merge: \(line)\n") }
                if !shortfalls.isEmpty { throw ExitCode.failure }
            }
        }

        /// The counts of one `--codes-json` file.
        static func read(_ path: String) throws -> [ProducedCode: Int] {
            guard let bytes = ScenarioDiscovery.read(path) else { throw ValidationError("cannot read \(path)") }
            let json: JSON
            do { json = try JSONParser.parse(bytes) } catch { throw ValidationError("\(path) is not JSON: \(error)") }
            guard json["understudy_codes"] == .integer(1), case .array(let rows)? = json["codes"] else {
                throw ValidationError("\(path) is not a file `understudy run --codes-json` wrote (no \"understudy_codes\": 1 and \"codes\" list)")
            }
            var counts: [ProducedCode: Int] = [:]
            for (index, row) in rows.enumerated() {
                guard let flavourName = row["flavour"]?.stringValue, let flavour = Flavour(rawValue: flavourName),
                    let code = row["code"]?.stringValue, case .integer(let real)? = row["real"],
                    case .integer(let injected)? = row["injected"], real >= 0, injected >= 0
                else {
                    throw ValidationError("\(path): codes[\(index)] needs flavour (backendless or kii), code, real and injected")
                }
                if real > 0 { counts[ProducedCode(flavour: flavour, code: code, injected: false), default: 0] += Int(real) }
                if injected > 0 { counts[ProducedCode(flavour: flavour, code: code, injected: true), default: 0] += Int(injected) }
            }
            return counts
        }
    }
}
