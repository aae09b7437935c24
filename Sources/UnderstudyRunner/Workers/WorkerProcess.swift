internal import UnderstudyLua
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import Dispatch
internal import Synchronization

/// One worker process of `understudy run`, reached over two pipes: forked before the parent starts any thread
/// (Linux), or else spawned with posix_spawn as the same binary in its hidden `worker` mode (a replacement for a
/// worker that crashed or hung, a run of `--watch`, a parent already multithreaded).
final class WorkerProcess {
    let pid: pid_t
    private let toWorker: Int32
    private let fromWorker: Int32
    private var buffer: [UInt8] = []
    /// Files this worker has been sent (by the parent's id).
    var loadedFiles: Set<Int> = []

    /// Pipes are made and the process spawned under one lock, so no other spawn inherits another's pipe ends.
    private static let spawnLock = Mutex(())

    private init(pid: pid_t, toWorker: Int32, fromWorker: Int32) {
        self.pid = pid
        self.toWorker = toWorker
        self.fromWorker = fromWorker
    }

    deinit {
        _ = close(toWorker)
        _ = close(fromWorker)
        stop()
    }

    /// Starts `executable arguments...` with its standard input and output connected to this process.
    static func spawn(executable: String, arguments: [String]) -> WorkerProcess? {
        spawnLock.withLock { _ -> WorkerProcess? in
            var down: [Int32] = [0, 0], up: [Int32] = [0, 0]
            guard pipe(&down) == 0 else { return nil }
            guard pipe(&up) == 0 else { _ = close(down[0]); _ = close(down[1]); return nil }
            _ = fcntl(down[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(up[0], F_SETFD, FD_CLOEXEC)
            #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            #else
            var actions = posix_spawn_file_actions_t()
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, down[0], 0)
            posix_spawn_file_actions_adddup2(&actions, up[1], 1)
            posix_spawn_file_actions_addclose(&actions, down[0])
            posix_spawn_file_actions_addclose(&actions, up[1])
            // Its own process group: a worker that is killed takes the programs its scenario started with it
            // (a `sleep` left behind would hold the run's output open until it ends).
            #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
            #else
            var attributes = posix_spawnattr_t()
            #endif
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // The signals that end a process reach it: the spawning thread's mask (a runtime thread may block
            // SIGINT and SIGTERM) is not inherited, and their actions are the defaults.
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            posix_spawnattr_setpgroup(&attributes, 0)
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for ending in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, ending) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            let argv = ([executable] + arguments).map { strdup($0) }
            defer { argv.forEach { free($0) } }
            // A crashing worker is reported by its signal; the runtime's backtrace would only slow it down.
            var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
            var cursor = environ
            while let entry = cursor.pointee {
                environment.append(entry)
                cursor += 1
            }
            defer { free(environment[0]) }
            var pid: pid_t = 0
            let status = (argv + [nil]).withUnsafeBufferPointer { pointers in
                (environment + [nil]).withUnsafeBufferPointer { variables in
                    posix_spawn(&pid, executable, &actions, &attributes, UnsafeMutablePointer(mutating: pointers.baseAddress!),
                                UnsafeMutablePointer(mutating: variables.baseAddress!))
                }
            }
            _ = close(down[0])
            _ = close(up[1])
            guard status == 0 else {
                _ = close(down[1]); _ = close(up[0])
                return nil
            }
            return WorkerProcess(pid: pid, toWorker: down[1], fromWorker: up[0])
        }
    }

