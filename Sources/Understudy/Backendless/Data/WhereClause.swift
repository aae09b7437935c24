/// A where clause of the Data service (contract version 4): the subset of SQL-92 the contract lists, parsed by a
/// recursive-descent parser into a tree. Parsing finds every syntax error and every unsupported construct (a
/// relation path, a function, arithmetic, `SELECT`/`GROUP`/`HAVING`) before any column is looked up; each error
/// names the first token the parser could not read and where it stands in the clause (1-based character
/// position), or `end of clause`.
package struct WhereClause: Sendable, Hashable {
    /// A node of the parsed clause. `AND` and `OR` hold every operand of a chain, so a long clause is a wide tree,
    /// not a deep one.
    package indirect enum Node: Sendable, Hashable {
        case and([Node])
        case or([Node])
        case not(Node)
        case predicate(Predicate)
    }

    /// `column test`.
    package struct Predicate: Sendable, Hashable {
        /// The column as written.
        package var column: String
        /// Where the column starts (1-based, in characters).
        package var position: Int
        package var test: Test
    }

    package enum Test: Sendable, Hashable {
        case compare(Comparison, Literal)
        case like(String, negated: Bool)
        case inList([Literal], negated: Bool)
        case between(Literal, Literal, negated: Bool)
        case isNull(negated: Bool)
    }

    package enum Comparison: Sendable, Hashable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    package enum Literal: Sendable, Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// The parsed clause; nil for an empty or all-blank one (no condition).
    package let root: Node?

    /// Parses `text`; throws what is wrong with it (`WhereClauseError`), naming the token and its position.
    package init(parsing text: String) throws(WhereClauseError) {
        var parser = WhereParser(text)
        root = try parser.parseClause()
    }

    /// Every column the clause names, in order, as written, with its position.
    package var columns: [(name: String, position: Int)] {
        var found: [(String, Int)] = []
        func visit(_ node: Node) {
            switch node {
            case .and(let nodes), .or(let nodes): nodes.forEach(visit)
            case .not(let inner): visit(inner)
            case .predicate(let predicate): found.append((predicate.column, predicate.position))
            }
        }
        if let root { visit(root) }
        return found
    }
}

/// Why a where clause cannot be read: `detail` is the `%s` of 19000 "Invalid where clause: %s".
package struct WhereClauseError: Error, Sendable, Hashable {
    package var detail: String
    /// True when the clause is valid Backendless syntax the emulator does not support.
    package var unsupported: Bool

    init(_ detail: String, unsupported: Bool = false) {
        self.detail = unsupported ? "unsupported by Understudy: " + detail : detail
        self.unsupported = unsupported
    }
}

/// One token of a where clause.
struct WhereToken: Sendable {
    enum Kind: Sendable, Equatable {
        case word(String)
        case string(String)
        case number(Double)
        case symbol(String)
        case end
    }

    var kind: Kind
    /// 1-based character position of its first character.
    var position: Int
    /// The token as written.
    var text: String

    /// How an error names it: `'text' at position N`, or `end of clause`.
    var shown: String {
        if case .end = kind { return "end of clause" }
        return "'\(text)' at position \(position)"
    }

    /// True for a word that is this keyword (case-insensitive).
    func isKeyword(_ keyword: String) -> Bool {
        guard case .word(let word) = kind else { return false }
        return word.count == keyword.count && word.uppercased() == keyword
    }

    func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol(symbol)
    }

    /// True for a token that ends an operand: a column, a literal or a closing parenthesis.
    var isOperand: Bool {
        switch kind {
        case .word, .string, .number: return true
        case .symbol(let symbol): return symbol == ")"
        case .end: return false
        }
    }
}

