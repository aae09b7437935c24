import Testing
import Understudy

/// The declarations are the one source the bindings, routes, fault arguments and docs derive from: these checks
/// keep each one coherent on its own.
@Suite("Operation declarations")
struct OperationDeclarationTests {
    static let all = BackendlessOperation.declarations + KiiOperation.declarations

    @Test("each declaration names its operation, and Lua paths and routes are unique within a flavour")
    func unique() {
        #expect(BackendlessOperation.declarations.map(\.name) == BackendlessOperation.names)
        #expect(KiiOperation.declarations.map(\.name) == KiiOperation.names)
        for flavour in Flavour.allCases {
            let declarations = Self.all.filter { $0.flavour == flavour }
            let paths = declarations.compactMap(\.lua)
            #expect(Set(paths).count == paths.count, "\(flavour): two operations at one Lua path")
            let routes = declarations.flatMap { $0.routes.map { "\($0.method.rawValue) \($0.path)" } }
            #expect(Set(routes).count == routes.count, "\(flavour): two operations on one route")
        }
    }

    @Test("every declaration can be reached, and its arguments have distinct names")
    func reachable() {
        for declaration in Self.all {
            #expect(declaration.lua != nil || !declaration.routes.isEmpty, "\(declaration.name) is reachable from nowhere")
            let names = declaration.arguments.map(\.name)
            #expect(Set(names).count == names.count, "\(declaration.name) names an argument twice")
            #expect(declaration.checks.first == .fault, "\(declaration.name): an injected fault is checked first")
            if declaration.lua == nil { #expect(declaration.result == .http, "\(declaration.name) is HTTP only") }
        }
    }

    @Test("every {parameter} of a route is where an argument comes from, or one the adapter resolves")
    func pathParameters() {
        // What adapters work out from a path segment rather than take as an argument's value.
        let resolved: Set<String> = ["appId", "apiKey", "appID", "user", "token", "table"]
        for declaration in Self.all {
            for route in declaration.routes {
                var sourced: Set<String> = []
                func collect(_ argument: ArgumentDeclaration) {
                    if case .path(let name) = route.source(of: argument) { sourced.insert(name) }
                    if case .table(_, let fields) = argument.type { fields.forEach(collect) }
                }
                declaration.arguments.forEach(collect)
                let parameters = route.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
                // A route may say that its adapter folds a parameter into an argument (`.resolved("… {objectId}")`).
                let folded = route.sources.values.contains { source in
                    if case .resolved(let how) = source { return parameters.contains { how.contains("{\($0)}") } }
                    return false
                }
                for parameter in parameters {
                    let foldedHere = folded && route.sources.values.contains { source in
                        if case .resolved(let how) = source { return how.contains("{\(parameter)}") }
                        return false
                    }
                    #expect(sourced.contains(parameter) || resolved.contains(parameter) || foldedHere,
                            "\(declaration.name) \(route.path): {\(parameter)} feeds no argument")
                }
                for name in sourced { #expect(parameters.contains(name), "\(declaration.name) \(route.path) has no {\(name)}") }
            }
        }
    }

    @Test("a fault predicate's arguments are the declared names, by position and by name, and a table's fields")
    func faultArguments() {
        let update = BackendlessOperation.updateUser.faultArguments(["u1", .object(["name": "Jim"]), "t1"])
        #expect(update.names == ["objectId", "props", "token"])
        #expect(update["props"] == .object(["name": "Jim"]))
        #expect(update.object == .object(["objectId": "u1", "props": .object(["name": "Jim"]), "token": "t1"]))
        let register = KiiOperation.register.faultArguments([.object(["username": "bond"])])
        #expect(register.object == .object(["username": "bond", "registration": .object(["username": "bond"])]))
        #expect(BackendlessOperation.login.declaration.arguments.map(\.name) == ["identity_value", "password"])
    }

    @Test("the check order explain and --codes use is the declarations'")
    func checkOrder() {
        #expect(ErrorCatalogue.checkOrder(of: .backendless)["users.update"]
                == ["fault", "3064", "3030", "3029", "3072", "3096", "3040", "3018", "3050", "3045", "8000"])
        #expect(ErrorCatalogue.checkOrder(of: .kii)["users.me"] == ["fault", "WRONG_TOKEN"])
        #expect(ErrorCatalogue.checkOrder(of: .kii)["users.resend_email_verification"]?.first == "fault")
    }
}
