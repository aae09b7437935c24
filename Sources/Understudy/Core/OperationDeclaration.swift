/// Everything about one operation except its rules (the domain method) and its prose: its name, the contract
/// version that added it, where scenarios call it (`app.users.update`), its arguments with their Lua types and
/// their place in an HTTP request, its routes, the order of its checks and its result.
///
/// Declared once per operation (`BackendlessOperation.declaration`, `KiiOperation.declaration`); the Lua
/// bindings read their arguments from it, the server registers its routes from it, a fault's `when(args)`
/// gets its arguments by its names (`FaultArguments`), `explain` and `--codes` take its check order, and the
/// editor types and the docs' tables are generated from it.
package struct OperationDeclaration: Sendable {
    /// The contract's name, e.g. `users.update`: what `faults.inject{ op }` names and the journal records.
    package var name: String
    package var flavour: Flavour
    /// The contract version that added it: 1 (`lua-api.md`), 2 (`lifecycle.md`), 3 (`v3.md`).
    package var version: Int
    /// Where a scenario calls it under its app table (`users.update` for `app.users.update`); nil for an
    /// operation only HTTP reaches.
    package var lua: String?
    /// Its arguments in the order a Lua call passes them; also the names a fault's `when(args)` sees.
    package var arguments: [ArgumentDeclaration]
    /// The vendor routes that run it (none for a Lua-only operation).
    package var routes: [RouteDeclaration]
    /// The checks in the order they run: the first that applies decides the answer.
    package var checks: [Check]
    /// What a Lua call returns on success.
    package var result: ResultKind
    /// True when the adapters answer it by reading what the app holds (no domain method): they check its
    /// faults with `checkAdapterFaults`.
    package var answeredByAdapter: Bool
    /// The domain method it performs (faults checked first, with the arguments as read): the generic adapters
    /// (Lua's `OperationAdapter`, HTTP's `VendorAdapter`) call it. Nil for an operation still answered by a
    /// hand-written binding or handler.
    package var perform: Performer?
    /// The arguments' names, in order.
    package let argumentNames: [String]

    package init(
        _ name: String, _ flavour: Flavour, version: Int = 1, lua: String?, arguments: [ArgumentDeclaration] = [],
        routes: [RouteDeclaration] = [], checks: [Check] = [.fault], result: ResultKind, answeredByAdapter: Bool = false,
        perform: Performer? = nil
    ) {
        self.name = name
        self.flavour = flavour
        self.version = version
        self.lua = lua
        self.arguments = arguments
        self.routes = routes
        self.checks = checks
        self.result = result
        self.answeredByAdapter = answeredByAdapter
        self.perform = perform
        argumentNames = arguments.map(\.name)
    }

    /// The argument named `name`.
    package func argument(_ name: String) -> ArgumentDeclaration? {
        arguments.first { $0.name == name }
    }

    /// The table a scenario finds it in (`users` for `users.update`) and its name there (`update`).
    package var luaTableAndFunction: (table: String, function: String)? {
        guard let lua, let dot = lua.lastIndex(of: ".") else { return nil }
        return (String(lua[..<dot]), String(lua[lua.index(after: dot)...]))
    }

    /// `users.update(objectId, props, token)`: the call as the docs show it.
    package var luaSignature: String? {
        guard let lua else { return nil }
        if arguments.count == 1, case .table = arguments[0].type { return "\(lua){...}" }
        return "\(lua)(\(arguments.map { $0.optional ? "\($0.name)?" : $0.name }.joined(separator: ", ")))"
    }

    /// The check order as text, `fault` first (`["fault", "3064", ...]`).
    package var checkNames: [String] { checks.map(\.name) }
}