/// Splits a clause into tokens, recording each one's position.
struct WhereLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    mutating func tokens() throws(WhereClauseError) -> [WhereToken] {
        var tokens: [WhereToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if case .end = token.kind { return tokens }
        }
    }

    private func text(_ start: Int, _ end: Int) -> String {
        var string = ""
        string.unicodeScalars.append(contentsOf: scalars[start..<end])
        return string
    }

    private mutating func next() throws(WhereClauseError) -> WhereToken {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        guard index < scalars.count else { return WhereToken(kind: .end, position: scalars.count + 1, text: "") }
        let start = index
        let scalar = scalars[index]
        if scalar == "'" {
            var value = String.UnicodeScalarView()
            index += 1
            while true {
                guard index < scalars.count else {
                    throw WhereClauseError("\(WhereToken(kind: .string(""), position: start + 1, text: text(start, min(start + 20, scalars.count))).shown): the string is never closed (a quote inside a string is written '')")
                }
                if scalars[index] == "'" {
                    if index + 1 < scalars.count, scalars[index + 1] == "'" {
                        value.append("'")
                        index += 2
                        continue
                    }
                    index += 1
                    break
                }
                value.append(scalars[index])
                index += 1
            }
            return WhereToken(kind: .string(String(value)), position: start + 1, text: text(start, index))
        }
        if Self.isDigit(scalar) || (scalar == "-" && index + 1 < scalars.count && Self.isDigit(scalars[index + 1])) {
            index += 1
            while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
            if index + 1 < scalars.count, scalars[index] == ".", Self.isDigit(scalars[index + 1]) {
                index += 1
                while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
            }
            if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
                var look = index + 1
                if look < scalars.count, scalars[look] == "+" || scalars[look] == "-" { look += 1 }
                if look < scalars.count, Self.isDigit(scalars[look]) {
                    index = look
                    while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
                }
            }
            let written = text(start, index)
            // A letter right after the digits (`12abc`) is no number.
            if index < scalars.count, Self.isLetter(scalars[index]) {
                var end = index
                while end < scalars.count, Self.isLetter(scalars[end]) || Self.isDigit(scalars[end]) { end += 1 }
                throw WhereClauseError("'\(text(start, end))' at position \(start + 1): not a number")
            }
            return WhereToken(kind: .number(Double(written) ?? .nan), position: start + 1, text: written)
        }
        if Self.isLetter(scalar) {
            index += 1
            while index < scalars.count, Self.isLetter(scalars[index]) || Self.isDigit(scalars[index]) { index += 1 }
            let word = text(start, index)
            return WhereToken(kind: .word(word), position: start + 1, text: word)
        }
        let two = index + 1 < scalars.count ? text(index, index + 2) : ""
        if ["!=", "<>", "<=", ">="].contains(two) {
            index += 2
            return WhereToken(kind: .symbol(two), position: start + 1, text: two)
        }
        switch scalar {
        case "=", "<", ">", "(", ")", ",", ".", "+", "-", "*", "/", "%":
            index += 1
            let symbol = String(Character(scalar))
            return WhereToken(kind: .symbol(symbol), position: start + 1, text: symbol)
        default:
            index += 1
            throw WhereClauseError("'\(String(Character(scalar)))' at position \(start + 1): a character no where clause has")
        }
    }
}

/// The recursive-descent parser of the contract's grammar.
struct WhereParser {
    /// How deep parentheses and `NOT`s may nest: deeper clauses answer 19000 rather than use up the stack.
    static let maximumDepth = 64
    static let reserved: Set<String> = ["AND", "OR", "NOT", "LIKE", "IN", "BETWEEN", "IS", "NULL", "TRUE", "FALSE"]
    static let unsupportedWords: Set<String> = ["SELECT", "GROUP", "HAVING", "ORDER", "FROM"]

    private let source: String
    private var tokens: [WhereToken] = []
    private var index = 0
    private var depth = 0

    init(_ text: String) {
        source = text
    }

    private var current: WhereToken { tokens[index] }

