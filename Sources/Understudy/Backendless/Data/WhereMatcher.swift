/// A parsed where clause bound to the `Users` columns: decides, in SQL's three-valued logic, whether a stored
/// user matches. Literals are prepared once (folded strings, numbers, dates), so testing a user allocates
/// nothing for ASCII text.
struct WhereMatcher {
    enum Truth {
        case yes, no, unknown

        var negated: Truth {
            switch self {
            case .yes: return .no
            case .no: return .yes
            case .unknown: return .unknown
            }
        }
    }

    /// A literal ready for comparing.
    struct Prepared {
        enum Kind {
            case string(folded: String, number: Double?, date: Int64?)
            case number(Double)
            case bool(Bool)
            case null
        }

        var kind: Kind

        init(_ literal: WhereClause.Literal) {
            switch literal {
            case .string(let text):
                kind = .string(folded: text.lowercased(), number: Double(text.trimmingWhitespace), date: DateLiteral.milliseconds(text))
            case .number(let value): kind = .number(value)
            case .bool(let flag): kind = .bool(flag)
            case .null: kind = .null
            }
        }

        var isNull: Bool {
            if case .null = kind { return true }
            return false
        }
    }

    indirect enum Node {
        case and([Node])
        case or([Node])
        case not(Node)
        case compare(UsersColumn.Source, WhereClause.Comparison, Prepared)
        case isNull(UsersColumn.Source, negated: Bool)
        case like(UsersColumn.Source, LikePattern, negated: Bool)
        case inList(UsersColumn.Source, [Prepared], negated: Bool)
        case between(UsersColumn.Source, Prepared, Prepared, negated: Bool)
    }

    let root: Node?

    /// A matcher with no condition: every user matches.
    init() {
        root = nil
    }

    /// Binds `clause` to the table's columns: 1006 for a column the table does not have.
    init(_ clause: WhereClause, columns: ColumnLookup) throws(BackendlessError) {
        func bind(_ node: WhereClause.Node) throws(BackendlessError) -> Node {
            switch node {
            case .and(let nodes):
                var bound: [Node] = []
                for node in nodes { bound.append(try bind(node)) }
                return .and(bound)
            case .or(let nodes):
                var bound: [Node] = []
                for node in nodes { bound.append(try bind(node)) }
                return .or(bound)
            case .not(let inner): return .not(try bind(inner))
            case .predicate(let predicate):
                let source = try columns.column(predicate.column).source
                switch predicate.test {
                case .compare(let comparison, .null):
                    switch comparison {
                    case .equal: return .isNull(source, negated: false)
                    case .notEqual: return .isNull(source, negated: true)
                    default: return .compare(source, comparison, Prepared(.null))
                    }
                case .compare(let comparison, let literal): return .compare(source, comparison, Prepared(literal))
                case .isNull(let negated): return .isNull(source, negated: negated)
                case .like(let pattern, let negated): return .like(source, LikePattern(pattern), negated: negated)
                case .inList(let literals, let negated): return .inList(source, literals.map(Prepared.init), negated: negated)
                case .between(let low, let high, let negated): return .between(source, Prepared(low), Prepared(high), negated: negated)
                }
            }
        }
        root = try clause.root.map(bind)
    }

    /// True when `user` matches (the clause is true for it); an empty clause matches every user.
    func matches(_ user: StoredUser) -> Bool {
        guard let root else { return true }
        return Self.evaluate(root, user) == .yes
    }

    static func evaluate(_ node: Node, _ user: StoredUser) -> Truth {
        switch node {
        case .and(let nodes):
            var result = Truth.yes
            for node in nodes {
                switch evaluate(node, user) {
                case .no: return .no
                case .unknown: result = .unknown
                case .yes: break
                }
            }
            return result
        case .or(let nodes):
            var result = Truth.no
            for node in nodes {
                switch evaluate(node, user) {
                case .yes: return .yes
                case .unknown: result = .unknown
                case .no: break
                }
            }
            return result
        case .not(let inner): return evaluate(inner, user).negated
        case .compare(let source, let comparison, let literal):
            return test(comparison, compare(source.cell(of: user), literal))
        case .isNull(let source, let negated):
            let isNull: Bool
            if case .null = source.cell(of: user) { isNull = true } else { isNull = false }
            return isNull != negated ? .yes : .no
        case .like(let source, let pattern, let negated):
            guard case .string(let text) = source.cell(of: user) else { return .unknown }
            let matched: Truth = pattern.matches(text) ? .yes : .no
            return negated ? matched.negated : matched
        case .inList(let source, let literals, let negated):
            let cell = source.cell(of: user)
            var result = Truth.no
            for literal in literals {
                let truth: Truth
                if literal.isNull {
                    if case .null = cell { truth = .yes } else { truth = .no }
                } else {
                    truth = test(.equal, compare(cell, literal))
                }
                if truth == .yes {
                    result = .yes
                    break
                }
                if truth == .unknown { result = .unknown }
            }
            return negated ? result.negated : result
        case .between(let source, let low, let high, let negated):
            let cell = source.cell(of: user)
            let above = test(.greaterOrEqual, compare(cell, low))
            let below = test(.lessOrEqual, compare(cell, high))
            let result: Truth
            if above == .no || below == .no {
                result = .no
            } else if above == .unknown || below == .unknown {
                result = .unknown
            } else {
                result = .yes
            }
            return negated ? result.negated : result
        }
    }

