import Testing
import UnderstudyLua
import UnderstudyRunner
import UnderstudyTestSupport

@Suite("Hostile scenarios fail on their own")
struct HostileScenarioTests {
    @Test("runaway loops, memory bombs and error objects fail alone; the next scenario runs normally")
    func hostileScenariosAreContained() {
        let result = runScenarios("""
            scenario("runaway", function() while true do end end)
            scenario("runaway caught by pcall", function() while true do pcall(function() while true do end end) end end)
            scenario("runaway caught by xpcall in a coroutine", function()
              while true do coroutine.wrap(function() xpcall(function() while true do end end, function() end) end)() end
            end)
            scenario("memory bomb", function() local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end end)
            scenario("string bomb", function() local s = ("x"):rep(1e10) end)
            scenario("error table", function() error({ code = 42 }) end)
            scenario("finalizer that loops", function()
              setmetatable({}, { __gc = function() while true do end end })
              collectgarbage()
            end)
            scenario("xpcall handler that loops after the budget error", function()
              xpcall(function() while true do end end, function() while true do end end)
            end)
            scenario("xpcall handler that loops after an ordinary error", function()
              xpcall(function() error("x") end, function() while true do end end)
            end)
            scenario("error object whose __tostring loops", function()
              error(setmetatable({}, { __tostring = function() while true do pcall(function() while true do end end) end end }))
            end)
            scenario("still fine", function() assert(understudy.backendless().users.count() == 0) end)
            """)
        #expect(result.outcome("runaway")?.message?.contains("instruction budget exhausted") == true)
        #expect(result.outcome("runaway caught by pcall")?.message?.contains("instruction budget exhausted") == true)
        #expect(result.outcome("runaway caught by xpcall in a coroutine")?.status == .failed)
        #expect(result.outcome("memory bomb")?.message?.contains("memory cap exceeded") == true)
        #expect(result.outcome("string bomb")?.status == .failed)
        #expect(result.outcome("error table")?.message == "error object: {code = 42}")
        // Lua runs finalizers with hooks off, where no budget reaches: a metatable with __gc is refused.
        #expect(result.outcome("finalizer that loops")?.message?.contains("a metatable with __gc is not available") == true)
        // Lua calls an xpcall handler with hooks off when the budget error is raised from the hook: once spent,
        // no scenario code runs in a handler.
        #expect(result.outcome("xpcall handler that loops after the budget error")?.message?.contains("instruction budget exhausted") == true)
        #expect(result.outcome("xpcall handler that loops after an ordinary error")?.message?.contains("instruction budget exhausted") == true)
        #expect(result.outcome("error object whose __tostring loops")?.message?.contains("instruction budget exhausted") == true)
        #expect(result.outcome("still fine")?.status == .passed)
        #expect(result.passed == 1 && result.failed == 10)
    }

    @Test("huge and non-finite times are refused by name, never trap the process, and the next scenario runs")
    func hugeNumbersAreRefusedByName() {
        let result = runScenarios("""
            scenario("clock set 1e300", function() understudy.backendless().clock.set(1e300) end)
            scenario("clock advance 1e300", function() understudy.kii().clock.advance(1e300) end)
            scenario("clock set NaN", function() understudy.backendless().clock.set(0/0) end)
            scenario("lockout of 1e300 minutes", function() understudy.backendless{ lockout_minutes = 1e300 } end)
            scenario("SMS codes living 1e300 seconds", function() understudy.kii().settings.sms_code_ttl = 1e300 end)
            scenario("a device expiring in 1e300 seconds is 5004", function()
              local app = understudy.backendless()
              local reg, err = app.devices.register{ token = "t", device_id = "d", os = "IOS", expiration = 1e300 }
              assert(reg == nil and err.code == 5004, "expected 5004")
            end)
            scenario("the clock still moves to the edge", function()
              local app = understudy.backendless()
              assert(app.clock.set(1e15) == 1e15)
              assert(app.users.register{ email = "far@future.com", password = "p" }.created == 1e18)
            end)
            """)
        #expect(result.outcome("clock set 1e300")?.message?.contains("clock.set: seconds (argument 1)") == true)
        #expect(result.outcome("clock advance 1e300")?.message?.contains("clock.advance: seconds (argument 1)") == true)
        #expect(result.outcome("clock set NaN")?.message?.contains("within ±10^15 seconds") == true)
        #expect(result.outcome("lockout of 1e300 minutes")?.message?.contains("'lockout_minutes' must be a number from 0 to 10^15") == true)
        #expect(result.outcome("SMS codes living 1e300 seconds")?.message?.contains("'sms_code_ttl'") == true)
        for name in ["a device expiring in 1e300 seconds is 5004", "the clock still moves to the edge"] {
            #expect(result.outcome(name)?.status == .passed, "\(name): \(result.outcome(name)?.message ?? "")")
        }
    }

