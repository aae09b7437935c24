internal import HTTPTypes
package import Understudy

/// `/_understudy/coverage`: what the app under test met, as `understudy run --codes-json` writes it (so
/// `understudy codes merge` and `codes check` read it) plus the details only a server sees: per app and
/// operation what was answered and how, the codes never answered, what the app did after each error, the
/// requests no route answered with the nearest route. `?test=NAME` reads one test's part.
extension ControlRoutes {
    /// `GET /_understudy/coverage[?test=NAME]`.
    static func coverage(_ routes: [RouteDescription]) -> RouteHandler {
        ControlRequest.handler(query: ["test"]) { request throws(ControlRefusal) in
            let test = request.exchange.queryItem("test")
            if let test, !request.stage.world.coverage.tests.contains(where: { $0.name == test }) {
                let known = request.stage.world.coverage.tests.map(\.name)
                throw ControlRefusal(
                    404, "UNKNOWN_TEST",
                    "no request named the test '\(test)' in X-Understudy-Test"
                        + (known.isEmpty ? " (none named a test yet)" : " (tests seen: \(known.joined(separator: ", ")))")
                )
            }
            return Reply(body: CoverageReport.json(request.stage.world.coverage, test: test, routes: routes))
        }
    }

    /// `DELETE /_understudy/coverage` → `{"cleared": true}`: start counting again.
    static let clearCoverage = ControlRequest.handler { request throws(ControlRefusal) in
        request.stage.world.coverage.clear()
        return Reply(body: ["cleared": true])
    }
}

