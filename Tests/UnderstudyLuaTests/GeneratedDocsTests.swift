import Foundation
import Testing
import Understudy
@testable import UnderstudyAuthoring
import UnderstudyTestSupport

/// The docs' operation tables and the editor types' operation stubs are generated from the declarations
/// (`understudy docs --write`); the committed text must be what they generate, as argument-parser's manual tests
/// check its generated pages.
@Suite("Generated docs")
struct GeneratedDocsTests {
    @Test("every generated section in the repository is what the declarations make (run understudy docs --write)")
    func upToDate() throws {
        for file in GeneratedDocs.files {
            let text = try String(contentsOfFile: repositoryRoot + "/" + file, encoding: .utf8)
            let regenerated = try GeneratedDocs.regenerate(text, file: file)
            if regenerated != text {
                let old = text.split(separator: "\n", omittingEmptySubsequences: false)
                let new = regenerated.split(separator: "\n", omittingEmptySubsequences: false)
                let line = Array(zip(old, new)).firstIndex { $0 != $1 } ?? min(old.count, new.count)
                Issue.record("\(file):\(line + 1) differs from what the declarations generate: run `understudy docs --write`")
            }
        }
    }

    @Test("a changed declaration changes the generated text, and hand-written columns are kept by row")
    func regenerates() throws {
        let current = """
            | operation | checks, first to last | notes |
            |---|---|---|
            | `users.logout` | fault → 9999 | hand-written note |
            | `users.gone` | fault | dropped with its row |
            """
        let table = GeneratedDocs.checkOrderTable(.backendless, current)
        #expect(table.contains("| `users.logout` | fault → 3064 | hand-written note |"))
        #expect(!table.contains("users.gone"))
        #expect(table.contains("| `users.update` | fault → 3064 → 3030 → 3029 → 3072 → 3096 → 3040 → 3018 → 3050 → 3045 → 8000 |  |"))
        let text = "a\n<!-- BEGIN GENERATED operations (x) -->\nstale\n<!-- END GENERATED operations -->\nb\n"
        let regenerated = try GeneratedDocs.regenerate(text + "<!-- BEGIN GENERATED fault-arguments -->\n<!-- END GENERATED fault-arguments -->\n"
                + "<!-- BEGIN GENERATED console-calls -->\n<!-- END GENERATED console-calls -->\n", file: "docs/lua-api.md")
        #expect(!regenerated.contains("stale"))
        #expect(regenerated.contains("| Backendless | `users.login` | `app.users.login(identity_value?, password?)` | `POST /users/login` |"))
        #expect(throws: GeneratedDocs.MarkerError.self) { try GeneratedDocs.regenerate("no markers", file: "docs/errors.md") }
    }

    @Test("the operation stubs carry each parameter's name and type")
    func stubs() {
        let stubs = LuaStubs.render(.backendless)
        #expect(stubs.contains("""
            ---(contract v2)
            ---@param objectId string
            ---@param props table<string, string|number|boolean> the properties to change
            ---@param token string a live session's user-token
            ---@return BackendlessUser user
            ---@overload fun(objectId: string, props: table<string, string|number|boolean>, token: string): nil, BackendlessError
            function BackendlessUsers.update(objectId, props, token) end
            """))
        #expect(stubs.contains("function BackendlessUsers.login(identity_value, password) end"))
        #expect(LuaStubs.render(.kii).contains("---@param method? \"EMAIL\"|\"SMS\"|\"SMS_PIN\""))
    }

    @Test("docs/openapi.yaml gets a path item for every declared route, with its summary and operation")
    func openAPIPaths() throws {
        let skeleton = "openapi: 3.1.0\npaths:\n  /{appId}/{apiKey}/users/logout:\n    get:\n      summary: old\n      description: kept\n  /_understudy:\n    get:\n      summary: Index\n"
        let text = try GeneratedDocs.regenerate(skeleton, file: "docs/openapi.yaml")
        #expect(text.contains("    get:\n      summary: \"End the session of the user-token header\"\n      x-understudy-operation: users.logout\n      description: kept\n"))
        #expect(text.contains("  /{appId}/{apiKey}/users/{objectId}:\n    put:\n      tags: [backendless]\n      summary: \"Update the user of the user-token header\"\n      x-understudy-operation: users.update\n"))
        #expect(text.contains("  /api/oauth2/token:\n    post:"))
        #expect(text.hasSuffix("  /_understudy:\n    get:\n      summary: Index\n"))
        #expect(try GeneratedDocs.regenerate(text, file: "docs/openapi.yaml") == text)
    }
}
