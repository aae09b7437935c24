/// Which users a console lists: a window of the app's users in registration order (newest first by default),
/// optionally only those whose identifiers contain a text.
package struct UserQuery: Sendable, Hashable {
    /// How many matching users to skip.
    package var offset: Int
    /// The most users on the page.
    package var limit: Int
    /// Text an identifier must contain, ignoring ASCII case; nil or empty lists every user.
    package var search: String?
    /// Newest registrations first (the default) or oldest first.
    package var newestFirst: Bool

    package init(offset: Int = 0, limit: Int = 50, search: String? = nil, newestFirst: Bool = true) {
        self.offset = max(0, offset)
        self.limit = max(0, limit)
        self.search = search
        self.newestFirst = newestFirst
    }

    /// The search text as lower-case ASCII bytes, or nil when there is none.
    var needle: [UInt8]? {
        guard let search, !search.isEmpty else { return nil }
        return search.utf8.map(ASCIISearch.lower)
    }
}

/// One page of users, found without copying every user: a page costs its own size when there is no search, and
/// a search stops once it has found the page and one more match.
package struct UserPage<User: Sendable>: Sendable {
    /// A user on the page with the number of sessions (tokens) open for it.
    package struct Entry: Sendable {
        package var user: User
        package var openSessions: Int
    }

    package var entries: [Entry]
    /// How many users match: exact without a search; nil when a search stopped early.
    package var total: Int?
    /// True when users after this page match.
    package var hasMore: Bool

    /// Walks `order` (registration order, skipping entries `isLive` rejects) and keeps the page `query` asks for.
    static func collect<Stored>(
        _ order: ChunkedList<Stored>, liveCount: Int, query: UserQuery, isLive: (Stored) -> Bool,
        matches: (Stored, [UInt8]) -> Bool, entry: (Stored) -> Entry
    ) -> UserPage {
        var entries: [Entry] = []
        entries.reserveCapacity(min(query.limit, 1000))
        let needle = query.needle
        // Without a search or deleted users, the page is a slice of the order.
        if needle == nil, order.count == liveCount {
            let count = order.count
            let start = min(query.offset, count)
            let end = min(start + query.limit, count)
            for position in start..<end {
                entries.append(entry(order[query.newestFirst ? count - 1 - position : position]))
            }
            return UserPage(entries: entries, total: count, hasMore: end < count)
        }
        let allLive = order.count == liveCount
        var matched = 0
        var hasMore = false
        for step in 0..<order.count {
            let stored = order[query.newestFirst ? order.count - 1 - step : step]
            guard allLive || isLive(stored) else { continue }
            if let needle, !matches(stored, needle) { continue }
            matched += 1
            if matched <= query.offset { continue }
            if entries.count == query.limit {
                hasMore = true
                if needle != nil { return UserPage(entries: entries, total: nil, hasMore: true) }
                continue
            }
            entries.append(entry(stored))
        }
        return UserPage(entries: entries, total: matched, hasMore: hasMore)
    }
}

/// Case-insensitive (ASCII) substring search over UTF-8 bytes, without making strings.
enum ASCIISearch {
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    /// True when `needle` could be part of an identifier (hex digits and dashes), so the search must format
    /// identifiers; most searches (an address, a name) skip that cost.
    static func couldBeInIdentifier(_ needle: [UInt8]) -> Bool {
        needle.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || $0 == 45 }
    }

    /// True when `text` contains `needle` (already lower-case), ignoring ASCII case.
    static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ contains($0, needle) }) { return found }
        return contains(Array(text.utf8), needle)
    }

    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= bytes.count else { return false }
        if needle.isEmpty { return true }
        let first = needle[0]
        var start = 0
        let last = bytes.count - needle.count
        while start <= last {
            if lower(bytes[start]) == first {
                var offset = 1
                while offset < needle.count, lower(bytes[start + offset]) == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { contains($0, needle) }
    }
}