    @Test("the sandbox has none of the escapes the contract forbids, and load takes text only")
    func sandboxEscapesAreClosed() {
        let result = runScenarios("""
            scenario("escapes", function()
              assert(io == nil, "io") assert(os.execute == nil and os.exit == nil and os.remove == nil, "os")
              assert(os.rename == nil and os.getenv == nil, "os 2") assert(loadfile == nil and dofile == nil, "files")
              assert(require == nil and package == nil and debug == nil, "modules")
              assert(os.time and os.clock and os.date, "os.time, os.clock and os.date stay")
              local f, err = load(string.dump(function() end))
              assert(f == nil and err:find("binary"), "binary chunks")
              assert(load("return 1 + 1")() == 2, "text chunks")
            end)
            """)
        #expect(result.outcome("escapes")?.status == .passed, "\(result.outcome("escapes")?.message ?? "")")
    }

    @Test("with unsafe limits the whole library is open")
    func unsafeOpensTheLibrary() {
        let result = runScenarios(
            #"scenario("io", function() assert(io ~= nil and os.getenv ~= nil) end)"#,
            limits: ScenarioLimits(maxInstructions: 1_000_000, maxMemory: 32 << 20, unsafe: true)
        )
        #expect(result.outcome("io")?.status == .passed)
    }

    @Test("a syntax error in one file is reported with file and line while the other file runs")
    func syntaxErrorInOneFile() {
        let result = runFiles([
            ("a/broken.lua", "scenario(\"x\", function() if end)"),
            ("b/fine.lua", "scenario(\"fine\", function() end)"),
        ])
        #expect(result.loadErrors.count == 1)
        #expect(result.loadErrors.first?.message.hasPrefix("a/broken.lua:1:") == true)
        #expect(result.outcome("fine")?.status == .passed)
    }
}

@Suite("Errors raised from Swift into Lua")
struct TrampolineLeakTests {
    @Test("twenty thousand Swift-side errors caught by pcall leave Lua memory where it was")
    func swiftErrorsLeakNothing() throws {
        let result = runScenarios("""
            scenario("errors", function()
              local app = understudy.backendless()
              local function burst()
                for i = 1, 10000 do
                  assert(not pcall(app.users.register, 42))
                  assert(not pcall(function() return app.settings.no_such_setting end))
                end
              end
              burst()
              collectgarbage() collectgarbage()
              local before = collectgarbage("count")
              burst()
              collectgarbage() collectgarbage()
              print(string.format("%d %d", math.floor(before), math.floor(collectgarbage("count"))))
            end)
            """, limits: ScenarioLimits(maxInstructions: 50_000_000, maxMemory: 64 << 20))
        let outcome = try #require(result.outcome("errors"))
        #expect(outcome.status == .passed, "\(outcome.message ?? "")")
        let numbers = outcome.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        try #require(numbers.count == 2)
        #expect(numbers[1] - numbers[0] < 64, "Lua memory grew from \(numbers[0]) KiB to \(numbers[1]) KiB")
    }
}

@Suite("Determinism, parallel and sharded runs")
struct DeterminismTests {
    static let source = """
        for i = 1, 12 do
          scenario("ids " .. i, function()
            local app = understudy.backendless()
            local user = app.users.register{ email = "u" .. i .. "@example.com", password = "secret" }
            local session = app.users.login("u" .. i .. "@example.com", "secret")
            local reg = app.devices.register{ token = "t", device_id = "d", os = "IOS" }
            print(user.objectId, session.token, reg.registrationId)
            if i % 5 == 0 then error("planned failure") end
          end)
        end
        """

    static func fingerprint(_ result: SuiteResult) -> [String] {
        result.outcomes.map { "\($0.file) \($0.declaration.name) \($0.status) \($0.output)" }.sorted()
    }

    @Test("the same seed prints the same ids and tokens; another seed prints others")
    func seedDecidesIDs() {
        let first = runScenarios(Self.source, seed: 7)
        let again = runScenarios(Self.source, seed: 7)
        let other = runScenarios(Self.source, seed: 8)
        #expect(Self.fingerprint(first) == Self.fingerprint(again))
        #expect(first.outcomes.map(\.output) != other.outcomes.map(\.output))
        #expect(Set(first.outcomes.map(\.output)).count == 12, "every scenario has its own ids")
    }

    @Test("--jobs and --shard give the same outcomes as a serial run")
    func parallelAndShardedRunsMatchSerial() {
        let files = [("s/a.lua", Self.source), ("s/b.lua", Self.source), ("s/c.lua", Self.source)]
        let serial = runFiles(files, seed: 3, jobs: 1)
        let parallel = runFiles(files, seed: 3, jobs: 4)
        #expect(Self.fingerprint(serial) == Self.fingerprint(parallel))
        #expect(serial.outcomes.map(\.declaration.name) == parallel.outcomes.map(\.declaration.name), "same order")
        var union: [String] = []
        for shard in 1...3 {
            let part = runFiles(files, seed: 3, jobs: 2, selection: ScenarioSelection(shard: (shard, 3)))
            union += Self.fingerprint(part)
        }
        #expect(union.sorted() == Self.fingerprint(serial))
        #expect(serial.failed == 6 && serial.passed == 30)
    }
}
