#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A path given on the command line that cannot be read.
public struct DiscoveryError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Finds scenario files: every `.lua` file under the given folders (recursively), and the given files themselves,
/// sorted by path, each once.
public enum ScenarioDiscovery {
    public static func files(at paths: [String]) throws(DiscoveryError) -> [ScenarioFile] {
        var found: [String] = []
        for path in paths {
            var trimmed = path
            while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
            switch kind(of: trimmed) {
            case .directory: found.append(contentsOf: walk(trimmed).sorted(by: byteOrder))
            case .file: found.append(trimmed)
            case .missing: throw DiscoveryError(description: "no such file or directory: \(path)")
            }
        }
        var seen = Set<String>()
        var files: [ScenarioFile] = []
        for path in found where seen.insert(path).inserted {
            guard let contents = read(path) else { throw DiscoveryError(description: "cannot read \(path)") }
            files.append(ScenarioFile(path: path, contents: contents))
        }
        return files
    }

    private static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private enum Kind { case directory, file, missing }

    private static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    private static func walk(_ directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var results: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." || name.hasPrefix(".") { continue }
            let path = directory == "/" ? "/" + name : directory + "/" + name
            switch kind(of: path) {
            case .directory: results.append(contentsOf: walk(path))
            case .file where name.hasSuffix(".lua"): results.append(path)
            default: break
            }
        }
        return results
    }

    /// Reads a whole file.
    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }
}
