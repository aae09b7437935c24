import Testing
import UnderstudyLua
import UnderstudyTestSupport

/// The annotations `understudy types` writes name exactly the bindings a scenario can reach.
@Suite("Editor types match the bindings")
struct EditorTypesTests {
    /// Annotated classes that are bindings, and where a scenario reaches them (a shared class from each flavour).
    static let bindingClasses: [String: [String]] = [
        "_G": ["_G"], "Expect": ["expect"], "Understudy": ["understudy"], "Journal": ["understudy.journal"],
        "Clock": ["backendless.clock", "kii.clock"], "Outbox": ["backendless.outbox", "kii.outbox"],
        "Faults": ["backendless.faults", "kii.faults"], "Fault": ["fault"],
        "BackendlessApp": ["backendless"], "BackendlessSettings": ["backendless.settings"],
        "BackendlessUsers": ["backendless.users"], "BackendlessDevices": ["backendless.devices"],
        "BackendlessChannels": ["backendless.channels"], "BackendlessPush": ["backendless.push"],
        "KiiApp": ["kii"], "KiiSettings": ["kii.settings"], "KiiUsers": ["kii.users"],
        "KiiInstallations": ["kii.installations"], "KiiPush": ["kii.push"],
    ]

    /// Annotated classes that describe data (arguments, results, errors), not bindings.
    static let recordClasses: Set<String> = [
        "ScenarioOptions", "JournalFilter", "BackendlessError", "KiiError", "Email", "SMS", "Push", "FaultSpec",
        "BackendlessUser", "BackendlessSession", "BackendlessSeed", "DeviceRegistrationRequest", "DeviceRegistration",
        "Publication", "KiiUser", "KiiSession", "KiiRegistration", "KiiSeed", "InstallationRequest", "Installation",
    ]

    /// Class name → member names, read from the annotation file: `---@field` lines right after `---@class`, and
    /// `function T.name(` / `function T:name(` where `T = {}` follows the class line.
    static func annotatedMembers() -> [String: Set<String>] {
        var members: [String: Set<String>] = ["_G": []]
        var tables: [String: String] = [:]
        var current: String?
        var inHeader = false
        for raw in EditorTypes.annotations.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingPrefix(" ")
            if line.hasPrefix("---@class ") {
                current = String(line.dropFirst("---@class ".count).split(separator: " ").first ?? "")
                members[current!, default: []].formUnion([])
                inHeader = true
                continue
            }
            if line.hasPrefix("---@field "), inHeader, let current {
                let name = line.dropFirst("---@field ".count).split(separator: " ").first.map(String.init) ?? ""
                if !name.hasPrefix("[") { members[current, default: []].insert(name.hasSuffix("?") ? String(name.dropLast()) : name) }
                continue
            }
            if line.hasPrefix("---") { continue }
            if inHeader, let current, line.hasSuffix(" = {}") {
                var target = String(line.dropLast(" = {}".count))
                if target.hasPrefix("local ") { target = String(target.dropFirst("local ".count)) } else if !target.contains(".") {
                    members["_G", default: []].insert(target)
                }
                tables[target] = current
            }
            inHeader = false
            if line.hasPrefix("function ") {
                let signature = line.dropFirst("function ".count).prefix { $0 != "(" }
                if let separator = signature.lastIndex(where: { $0 == "." || $0 == ":" }) {
                    let table = String(signature[..<separator])
                    let name = String(signature[signature.index(after: separator)...])
                    if let owner = tables[table] { members[owner, default: []].insert(name) } else { Issue.record("function \(signature) on an unannotated table") }
                } else {
                    members["_G", default: []].insert(String(signature))
                }
            }
        }
        return members
    }

    /// Every path the annotations name (`backendless.users.register`).
    static func annotatedPaths() -> Set<String> {
        var paths: Set<String> = []
        for (owner, names) in annotatedMembers() where !recordClasses.contains(owner) {
            guard let prefixes = bindingClasses[owner] else {
                Issue.record("annotated class \(owner) is neither a binding nor a record: add it to the test's lists")
                continue
            }
            for prefix in prefixes {
                for name in names { paths.insert(prefix == "_G" ? name : "\(prefix).\(name)") }
            }
        }
        return paths
    }

    static let standardGlobals: Set<String> = [
        "assert", "error", "pcall", "xpcall", "type", "tostring", "tonumber", "pairs", "ipairs", "next", "select",
        "rawget", "rawset", "rawequal", "rawlen", "setmetatable", "getmetatable", "string", "table", "math", "utf8",
        "os", "coroutine", "print", "_G", "_VERSION", "load", "collectgarbage",
    ]

    @Test("every binding a scenario can reach is annotated, and every annotated name is a binding")
    func annotationsMatchBindings() throws {
        let annotated = Self.annotatedPaths()
        let names = annotated.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        let result = runScenarios("""
            scenario("walk", function()
              local b = understudy.backendless()
              local k = understudy.kii()
              local roots = { understudy = understudy, expect = expect, backendless = b, kii = k,
                              fault = b.faults.inject{ op = "users.login", code = 3003, times = 5 },
                              _G = { scenario = scenario, skip = skip, fail = fail, expect = expect, understudy = understudy } }
              local seen = {}
              local function walk(prefix, t)
                if seen[t] then return end
                seen[t] = true
                for key, value in pairs(t) do
                  print("reach " .. prefix .. "." .. key)
                  if type(value) == "table" and key ~= "properties" then walk(prefix .. "." .. key, value) end
                end
              end
              for _, name in ipairs{ "understudy", "expect", "backendless", "kii", "fault" } do walk(name, roots[name]) end
              for _, path in ipairs{ \(names) } do
                local ok, value = pcall(function()
                  local value = path:find(".", 1, true) and roots or roots._G
                  for part in path:gmatch("[^.]+") do if type(value) == "table" then value = value[part] else value = nil end end
                  return value
                end)
                if ok and value ~= nil then print("resolve " .. path) end
              end
              error("report")
            end)
            """)
        let outcome = try #require(result.outcomes.first)
        #expect(outcome.message?.hasSuffix("report") == true, "the walk itself failed: \(outcome.message ?? "")")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        let reached = Set(lines.filter { $0.hasPrefix("reach ") }.map { String($0.dropFirst(6)) })
        let resolved = Set(lines.filter { $0.hasPrefix("resolve ") }.map { String($0.dropFirst(8)) })

        #expect(reached.subtracting(annotated).sorted() == [], "bindings without an annotation")
        #expect(annotated.subtracting(resolved).sorted() == [], "annotations naming no binding")
        let globals = Self.annotatedMembers()["_G"] ?? []
        #expect(globals == ["scenario", "skip", "fail", "expect", "understudy"])
        #expect(globals.isDisjoint(with: Self.standardGlobals))
    }

    @Test("the .luarc.json declares Lua 5.4, the sandbox's globals and the annotation folder")
    func luarcNamesTheAnnotations() {
        #expect(EditorTypes.luarc.contains("\"runtime.version\": \"Lua 5.4\""))
        #expect(EditorTypes.luarc.contains("\"workspace.library\": [\"types\"]"))
        #expect(EditorTypes.annotationPath.hasPrefix("types/"))
        for name in ["scenario", "skip", "fail", "expect", "understudy"] { #expect(EditorTypes.luarc.contains("\"\(name)\"")) }
    }
}
