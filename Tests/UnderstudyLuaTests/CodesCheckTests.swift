import Foundation
import Testing
import UnderstudyTestSupport

/// Runs the built `understudy` with `arguments` in `directory` (the repository by default).
private func understudy(_ arguments: [String], in directory: URL) async throws -> (status: Int32, stdout: String, stderr: String) {
    let result = try await runCommand(arguments, in: directory.path)
    return (result.status, result.stdout, result.stderr)
}

/// `understudy codes check` and `codes merge` on coverage files from a Lua run and from `serve`.
@Suite("codes check: the CI gate on error-code coverage")
struct CodesCheckTests {
    /// A file as `GET /_understudy/coverage` writes it: register met 3033 by its real trigger and 3009 by
    /// injection, one dropped connection; the app called users.register and users.login.
    static let served = """
        {"understudy_codes": 1, "source": "serve", "codes": [
          {"flavour": "backendless", "code": "3033", "real": 1, "injected": 0, "network": 0},
          {"flavour": "backendless", "code": "3009", "real": 0, "injected": 1, "network": 0},
          {"flavour": "backendless", "code": "connection dropped", "real": 0, "injected": 0, "network": 1}],
         "operations": [
          {"app": "A", "flavour": "backendless", "op": "users.register", "reachable": ["3033", "3009", "3011"]},
          {"app": "A", "flavour": "backendless", "op": "users.login", "reachable": ["3003", "3087"]}]}
        """
    /// A Lua run's file that met 3003 and 3087 by their real trigger.
    static let lua = """
        {"understudy_codes": 1, "codes": [
          {"flavour": "backendless", "code": "3003", "real": 2, "injected": 0},
          {"flavour": "backendless", "code": "3087", "real": 1, "injected": 0}]}
        """

    func folder() throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-codes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try Self.served.write(to: base.appendingPathComponent("served.json"), atomically: true, encoding: .utf8)
        try Self.lua.write(to: base.appendingPathComponent("lua.json"), atomically: true, encoding: .utf8)
        return base
    }

    @Test("--min against the codes reachable from the operations called: exit 1 naming the missing, 0 when met")
    func minimum() async throws {
        let base = try folder()
        let short = try await understudy(["codes", "check", "served.json", "--min", "80"], in: base)
        #expect(short.status == 1)
        #expect(short.stderr.contains("backendless: 2 of 5 codes met (40.0 %), below --min 80.0; missing: 3011, 3003, 3087")
                || short.stderr.contains("missing:"), "\(short.stderr)")
        #expect(short.stderr.contains("3011") && short.stderr.contains("3087"))
        // Merged with the Lua run that met 3003 and 3087: 4 of 5.
        let merged = try await understudy(["codes", "check", "served.json", "lua.json", "--min", "80"], in: base)
        #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.contains("4 of 5 codes met (80.0 %"))
        // --real-only: 3009 came by injection only.
        let real = try await understudy(["codes", "check", "served.json", "lua.json", "--min", "80", "--real-only"], in: base)
        #expect(real.status == 1)
        #expect(real.stderr.contains("3009"))
    }

    @Test("--require names each code never met; a Backendless-only file is not failed for Kii unless --flavour kii")
    func required() async throws {
        let base = try folder()
        let missing = try await understudy(["codes", "check", "served.json", "--require", "3033,3087,connection dropped"], in: base)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("required code 3087 was never met"))
        #expect(!missing.stderr.contains("required code 3033"))
        #expect(!missing.stderr.contains("connection dropped"))
        // A code no flavour has: the nearest one is suggested, as `explain` and `expect.error` do.
        let typo = try await understudy(["codes", "check", "served.json", "--require", "30333"], in: base)
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("required code 30333 was never met (no flavour has this code; did you mean 3033?)"), "\(typo.stderr)")
        let flavour = try await understudy(["codes", "check", "served.json", "--min", "10", "--flavour", "kiii"], in: base)
        #expect(flavour.status == 2)
        #expect(flavour.stderr.contains("--flavour must be backendless or kii, got 'kiii' (did you mean 'kii'?)"), "\(flavour.stderr)")
        let met = try await understudy(["codes", "check", "served.json", "lua.json", "--require", "3033,3087", "--min", "10"], in: base)
        #expect(met.status == 0, "\(met.stderr)")
        #expect(!met.stdout.contains("kii"), "Kii met nothing and is not measured: \(met.stdout)")
        let kii = try await understudy(["codes", "check", "served.json", "--min", "10", "--flavour", "kii"], in: base)
        #expect(kii.status == 1)
        #expect(kii.stderr.contains("kii: 0 of"))
    }

    @Test("--format json, markdown and junit say the same")
    func formats() async throws {
        let base = try folder()
        let json = try await understudy(["codes", "check", "served.json", "--require", "3087", "--format", "json"], in: base)
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""passed": false"#) && json.stdout.contains(#"{"code": "3087", "flavour": "backendless", "met": false}"#))
        let markdown = try await understudy(["codes", "check", "served.json", "--min", "10", "--require", "3087", "--format", "markdown"], in: base)
        #expect(markdown.stdout.contains("## Error-code coverage: failed"))
        #expect(markdown.stdout.contains("| `3087` | ❌ never |"))
        let junit = try await understudy(["codes", "check", "served.json", "--require", "3033,3087", "--format", "junit"], in: base)
        #expect(junit.stdout.contains(#"<testsuite name="error codes" tests="2" failures="1""#))
        #expect(junit.stdout.contains(#"<failure message="code 3087 was never met"/>"#))
    }

    @Test("codes merge reads a file from serve beside a Lua run's, network faults included")
    func merge() async throws {
        let base = try folder()
        let merged = try await understudy(["codes", "merge", "served.json", "lua.json"], in: base)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("connection dropped"))
        #expect(merged.stdout.contains("network fault (over HTTP)"))
        let line = merged.stdout.split(separator: "\n").first { $0.contains(" 3003 ") }
        #expect(line?.contains("real trigger") == true, "\(String(describing: line))")
    }
}
