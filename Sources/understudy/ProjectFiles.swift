#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing the files `understudy types` and `understudy init` make.
enum ProjectFiles {
    /// Creates `path`'s missing parent folders.
    static func makeParents(of path: String) throws(FileProblem) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        let parts = path.split(separator: "/").dropLast()
        for part in parts {
            prefix += part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw FileProblem("cannot create the folder \(prefix)") }
            prefix += "/"
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Writes `text` to `path`, creating its folders.
    static func write(_ text: String, to path: String) throws(FileProblem) {
        try makeParents(of: path)
        guard let file = FileOutput(path: path) else { throw FileProblem("cannot write \(path)") }
        file.write(text)
        file.close()
    }

    /// The text of the file at `path` (invalid UTF-8 repaired); nil when it cannot be read.
    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return ferror(file) == 0 ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// `path` made absolute and normal (no `.`, `..` or doubled `/`), with symbolic links resolved in the part of it
    /// that exists (the rest may not exist yet: `init` creates it).
    static func absolute(_ path: String) -> String {
        var full = path
        if !full.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            full = String(cString: cwd) + "/" + full
            free(cwd)
        }
        var parts: [String] = []
        for part in full.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(String(part)) }
        }
        var existing = parts.count
        while existing > 0, !exists("/" + parts[..<existing].joined(separator: "/")) { existing -= 1 }
        var head = "/" + parts[..<existing].joined(separator: "/")
        if let resolved = realpath(head, nil) {
            head = String(cString: resolved)
            free(resolved)
        }
        let rest = parts[existing...].joined(separator: "/")
        return rest.isEmpty ? head : (head == "/" ? "/" + rest : head + "/" + rest)
    }

    /// The root of the git repository holding the absolute `path` (the nearest folder at or above it with a `.git`
    /// folder or file), or nil outside any.
    static func repositoryRoot(of path: String) -> String? {
        var current = path
        while true {
            if exists(current == "/" ? "/.git" : current + "/.git") { return current }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// `dir/name`, or `name` for the current folder.
    static func join(_ directory: String, _ name: String) -> String {
        directory == "." || directory.isEmpty ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
    }
}

/// A file that could not be written, with the reason.
struct FileProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
