/// "Did you mean ...?": the known name closest to a misspelt one.
package enum NearestName {
    /// The candidate nearest to `name` by edit distance (ignoring ASCII case), if it is near enough to be a typo
    /// (at most a third of its length, and 3); else the first candidate that starts with `name` as whole words
    /// (`identity` of `identity_value`). Ties go to the earlier candidate, so the answer never depends on hash
    /// order. Cheap enough for every refusal (a scenario may provoke thousands under `pcall`): no allocation per
    /// candidate, candidates whose length rules them out skipped, and the distance computed only near the
    /// diagonal, stopping as soon as it must exceed what is wanted.
    package static func to(_ name: String, among candidates: [String]) -> String? {
        let target = lowered(name)
        let allowed = max(1, min(3, (target.count + 2) / 3))
        var best: (name: String, distance: Int)?
        var other: [UInt8] = []
        other.reserveCapacity(64)
        var rows = Rows()
        for candidate in candidates {
            let bound = min((best?.distance ?? Int.max) - 1, allowed)
            guard abs(candidate.utf8.count - target.count) <= bound else { continue }
            other.removeAll(keepingCapacity: true)
            for byte in candidate.utf8 { other.append(lower(byte)) }
            let distance = editDistance(target, other, atMost: bound, rows: &rows)
            if distance <= bound { best = (candidate, distance) }
        }
        if let best { return best.name }
        return candidates.first { isWordPrefix(target, of: $0) }
    }

    /// ` (did you mean X?)` for the candidate nearest to `name`, or "" when none is near enough: what every message
    /// that refuses a name adds (`quote` wraps the suggestion, as in `'users.login'`).
    package static func suggestion(for name: String, among candidates: [String], quote: String = "") -> String {
        to(name, among: candidates).map { " (did you mean \(quote)\($0)\(quote)?)" } ?? ""
    }

    /// True when `target` (lowered) is the first words of `candidate`, ending where a word ends (`identity` of
    /// `identity_value`, `users` of `users.login`): a name written short, too far in edits to be a typo.
    static func isWordPrefix(_ target: [UInt8], of candidate: String) -> Bool {
        guard target.count >= 3, candidate.utf8.count > target.count else { return false }
        var index = 0
        for byte in candidate.utf8 {
            if index == target.count { return byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") }
            if lower(byte) != target[index] { return false }
            index += 1
        }
        return false
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func lowered(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 { bytes.append(lower(byte)) }
        return bytes
    }

    /// The three rows of the distance table (one buffer), kept between candidates.
    struct Rows {
        var cells: [Int] = []
    }

    /// The Levenshtein distance of `a` and `b` (a swap of two neighbours counting as one edit) when it is at most
    /// `bound`; otherwise some number above `bound`. Only cells within `bound` of the diagonal are computed.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost bound: Int, rows: inout Rows) -> Int {
        let over = bound + 1
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        if rows.cells.count < 3 * width { rows.cells = [Int](repeating: over, count: 3 * width) }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                rows.cells.withUnsafeMutableBufferPointer { cells in
                    // Row offsets into `cells`: the row before the previous, the previous, the current.
                    var before = 0, previous = width, current = 2 * width
                    for j in 0..<width {
                        cells[previous + j] = j <= bound ? j : over
                        cells[before + j] = over
                        cells[current + j] = over
                    }
                    for i in 1...a.count {
                        let low = max(1, i - bound), high = min(b.count, i + bound)
                        if low > high { return over }
                        cells[current + low - 1] = low == 1 && i <= bound ? i : over
                        var smallest = cells[current + low - 1]
                        let letter = a[i - 1]
                        for j in low...high {
                            var value = min(cells[previous + j], cells[current + j - 1]) + 1
                            let diagonal = cells[previous + j - 1] + (letter == b[j - 1] ? 0 : 1)
                            if diagonal < value { value = diagonal }
                            if i > 1, j > 1, letter == b[j - 2], a[i - 2] == b[j - 1], cells[before + j - 2] + 1 < value {
                                value = cells[before + j - 2] + 1
                            }
                            if value > over { value = over }
                            cells[current + j] = value
                            if value < smallest { smallest = value }
                        }
                        if high < b.count { cells[current + high + 1] = over }
                        if smallest > bound { return over }
                        (before, previous, current) = (previous, current, before)
                    }
                    return cells[previous + b.count]
                }
            }
        }
    }
}