    static func test(_ comparison: WhereClause.Comparison, _ order: Int?) -> Truth {
        guard let order else { return .unknown }
        let holds: Bool
        switch comparison {
        case .equal: holds = order == 0
        case .notEqual: holds = order != 0
        case .less: holds = order < 0
        case .lessOrEqual: holds = order <= 0
        case .greater: holds = order > 0
        case .greaterOrEqual: holds = order >= 0
        }
        return holds ? .yes : .no
    }

    /// The stored value's order against the literal (-1, 0, 1), by the stored value's type; nil (unknown) for a
    /// missing value, a null literal or types that do not compare (fine point 24).
    static func compare(_ cell: Cell, _ literal: Prepared) -> Int? {
        switch (cell, literal.kind) {
        case (.string(let text), .string(let folded, _, _)): return FoldedText.compare(text, folded: folded)
        case (.number(let number), .number(let value)): return order(number, value)
        case (.number(let number), .string(_, let value?, _)): return order(number, value)
        case (.bool(let flag), .bool(let value)): return flag == value ? 0 : (!flag ? -1 : 1)
        case (.date(let ms), .number(let value)): return order(Double(ms), value)
        case (.date(let ms), .string(_, _, let date?)): return ms == date ? 0 : (ms < date ? -1 : 1)
        default: return nil
        }
    }

    static func order(_ left: Double, _ right: Double) -> Int? {
        if left < right { return -1 }
        if left > right { return 1 }
        if left == right { return 0 }
        return nil
    }
}

/// Text compared without case: ASCII byte by byte with no allocation, anything else lower-cased and compared
/// by code points.
enum FoldedText {
    /// `text` against `folded` (already lower-cased).
    static func compare(_ text: String, folded: String) -> Int {
        if let result = asciiCompare(text, folded) { return result }
        return scalarCompare(text.lowercased(), folded)
    }

    /// Two texts, both folded here.
    static func compare(_ left: String, _ right: String) -> Int {
        if let result = asciiCompare(left, right) { return result }
        return scalarCompare(left.lowercased(), right.lowercased())
    }

    private static func asciiCompare(_ left: String, _ right: String) -> Int? {
        var left = left
        var right = right
        return left.withUTF8 { leftBytes -> Int? in
            right.withUTF8 { rightBytes -> Int? in
                let count = min(leftBytes.count, rightBytes.count)
                var index = 0
                while index < count {
                    let a = leftBytes[index]
                    let b = rightBytes[index]
                    if a >= 0x80 || b >= 0x80 { return nil }
                    let la = a &+ ((a &- 65) < 26 ? 32 : 0)
                    let lb = b &+ ((b &- 65) < 26 ? 32 : 0)
                    if la != lb { return la < lb ? -1 : 1 }
                    index += 1
                }
                for byte in leftBytes[count...] where byte >= 0x80 { return nil }
                for byte in rightBytes[count...] where byte >= 0x80 { return nil }
                return leftBytes.count == rightBytes.count ? 0 : (leftBytes.count < rightBytes.count ? -1 : 1)
            }
        }
    }

    private static func scalarCompare(_ left: String, _ right: String) -> Int {
        var a = left.unicodeScalars.makeIterator()
        var b = right.unicodeScalars.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x.value < y.value ? -1 : 1 }
            }
        }
    }
}

/// A LIKE pattern: `%` any run of characters, `_` one character, `\%` `\_` `\\` literal; matched without case.
struct LikePattern {
    enum Piece: Equatable {
        case literal(Unicode.Scalar)
        case one
        case any
    }

