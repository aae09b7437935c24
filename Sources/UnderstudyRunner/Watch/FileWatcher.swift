#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Wakes up when something changes under the watched paths: inotify on Linux, kqueue on macOS, a one-second poll
/// elsewhere. It only says *that* something changed; `WatchSession` compares the files to learn *what*.
/// Folders are watched recursively; a file given by name is watched through its folder, so an editor that
/// saves by writing a new file and renaming it over the old one is seen too.
package final class FileWatcher {
    private let paths: [String]
    #if canImport(Glibc)
    private let descriptor: Int32
    private var watched: Set<String> = []
    #elseif canImport(Darwin)
    private let queue: Int32
    private var watched: [String: Int32] = [:]
    #endif

    /// Starts watching `paths` (files or folders). Nil when the system refuses (too many watches, say).
    package init?(paths: [String]) {
        self.paths = paths
        #if canImport(Glibc)
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        #elseif canImport(Darwin)
        queue = kqueue()
        guard queue >= 0 else { return nil }
        #endif
        refresh()
    }

    deinit {
        #if canImport(Glibc)
        close(descriptor)
        #elseif canImport(Darwin)
        for (_, descriptor) in watched { close(descriptor) }
        close(queue)
        #endif
    }

    /// Adds watches for folders that appeared since the last call (call it after each change).
    package func refresh() {
        for directory in Self.directories(under: paths) { add(directory) }
    }

    /// Waits until something changes or `milliseconds` pass. True when something changed; the events that follow
    /// within a short quiet period (an editor's save is several) are taken with it.
    package func wait(milliseconds: Int32) -> Bool {
        #if canImport(Glibc)
        guard poll(descriptor, milliseconds) else { return false }
        repeat { drain() } while poll(descriptor, 50)
        return true
        #elseif canImport(Darwin)
        guard poll(milliseconds) else { return false }
        while poll(50) {}
        return true
        #else
        var request = timespec(tv_sec: Int(min(milliseconds, 1000)) / 1000, tv_nsec: Int(min(milliseconds, 1000) % 1000) * 1_000_000)
        nanosleep(&request, nil)
        return true
        #endif
    }

    #if canImport(Glibc)
    private func add(_ directory: String) {
        guard !watched.contains(directory) else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY | IN_DELETE_SELF)
        if inotify_add_watch(descriptor, directory, mask) >= 0 { watched.insert(directory) }
    }

    private func poll(_ descriptor: Int32, _ milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = Glibc.poll(&entry, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // A deleted folder's watch is gone; let `refresh` add it again should it come back.
        watched = watched.filter { Self.isDirectory($0) }
    }
    #elseif canImport(Darwin)
    private func add(_ directory: String) {
        guard watched[directory] == nil else { return }
        let descriptor = open(directory, O_EVTONLY)
        guard descriptor >= 0 else { return }
        watched[directory] = descriptor
        var change = kevent(
            ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
            fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_EXTEND | NOTE_ATTRIB), data: 0, udata: nil
        )
        _ = kevent(queue, &change, 1, nil, 0, nil)
        // Files too: a write in place changes the file, not its folder.
        for file in Self.files(in: directory) where watched[file] == nil {
            let fileDescriptor = open(file, O_EVTONLY)
            guard fileDescriptor >= 0 else { continue }
            watched[file] = fileDescriptor
            var fileChange = kevent(
                ident: UInt(fileDescriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_EXTEND | NOTE_ATTRIB), data: 0, udata: nil
            )
            _ = kevent(queue, &fileChange, 1, nil, 0, nil)
        }
    }

    private func poll(_ milliseconds: Int32) -> Bool {
        var event = kevent()
        var timeout = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
        let count = kevent(queue, nil, 0, &event, 1, &timeout)
        if count > 0 {
            // A replaced file keeps its old descriptor: forget it so that `refresh` opens the new one.
            for (path, descriptor) in watched where !Self.exists(path) {
                close(descriptor)
                watched[path] = nil
            }
        }
        return count > 0
    }

    private static func files(in directory: String) -> [String] {
        entries(in: directory).filter { !isDirectory($0) && $0.hasSuffix(".lua") }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
    #else
    private func add(_ directory: String) {}
    #endif

    /// The folders to watch: each folder given and every folder below it, and the folder of each file given.
    static func directories(under paths: [String]) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        func walk(_ directory: String, depth: Int) {
            guard depth < 64, seen.insert(directory).inserted else { return }
            result.append(directory)
            for entry in entries(in: directory) where isDirectory(entry) { walk(entry, depth: depth + 1) }
        }
        for path in paths {
            if isDirectory(path) {
                walk(path, depth: 0)
            } else if let slash = path.lastIndex(of: "/") {
                walk(slash == path.startIndex ? "/" : String(path[..<slash]), depth: 63)
            } else {
                walk(".", depth: 63)
            }
        }
        return result
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The paths of a folder's entries, `.` and `..` left out.
    static func entries(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            names.append(directory == "/" ? "/" + name : directory + "/" + name)
        }
        return names.sorted()
    }
}
