import Testing
import Understudy
import UnderstudyAuthoring
@testable import UnderstudyLua
import UnderstudyTestSupport

/// The misuse messages `understudy explain CALL` lists are the ones the Lua adapter raises: every declared call it
/// serves (operations and console calls of both flavours) is made with its first required argument left out, and
/// what it raised must hold the declaration's message.
@Suite("Misuse messages are derived from the declarations")
struct MisuseMessageDriftTests {
    /// Each adapter-served call with a required first argument: its flavour, declaration and derived message.
    static func calls() -> [(flavour: Flavour, declaration: OperationDeclaration, message: String)] {
        var found: [(Flavour, OperationDeclaration, String)] = []
        func add(_ flavour: Flavour, _ declaration: OperationDeclaration, handwritten: Bool) {
            guard !handwritten, declaration.lua != nil, declaration.perform != nil,
                let missing = declaration.arguments.first?.missingMessage(at: 1)
            else { return }
            found.append((flavour, declaration, "\(declaration.name): \(missing)"))
        }
        for operation in BackendlessOperation.allCases {
            add(.backendless, operation.declaration, handwritten: BackendlessBindings.binding(for: operation) != nil)
        }
        for operation in KiiOperation.allCases {
            add(.kii, operation.declaration, handwritten: KiiBindings.binding(for: operation) != nil)
        }
        for call in ConsoleCall.allCases where !call.isModuleCall {
            for flavour in call.flavours {
                let handwritten = flavour == .backendless ? BackendlessBindings.console(for: call) : KiiBindings.console(for: call)
                add(flavour, call.declaration(for: flavour), handwritten: handwritten != nil)
            }
        }
        return found
    }

    @Test("a call with its required argument left out raises the message its declaration implies")
    func missingArgument() {
        let calls = Self.calls()
        #expect(calls.count >= 40, "only \(calls.count) calls")
        var script = ""
        for (index, call) in calls.enumerated() {
            script += """
                scenario("call \(index)", function()
                  local app = understudy.\(call.flavour.rawValue)()
                  local ok, err = pcall(app.\(call.declaration.lua!))
                  expect.equal(ok, false)
                  local wanted = [==[\(call.message)]==]
                  if not tostring(err):find(wanted, 1, true) then error("raised: " .. tostring(err) .. "\\nderived: " .. wanted, 0) end
                end)

                """
        }
        let result = runScenarios(script)
        for (index, call) in calls.enumerated() {
            let outcome = result.outcome("call \(index)")
            #expect(outcome?.status == .passed, "\(call.flavour.rawValue) \(call.declaration.name): \(outcome?.message ?? "no outcome")")
        }
    }

    @Test("explain CALL lists a console call's arguments and its misuse messages")
    func explainConsoleCall() {
        let found = CallExplanation.find("clock.advance", flavour: .backendless)
        #expect(found.count == 1)
        let text = found.first.map(CallExplanation.render) ?? ""
        #expect(text.contains("app.clock.advance("), "\(text)")
        #expect(text.contains("console call"))
        #expect(text.contains("clock.advance: seconds (argument 1) must be a number, got nil"), "\(text)")
        let operation = CallExplanation.find("users.update", flavour: .backendless).first.map(CallExplanation.render) ?? ""
        #expect(operation.contains("PUT /{appId}/{apiKey}/users/{objectId}"), "\(operation)")
        #expect(operation.contains("checks, in order: fault, 3064"))
        #expect(CallExplanation.find("understudy.app", flavour: nil).count == 1)
    }
}
