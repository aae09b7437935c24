internal import UnderstudyLua
internal import Understudy

/// The messages between `understudy run` and its worker processes, framed over pipes: one type byte, a 4-byte
/// length, then fields (integers as 8 bytes, strings as a 4-byte length and their bytes; a missing string has
/// length 0xFFFFFFFF). Both ends are the same binary, so the format needs no versioning.
enum WorkerMessage {
    /// Parent → worker: load a file (id, path, contents); the worker answers `.declared` or `.loadFailed`.
    case load(file: Int, path: String, contents: [UInt8])
    /// Parent → worker: run these scenarios of a loaded file, answering one `.finished` each, in order.
    case run(file: Int, indices: [Int], seeds: [UInt64])
    /// Worker → parent.
    case declared(file: Int, declarations: [ScenarioDeclaration])
    case loadFailed(file: Int, message: String, traceback: String?)
    case finished(ScenarioOutcome)
    /// Worker → parent, from its watchdog: the running scenario (or load) passed its deadline inside C code.
    case timedOut(line: Int)

    var type: UInt8 {
        switch self {
        case .load: return UInt8(ascii: "L")
        case .run: return UInt8(ascii: "R")
        case .declared: return UInt8(ascii: "D")
        case .loadFailed: return UInt8(ascii: "E")
        case .finished: return UInt8(ascii: "O")
        case .timedOut: return UInt8(ascii: "T")
        }
    }

    func encoded() -> [UInt8] {
        var writer = FieldWriter()
        switch self {
        case .load(let file, let path, let contents):
            writer.int(file); writer.string(path); writer.bytes(contents)
        case .run(let file, let indices, let seeds):
            writer.int(file); writer.int(indices.count)
            for (index, seed) in zip(indices, seeds) { writer.int(index); writer.int(Int(bitPattern: UInt(seed))) }
        case .declared(let file, let declarations):
            writer.int(file); writer.int(declarations.count)
            for declaration in declarations {
                writer.string(declaration.name); writer.int(declaration.line); writer.int(declaration.index)
                writer.int(declaration.tags.count)
                for tag in declaration.tags { writer.string(tag) }
            }
        case .loadFailed(let file, let message, let traceback):
            writer.int(file); writer.string(message); writer.string(traceback)
        case .finished(let outcome):
            writer.string(outcome.file); writer.string(outcome.declaration.name); writer.int(outcome.declaration.line)
            writer.int(outcome.declaration.index); writer.int(outcome.declaration.tags.count)
            for tag in outcome.declaration.tags { writer.string(tag) }
            writer.string(outcome.status.rawValue); writer.string(outcome.message); writer.string(outcome.location)
            writer.string(outcome.traceback); writer.string(outcome.output)
            writer.int(Int(bitPattern: UInt(outcome.duration.bitPattern)))
            // The error codes the scenario produced (for `--codes`).
            writer.int(outcome.codes.count)
            for (produced, count) in outcome.codes {
                writer.string(produced.flavour.rawValue); writer.string(produced.code)
                writer.int(produced.injected ? 1 : 0); writer.int(count)
            }
        case .timedOut(let line):
            writer.int(line)
        }
        let body = writer.bytes
        let length = UInt32(body.count)
        return [type, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    static func decode(type: UInt8, body: [UInt8]) -> WorkerMessage? {
        var reader = FieldReader(bytes: body)
        switch type {
        case UInt8(ascii: "L"):
            guard let file = reader.int(), let path = reader.string(), let contents = reader.rawBytes() else { return nil }
            return .load(file: file, path: path, contents: contents)
        case UInt8(ascii: "R"):
            guard let file = reader.int(), let count = reader.int(), count >= 0 else { return nil }
            var indices: [Int] = [], seeds: [UInt64] = []
            for _ in 0..<count {
                guard let index = reader.int(), let seed = reader.int() else { return nil }
                indices.append(index); seeds.append(UInt64(UInt(bitPattern: seed)))
            }
            return .run(file: file, indices: indices, seeds: seeds)
        case UInt8(ascii: "D"):
            guard let file = reader.int(), let count = reader.int(), count >= 0 else { return nil }
            var declarations: [ScenarioDeclaration] = []
            for _ in 0..<count {
                guard let declaration = reader.declaration() else { return nil }
                declarations.append(declaration)
            }
            return .declared(file: file, declarations: declarations)
        case UInt8(ascii: "E"):
            guard let file = reader.int(), let message = reader.string() else { return nil }
            return .loadFailed(file: file, message: message, traceback: reader.string())
        case UInt8(ascii: "O"):
            guard let file = reader.string(), let declaration = reader.declaration(),
                  let statusText = reader.string(), let status = ScenarioOutcome.Status(rawValue: statusText) else { return nil }
            let message = reader.string(), location = reader.string(), traceback = reader.string()
            guard let output = reader.string(), let duration = reader.int() else { return nil }
            var outcome = ScenarioOutcome(
                file: file, declaration: declaration, status: status, message: message, location: location,
                traceback: traceback, output: output, duration: Double(bitPattern: UInt64(UInt(bitPattern: duration)))
            )
            guard let codeCount = reader.int(), codeCount >= 0 else { return nil }
            for _ in 0..<codeCount {
                guard let flavourName = reader.string(), let flavour = Flavour(rawValue: flavourName), let code = reader.string(),
                      let injected = reader.int(), let count = reader.int() else { return nil }
                outcome.codes[ProducedCode(flavour: flavour, code: code, injected: injected != 0), default: 0] += count
            }
            return .finished(outcome)
        case UInt8(ascii: "T"):
            guard let line = reader.int() else { return nil }
            return .timedOut(line: line)
        default:
            return nil
        }
    }
}

private struct FieldWriter {
    var bytes: [UInt8] = []

    mutating func int(_ value: Int) {
        let bits = UInt64(UInt(bitPattern: value))
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    mutating func length(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func string(_ value: String?) {
        guard var text = value else { length(0xFFFF_FFFF); return }
        text.withUTF8 { buffer in
            length(UInt32(buffer.count))
            bytes.append(contentsOf: buffer)
        }
    }

    mutating func bytes(_ data: [UInt8]) {
        length(UInt32(data.count))
        bytes.append(contentsOf: data)
    }
}

private struct FieldReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func int() -> Int? {
        guard offset + 8 <= bytes.count else { return nil }
        var bits: UInt64 = 0
        for i in 0..<8 { bits = bits << 8 | UInt64(bytes[offset + i]) }
        offset += 8
        return Int(bitPattern: UInt(bits))
    }

    mutating func length() -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(bytes[offset + i]) }
        offset += 4
        return value
    }

    mutating func rawBytes() -> [UInt8]? {
        guard let count = length(), count != 0xFFFF_FFFF, offset + Int(count) <= bytes.count else { return nil }
        defer { offset += Int(count) }
        return Array(bytes[offset..<offset + Int(count)])
    }

    /// A string, or nil when it is missing (or the message is cut short).
    mutating func string() -> String? {
        guard let count = length(), count != 0xFFFF_FFFF, offset + Int(count) <= bytes.count else { return nil }
        defer { offset += Int(count) }
        return String(decoding: bytes[offset..<offset + Int(count)], as: UTF8.self)
    }

    mutating func declaration() -> ScenarioDeclaration? {
        guard let name = string(), let line = int(), let index = int(), let tagCount = int(), tagCount >= 0 else { return nil }
        var tags: [String] = []
        for _ in 0..<tagCount {
            guard let tag = string() else { return nil }
            tags.append(tag)
        }
        return ScenarioDeclaration(name: name, tags: tags, line: line, index: index)
    }
}
