import Foundation

/// What `understudy ARGUMENTS` did: its exit status and what it printed.
package struct CommandResult: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

/// Runs this build's `understudy` binary to its end, in `directory` (default: the repository), with no
/// `UNDERSTUDY_*` variable from the test's environment.
package func runCommand(_ arguments: [String], in directory: String? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: repositoryRoot + "/.build/debug/understudy")
    process.currentDirectoryURL = URL(fileURLWithPath: directory ?? repositoryRoot)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

/// A new empty folder under the temporary folder, removed by the caller (`defer { removeFolder(path) }`).
package func makeTemporaryFolder(_ prefix: String = "understudy-test") throws -> String {
    let path = NSTemporaryDirectory() + "/" + prefix + "-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Removes a folder and what it holds.
package func removeFolder(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}