/// One argument of an operation.
package struct ArgumentDeclaration: Sendable, Hashable {
    /// The contract's parameter name: what misuse messages, LuaLS stubs and `when(args)` call it.
    package var name: String
    package var type: ArgumentType
    /// May be nil (absent) in Lua, and absent over HTTP.
    package var optional: Bool
    /// Where a request carries it over HTTP (a route may say otherwise for itself: `RouteDeclaration.sources`).
    package var http: HTTPSource
    /// One line for the docs and the editor types; empty when the name says it all.
    package var summary: String
    /// What an optional argument is when a Lua call leaves it out (nil: absent).
    package var defaultValue: String?
    /// The named reader the Lua adapter reads it with, where its declared type does not say all a scenario's
    /// table may hold (nil: read as its type says).
    package var luaReader: LuaArgumentReader?
    /// How a Lua call's misuse messages word this table field, where its type's own words are not the contract's.
    package var misuse = FieldMisuse()

    package init(_ name: String, _ type: ArgumentType, optional: Bool = false, from http: HTTPSource, _ summary: String = "") {
        self.name = name
        self.type = type
        self.optional = optional
        self.http = http
        self.summary = summary
    }

    /// This argument, read from Lua by `reader`.
    package func readInLua(by reader: LuaArgumentReader) -> Self {
        var copy = self
        copy.luaReader = reader
        return copy
    }

    /// This argument, taken as `value` when a Lua call leaves it out.
    package func defaulting(to value: String) -> Self {
        var copy = self
        copy.defaultValue = value
        return copy
    }

    /// This table field, its Lua misuse worded as `misuse` says.
    package func worded(_ misuse: FieldMisuse) -> Self {
        var copy = self
        copy.misuse = misuse
        return copy
    }

    /// A string argument.
    package static func string(_ name: String, optional: Bool = false, from http: HTTPSource, _ summary: String = "") -> Self {
        Self(name, .string, optional: optional, from: http, summary)
    }

    /// A boolean argument.
    package static func boolean(_ name: String, optional: Bool = false, from http: HTTPSource, _ summary: String = "") -> Self {
        Self(name, .boolean, optional: optional, from: http, summary)
    }

    /// One of a few strings (`"ENABLED"` or `"DISABLED"`).
    package static func oneOf(_ name: String, _ choices: [String], optional: Bool = false, from http: HTTPSource, _ summary: String = "") -> Self {
        Self(name, .oneOf(choices), optional: optional, from: http, summary)
    }

    /// A table of properties: string keys; string, number or boolean values.
    package static func properties(_ name: String, optional: Bool = false, from http: HTTPSource, _ summary: String = "") -> Self {
        Self(name, .properties, optional: optional, from: http, summary)
    }

    /// A table with these known fields (any other field is misuse); `when(args)` sees it as `args.NAME` and, for
    /// the first argument, its fields directly (`args.email`).
    package static func table(
        _ name: String, _ luaType: String, fields: [ArgumentDeclaration], optional: Bool = false, from http: HTTPSource,
        _ summary: String = ""
    ) -> Self {
        Self(name, .table(luaType, fields: fields), optional: optional, from: http, summary)
    }
}

/// What a Lua argument (or a field of a table argument) holds.
package indirect enum ArgumentType: Sendable, Hashable {
    case string
    case integer
    case number
    case boolean
    /// One of these strings.
    case oneOf([String])
    /// A list of strings.
    case strings
    /// A table of strings by string keys (`{ [profile field] = property }`).
    case stringMap
    /// A table of properties: string keys; string, number or boolean values.
    case properties
    /// A table with these known fields; `luaType` names its class in the editor types.
    case table(String, fields: [ArgumentDeclaration])
    /// Any value (a number or a date string, say).
    case any

    /// The type as LuaLS annotations write it.
    package var lua: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .boolean: return "boolean"
        case .oneOf(let choices): return choices.map { "\"\($0)\"" }.joined(separator: "|")
        case .strings: return "string[]"
        case .stringMap: return "table<string, string>"
        case .properties: return "table<string, string|number|boolean>"
        case .table(let name, _): return name
        case .any: return "any"
        }
    }
}

/// Where an argument travels in an HTTP request.
package enum HTTPSource: Sendable, Hashable {
    /// A `{name}` segment of the path, percent-decoded.
    case path(String)
    /// A query item.
    case query(String)
    /// A member of the body (a JSON object, or a form).
    case bodyField(String)
    /// The whole body.
    case body
    /// A request header (`user-token`).
    case header(String)
    /// Worked out by the adapter from the request (prose says how: "the user the path names").
    case resolved(String)
    /// Not carried over HTTP.
    case none

    /// How the docs show it: `path {objectId}`, `header user-token`, ...
    package var description: String {
        switch self {
        case .path(let name): return "path {\(name)}"
        case .query(let name): return "query \(name)"
        case .bodyField(let name): return "body .\(name)"
        case .body: return "body"
        case .header(let name): return "header \(name)"
        case .resolved(let how): return how
        case .none: return "—"
        }
    }
}