/// The coverage report as JSON (`GET /_understudy/coverage`, `serve --codes-json FILE`).
package enum CoverageReport {
    /// The report of the whole session, or of one test.
    package static func json(_ tally: CoverageTally, test: String? = nil, routes: [RouteDescription]) -> JSON {
        var members: [JSON.Member] = [
            .init("understudy_codes", .integer(1)),
            .init("source", .string("serve")),
        ]
        if let test { members.append(.init("test", .string(test))) }
        members.append(.init("codes", codes(tally, test: test)))
        members.append(.init("operations", operations(tally, test: test)))
        members.append(.init("reactions", reactions(tally, test: test)))
        if test == nil {
            members.append(.init("tests", .array(tally.tests.map { testEntry(tally, name: $0.name, requests: $0.requests) })))
        }
        members.append(.init("unmatched", unmatched(tally, test: test, routes: routes)))
        return .object(members)
    }

    /// The report as the file `serve --codes-json` writes.
    package static func text(_ tally: CoverageTally, routes: [RouteDescription]) -> String {
        String(decoding: JSONWriter.encode(json(tally, routes: routes)), as: UTF8.self) + "\n"
    }

    /// `[{"flavour","code","real","injected","network"}]`: every catalogued code, as `run --codes-json` lists them.
    static func codes(_ tally: CoverageTally, test: String?) -> JSON {
        let counts = tally.codeCounts(test: test)
        var rows: [JSON] = []
        for flavour in Flavour.allCases {
            for row in ErrorCatalogue.rows(of: flavour, counts: counts[flavour] ?? [:]) {
                rows.append(.object([
                    .init("flavour", .string(flavour.rawValue)), .init("code", .string(row.code)),
                    .init("real", count(row.counts[.real])), .init("injected", count(row.counts[.injected])),
                    .init("network", count(row.counts[.network])),
                ]))
            }
        }
        return .array(rows)
    }

    private static func count(_ value: Int?) -> JSON { .integer(Int64(value ?? 0)) }

    /// One entry per app and operation called: what was answered (`ok`, codes, network outcomes) by origin, the
    /// first request that met each, and the codes the operation can answer that it never did.
    static func operations(_ tally: CoverageTally, test: String?) -> JSON {
        struct Key: Hashable { var flavour: Flavour; var appID: String; var operation: String }
        var grouped: [Key: [(cell: CoverageTally.Cell, count: CoverageTally.Count)]] = [:]
        for (cell, count) in tally.cells where cell.test == test {
            grouped[Key(flavour: cell.flavour, appID: cell.appID, operation: cell.operation), default: []].append((cell, count))
        }
        let keys = grouped.keys.sorted { ($0.flavour.rawValue, $0.appID, $0.operation) < ($1.flavour.rawValue, $1.appID, $1.operation) }
        return .array(keys.map { key in
            let cells = grouped[key]!
            var outcomes: [String: (counts: [CodeOrigin: Int], first: Int)] = [:]
            for (cell, count) in cells {
                var entry = outcomes[cell.outcome] ?? ([:], count.firstSequence)
                entry.counts[cell.origin, default: 0] += count.count
                entry.first = min(entry.first, count.firstSequence)
                outcomes[cell.outcome] = entry
            }
            let ordered = outcomes.sorted { $0.value.first < $1.value.first }
            let reachable = CoverageTally.reachableCodes(of: key.operation, flavour: key.flavour)
            return .object([
                .init("app", .string(key.appID)), .init("flavour", .string(key.flavour.rawValue)),
                .init("op", .string(key.operation)),
                .init("calls", .integer(Int64(cells.reduce(0) { $0 + $1.count.count }))),
                .init("answered", .array(ordered.map { outcome in
                    .object([
                        .init("code", .string(outcome.key)), .init("real", count(outcome.value.counts[.real])),
                        .init("injected", count(outcome.value.counts[.injected])),
                        .init("network", count(outcome.value.counts[.network])),
                        .init("first_seq", .integer(Int64(outcome.value.first))),
                    ])
                })),
                .init("reachable", .array(reachable.map(JSON.string))),
                .init("never_answered", .array(reachable.filter { outcomes[$0] == nil }.map(JSON.string))),
            ])
        })
    }

    /// Per app, operation and code met: how often the app then retried, recovered, called something else or
    /// stopped, and which operations it called next.
    static func reactions(_ tally: CoverageTally, test: String?) -> JSON {
        struct Key: Hashable { var flavour: Flavour; var appID: String; var operation: String; var outcome: String }
        var order: [Key] = []
        var kinds: [Key: [String: Int]] = [:]
        var next: [Key: [String: Int]] = [:]
        for reaction in tally.reactions where test == nil || reaction.error.test == test {
            let error = reaction.error
            guard let flavour = error.flavour, let appID = error.appID, let operation = error.operation else { continue }
            let key = Key(flavour: flavour, appID: appID, operation: operation, outcome: error.outcome)
            if kinds[key] == nil { order.append(key) }
            kinds[key, default: [:]][reaction.kind, default: 0] += 1
            if let nextOperation = reaction.next.map({ $0.operation ?? "\($0.method) \($0.path)" }) {
                next[key, default: [:]][nextOperation, default: 0] += 1
            }
        }
        return .array(order.map { key in
            let counted = kinds[key]!
            return .object([
                .init("app", .string(key.appID)), .init("flavour", .string(key.flavour.rawValue)),
                .init("op", .string(key.operation)), .init("code", .string(key.outcome)),
                .init("times", .integer(Int64(counted.values.reduce(0, +)))),
                .init("retry", count(counted["retry"])), .init("recovery", count(counted["recovery"])),
                .init("other", count(counted["other"])), .init("none", count(counted["none"])),
                .init("next", .object((next[key] ?? [:]).sorted { $0.key < $1.key }.map { .init($0.key, .integer(Int64($0.value))) })),
            ])
        })
    }

    /// One test: its requests and each error it met with the call that followed.
    static func testEntry(_ tally: CoverageTally, name: String, requests: Int) -> JSON {
        let errors = tally.reactions.filter { $0.error.test == name }.map { reaction -> JSON in
            var members: [JSON.Member] = [
                .init("seq", .integer(Int64(reaction.error.sequence))),
                .init("op", reaction.error.operation.map(JSON.string) ?? .null),
                .init("code", .string(reaction.error.outcome)),
                .init("how", .string(reaction.error.origin.rawValue)),
                .init("reaction", .string(reaction.kind)),
            ]
            if let next = reaction.next {
                members.append(.init("next", .object([
                    .init("seq", .integer(Int64(next.sequence))),
                    .init("op", next.operation.map(JSON.string) ?? .string("\(next.method) \(next.path)")),
                    .init("code", .string(next.outcome)),
                ])))
            } else {
                members.append(.init("next", .null))
            }
            return .object(members)
        }
        return .object([
            .init("name", .string(name)), .init("requests", .integer(Int64(requests))), .init("errors", .array(errors)),
        ])
    }

    /// The requests no route answered, each with the route nearest to it.
    static func unmatched(_ tally: CoverageTally, test: String?, routes: [RouteDescription]) -> JSON {
        .array(tally.unmatched.filter { test == nil || $0.tests.contains(test!) }.map { request in
            var members: [JSON.Member] = [
                .init("method", .string(request.method)), .init("path", .string(request.path)),
                .init("count", .integer(Int64(request.count))), .init("first_seq", .integer(Int64(request.firstSequence))),
                .init("tests", .array(request.tests.map(JSON.string))),
            ]
            if let nearest = NearestRoute.to(method: request.method, path: request.path, among: routes) {
                var route: [JSON.Member] = [.init("method", .string(nearest.method.rawValue)), .init("path", .string(nearest.path))]
                if let operation = nearest.operation { route.append(.init("op", .string(operation))) }
                members.append(.init("nearest", .object(route)))
            } else {
                members.append(.init("nearest", .null))
            }
            return .object(members)
        })
    }
}

