#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output, standard error or a file through its descriptor, without Foundation. Writes are
/// unbuffered (each `write` is one system call), so nothing waits to be flushed.
struct FileOutput: Sendable {
    private let descriptor: Int32

    static let standardOutput = FileOutput(descriptor: 1)
    static let standardError = FileOutput(descriptor: 2)

    /// Opens `path` for writing (truncating it unless `truncating` is false: a probe that the path can be
    /// written leaves what is there). Nil when it cannot be opened.
    init?(path: String, truncating: Bool = true) {
        let descriptor = open(path, O_WRONLY | O_CREAT | (truncating ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Platform.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    func close() {
        _ = Platform.close(descriptor)
    }

    /// The number of cores the run may use.
    static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The path of this executable, to start worker processes of it.
    static var executablePath: String {
        #if canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        if _NSGetExecutablePath(&buffer, &size) == 0 { return String(cString: buffer) }
        return CommandLine.arguments[0]
        #else
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink("/proc/self/exe", &buffer, 4096)
        if count > 0 { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
        #endif
    }
}

/// The C library of the platform, named once (Glibc on Linux, Darwin on macOS).
enum Platform {
    #if canImport(Glibc)
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
    static func close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    static func socket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 { Glibc.socket(family, type, proto) }
    #elseif canImport(Darwin)
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
    static func close(_ fd: Int32) -> Int32 { Darwin.close(fd) }
    static func socket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 { Darwin.socket(family, type, proto) }
    #endif
}
