import ArgumentParser
import Understudy
import UnderstudyHTTP
import UnderstudyLua
import UnderstudyRunner

/// `understudy codes merge|check FILE...`: the error-code coverage of runs in shards, of an app under `serve`,
/// and a gate for CI.
struct CodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes",
        abstract: "Combine and check the error-code coverage of several runs (Lua shards, an app's session under serve).",
        subcommands: [Merge.self, Check.self]
    )

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Add up the files `understudy run --codes-json FILE` (or `serve --codes-json`) wrote and print the --codes table of the whole suite.",
            discussion: """
                Each shard of a CI matrix runs `understudy run scenarios/ --shard K/N --codes-json codes-K.json`; a \
                last job runs `understudy codes merge codes-*.json --min 90`. A coverage file of an app under \
                `understudy serve` (GET /_understudy/coverage, serve --codes-json) merges the same way. Exit status: \
                0, 1 when a flavour the runs met codes of is below --min, 2 for a file that cannot be read.
                """
        )

        @Argument(help: "The JSON files `understudy run --codes-json` or `understudy serve --codes-json` wrote.")
        var files: [String] = []

        @Option(help: ArgumentHelp("Fail when less than PCT % of the codes reachable in Lua are produced by their real trigger (each flavour the runs met codes of).", valueName: "PCT"))
        var min: Double?

        func validate() throws {
            if files.isEmpty { throw ValidationError("give the files `understudy run --codes-json FILE` wrote, e.g. `understudy codes merge codes-1.json codes-2.json`") }
            if let min, !(0...100).contains(min) { throw ValidationError("--min must be a percentage from 0 to 100") }
        }

        func run() throws {
            let coverage = CodeCoverage.merging(try files.map { try CodesFile.read($0).counts })
            FileOutput.standardOutput.write(coverage.renderTable())
            if let min {
                let shortfalls = coverage.shortfalls(below: min)
                for line in shortfalls { FileOutput.standardError.write("understudy codes merge: \(line)\n") }
                if !shortfalls.isEmpty { throw ExitCode.failure }
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Fail (exit 1) when the codes met fall short of --min or miss a --require'd code, naming what is missing.",
            discussion: """
                Reads the files `understudy run --codes-json` and `understudy serve --codes-json` (or GET \
                /_understudy/coverage) wrote, added up. A code counts as met when a call answered it by its real \
                trigger or an injected fault (--real-only: real triggers alone). Each flavour is measured against its \
                own denominator: the codes reachable from the operations the app called when a file comes from \
                serve, else the codes reachable in Lua; a flavour no file met a code of is skipped unless --flavour \
                names it. Exit status: 0 when met, 1 when short, 2 for a file that cannot be read.
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json, markdown, junit
        }

        @Argument(help: "The JSON files `understudy run --codes-json` or `understudy serve --codes-json` wrote.")
        var files: [String] = []

        @Option(help: ArgumentHelp("Fail when less than PCT % of each measured flavour's codes were met.", valueName: "PCT"))
        var min: Double?

        @Option(help: ArgumentHelp("Fail unless each of these codes was met (3033,USER_ALREADY_EXISTS,\"connection dropped\").", valueName: "CODE,..."))
        var require: String?

        @Option(help: ArgumentHelp("Measure only this flavour (backendless or kii); repeat for both.", valueName: "NAME"))
        var flavour: [String] = []

        @Flag(help: "Count only codes produced by their real trigger (not by injection).")
        var realOnly = false

        @Option(help: "Output: text, json, markdown (a CI job summary) or junit (a CI test report).")
        var format: Format = .text

        func validate() throws {
            if files.isEmpty { throw ValidationError("give the coverage files, e.g. `understudy codes check coverage.json --min 80`") }
            if let min, !(0...100).contains(min) { throw ValidationError("--min must be a percentage from 0 to 100") }
            for name in flavour where Flavour(rawValue: name) == nil {
                throw UsageSuggestions.flavourRefusal(name)
            }
            if min == nil, require == nil { throw ValidationError("give --min PERCENT, --require CODE,... or both") }
        }

        func run() throws {
            let read = try files.map(CodesFile.read)
            let coverage = CodeCoverage.merging(read.map(\.counts))
            var reachable: [Flavour: Set<String>] = [:]
            for file in read {
                for (flavour, codes) in file.reachable ?? [:] { reachable[flavour, default: []].formUnion(codes) }
            }
            let gate = CodesGate(
                coverage: coverage, reachableFromCalls: read.contains { $0.reachable != nil } ? reachable : nil,
                flavours: flavour.isEmpty ? nil : flavour.compactMap(Flavour.init), min: min,
                required: (require ?? "").split(separator: ",").map { String($0).trimmingCharacters() }.filter { !$0.isEmpty },
                realOnly: realOnly
            )
            let result = gate.evaluate()
            let output: String
            switch format {
            case .text: output = result.text()
            case .json: output = result.json()
            case .markdown: output = result.markdown()
            case .junit: output = result.junit()
            }
            FileOutput.standardOutput.write(output)
            if !result.passed {
                for line in result.failures { FileOutput.standardError.write("understudy codes check: \(line)\n") }
                throw ExitCode.failure
            }
        }
    }
}

/// One coverage file: its counts, and for a file from `serve` the codes reachable from the operations called.
struct CodesFile {
    var counts: [ProducedCode: Int]
    var reachable: [Flavour: Set<String>]?

    static func read(_ path: String) throws -> CodesFile {
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
            var network: Int64 = 0
            if let value = row["network"] {
                guard case .integer(let number) = value, number >= 0 else {
                    throw ValidationError("\(path): codes[\(index)].network must be a whole number of at least 0")
                }
                network = number
            }
            for (origin, count) in [(CodeOrigin.real, real), (.injected, injected), (.network, network)] where count > 0 {
                counts[ProducedCode(flavour: flavour, code: code, origin: origin), default: 0] += Int(count)
            }
        }
        var reachable: [Flavour: Set<String>]?
        if case .array(let operations)? = json["operations"] {
            var found: [Flavour: Set<String>] = [:]
            for operation in operations {
                guard let flavour = operation["flavour"]?.stringValue.flatMap(Flavour.init), case .array(let codes)? = operation["reachable"] else {
                    continue
                }
                found[flavour, default: []].formUnion(codes.compactMap(\.stringValue))
            }
            reachable = found
        }
        return CodesFile(counts: counts, reachable: reachable)
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\"" { text = text.dropFirst() }
        while text.last == " " || text.last == "\"" { text = text.dropLast() }
        return String(text)
    }
}
