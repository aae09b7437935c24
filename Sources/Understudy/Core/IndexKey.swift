/// A string key for a large index, with its hash computed once. Probing compares the stored hashes before any
/// string bytes, and growing the index rehashes words, so neither reads the strings of other entries (a cache
/// miss apiece once the index holds many thousand keys).
struct IndexKey: Hashable, Sendable, CustomStringConvertible {
    let text: String
    private let hash: Int

    init(_ text: String) {
        self.text = text
        hash = text.hashValue
    }

    static func == (lhs: IndexKey, rhs: IndexKey) -> Bool {
        lhs.hash == rhs.hash && lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    var description: String { text }
}

extension IndexKey: ShardKey {
    /// The stored hash: placing the key in a shard hashes nothing again.
    var shardBits: Int { hash }
}
