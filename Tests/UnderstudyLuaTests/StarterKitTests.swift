import Foundation
import Testing
import Understudy
import UnderstudyAuthoring
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

@Suite("Starter kit, explain and code coverage")
struct StarterKitTests {
    @Test("the examples understudy init writes pass")
    func starterExamplesPass() {
        let files = StarterKit.files.filter { $0.path.hasPrefix("scenarios/") }
        #expect(files.count == 2)
        let result = runFiles(files.map { ($0.path, $0.text) })
        #expect(result.loadErrors.isEmpty)
        #expect(result.failed == 0 && result.passed == 6, "\(result.outcomes.map { "\($0.declaration.name): \($0.message ?? "ok")" })")
    }

    @Test("every code reachable in Lua has an explain scenario that produces it with the catalogue's message, and --codes counts it as such")
    func explainScenariosProduceTheirCodes() {
        for entry in ErrorCatalogue.all where entry.reach != .httpOnly {
            let key = "\(entry.flavour.rawValue):\(entry.code)"
            guard let scenario = CodeExample.example(for: entry)?.scenario else {
                Issue.record("\(key) has no explain scenario")
                continue
            }
            let result = runScenarios(scenario, file: "explain/\(entry.flavour.rawValue)-\(entry.code).lua")
            #expect(result.failed == 0 && result.passed == 1, "\(key): \(result.outcomes.first?.message ?? result.loadErrors.first?.message ?? "")")
            let coverage = CodeCoverage(result: result)
            let row = coverage.rows.first { $0.flavour == entry.flavour && $0.code == entry.code }
            #expect(row?.state == (entry.reach == .lua ? .real : .injectedOnly), "\(key) counted as \(String(describing: row?.state))")

            // The message the real trigger answers is the catalogue's (an injected fault has its own).
            guard entry.reach == .lua else { continue }
            var lines = scenario.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let last = lines.lastIndex(where: { $0.contains("expect.error(") }) {
                lines[last] = lines[last].replacingOccurrences(of: "expect.error(", with: "print(\"message: \" .. (expect.error(") + ").message)"
            }
            let reporting = lines.joined(separator: "\n")
            let reported = runScenarios(reporting, file: "explain/\(key)-message.lua")
            let messages = (reported.outcomes.first?.output ?? "").split(separator: "\n").filter { $0.hasPrefix("message: ") }
            let message = messages.last.map { String($0.dropFirst("message: ".count)) }
            #expect(message.map(entry.matches(message:)) == true, "\(key): the scenario answered \(message ?? "nothing"), the catalogue says \(entry.message)")
        }
    }

    @Test("explain finds codes in either flavour and shows the check order")
    func explainText() throws {
        let entry = try #require(ErrorCatalogue.lookup("3033").first)
        let text = CodeExplanation.render(entry)
        #expect(text.contains("HTTP 400"))
        #expect(text.contains("users.register: fault → 3038"))
        #expect(text.contains("[3033]"))
        #expect(text.contains("curl -s"))
        #expect(ErrorCatalogue.lookup("user_already_exists").first?.flavour == .kii)
        #expect(CodeExplanation.list().contains("USER_ALREADY_EXISTS"))
    }

    @Test("the catalogue names each code once, and its check orders and operations are its own")
    func catalogueIsConsistent() {
        for flavour in Flavour.allCases {
            let entries = ErrorCatalogue.entries(of: flavour)
            let codes = entries.map(\.code)
            #expect(Set(codes).count == codes.count, "\(flavour) names a code twice")
            let operations = Set(flavour == .backendless ? BackendlessOperation.names : KiiOperation.names)
            for (operation, steps) in ErrorCatalogue.checkOrder(of: flavour) {
                #expect(operations.contains(operation), "\(flavour) check order of unknown \(operation)")
                for step in steps where step != "fault" {
                    let entry = entries.first { $0.code == step }
                    #expect(entry != nil, "\(flavour) \(operation) checks \(step), which is not catalogued")
                    #expect(entry?.reach != .httpOnly && entry?.operations.contains(operation) == true,
                            "\(flavour) \(step) is in the check order of \(operation) but does not list it")
                }
            }
            for entry in entries { #expect(entry.operations.allSatisfy(operations.contains), "\(flavour) \(entry.code)") }
        }
        #expect(ErrorCatalogue.lookup("3122").first?.matches(message: "Password verification allowed only from CloudCode") == true)
        #expect(ErrorCatalogue.lookup("3020").first?.matches(message: "Cannot perform password recovery. Unable to find a user with the specified identity 'x'.") == true)
        #expect(ErrorCatalogue.lookup("3020").first?.matches(message: "Cannot perform password recovery.") == false)
    }

    @Test("--codes tells a real trigger from an injected fault")
    func coverageTellsInjectedFromReal() {
        let result = runScenarios("""
            scenario("real and injected", function()
              local app = understudy.backendless{ registration = false }
              expect.error(3009, app.users.register{ email = "q@mi6.co.uk", password = "x" })
              app.faults.inject{ op = "users.login", code = 3033 }
              expect.error(3033, app.users.login("q@mi6.co.uk", "x"))
              app.faults.inject{ op = "users.logout", code = 4242 }
              expect.error(4242, app.users.logout("t"))
            end)
            """)
        let coverage = CodeCoverage(result: result)
        func row(_ code: String) -> CodeCoverage.Row? { coverage.rows.first { $0.flavour == .backendless && $0.code == code } }
        #expect(row("3009")?.state == .real)
        #expect(row("3033")?.state == .injectedOnly)
        #expect(row("3003")?.state == CodeCoverage.State.never)
        #expect(row("4242")?.entry == nil && row("4242")?.injected == 1)
        #expect(coverage.tapComment().contains("# codes backendless 3009: real trigger (real 1, injected 0)"))
        #expect(coverage.addingProperties(toJUnit: "<testsuites>\n</testsuites>\n").contains("name=\"codes.backendless.3033\" value=\"injection only: real 0, injected 1\""))
    }
}