    #if canImport(Glibc)
    /// Forks a worker that serves `configuration` from this process's own memory: no executable to load, no
    /// runtime to start, which is most of a spawned worker's start-up. Only while this process has a single
    /// thread (fork copies the calling thread alone, so a lock another thread held would stay held in the
    /// child); nil otherwise, and the caller spawns. `inherited` are this process's ends of earlier workers'
    /// pipes, closed in the child so that each worker still sees the end of its input when its parent closes.
    static func fork(serving configuration: RunConfiguration, closing inherited: [Int32]) -> WorkerProcess? {
        spawnLock.withLock { _ -> WorkerProcess? in
            guard isSingleThreaded else { return nil }
            var down: [Int32] = [0, 0], up: [Int32] = [0, 0]
            guard pipe(&down) == 0 else { return nil }
            guard pipe(&up) == 0 else { _ = close(down[0]); _ = close(down[1]); return nil }
            _ = fcntl(down[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(up[0], F_SETFD, FD_CLOEXEC)
            let pid = Glibc.fork()
            if pid == 0 {
                // The worker. Its own process group, as a spawned one: killing it takes what it started along.
                _ = setpgid(0, 0)
                _ = dup2(down[0], 0)
                _ = dup2(up[1], 1)
                for descriptor in [down[0], down[1], up[0], up[1]] + inherited where descriptor > 2 {
                    _ = close(descriptor)
                }
                // A crash is reported by its signal, as a spawned worker's is (SWIFT_BACKTRACE=enable=no there).
                for crash in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { _ = signal(crash, SIG_DFL) }
                // The signals that end it reach it, as a spawned worker's do.
                for ending in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { _ = signal(ending, SIG_DFL) }
                WorkerSignals.unblockEndingSignals()
                ScenarioWorker.serve(configuration: configuration)
                _exit(0)
            }
            _ = close(down[0])
            _ = close(up[1])
            guard pid > 0 else {
                _ = close(down[1]); _ = close(up[0])
                return nil
            }
            _ = setpgid(pid, pid)
            return WorkerProcess(pid: pid, toWorker: down[1], fromWorker: up[0])
        }
    }

    /// This process's ends of the worker's pipes.
    var descriptors: [Int32] { [toWorker, fromWorker] }

    /// True when this process runs one thread only (Linux: /proc/self/task has one entry).
    private static var isSingleThreaded: Bool {
        guard let directory = opendir("/proc/self/task") else { return false }
        defer { closedir(directory) }
        var threads = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
            if name != UInt8(ascii: ".") { threads += 1 }
        }
        return threads == 1
    }
    #endif

    /// Sends a message; false when the worker is gone.
    func send(_ message: WorkerMessage) -> Bool {
        WorkerIO.writeAll(toWorker, message.encoded())
    }

    enum Reply {
        case message(WorkerMessage)
        /// The worker ended (its exit is described).
        case ended(String)
        /// Nothing came before the deadline: the worker was killed.
        case silent
    }

    /// The next message, waiting until `deadline` (CLOCK_MONOTONIC nanoseconds; nil: for ever).
    func receive(deadline: UInt64?) -> Reply {
        while true {
            if let message = WorkerIO.takeMessage(&buffer) { return .message(message) }
            var waitMilliseconds: Int32 = -1
            if let deadline {
                let now = MonotonicClock.now()
                if now >= deadline { stop(); return .silent }
                waitMilliseconds = Int32(clamping: (deadline - now) / 1_000_000 + 1)
            }
            var descriptor = pollfd(fd: fromWorker, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, waitMilliseconds)
            if ready < 0 { if errno == EINTR { continue }; return .ended(stop()) }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fromWorker, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; return .ended(stop()) }
            if count == 0 { return .ended(stop()) }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    private var reaped: String?

    /// Kills the worker if it still runs, reaps it, and describes how it ended.
    @discardableResult
    func stop() -> String {
        if let reaped { return reaped }
        var status: Int32 = 0
        var result = waitpid(pid, &status, WNOHANG)
        if result == 0 {
            _ = kill(pid, SIGKILL)
            result = waitpid(pid, &status, 0)
        }
        let description: String
        let signal = status & 0x7F
        if result != pid {
            description = "ended"
        } else if signal == 0 {
            description = "exited with status \((status >> 8) & 0xFF)"
        } else {
            description = "crashed with signal \(signal) (\(Self.signalName(signal)))"
        }
        // Whatever the scenario started (os.execute under --unsafe) ends with its worker.
        _ = kill(-pid, SIGKILL)
        reaped = description
        return description
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(signal)"
        }
    }
}

/// Framed reads and writes on file descriptors, shared by both ends.
enum WorkerIO {
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Takes one whole message off the front of `buffer`, if one is there.
    static func takeMessage(_ buffer: inout [UInt8]) -> WorkerMessage? {
        guard buffer.count >= 5 else { return nil }
        let length = Int(buffer[1]) << 24 | Int(buffer[2]) << 16 | Int(buffer[3]) << 8 | Int(buffer[4])
        guard buffer.count >= 5 + length else { return nil }
        let type = buffer[0]
        let body = Array(buffer[5..<5 + length])
        buffer.removeFirst(5 + length)
        return WorkerMessage.decode(type: type, body: body) ?? .timedOut(line: -1)
    }

    /// Blocking read of the next message from `descriptor`; nil at the end of input.
    static func readMessage(_ descriptor: Int32, _ buffer: inout [UInt8]) -> WorkerMessage? {
        while true {
            if let message = takeMessage(&buffer) { return message }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Ends this worker, and the programs its scenario started (its process group), as soon as its parent is gone:
    /// a runner that is killed (`kill -TERM`, a cancelled CI job) leaves no worker behind, even one stuck in a
    /// scenario with no deadline. A thread looks at the parent every 100 ms (Linux and macOS alike; Linux's
    /// PR_SET_PDEATHSIG fires when the spawning *thread* ends, and the runner's workers outlive the threads that
    /// spawned them).
    static func watchParent() {
        let parent = getppid()
        DispatchQueue(label: "understudy.parent-watch").async {
            while true {
                usleep(100_000)
                if getppid() != parent {
                    _ = kill(0, SIGKILL) // the worker leads its own process group
                    _exit(4)
                }
            }
        }
    }

    /// Writes to a closed pipe fail with EPIPE instead of killing the process.
    static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}

/// The signals that end a process (SIGINT, SIGTERM, SIGHUP, SIGQUIT), kept deliverable.
package enum WorkerSignals {
    /// Unblocks them on the calling thread (and so on the threads it starts later). Call first thing in main.
    package static func unblockEndingSignals() {
        var ending = sigset_t()
        sigemptyset(&ending)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&ending, signal) }
        _ = pthread_sigmask(SIG_UNBLOCK, &ending, nil)
    }
}
