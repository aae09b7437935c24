import Testing
import UnderstudyAuthoring
import UnderstudyLua
import UnderstudyRunner
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
        "BackendlessOauth": ["backendless.oauth"], "BackendlessRoles": ["backendless.roles"],
        "BackendlessData": ["backendless.data"], "BackendlessDataUsers": ["backendless.data.users"],
        "BackendlessEmail": ["backendless.email"], "BackendlessEmailTemplates": ["backendless.email.templates"],
        "BackendlessPushTemplates": ["backendless.push.templates"],
        "KiiApp": ["kii"], "KiiSettings": ["kii.settings"], "KiiUsers": ["kii.users"],
        "KiiInstallations": ["kii.installations"], "KiiPush": ["kii.push"], "KiiTopics": ["kii.topics"],
        "KiiGroups": ["kii.groups"], "KiiSocial": ["kii.social"], "KiiAdmin": ["kii.admin"],
    ]

    /// Annotated classes that describe data (arguments, results, errors), not bindings.
    static let recordClasses: Set<String> = [
        "ScenarioOptions", "JournalFilter", "BackendlessError", "KiiError", "Email", "SMS", "Push", "FaultSpec",
        "BackendlessUser", "BackendlessSession", "BackendlessSeed", "DeviceRegistrationRequest", "DeviceRegistration",
        "Publication", "PublishResult", "MessageStatus", "PushTemplateDefinition", "PushTemplate", "OAuthAccount", "OAuthLoginOptions", "KiiUser", "KiiSession", "KiiRegistration", "KiiSeed", "InstallationRequest", "Installation",
        "KiiIdentity", "KiiTopic", "KiiTopicMessage", "KiiThirdPartyAccount", "KiiSocialLogin", "KiiSocialOptions",
        "KiiMFAGrant", "KiiMqttEndpoint", "KiiTopicACL", "KiiGroupSummary", "KiiGroup", "KiiGroupRequest",
        "KiiSocialAccountRequest",
        "UsersColumn", "DataQuery", "DataRecord", "DataDeletion", "RoleUsersOptions",
        "EmailTemplateDefinition", "EmailTemplate", "EmailEnvelope", "TemplateSending",
        "AuthorizationURLOptions", "OAuthAuthorizeOptions", "OAuthSignIn",
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

    /// A record class's annotated fields: name → optional; `open` when it declares `[string]` fields.
    static func recordFields(_ name: String) -> (fields: [String: Bool], open: Bool) {
        var fields: [String: Bool] = [:]
        var open = false
        var inClass = false
        for raw in EditorTypes.annotations.split(separator: "\n") {
            if raw.hasPrefix("---@class ") {
                inClass = raw.dropFirst("---@class ".count).split(separator: " ").first.map(String.init) == name
                continue
            }
            guard inClass else { continue }
            guard raw.hasPrefix("---@field ") else { if !raw.hasPrefix("---") || !fields.isEmpty { inClass = false }; continue }
            let field = raw.dropFirst("---@field ".count).split(separator: " ").first.map(String.init) ?? ""
            if field.hasPrefix("[") { open = true } else if field.hasSuffix("?") { fields[String(field.dropLast())] = true } else { fields[field] = false }
        }
        return (fields, open)
    }

    @Test("the annotated record fields are the fields the runtime returns, for each flavour's records")
    func recordFieldsMatchTheRuntime() throws {
        let result = runScenarios("""
            local function show(class, record)
              local keys = {}
              for key in pairs(record) do keys[#keys + 1] = key end
              table.sort(keys)
              print("record " .. class .. " " .. table.concat(keys, ","))
            end
            scenario("backendless records", function()
              local app = understudy.backendless{ email_confirmation = true, password_recovery = "temporary" }
              local user = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U", codename = "Q" })
              show("BackendlessUser", user)
              show("Email", app.outbox.last_email())
              expect.ok(app.users.confirm_email(user.objectId))
              local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
              show("BackendlessSession", session)
              show("BackendlessUser", expect.ok(app.users.update(user.objectId, { name = "Q" }, session.token)))
              show("BackendlessUser", app.users.get(user.objectId))
              expect.ok(app.users.restore_password("q@mi6.co.uk"))
              show("Email", app.outbox.last_email())
              show("DeviceRegistration", expect.ok(app.devices.register{ token = "a1b2", device_id = "phone-1", os = "IOS",
                                                                           os_version = "17", expiration = app.clock.now() + 60 }))
              show("DeviceRegistration", app.devices.get("phone-1"))
              expect.ok(app.push.publish{ message = "hello" })
              show("Push", app.outbox.pushes()[1])
              app.push.templates.define{ name = "t", message = "m", title = "T", subtitle = "S", headers = { h = "v" } }
              show("PublishResult", expect.ok(app.push.with_template("t")))
              show("Push", app.outbox.pushes()[2])
              show("PushTemplate", expect.ok(app.push.templates.list()).t)
              show("MessageStatus", expect.ok(app.push.status(app.outbox.pushes()[2].messageId)))
            end)
            scenario("kii records", function()
              local app = understudy.kii{ email_verification = true, phone_verification = true }
              local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk",
                                                         phone = "+819012345678", country = "JP", password = "123ABC" })
              show("KiiUser", user)
              show("Email", app.outbox.last_email())
              show("SMS", app.outbox.last_sms())
              expect.ok(app.users.verify_phone(user.userID, app.outbox.last_sms().code))
              expect.ok(app.users.request_password_reset(user.userID, "SMS"))
              show("SMS", app.outbox.last_sms())
              expect.ok(app.users.change_email(user.userID, "bond@mi6.co.uk"))
              show("KiiUser", expect.ok(app.users.change_phone(user.userID, "+819087654321")))
              show("KiiUser", expect.ok(app.users.update(user.userID, { displayName = "James", locale = "en", rank = "007" })))
              show("KiiUser", app.users.get(user.userID))
              show("KiiSession", expect.ok(app.users.login("bond007", "123ABC")))
              local installation = expect.ok(app.installations.register{ user = user.userID, type = "ANDROID", token = "fcm-1" })
              show("Installation", installation)
              show("Installation", app.installations.get(installation.installationID))
              expect.ok(app.push.send_to_user{ user = user.userID, message = "hello" })
              show("Push", app.outbox.pushes()[1])
              show("KiiTopic", expect.ok(app.topics.create("news", user.userID)))
              expect.ok(app.topics.subscribe("news", user.userID, user.userID))
              expect.ok(app.topics.send("news", { data = { m = "hi" } }, user.userID))
              show("Push", app.outbox.pushes()[2])
            end)
            """)
        #expect(result.failed == 0, "\(result.outcomes.map { $0.message ?? "ok" })")
        let lines = result.outcomes.flatMap { $0.output.split(separator: "\n") }.filter { $0.hasPrefix("record ") }
        #expect(lines.count == 26, "\(lines)")
        var seen: [String: Set<String>] = [:]
        for line in lines {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            let name = String(parts[1])
            let keys = Set(parts[2].split(separator: ",").map(String.init))
            seen[name, default: []].formUnion(keys)
            let (fields, open) = Self.recordFields(name)
            #expect(!fields.isEmpty, "\(name) is not annotated")
            if !open { #expect(keys.subtracting(fields.keys).sorted() == [], "\(name): fields the runtime returns without an annotation") }
            let required = Set(fields.filter { !$0.value }.keys)
            #expect(required.subtracting(keys).sorted() == [], "\(name): annotated as always present but missing")
        }
        // Each optional field is one the runtime returns somewhere (Push: each flavour's half).
        for (name, keys) in seen {
            let optional = Set(Self.recordFields(name).fields.filter(\.value).keys)
            #expect(optional.subtracting(keys).sorted() == [], "\(name): annotated fields no record showed")
        }
    }

    @Test("the .luarc.json declares Lua 5.4, the sandbox's globals and the annotation folder")
    func luarcNamesTheAnnotations() {
        #expect(EditorTypes.luarc.contains("\"runtime.version\": \"Lua 5.4\""))
        #expect(EditorTypes.luarc.contains("\"workspace.library\": [\"types\"]"))
        #expect(EditorTypes.annotationPath.hasPrefix("types/"))
        for name in ["scenario", "skip", "fail", "expect", "understudy"] { #expect(EditorTypes.luarc.contains("\"\(name)\"")) }
        // The sandbox has coroutine (and not io, debug, package): the editor must not flag it.
        #expect(!EditorTypes.luarc.contains("\"coroutine\""))
        for library in ["io", "debug", "package"] { #expect(EditorTypes.luarc.contains("\"\(library)\": \"disable\"")) }
    }
}
