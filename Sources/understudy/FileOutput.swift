#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output, standard error or a file through its descriptor, without Foundation.
struct FileOutput: Sendable {
    private let descriptor: Int32

    static let standardOutput = FileOutput(descriptor: 1)
    static let standardError = FileOutput(descriptor: 2)

    /// Opens `path` for writing (truncating it). Nil when it cannot be opened.
    init?(path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    func flush() {}

    func close() {
        _ = Glibc.close(descriptor)
    }

    static func exit(_ code: Int32) -> Never {
        Glibc.exit(code)
    }

    /// The number of cores the run may use.
    static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
