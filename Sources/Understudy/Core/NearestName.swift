/// "Did you mean ...?": the known name closest to a misspelt one.
package enum NearestName {
    /// The candidate nearest to `name` by edit distance (ignoring case), if it is near enough to be a typo;
    /// ties go to the earlier candidate, so the answer never depends on hash order.
    package static func to(_ name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(1, min(3, (target.count + 2) / 3))
        return best.distance <= allowed ? best.name : nil
    }

    /// ` (did you mean X?)` for the candidate nearest to `name`, or "" when none is near enough: what every message
    /// that refuses a name adds (`quote` wraps the suggestion, as in `'users.login'`).
    package static func suggestion(for name: String, among candidates: [String], quote: String = "") -> String {
        to(name, among: candidates).map { " (did you mean \(quote)\($0)\(quote)?)" } ?? ""
    }

    /// Levenshtein distance, with a swap of two neighbours counting as one edit.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