/// How a Lua call's misuse messages word a table field where its type's own words are not the contract's
/// (`LuaCall` reads a table argument's fields by them; `explain` lists them).
package struct FieldMisuse: Sendable, Hashable {
    /// The parenthesis after "is required" when the field is left out (nil: the field's summary).
    package var required: String?
    /// What a value of another type is said to have to be (`a userID (a string)`; nil: the type's words).
    package var expected: String?
    /// The field is read as a Lua argument of its type is, its misuse naming the value's Lua type (`got table`,
    /// not `got object`): a string; a list of strings (`networks[2] must be a string, got number`); properties
    /// (`property 'age' must be a string, number or boolean, got table`).
    package var luaTypeNames = false
    /// A `oneOf` field takes any string from Lua: the domain method refuses the others with the flavour's error
    /// (as over HTTP), where the choices are only the editor types' hint.
    package var domainChecksChoices = false

    package init(required: String? = nil, expected: String? = nil, luaTypeNames: Bool = false, domainChecksChoices: Bool = false) {
        self.required = required
        self.expected = expected
        self.luaTypeNames = luaTypeNames
        self.domainChecksChoices = domainChecksChoices
    }
}

/// An HTTP method of a declared route.
package enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET", post = "POST", put = "PUT", delete = "DELETE", head = "HEAD", patch = "PATCH"
}

/// What a declared route reads as its body.
package enum RouteBody: Sendable, Hashable {
    /// No body is read.
    case none
    /// A JSON document (an empty body is allowed and seen as no body).
    case json
    /// Text taken as it is (a form the handler reads itself).
    case text
    /// An `application/x-www-form-urlencoded` form, whose fields are the body fields (a JSON object is read too).
    case form
}

/// One vendor route of an operation.
package struct RouteDeclaration: Sendable, Hashable {
    package var method: HTTPMethod
    /// The path under the flavour's prefix (`/users/{objectId}` under `/{appId}/{apiKey}`); a Kii path starting
    /// with `/api/` is taken as it is.
    package var path: String
    package var body: RouteBody
    /// One line for the route listing and the OpenAPI document.
    package var summary: String
    /// Where this route carries an argument when it differs from the argument's own `http`.
    package var sources: [String: HTTPSource]
    /// Tells apart the routes of one operation that different handlers answer (`"legacy"`, `"link"`); nil for
    /// the operation's main handler.
    package var variant: String?
    /// Checks the route makes before reading its arguments (`liveUserToken`, `credentials`).
    package var guards: [RouteGuard] = []
    /// Its reply when it is not the flavour's plain presentation of the result.
    package var reply: ReplyPresenter?
    /// Arguments the adapter works out with a named resolver rather than reading them plainly from their source,
    /// in the order the adapter resolves them (before it reads the others).
    package var resolvers: [ResolvedArgument] = []
    /// Other operations this route answers when the request says so (`GET groups?owner=` is `groups.owned_by`):
    /// the first whose condition holds answers instead, with its own route.
    package var handovers: [RouteHandover] = []

    package init(
        _ method: HTTPMethod, _ path: String, _ body: RouteBody = .none, _ summary: String, sources: [String: HTTPSource] = [:],
        variant: String? = nil
    ) {
        self.method = method
        self.path = path
        self.body = body
        self.summary = summary
        self.sources = sources
        self.variant = variant
    }

    package static func get(_ path: String, _ summary: String, sources: [String: HTTPSource] = [:], variant: String? = nil) -> Self {
        Self(.get, path, .none, summary, sources: sources, variant: variant)
    }

    /// A POST route taking a JSON body.
    package static func post(_ path: String, _ summary: String, sources: [String: HTTPSource] = [:], variant: String? = nil) -> Self {
        Self(.post, path, .json, summary, sources: sources, variant: variant)
    }

    package static func post(_ path: String, _ body: RouteBody, _ summary: String, sources: [String: HTTPSource] = [:], variant: String? = nil) -> Self {
        Self(.post, path, body, summary, sources: sources, variant: variant)
    }

    /// A PUT route taking a JSON body.
    package static func put(_ path: String, _ summary: String, sources: [String: HTTPSource] = [:], variant: String? = nil) -> Self {
        Self(.put, path, .json, summary, sources: sources, variant: variant)
    }

    package static func delete(_ path: String, _ summary: String, sources: [String: HTTPSource] = [:], variant: String? = nil) -> Self {
        Self(.delete, path, .none, summary, sources: sources, variant: variant)
    }

    /// This route, making `guards` first.
    package func guarded(_ guards: RouteGuard...) -> Self {
        var copy = self
        copy.guards += guards
        return copy
    }

    /// This route, answering with `presenter`.
    package func replying(_ presenter: ReplyPresenter) -> Self {
        var copy = self
        copy.reply = presenter
        return copy
    }

    /// This route, working `argument` out with `resolver`.
    package func resolving(_ argument: String, _ resolver: ArgumentResolver) -> Self {
        var copy = self
        copy.resolvers.append(ResolvedArgument(name: argument, resolver: resolver))
        return copy
    }

    /// This route, answering `operation` (a name of the same flavour) instead when `condition` holds, the route
    /// then carrying the arguments at `sources`.
    package func handingOver(
        to operation: String, when condition: HandoverCondition, sources: [String: HTTPSource] = [:],
        resolving resolvers: [String: ArgumentResolver] = [:]
    ) -> Self {
        var route = self
        route.handovers = []
        route.sources.merge(sources) { $1 }
        for (name, resolver) in resolvers.sorted(by: { $0.key < $1.key }) { route.resolvers.append(ResolvedArgument(name: name, resolver: resolver)) }
        var copy = self
        copy.handovers.append(RouteHandover(operation: operation, condition: condition, route: route))
        return copy
    }

    /// The same route in each scope: Kii's `{scope}` is empty (the app's) or `users/{userID}/` (a user's), so
    /// `scoped(["", "/users/{userID}"], .put("/topics/{topicID}", ...))` declares both.
    package static func scoped(_ prefixes: [String], _ route: RouteDeclaration) -> [RouteDeclaration] {
        prefixes.map { prefix in
            var copy = route
            copy.path = prefix + route.path
            return copy
        }
    }

    /// The route's full path template: under `/{appId}/{apiKey}` (Backendless) or `/api/apps/{appID}` (Kii; a
    /// path that starts with `/api/` is taken as it is).
    package func fullPath(of flavour: Flavour) -> String {
        switch flavour {
        case .backendless: return "/{appId}/{apiKey}" + path
        case .kii: return path.hasPrefix("/api/") ? path : "/api/apps/{appID}" + path
        }
    }

    /// Where this route carries `argument`.
    package func source(of argument: ArgumentDeclaration) -> HTTPSource {
        sources[argument.name] ?? argument.http
    }
}

