/// A dictionary kept as 64 smaller ones, chosen by key. A Swift dictionary that outgrows its storage rehashes
/// every entry in one go: at a few hundred thousand users that is tens of milliseconds during which a served app
/// answers nobody. Here a growth rehashes one shard, a sixty-fourth of the entries, so no single insertion stalls
/// for long; lookups cost one extra array index.
///
/// It offers the part of `Dictionary`'s API the apps use; `values` and `keys` come in no particular order (as a
/// dictionary's do), so callers that show them sort them.
package struct ShardedDictionary<Key: ShardKey, Value> {
    private static var shardCount: Int { 64 }
    /// Empty until the first entry, so that an app that never stores anything allocates nothing.
    private var shards: [[Key: Value]] = []
    /// The number of entries.
    package private(set) var count = 0

    package init() {}

    private static func shard(_ key: Key) -> Int {
        // Fibonacci hashing: the top bits of the product spread keys whose own bits are not random.
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key.shardBits) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    package var isEmpty: Bool { count == 0 }

    package subscript(key: Key) -> Value? {
        get { shards.isEmpty ? nil : shards[Self.shard(key)][key] }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Stores `value` under `key`; returns the value it replaced, if any.
    @discardableResult
    package mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        if shards.isEmpty { shards = Array(repeating: [:], count: Self.shardCount) }
        let replaced = shards[Self.shard(key)].updateValue(value, forKey: key)
        if replaced == nil { count += 1 }
        return replaced
    }

    /// Removes the entry for `key`; returns its value, if there was one.
    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        guard !shards.isEmpty, let removed = shards[Self.shard(key)].removeValue(forKey: key) else { return nil }
        count -= 1
        return removed
    }

    /// Makes room for `minimumCapacity` entries in all (spread evenly, with a margin for uneven shards).
    package mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > 0 else { return }
        if shards.isEmpty { shards = Array(repeating: [:], count: Self.shardCount) }
        let perShard = minimumCapacity / Self.shardCount + minimumCapacity / (Self.shardCount * 8) + 8
        for index in shards.indices { shards[index].reserveCapacity(perShard) }
    }

    package mutating func removeAll(keepingCapacity: Bool = false) {
        if keepingCapacity {
            for index in shards.indices { shards[index].removeAll(keepingCapacity: true) }
        } else {
            shards = []
        }
        count = 0
    }

    /// Removes the entries for which `shouldBeRemoved` is true.
    package mutating func removeAll(where shouldBeRemoved: (Key, Value) -> Bool) {
        for index in shards.indices {
            let kept = shards[index].filter { !shouldBeRemoved($0.key, $0.value) }
            count -= shards[index].count - kept.count
            shards[index] = kept
        }
    }

    /// The same keys with transformed values. Each shard keeps its layout (`Dictionary.mapValues` rehashes
    /// nothing), so copying a table this way costs one `transform` per entry.
    package func mapValues<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> ShardedDictionary<Key, NewValue> {
        var mapped = ShardedDictionary<Key, NewValue>()
        mapped.shards = try shards.map { try $0.mapValues(transform) }
        mapped.count = count
        return mapped
    }

    /// Every value, in no particular order.
    package var values: some Sequence<Value> { shards.lazy.flatMap(\.values) }

    /// Every key, in no particular order.
    package var keys: some Sequence<Key> { shards.lazy.flatMap(\.keys) }
}

extension ShardedDictionary: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (Key, Value)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}

extension ShardedDictionary: Sendable where Key: Sendable, Value: Sendable {}

/// A key a `ShardedDictionary` can place: `shardBits` should differ between keys as their hashes do (the default
/// is the hash; a key that stores its hash, or is random already, hands over those bits and saves hashing twice).
package protocol ShardKey: Hashable {
    var shardBits: Int { get }
}

extension ShardKey {
    package var shardBits: Int { hashValue }
}

extension String: ShardKey {}

extension Identifier128: ShardKey {
    /// Ids come from the seeded generator, random in every bit; a parsed one may not be, which costs only balance.
    package var shardBits: Int { Int(truncatingIfNeeded: high ^ low) }
}
