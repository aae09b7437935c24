import Testing

@testable import AMF

/// Seeded random mutations of valid encodings (bytes flipped, inserted, deleted, runs duplicated, interesting
/// values planted). Each mutant must either read (and then write and read back the same) or be an `AMFError`:
/// never a crash, a hang or a huge allocation. A failure names its seed and round, so it can be replayed.
@Suite("AMF fuzzing")
struct AMFFuzzTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]
    static let rounds = 2_500

    static var corpus: [[UInt8]] {
        var samples = [try! AMF3.encode(everyType)]
        samples += AMFCodecTests.oracle.map { hex($0.1) }
        return samples
    }

    static let interesting: [[UInt8]] = [
        [0xFF, 0xFF, 0xFF, 0xFF], [0x00], [0x01], [0x7F], [0x80, 0x00], [0x0A, 0x00], [0x09, 0x00], [0x06, 0x00],
        [0x11], [0x0A, 0x07], [0x0A, 0x0B, 0x01],
    ]

    static func mutate(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            case 1 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 3 where !bytes.isEmpty: bytes.remove(at: position)
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...16, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            default:
                bytes.insert(contentsOf: interesting.randomElement(using: &random)!, at: position)
            }
        }
        return bytes
    }

    @Test("mutated AMF3 values read or fail cleanly", arguments: seeds)
    func mutatedValues(seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let corpus = Self.corpus
        var read = 0
        for round in 0..<Self.rounds {
            let mutant = Self.mutate(corpus.randomElement(using: &random)!, &random)
            guard let value = try? AMF3.decode(mutant) else { continue }
            read += 1
            // What reads must write, and read back to the same bytes (NaN payloads compare by bytes).
            let written = try AMF3.encode(value)
            #expect(try AMF3.encode(try AMF3.decode(written)) == written, "seed \(seed) round \(round)")
        }
        #expect(read > 0, "no mutant of seed \(seed) was readable: the mutations are too coarse to reach the readers")
    }

    @Test("mutated packets read or fail cleanly", arguments: seeds)
    func mutatedPackets(seed: UInt64) throws {
        var random = SeededRandom(state: seed &* 31)
        let packet = try AMFPacket(
            headers: [AMFPacket.Header(name: "h", value: .string("v"))],
            bodies: [AMFPacket.Body(target: "null", response: "null", value: .array(AMFArray([everyType])))]
        ).encoded()
        for _ in 0..<Self.rounds {
            let mutant = Self.mutate(packet, &random)
            if let decoded = try? AMFPacket.decode(mutant) {
                _ = try decoded.encoded()
            }
        }
    }
}