/// One step of an operation's order of checks: an injected fault, or an error code of the flavour.
package enum Check: Sendable, Hashable, ExpressibleByIntegerLiteral {
    /// `faults.inject` on this operation: always the first check.
    case fault
    /// A Backendless error code (`3064`).
    case backendless(Int)
    /// A Kii `errorCode` (`USER_NOT_FOUND`).
    case kii(String)

    package init(integerLiteral value: Int) { self = .backendless(value) }

    /// How docs, `explain` and `--codes` write it.
    package var name: String {
        switch self {
        case .fault: return "fault"
        case .backendless(let code): return String(code)
        case .kii(let code): return code
        }
    }
}

/// What an operation returns to Lua on success.
package enum ResultKind: Sendable, Hashable {
    /// A record (`BackendlessUser user`).
    case record(String, String)
    /// A record, or nil when there is none (no error).
    case optionalRecord(String)
    /// `true`.
    case `true`
    /// A value of this LuaLS type, with a name (`string link`).
    case value(String, String)
    /// Nothing a scenario can call (HTTP only).
    case http

    /// The LuaLS type of a success.
    package var lua: String {
        switch self {
        case .record(let type, _): return type
        case .optionalRecord(let type): return "\(type)|nil"
        case .true: return "true"
        case .value(let type, _): return type
        case .http: return "nil"
        }
    }
}

extension Operation {
    /// The contract version that added it.
    package var version: Int { declaration.version }

    /// True for operations the adapters answer without a domain call (reading what the app holds): the adapter
    /// checks their faults with `checkAdapterFaults`.
    package var isAnsweredByAdapter: Bool { declaration.answeredByAdapter }

    /// A fault predicate's arguments for this call: `values` in the declared order.
    package func faultArguments(_ values: [Value]) -> FaultArguments {
        FaultArguments(declaration, values)
    }

    /// Every operation's declaration, in declaration order.
    package static var declarations: [OperationDeclaration] { allCases.map(\.declaration) }
}

