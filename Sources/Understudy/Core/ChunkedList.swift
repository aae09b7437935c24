/// A list kept as chunks of at most 256 elements: what an app keeps in registration order. It is a value, like an
/// array, but a copy shares the chunks, so appending to a copy copies the last chunk and the list of chunks, not
/// every element. A snapshot shares the app's lists (`AppImageOf`): with an array of 10,000 users, the
/// first registration after each restore retained all 10,000, and the restore released them again.
///
/// Every chunk but the last is full, so an element is found by position in two steps.
package struct ChunkedList<Element>: RandomAccessCollection, MutableCollection {
    private static var chunkSize: Int { 256 }
    private var chunks: [[Element]] = []
    package private(set) var count = 0

    package init() {}

    package init(_ elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "ChunkedList index \(position) out of range 0..<\(count)")
            return chunks[position / Self.chunkSize][position % Self.chunkSize]
        }
        set {
            precondition(position >= 0 && position < count, "ChunkedList index \(position) out of range 0..<\(count)")
            chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue
        }
    }

    /// Walks the chunks one after the other (no division per element).
    package func makeIterator() -> FlattenSequence<[[Element]]>.Iterator {
        chunks.joined().makeIterator()
    }

    package mutating func append(_ element: Element) {
        if count % Self.chunkSize == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Makes room in the list of chunks for `minimumCapacity` elements (each chunk is made whole when it starts).
    package mutating func reserveCapacity(_ minimumCapacity: Int) {
        chunks.reserveCapacity((minimumCapacity + Self.chunkSize - 1) / Self.chunkSize)
    }

    /// Removes the elements for which `shouldBeRemoved` is true, keeping the order (rebuilds every chunk).
    package mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var kept = ChunkedList()
        kept.reserveCapacity(count)
        for element in self where !(try shouldBeRemoved(element)) { kept.append(element) }
        self = kept
    }

    /// Removes the element at `position`, keeping the order.
    @discardableResult
    package mutating func remove(at position: Int) -> Element {
        let removed = self[position]
        var index = 0
        removeAll { _ in
            defer { index += 1 }
            return index == position
        }
        return removed
    }
}

extension ChunkedList: ExpressibleByArrayLiteral {
    package init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension ChunkedList: Sendable where Element: Sendable {}
