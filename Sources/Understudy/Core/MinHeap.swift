/// A binary min-heap: the earliest item is always at hand.
struct MinHeap<Element> {
    private var storage: [Element] = []
    private let areInIncreasingOrder: (Element, Element) -> Bool

    init(by areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    var isEmpty: Bool { storage.isEmpty }
    var count: Int { storage.count }
    var min: Element? { storage.first }

    mutating func insert(_ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard areInIncreasingOrder(storage[child], storage[parent]) else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func removeMin() -> Element? {
        guard !storage.isEmpty else { return nil }
        storage.swapAt(0, storage.count - 1)
        let removed = storage.removeLast()
        siftDown(from: 0)
        return removed
    }

    /// Keeps only the elements `shouldKeep` answers true for (in time linear in the count).
    mutating func retain(where shouldKeep: (Element) -> Bool) {
        storage.removeAll { !shouldKeep($0) }
        for parent in stride(from: storage.count / 2 - 1, through: 0, by: -1) { siftDown(from: parent) }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < storage.count, areInIncreasingOrder(storage[left], storage[smallest]) { smallest = left }
            if right < storage.count, areInIncreasingOrder(storage[right], storage[smallest]) { smallest = right }
            if smallest == parent { break }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
    }

    mutating func removeAll() { storage.removeAll() }
}
