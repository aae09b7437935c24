import Testing
import Understudy

/// The apps keep their users, sessions and indexes in `ShardedDictionary` so that growing never rehashes them all
/// at once; to every caller it must behave as the dictionary it replaced.
@Suite("ShardedDictionary behaves as a Dictionary")
struct ShardedDictionaryTests {
    @Test("inserts, replacements, removals and filters agree with a Dictionary at every step")
    func agreesWithDictionary() {
        var sharded = ShardedDictionary<String, Int>()
        var model: [String: Int] = [:]
        var generator = SeededGenerator(seed: 7)
        for step in 0..<20_000 {
            let key = "k\(generator.next() % 3_000)"
            switch generator.next() % 10 {
            case 0..<6:
                #expect(sharded.updateValue(step, forKey: key) == model.updateValue(step, forKey: key))
            case 6..<8:
                #expect(sharded.removeValue(forKey: key) == model.removeValue(forKey: key))
            case 8:
                sharded[key] = nil
                model[key] = nil
            default:
                #expect(sharded[key] == model[key])
            }
            #expect(sharded.count == model.count)
        }
        sharded.removeAll { key, value in key.hasSuffix("7") || value % 3 == 0 }
        model = model.filter { !($0.key.hasSuffix("7") || $0.value % 3 == 0) }
        #expect(sharded.count == model.count)
        #expect(Dictionary(uniqueKeysWithValues: zip(Array(sharded.keys), Array(sharded.values))) == model)
        #expect(Set(sharded.keys) == Set(model.keys))
        #expect(sharded.values.sorted() == model.values.sorted())
    }

    @Test("a copy keeps its entries when the original changes, and emptying keeps nothing")
    func valueSemantics() {
        var original: ShardedDictionary<Identifier128, String> = [Identifier128(high: 1, low: 2): "a"]
        original.reserveCapacity(1_000)
        for number in 0..<1_000 { original[Identifier128(high: UInt64(number), low: 0)] = "n\(number)" }
        let copy = original
        original[Identifier128(high: 1, low: 2)] = "changed"
        original.removeValue(forKey: Identifier128(high: 5, low: 0))
        #expect(copy[Identifier128(high: 1, low: 2)] == "a")
        #expect(copy[Identifier128(high: 5, low: 0)] == "n5")
        #expect(copy.count == 1_001)
        #expect(original.count == 1_000)
        original.removeAll(keepingCapacity: true)
        #expect(original.isEmpty && original[Identifier128(high: 7, low: 0)] == nil && Array(original.values).isEmpty)
        #expect(copy.count == 1_001)
    }
}