    private mutating func advance() -> WhereToken {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    mutating func parseClause() throws(WhereClauseError) -> WhereClause.Node? {
        var lexer = WhereLexer(source)
        tokens = try lexer.tokens()
        if case .end = current.kind { return nil }
        let node = try parseOr()
        guard case .end = current.kind else {
            throw unexpected("AND, OR or the end of the clause")
        }
        return node
    }

    /// The error for the current token: unsupported when it starts a construct the emulator does not read, else
    /// "expected …".
    private func unexpected(_ expected: String) -> WhereClauseError {
        let token = current
        // At the end of the input the detail is exactly this (fine point 25).
        if case .end = token.kind { return WhereClauseError("end of clause") }
        if case .word(let word) = token.kind, Self.unsupportedWords.contains(word.uppercased()) {
            return WhereClauseError("\(word.uppercased()) (\(token.shown))", unsupported: true)
        }
        if case .symbol(let symbol) = token.kind, ["+", "-", "*", "/", "%"].contains(symbol), index > 0, tokens[index - 1].isOperand {
            return WhereClauseError("arithmetic (\(token.shown))", unsupported: true)
        }
        if case .number(let value) = token.kind, value < 0 || token.text.hasPrefix("-"), index > 0, tokens[index - 1].isOperand {
            return WhereClauseError("arithmetic ('-' at position \(token.position))", unsupported: true)
        }
        return WhereClauseError("\(token.shown): expected \(expected)")
    }

    private mutating func parseOr() throws(WhereClauseError) -> WhereClause.Node {
        var operands = [try parseAnd()]
        while current.isKeyword("OR") {
            _ = advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(WhereClauseError) -> WhereClause.Node {
        var operands = [try parseNot()]
        while current.isKeyword("AND") {
            _ = advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func deeper() throws(WhereClauseError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw WhereClauseError("\(current.shown): parentheses and NOTs nest deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseNot() throws(WhereClauseError) -> WhereClause.Node {
        if current.isKeyword("NOT") {
            try deeper()
            _ = advance()
            let inner = try parseNot()
            depth -= 1
            return .not(inner)
        }
        if current.isSymbol("(") {
            try deeper()
            _ = advance()
            let inner = try parseOr()
            guard current.isSymbol(")") else { throw unexpected("')' to close the '(' before it") }
            _ = advance()
            depth -= 1
            return inner
        }
        return .predicate(try parsePredicate())
    }

    private mutating func parsePredicate() throws(WhereClauseError) -> WhereClause.Predicate {
        let columnToken = current
        guard case .word(let column) = columnToken.kind, !Self.reserved.contains(column.uppercased()) else {
            throw unexpected("a column name")
        }
        if Self.unsupportedWords.contains(column.uppercased()) { throw unexpected("a column name") }
        _ = advance()
        if current.isSymbol(".") {
            var path = column
            var look = index
            while look + 1 < tokens.count, tokens[look].isSymbol("."), case .word(let part) = tokens[look + 1].kind {
                path += "." + part
                look += 2
            }
            throw WhereClauseError("relation path '\(path)' at position \(columnToken.position)", unsupported: true)
        }
        if current.isSymbol("(") {
            throw WhereClauseError("function \(column)() at position \(columnToken.position)", unsupported: true)
        }
        func predicate(_ test: WhereClause.Test) -> WhereClause.Predicate {
            WhereClause.Predicate(column: column, position: columnToken.position, test: test)
        }

        if case .symbol(let symbol) = current.kind {
            let comparison: WhereClause.Comparison?
            switch symbol {
            case "=": comparison = .equal
            case "!=", "<>": comparison = .notEqual
            case "<": comparison = .less
            case "<=": comparison = .lessOrEqual
            case ">": comparison = .greater
            case ">=": comparison = .greaterOrEqual
            default: comparison = nil
            }
            if let comparison {
                _ = advance()
                return predicate(.compare(comparison, try parseLiteral()))
            }
        }
        if current.isKeyword("IS") {
            _ = advance()
            var negated = false
            if current.isKeyword("NOT") {
                negated = true
                _ = advance()
            }
            guard current.isKeyword("NULL") else { throw unexpected("NULL") }
            _ = advance()
            return predicate(.isNull(negated: negated))
        }
        if current.isKeyword("AFTER") {
            _ = advance()
            return predicate(.compare(.greater, try parseLiteral()))
        }
        if current.isKeyword("BEFORE") {
            _ = advance()
            return predicate(.compare(.less, try parseLiteral()))
        }
        if current.isKeyword("AT") {
            _ = advance()
            guard current.isKeyword("OR") else { throw unexpected("OR (AT OR AFTER, AT OR BEFORE)") }
            _ = advance()
            if current.isKeyword("AFTER") {
                _ = advance()
                return predicate(.compare(.greaterOrEqual, try parseLiteral()))
            }
            if current.isKeyword("BEFORE") {
                _ = advance()
                return predicate(.compare(.lessOrEqual, try parseLiteral()))
            }
            throw unexpected("AFTER or BEFORE")
        }
        var negated = false
        if current.isKeyword("NOT") {
            negated = true
            _ = advance()
            guard current.isKeyword("LIKE") || current.isKeyword("IN") || current.isKeyword("BETWEEN") else {
                throw unexpected("LIKE, IN or BETWEEN after NOT")
            }
        }
        if current.isKeyword("LIKE") {
            _ = advance()
            guard case .string(let pattern) = current.kind else { throw unexpected("a string (the LIKE pattern)") }
            _ = advance()
            return predicate(.like(pattern, negated: negated))
        }
        if current.isKeyword("IN") {
            _ = advance()
            guard current.isSymbol("(") else { throw unexpected("'(' to open the IN list") }
            _ = advance()
            if current.isSymbol(")") { throw unexpected("a value (an IN list may not be empty)") }
            var literals = [try parseLiteral()]
            while current.isSymbol(",") {
                _ = advance()
                literals.append(try parseLiteral())
            }
            guard current.isSymbol(")") else { throw unexpected("',' or ')' in the IN list") }
            _ = advance()
            return predicate(.inList(literals, negated: negated))
        }
        if current.isKeyword("BETWEEN") {
            _ = advance()
            let low = try parseLiteral()
            guard current.isKeyword("AND") else { throw unexpected("AND (BETWEEN low AND high)") }
            _ = advance()
            let high = try parseLiteral()
            return predicate(.between(low, high, negated: negated))
        }
        throw unexpected("an operator (=, !=, <>, <, <=, >, >=, LIKE, IN, BETWEEN, IS, AFTER, BEFORE, AT OR AFTER, AT OR BEFORE)")
    }

    private mutating func parseLiteral() throws(WhereClauseError) -> WhereClause.Literal {
        let token = current
        switch token.kind {
        case .string(let text):
            _ = advance()
            return .string(text)
        case .number(let value):
            _ = advance()
            return .number(value)
        case .word(let word):
            switch word.uppercased() {
            case "TRUE":
                _ = advance()
                return .bool(true)
            case "FALSE":
                _ = advance()
                return .bool(false)
            case "NULL":
                _ = advance()
                return .null
            default:
                if !Self.reserved.contains(word.uppercased()), !Self.unsupportedWords.contains(word.uppercased()) {
                    if index + 1 < tokens.count, tokens[index + 1].isSymbol(".") || tokens[index + 1].isSymbol("(") {
                        _ = advance()
                        return try parseUnsupportedOperand(word, at: token.position)
                    }
                    throw WhereClauseError("\(token.shown): expected a value (a quoted string, a number, TRUE, FALSE or NULL); comparing two columns is unsupported by Understudy")
                }
                throw unexpected("a value (a quoted string, a number, TRUE, FALSE or NULL)")
            }
        default:
            throw unexpected("a value (a quoted string, a number, TRUE, FALSE or NULL)")
        }
    }

    private func parseUnsupportedOperand(_ word: String, at position: Int) throws(WhereClauseError) -> WhereClause.Literal {
        if current.isSymbol("(") { throw WhereClauseError("function \(word)() at position \(position)", unsupported: true) }
        throw WhereClauseError("relation path '\(word).…' at position \(position)", unsupported: true)
    }
}
