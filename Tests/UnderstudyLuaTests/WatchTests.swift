#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import UnderstudyLua
import UnderstudyRunner

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif

@Suite("Watch mode")
struct WatchTests {
    func write(_ text: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0)
        _ = text.utf8CString.withUnsafeBufferPointer { systemWrite(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }

    @Test("a saved change wakes the watcher and re-runs only what changed; a file that does not load is reported and watched on")
    func changeIsSeenAndRerun() throws {
        var template = Array("/tmp/understudy-watch-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        let directory = try #require(made)
        defer {
            for name in ["a.lua", "b.lua"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        write("scenario(\"a stays green\", function() end)\n", to: directory + "/a.lua")
        write("scenario(\"b turns red\", function() end)\n", to: directory + "/b.lua")
        let session = WatchSession(paths: [directory], runner: SuiteRunner(configuration: RunConfiguration()))
        let watcher = try #require(FileWatcher(paths: [directory]))
        let first = session.cycle()
        #expect(first.contains("✓ a stays green") && first.contains("✓ b turns red"))

        write("scenario(\"b turns red\", function() error(\"now red\") end)\n", to: directory + "/b.lua")
        #expect(watcher.wait(milliseconds: 10_000), "no change seen within 10 s")
        let second = session.cycle()
        #expect(second.contains("✗ b turns red"))
        #expect(!second.contains("a stays green"), "an unchanged file is not re-run or shown: \(second)")
        #expect(second.contains("1 passed, 1 failed"))

        write("scenario(\"b turns red\", function( end)\n", to: directory + "/b.lua")
        #expect(watcher.wait(milliseconds: 10_000))
        let third = session.cycle()
        #expect(third.contains("the file did not load"))

        write("scenario(\"b turns red\", function() end)\n", to: directory + "/b.lua")
        #expect(watcher.wait(milliseconds: 10_000))
        let fourth = session.cycle()
        #expect(fourth.contains("loads again") && fourth.contains("✓ b turns red") && fourth.contains("2 passed, 0 failed"))
        #expect(session.cycle() == "", "no change, nothing to show")
    }
}
