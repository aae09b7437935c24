import Testing
import Understudy

/// The journal is a ring: full, it overwrites its oldest entry; under the memory cap it drops its oldest entries
/// without copying the rest. Either way a reader sees the entries it keeps oldest first, none twice, none lost.
@Suite("The request journal's ring")
struct RequestJournalRingTests {
    private func record(_ journal: inout RequestJournal, _ count: Int) {
        for _ in 0..<count { journal.record(JournalEntry(method: "POST", path: "/x", body: "0123456789", status: 200)) }
    }

    private func sequences(_ journal: RequestJournal) -> [Int] { journal.entries().map(\.sequence) }

    @Test("dropping the oldest, refilling and wrapping keep every kept entry in order")
    func dropRefillWrap() {
        var journal = RequestJournal(capacity: 8)
        record(&journal, 6)
        journal.dropOldest(3)
        #expect(sequences(journal) == [4, 5, 6])
        record(&journal, 4)  // reuses the freed slots, then grows
        #expect(sequences(journal) == [4, 5, 6, 7, 8, 9, 10])
        record(&journal, 5)  // reaches the capacity, then overwrites the oldest
        #expect(sequences(journal) == Array(8...15))
        journal.dropOldest(5)
        record(&journal, 2)
        #expect(sequences(journal) == [13, 14, 15, 16, 17])
        #expect(journal.entries(after: 14, limit: 10).map(\.sequence) == [15, 16, 17])
        #expect(journal.entries(after: 0, limit: 2).map(\.sequence) == [16, 17])
        #expect(journal.dropped == 3 + 4 + 5)  // dropped, overwritten when full, dropped
    }

    @Test("what the journal holds goes down by what it drops")
    func heldBytesFollowDrops() {
        var journal = RequestJournal(capacity: 100)
        let empty = journal.heldBytes
        record(&journal, 10)
        let ten = journal.heldBytes
        journal.dropOldest(5)
        #expect(journal.heldBytes - empty == (ten - empty) / 2)
        journal.dropOldest(50)
        #expect(journal.count == 0 && journal.heldBytes == empty)
    }
}