/// The route nearest to a request no route answered (WireMock's "near miss"): fewest path segments apart (a
/// segment one typo from a constant costs as much as one a `{parameter}` takes), then the same method; ties go to
/// the earlier route.
enum NearestRoute {
    static func to(method: String, path: String, among routes: [RouteDescription]) -> RouteDescription? {
        let segments = path.split(separator: "/").map(String.init)
        var best: (route: RouteDescription, distance: Int)?
        for route in routes where route.area != .control {
            let template = route.path.split(separator: "/").map(String.init)
            let distance = Self.distance(segments, template) + (route.method.rawValue == method ? 0 : 1)
            if distance < (best?.distance ?? .max) { best = (route, distance) }
        }
        guard let best, best.distance <= max(2, segments.count) else { return nil }
        return best.route
    }

    /// Edit distance over segments: an equal segment costs 0; a `{name}` segment, one that differs only in case
    /// or by a typo or two, 1; another, 2; a missing or extra segment, 2.
    private static func distance(_ path: [String], _ template: [String]) -> Int {
        if path.isEmpty { return template.count * 2 }
        if template.isEmpty { return path.count * 2 }
        var previous = Array(stride(from: 0, through: template.count * 2, by: 2))
        for i in 1...path.count {
            var current = [i * 2] + Array(repeating: 0, count: template.count)
            for j in 1...template.count {
                current[j] = min(previous[j] + 2, current[j - 1] + 2, previous[j - 1] + cost(path[i - 1], template[j - 1]))
            }
            previous = current
        }
        return previous[template.count]
    }

    private static func cost(_ segment: String, _ template: String) -> Int {
        if segment == template { return 0 }
        if template.hasPrefix("{") { return 1 }
        if segment.lowercased() == template.lowercased() { return 1 }
        // One or two letters apart: a typo.
        let a = Array(segment.lowercased()), b = Array(template.lowercased())
        if abs(a.count - b.count) <= 2, zip(a, b).filter({ $0 != $1 }).count + abs(a.count - b.count) <= 2 { return 1 }
        return 2
    }
}
