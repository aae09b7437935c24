#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `serve --export-on-exit`, `serve --setup` and `understudy export`, as processes: the world written at SIGTERM is
/// the world the next start serves.
@Suite("understudy export, serve --setup and --export-on-exit as processes")
struct ExportCommandLineTests {
    static let setup = """
        local b = understudy.backendless{ app_id = "SHOP", api_key = "SHOP-KEY" }
        assert(b.users.seed{ count = 2, email = "seed%d@example.com", password = "pw-seeded" })
        """

    /// A fresh directory for one test's files.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func read(_ url: URL) -> String {
        (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    @Test("SIGTERM writes the world to --export-on-exit; --setup of it serves the same world, which SIGINT writes again unchanged")
    func exportOnExit() async throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let setup = folder.appendingPathComponent("setup.lua"), world = folder.appendingPathComponent("world.lua")
        let fetched = folder.appendingPathComponent("fetched.lua")
        try Self.setup.write(to: setup, atomically: true, encoding: .utf8)

        let port = freePort()
        let url = "http://127.0.0.1:\(port)"
        let first = try ServeProcess(["--port", String(port), "--setup", setup.path, "--export-on-exit", world.path, "--control-token", "tok"])
        #expect(await first.waitFor("understudy ready on \(url)\n"), "\(first.printed)\(first.complaints)")
        // A user registered over HTTP during the session is in the world written at exit.
        let connection = try #require(RawConnection(port: port))
        let body = #"{"email":"late@example.com","password":"pw-late"}"#
        connection.send("POST /SHOP/SHOP-KEY/users/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(await connection.statusLine() == "HTTP/1.1 200 OK")
        // `understudy export` needs the control token, and gets the same file the exit writes.
        let refused = try await runUnderstudy(["export", "--server", url])
        #expect(refused.0 == 1 && refused.2.contains("401"), "\(refused.2)")
        let exported = try await runUnderstudy(["export", "--server", url, "--control-token", "tok", "-o", fetched.path])
        #expect(exported.0 == 0, "\(exported.2)")
        await first.stop()
        #expect(first.printed.contains("wrote the world to \(world.path)"), "\(first.printed)\(first.complaints)")
        let written = Self.read(world)
        #expect(written == Self.read(fetched), "the file written at exit differs from GET /_understudy/export just before")
        #expect(written.contains("late@example.com") && written.contains("seed2@example.com"), "\(written.prefix(600))")
        #expect(!written.contains("pw-late") && !written.contains("pw-seeded"), "a password is in the file")

        // The next start serves that world and writes it back unchanged, though it is its own --setup file.
        let again = freePort()
        let second = try ServeProcess(["--port", String(again), "--setup", world.path, "--export-on-exit", world.path])
        #expect(await second.waitFor("understudy ready on http://127.0.0.1:\(again)\n"), "\(second.printed)\(second.complaints)")
        let standardOutput = try await runUnderstudy(["export"], environment: ["UNDERSTUDY_PORT": String(again)])
        #expect(standardOutput.0 == 0 && standardOutput.1 == written, "\(standardOutput.2)")
        kill(second.process.processIdentifier, SIGINT)
        while second.process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(100))  // the last output
        #expect(second.printed.contains("wrote the world to"), "\(second.printed)\(second.complaints)")
        #expect(Self.read(world) == written, "serve --setup of an export, then exit, changed the file")
    }

    @Test("--script and --setup together are refused; an unwritable --export-on-exit is refused before serving")
    func refusedOptions() async throws {
        let both = try await runUnderstudy(["serve", "--script", "a.lua", "--setup", "b.lua"])
        #expect(both.0 == 2 && both.2.contains("--setup"), "\(both.2)")
        let unwritable = try await runUnderstudy(["serve", "--port", String(freePort()), "--export-on-exit", "/nonexistent-dir/world.lua"])
        #expect(unwritable.0 == 2 && unwritable.2.contains("--export-on-exit /nonexistent-dir/world.lua"), "\(unwritable.2)")
    }
}