/// The arguments of one call, as a fault's `when(args)` predicate sees them, from Lua and over HTTP alike: each by
/// its declared name and by position (`args.objectId`, `args[1]`), and the fields of a table first argument
/// directly (`args.email` for `users.register{ email = ... }`).
package struct FaultArguments: Sendable, Hashable {
    /// The declared names, in order.
    package let names: [String]
    /// The values, in the same order; `.null` for an absent optional argument.
    package let values: [Value]
    /// True when the first argument is a table whose fields are also seen directly.
    package let spreadsFirstTable: Bool

    package init(_ declaration: OperationDeclaration, _ values: [Value]) {
        // A programming error the tests catch (debug builds stop here); a release build pads or trims rather than trap.
        assert(
            values.count == declaration.arguments.count,
            "\(declaration.name) declares \(declaration.arguments.count) arguments; its fault check gave \(values.count)"
        )
        names = declaration.arguments.map(\.name)
        self.values = Array((values + Array(repeating: Value.null, count: max(0, names.count - values.count))).prefix(names.count))
        switch declaration.arguments.first?.type {
        case .table?, .properties?: spreadsFirstTable = true
        default: spreadsFirstTable = false
        }
    }

    /// The argument named `name`.
    package subscript(name: String) -> Value? {
        names.firstIndex(of: name).map { values[$0] }
    }

    /// The arguments as one object by name (for journals and tests).
    package var object: Value {
        var object: [String: Value] = [:]
        if spreadsFirstTable, case .object(let fields)? = values.first { object = fields }
        for (name, value) in zip(names, values) { object[name] = value }
        return .object(object)
    }
}

/// Another operation a route answers when the request says so, and the route as it answers it.
package struct RouteHandover: Sendable, Hashable {
    /// The operation's name (`groups.owned_by`).
    package var operation: String
    package var condition: HandoverCondition
    package var route: RouteDeclaration
}

/// What a request carries for a route to hand it over to another operation.
package enum HandoverCondition: Sendable, Hashable {
    /// This query item is present.
    case query(String)
    /// The JSON body is an object with member `member` and without member `without` (`POST users/login` with an
    /// `objectId` and no `login` is `users.login_by_id`, the JS SDK's `login(objectId)`).
    case bodyMember(String, without: String)
}

/// An argument a route works out with a named resolver.
package struct ResolvedArgument: Sendable, Hashable {
    package var name: String
    package var resolver: ArgumentResolver
}

/// The misuse messages a declared argument implies, written once: the Lua adapter raises them (`LuaCall`) and
/// `understudy explain CALL` lists them.
extension ArgumentDeclaration {
    /// What a value of the argument must be, as a message says it (`a table`, `"ENABLED" or "DISABLED"`).
    package var expectation: String {
        switch type {
        case .string: return "a string"
        case .oneOf(let choices):
            let listed = choices.map { "\"\($0)\"" }
            return listed.count > 1 ? listed.dropLast().joined(separator: ", ") + " or " + listed.last! : listed.joined()
        case .boolean: return "a boolean"
        case .number: return "a number"
        case .integer: return "an integer"
        case .properties, .table: return "a table"
        case .strings: return "a list of strings"
        case .stringMap: return "a table of strings by name"
        case .any: return "a value"
        }
    }

    /// The message for a required argument left out (nil), at `position` (1-based); nil for an optional one.
    package func missingMessage(at position: Int) -> String? {
        if optional { return nil }
        switch type {
        case .string, .oneOf: return "\(name) (argument \(position)) must be a string, got nil"
        default: return "\(name) (argument \(position)) must be \(expectation), got nil"
        }
    }

    /// The message for a string that is none of a `oneOf` argument's choices.
    package func choiceMessage(at position: Int, got text: String) -> String {
        "\(name) (argument \(position)) must be \(expectation), got \"\(text)\""
    }

    /// The message for a required field of a table argument left out (`registration.token is required (...)`).
    package func missingFieldMessage(in table: String) -> String {
        let hint = misuse.required ?? summary
        return "\(table).\(name) is required" + (hint.isEmpty ? "" : " (\(hint))")
    }
}

extension OperationDeclaration {
    /// The misuse messages its Lua call can raise for a required argument left out, a choice not among its
    /// choices, a required table field left out and an unknown field, prefixed with its name as raised.
    package var misuseExamples: [String] {
        var messages: [String] = []
        for (offset, argument) in arguments.enumerated() {
            let position = offset + 1
            if let missing = argument.missingMessage(at: position) { messages.append("\(name): \(missing)") }
            if case .oneOf = argument.type { messages.append("\(name): \(argument.choiceMessage(at: position, got: "…"))") }
            if case .table(_, let fields) = argument.type {
                for field in fields where !field.optional { messages.append("\(name): \(field.missingFieldMessage(in: argument.name))") }
                let known = fields.map(\.name).joined(separator: ", ")
                messages.append("\(name): the \(argument.name) has an unknown field '…' (known fields: \(known))")
            }
        }
        return messages
    }
}