    let pieces: [Piece]

    init(_ pattern: String) {
        var pieces: [Piece] = []
        var escaped = false
        for scalar in pattern.lowercased().unicodeScalars {
            if escaped {
                pieces.append(.literal(scalar))
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "%": if pieces.last != .any { pieces.append(.any) }
            case "_": pieces.append(.one)
            default: pieces.append(.literal(scalar))
            }
        }
        if escaped { pieces.append(.literal("\\")) }
        self.pieces = pieces
    }

    func matches(_ text: String) -> Bool {
        var text = text
        let ascii: Bool? = text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return nil }
            return Self.match(pieces, count: bytes.count) { index in
                let byte = bytes[index]
                return Unicode.Scalar(byte &+ ((byte &- 65) < 26 ? 32 : 0))
            }
        }
        if let ascii { return ascii }
        let scalars = Array(text.lowercased().unicodeScalars)
        return Self.match(pieces, count: scalars.count) { scalars[$0] }
    }

    /// Wildcard matching with one backtrack point (the last `%`): linear for most patterns.
    static func match(_ pieces: [Piece], count: Int, _ scalar: (Int) -> Unicode.Scalar) -> Bool {
        var p = 0
        var t = 0
        var starPiece = -1
        var starText = 0
        while t < count {
            if p < pieces.count {
                switch pieces[p] {
                case .any:
                    starPiece = p
                    starText = t
                    p += 1
                    continue
                case .one:
                    p += 1
                    t += 1
                    continue
                case .literal(let literal) where literal == scalar(t):
                    p += 1
                    t += 1
                    continue
                default: break
                }
            }
            guard starPiece >= 0 else { return false }
            p = starPiece + 1
            starText += 1
            t = starText
        }
        while p < pieces.count, pieces[p] == .any { p += 1 }
        return p == pieces.count
    }
}

/// The date strings a where clause compares with DATETIME columns, read as UTC (a subset of the documented
/// formats): `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, `yyyy-MM-dd`, `MM/dd/yyyy`, `MM/dd/yyyy HH:mm:ss`, `MM-dd-yyyy`,
/// `dd-MMM-yyyy`.
enum DateLiteral {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Milliseconds since the epoch, or nil for text in none of the formats.
    static func milliseconds(_ text: String) -> Int64? {
        let chars = Array(text.trimmingWhitespace)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, !range.isEmpty else { return nil }
            var value = 0
            for index in range {
                guard let digit = chars[index].wholeNumberValue, chars[index].isASCII else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func at(_ index: Int, _ character: Character) -> Bool { index < chars.count && chars[index] == character }
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millisecond = 0
        if chars.count == 24, at(4, "-"), at(7, "-"), at(10, "T"), at(13, ":"), at(16, ":"), at(19, "."), at(23, "Z"),
            let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10), let h = number(11..<13),
            let mi = number(14..<16), let s = number(17..<19), let ms = number(20..<23)
        {
            (year, month, day, hour, minute, second, millisecond) = (y, mo, d, h, mi, s, ms)
        } else if chars.count == 10, at(4, "-"), at(7, "-"), let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10) {
            (year, month, day) = (y, mo, d)
        } else if chars.count == 10, at(2, "/"), at(5, "/"), let mo = number(0..<2), let d = number(3..<5), let y = number(6..<10) {
            (year, month, day) = (y, mo, d)
        } else if chars.count == 19, at(2, "/"), at(5, "/"), at(10, " "), at(13, ":"), at(16, ":"),
            let mo = number(0..<2), let d = number(3..<5), let y = number(6..<10), let h = number(11..<13),
            let mi = number(14..<16), let s = number(17..<19)
        {
            (year, month, day, hour, minute, second) = (y, mo, d, h, mi, s)
        } else if chars.count == 10, at(2, "-"), at(5, "-"), let mo = number(0..<2), let d = number(3..<5), let y = number(6..<10) {
            (year, month, day) = (y, mo, d)
        } else if chars.count == 11, at(2, "-"), at(6, "-"), let d = number(0..<2), let y = number(7..<11),
            let index = months.firstIndex(of: String(chars[3..<6]).lowercased())
        {
            (year, month, day) = (y, index + 1, d)
        } else {
            return nil
        }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month, year), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        let days = daysFromCivil(year, month, day)
        return ((Int64(days) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000 + Int64(millisecond)
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}

extension String {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: Substring {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
