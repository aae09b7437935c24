package import UnderstudyLua
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A path given on the command line that cannot be read.
package struct DiscoveryError: Error, Sendable, CustomStringConvertible {
    package var description: String
}

/// Finds scenario files: every `.lua` file under the given folders (recursively), and the given files themselves,
/// sorted by path, each once. Symbolic links are followed, but no folder is walked twice (so a link loop ends) and
/// no file runs twice: a file reached along several paths keeps the first given, preferring one without links.
/// A broken link to a `.lua` name becomes a file that does not load, saying why.
package enum ScenarioDiscovery {
    package static func files(at paths: [String]) throws(DiscoveryError) -> [ScenarioFile] {
        var skipped: [String] = []
        return try files(at: paths, skipped: &skipped)
    }

    /// As `files(at:)`; `skipped` receives the paths of `.lua` files that are not scenario files: editor
    /// definition files (LuaLS `---@meta`, such as the `types/understudy.lua` that `understudy types` and
    /// `understudy init` write), which are never run.
    package static func files(at paths: [String], skipped: inout [String]) throws(DiscoveryError) -> [ScenarioFile] {
        var walker = Walker()
        var found: [Walker.Entry] = []
        for path in paths {
            var trimmed = path
            while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
            var info = stat()
            guard stat(trimmed, &info) == 0 else {
                if let problem = brokenLink(trimmed, error: errno) { throw DiscoveryError(description: "\(path) is \(problem)") }
                throw DiscoveryError(description: "no such file or directory: \(path)")
            }
            if isDirectory(info) {
                found.append(contentsOf: walker.walk(trimmed, identity: FileID(info)))
            } else {
                found.append(Walker.Entry(path: trimmed, identity: FileID(info), viaLink: false, problem: nil))
            }
        }
        var seenFiles = Set<FileID>()
        var seenPaths = Set<String>()
        var files: [ScenarioFile] = []
        for entry in found {
            if let problem = entry.problem {
                if seenPaths.insert(entry.path).inserted { files.append(ScenarioFile(path: entry.path, problem: problem)) }
                continue
            }
            guard let identity = entry.identity, seenFiles.insert(identity).inserted else { continue }
            guard let contents = read(entry.path) else { throw DiscoveryError(description: "cannot read \(entry.path)") }
            if isDefinitionFile(contents) {
                skipped.append(entry.path)
                continue
            }
            files.append(ScenarioFile(path: entry.path, contents: contents))
        }
        return files
    }

    /// Whether a `.lua` file is an editor definition file, not scenarios: its first line that is not blank starts
    /// with `---@meta` (the Lua language server's mark).
    package static func isDefinitionFile(_ contents: [UInt8]) -> Bool {
        var start = contents.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < contents.count, [0x20, 0x09, 0x0A, 0x0D].contains(contents[start]) { start += 1 }
        return contents[start...].starts(with: Array("---@meta".utf8))
    }

    /// A file or folder as the system knows it, whatever path leads to it.
    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Walks one folder given on the command line: its own tree first, then the folders its links lead to.
    private struct Walker {
        struct Entry {
            var path: String
            var identity: FileID?
            /// Reached through a symbolic link (the file itself or a folder on the way).
            var viaLink: Bool
            /// Why the file cannot load (a broken link).
            var problem: String?
        }

        /// Folders already walked, in this run.
        var visited = Set<FileID>()

        mutating func walk(_ root: String, identity: FileID) -> [Entry] {
            guard visited.insert(identity).inserted else { return [] }
            var entries: [Entry] = []
            var links: [String] = []
            scan(root, viaLink: false, into: &entries, links: &links)
            var next = 0
            while next < links.count {
                let link = links[next]
                next += 1
                var info = stat()
                guard stat(link, &info) == 0, visited.insert(FileID(info)).inserted else { continue }
                scan(link, viaLink: true, into: &entries, links: &links)
            }
            // Sorted by path; of the paths to one file, the first without a link (else the first).
            entries.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
            var chosen: [FileID: Int] = [:]
            var keep = Array(repeating: true, count: entries.count)
            for (index, entry) in entries.enumerated() {
                guard let identity = entry.identity else { continue }
                if let previous = chosen[identity] {
                    if entries[previous].viaLink && !entry.viaLink {
                        keep[previous] = false
                        chosen[identity] = index
                    } else {
                        keep[index] = false
                    }
                } else {
                    chosen[identity] = index
                }
            }
            return entries.indices.filter { keep[$0] }.map { entries[$0] }
        }

        /// Lists one folder: `.lua` files into `entries`, real subfolders recursively, linked folders into `links`.
        private mutating func scan(_ directory: String, viaLink: Bool, into entries: inout [Entry], links: inout [String]) {
            for name in ScenarioDiscovery.names(in: directory) {
                let path = directory == "/" ? "/" + name : directory + "/" + name
                var own = stat()
                guard lstat(path, &own) == 0 else { continue }
                let isLink = (own.st_mode & S_IFMT) == S_IFLNK
                var info = own
                if isLink {
                    guard stat(path, &info) == 0 else {
                        let error = errno
                        if name.hasSuffix(".lua"), let problem = ScenarioDiscovery.brokenLink(path, error: error) {
                            entries.append(Entry(path: path, identity: nil, viaLink: true, problem: "the file is " + problem))
                        }
                        continue
                    }
                }
                if ScenarioDiscovery.isDirectory(info) {
                    if isLink {
                        links.append(path)
                    } else if visited.insert(FileID(info)).inserted {
                        scan(path, viaLink: viaLink, into: &entries, links: &links)
                    }
                } else if name.hasSuffix(".lua") {
                    entries.append(Entry(path: path, identity: FileID(info), viaLink: viaLink || isLink, problem: nil))
                }
            }
        }
    }

    /// The visible names in a folder, sorted by bytes (none when it cannot be opened).
    private static func names(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func isDirectory(_ info: stat) -> Bool {
        (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Describes a symbolic link that leads nowhere, given the `errno` of the failed `stat` (`nil` when `path`
    /// is not a link).
    static func brokenLink(_ path: String, error: Int32) -> String? {
        var own = stat()
        guard lstat(path, &own) == 0, (own.st_mode & S_IFMT) == S_IFLNK else { return nil }
        let reason = error == ELOOP ? "a symbolic link in a loop" : "a broken symbolic link"
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return reason }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(reason) (to \(target))"
    }

    /// Reads a whole file.
    package static func read(_ path: String) -> [UInt8]? {
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
