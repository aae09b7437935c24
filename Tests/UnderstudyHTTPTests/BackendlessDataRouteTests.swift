import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP

/// The default Backendless app's prefix under the CloudCode key (contract version 4).
let cloudCode = "/\(DefaultApps.backendlessAppID)/UNDERSTUDY-CLOUDCODE-KEY"

@Suite("Backendless contract v4 over HTTP: the Data service on Users, the CloudCode key, roles")
struct BackendlessDataRouteTests {
    /// Registers three users a second apart (so `created` orders them): ann 41, bob 25, cy without age.
    func people(_ server: UnderstudyServer, _ client: some TestClientProtocol) async throws -> [String] {
        var ids: [String] = []
        for body in [
            #"{"email":"ann@example.com","password":"p","name":"Ann","age":41}"#,
            #"{"email":"bob@example.com","password":"p","name":"bob","age":25}"#,
            #"{"email":"cy@example.com","password":"p","name":"Cy"}"#,
        ] {
            let reply = try await client.send(.post, "\(backendless)/users/register", json: body)
            ids.append(try #require(reply.json("objectId")?.stringValue))
            server.withStage { stage in
                guard let app = stage.world.backendless(id: DefaultApps.backendlessAppID) else { return }
                _ = app.moveClock(to: app.clock.now + 1)
            }
        }
        return ids
    }

    /// The `index`th record of a JSON array reply.
    func item(_ reply: TestReply, _ index: Int) -> JSON? {
        guard case .array(let items)? = reply.json, items.indices.contains(index) else { return nil }
        return items[index]
    }

    func emails(_ reply: TestReply) -> [String] {
        guard case .array(let items)? = reply.json else { return [] }
        return items.compactMap { $0["email"]?.stringValue }
    }

    @Test("GET data/Users and POST data/Users/find filter, sort, page and project as the SDKs ask")
    func find() async throws {
        try await withServer { server, client in
            _ = try await people(server, client)
            let get = try await client.send(.get, "\(backendless)/data/Users?where=age%20%3E%2020&sortBy=age%20desc&props=email,age")
            #expect(get.status == 200)
            #expect(emails(get) == ["ann@example.com", "bob@example.com"])
            #expect(item(get, 0)?["objectId"] == nil)
            #expect(item(get, 0)?["___class"] == "Users")
            let post = try await client.send(
                .post, "\(backendless)/data/Users/find",
                json: #"{"where":"name LIKE 'c%' OR age < 30","pageSize":1,"offset":1,"sortBy":"name","props":null,"relationsDepth":2}"#
            )
            #expect(emails(post) == ["cy@example.com"])
            #expect(item(post, 0)?["age"] == .null)
            #expect(item(post, 0)?["password"] == nil)
            let repeated = try await client.send(.get, "\(backendless)/data/Users?property=name&property=email&where=name%3D'BOB'")
            #expect(repeated.json == .array([["name": "bob", "email": "bob@example.com", "___class": "Users"]]))
            let all = try await client.send(.get, "\(backendless)/data/Users")
            #expect(emails(all) == ["ann@example.com", "bob@example.com", "cy@example.com"])
        }
    }

    @Test("A bad where clause is 19000 naming the token and position; an unknown column 1006; another table 1009")
    func queryErrors() async throws {
        try await withServer { server, client in
            _ = try await people(server, client)
            let end = try await client.send(.post, "\(backendless)/data/Users/find", json: #"{"where":"age >"}"#)
            #expect(end.status == 400)
            #expect(end.json("code") == 19000)
            #expect(end.json("message") == "Invalid where clause: end of clause")
            let token = try await client.send(.get, "\(backendless)/data/Users?where=age%20%3D%201%202")
            #expect(token.json("message") == "Invalid where clause: '2' at position 9: expected AND, OR or the end of the clause")
            let relation = try await client.send(.get, "\(backendless)/data/Users?where=friends.name%3D'x'")
            #expect(relation.json("message")?.stringValue?.hasPrefix("Invalid where clause: unsupported by Understudy: relation path") == true)
            let column = try await client.send(.get, "\(backendless)/data/Users?sortBy=Salary")
            #expect(column.json("code") == 1006)
            #expect(column.json("message") == "Column 'Salary' does not exist in table 'Users'")
            let sort = try await client.send(.post, "\(backendless)/data/Users/find", json: #"{"sortBy":"age sideways"}"#)
            #expect(sort.json("code") == 19000)
            let group = try await client.send(.post, "\(backendless)/data/Users/find", json: #"{"groupBy":["age"]}"#)
            #expect(group.json("code") == 19000)
            let table = try await client.send(.get, "\(backendless)/data/Contact")
            #expect(table.status == 400)
            #expect(table.json("code") == 1009)
            #expect(table.json("message")?.stringValue?.contains("'Table not found by name 'Contact'.") == true)
            for (query, code) in [("pageSize=101", 1025), ("pageSize=0", 1005), ("offset=-1", 1004)] {
                let reply = try await client.send(.get, "\(backendless)/data/Users?\(query)")
                #expect(reply.json("code") == .integer(Int64(code)), "\(query)")
            }
        }
    }

    @Test("count, first and last; 1010 when nothing matches")
    func countFirstLast() async throws {
        try await withServer { server, client in
            _ = try await people(server, client)
            #expect(try await client.send(.get, "\(backendless)/data/Users/count?where=age%3E30").json == 1)
            #expect(try await client.send(.post, "\(backendless)/data/Users/count", json: #"{"where":"age IS NULL"}"#).json == 1)
            #expect(try await client.send(.get, "\(backendless)/data/Users/count").json == 3)
            #expect(try await client.send(.get, "\(backendless)/data/Users/first").json("email") == "ann@example.com")
            #expect(try await client.send(.get, "\(backendless)/data/Users/last").json("email") == "cy@example.com")
            #expect(try await client.send(.get, "\(backendless)/data/Users/last?sortBy=name%20desc").json("email") == "ann@example.com")
            let none = try await client.send(.get, "\(backendless)/data/Users/first?where=age%3E100")
            #expect(none.status == 404)
            #expect(none.json("code") == 1010)
        }
    }

    @Test("PUT data/Users creates and updates; PUT data/Users/{id}; GET with props; DELETE answers deletionTime")
    func saveAndRemove() async throws {
        try await withServer { _, client in
            let created = try await client.send(.put, "\(backendless)/data/Users", json: #"{"email":"new@example.com","password":"secret"}"#)
            #expect(created.status == 200)
            #expect(created.json("___class") == "Users")
            #expect(created.json("password") == nil)
            let id = try #require(created.json("objectId")?.stringValue)
            let updated = try await client.send(.put, "\(backendless)/data/Users", json: #"{"objectId":"\#(id)","city":"Oslo"}"#)
            #expect(updated.json("city") == "Oslo")
            let byPath = try await client.send(.put, "\(backendless)/data/Users/\(id)", json: #"{"city":"Bergen"}"#)
            #expect(byPath.json("city") == "Bergen")
            let missing = try await client.send(.put, "\(backendless)/data/Users/6EAFFE12-B424-8C51-FFB0-FE99548CAA00", json: #"{"city":"x"}"#)
            #expect(missing.status == 404)
            #expect(missing.json("code") == 1000)
            let dead = try await client.send(.put, "\(backendless)/data/Users", json: #"{"objectId":"\#(id)","city":"x"}"#, headers: [HTTPField.Name("user-token")!: "gone"])
            #expect(dead.json("code") == 3064)
            let projected = try await client.send(.get, "\(backendless)/data/Users/\(id)?props=city")
            #expect(projected.json == ["city": "Bergen", "___class": "Users"])
            let login = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"new@example.com","password":"secret"}"#)
            #expect(login.status == 200)
            let removed = try await client.send(.delete, "\(backendless)/data/Users/\(id)")
            #expect(removed.json("deletionTime")?.value.numberValue != nil)
            #expect(try await client.send(.get, "\(backendless)/data/Users/\(id)").status == 404)
        }
    }

    @Test("The CloudCode key: login by objectId, status changes; the client key gets 2014 and 3054")
    func cloudCodeKey() async throws {
        try await withServer { server, client in
            let ids = try await people(server, client)
            let refused = try await client.send(.post, "\(backendless)/users/login", json: #"{"objectId":"\#(ids[0])"}"#)
            #expect(refused.status == 400)
            #expect(refused.json("code") == 2014)
            let login = try await client.send(.post, "\(cloudCode)/users/login", json: #"{"objectId":"\#(ids[0])"}"#)
            #expect(login.status == 200)
            #expect(login.json("email") == "ann@example.com")
            #expect(login.json("user-token")?.stringValue != nil)
            let unknown = try await client.send(.post, "\(cloudCode)/users/login", json: #"{"objectId":"nobody"}"#)
            #expect(unknown.json("code") == 3057)
            // v1-v3 calls work under the CloudCode key too
            #expect(try await client.send(.post, "\(cloudCode)/users/login", json: #"{"login":"bob@example.com","password":"p"}"#).status == 200)

            let status = "\(backendless)/users/\(ids[1])/status"
            #expect(try await client.send(.put, status, json: #"{"userStatus":"DISABLED"}"#).json("code") == 3054)
            #expect(try await client.send(.put, status, json: #"{"userStatus":"BANNED"}"#).json("code") == 3054)
            let bad = try await client.send(.put, "\(cloudCode)/users/\(ids[1])/status", json: #"{"userStatus":"BANNED"}"#)
            #expect(bad.json("code") == 8002)
            #expect(bad.json("message")?.stringValue?.contains("userStatus") == true)
            let gone = try await client.send(.put, "\(cloudCode)/users/nobody/status", json: #"{"userStatus":"DISABLED"}"#)
            #expect(gone.status == 404)
            #expect(gone.json("code") == 1000)
            let disabled = try await client.send(.put, "\(cloudCode)/users/\(ids[1])/status", json: #"{"userStatus":"DISABLED"}"#)
            #expect(disabled.status == 200)
            #expect(disabled.text.isEmpty)
            let again = try await client.send(.put, "\(cloudCode)/users/\(ids[1])/status", json: #"{"userStatus":"DISABLED"}"#)
            #expect(again.json("code") == 3085)
            let record = try await client.send(.get, "\(backendless)/data/Users/\(ids[1])")
            #expect(record.json("userStatus") == "DISABLED")
        }
    }

    @Test("Roles: assign and unassign (CloudCode key), a user's roles, the users of a role, the session's roles")
    func roles() async throws {
        let setup = #"local app = understudy.backendless{}; app.roles.define("Editor")"#
        try await withServer(setup: setup) { server, client in
            let ids = try await people(server, client)
            let body = #"{"user":"ann@example.com","roleName":"Editor"}"#
            #expect(try await client.send(.post, "\(backendless)/users/assignRole", json: body).json("code") == 2011)
            let assigned = try await client.send(.post, "\(cloudCode)/users/assignRole", json: body)
            #expect(assigned.status == 200)
            #expect(assigned.text.isEmpty)
            #expect(try await client.send(.post, "\(cloudCode)/users/assignRole", json: #"{"user":"ann@example.com","roleName":"AuthenticatedUser"}"#).json("code") == 2007)
            #expect(try await client.send(.post, "\(cloudCode)/users/assignRole", json: #"{"user":"nobody","roleName":"Editor"}"#).json("code") == 3057)
            #expect(try await client.send(.get, "\(backendless)/users/userroles/\(ids[0])").json("code") == 3081)
            #expect(try await client.send(.get, "\(cloudCode)/users/userroles/\(ids[0])").json == ["AuthenticatedUser", "Editor"])
            let holders = try await client.send(.get, "\(backendless)/users/role/Editor?loadRoles=true&props=email")
            #expect(holders.json == .array([["email": "ann@example.com", "roles": ["Editor"], "___class": "Users"]]))
            #expect(try await client.send(.get, "\(backendless)/users/role/AuthenticatedUser").json("code") == 2003)
            #expect(try await client.send(.get, "\(backendless)/users/role/Nope").json("code") == 2005)
            let login = try await client.send(.post, "\(backendless)/users/login", json: #"{"login":"ann@example.com","password":"p"}"#)
            let token = try #require(login.json("user-token")?.stringValue)
            let mine = try await client.send(.get, "\(backendless)/users/userroles", headers: [HTTPField.Name("user-token")!: token])
            #expect(mine.json == ["AuthenticatedUser", "RestUser", "Editor"])
            #expect(try await client.send(.post, "\(cloudCode)/users/unassignRole", json: body).status == 200)
            #expect(try await client.send(.get, "\(cloudCode)/users/userroles/\(ids[0])").json == ["AuthenticatedUser"])
        }
    }

    @Test("users/userclassprops lists the password column and the Data service's columns")
    func describe() async throws {
        try await withServer { server, client in
            _ = try await people(server, client)
            let reply = try await client.send(.get, "\(backendless)/users/userclassprops")
            guard case .array(let columns)? = reply.json else { Issue.record("not an array"); return }
            let names = columns.compactMap { $0["name"]?.stringValue }
            #expect(names == names.sorted())
            let password = try #require(columns.first { $0["name"] == "password" })
            #expect(password["required"] == true)
            #expect(password["identity"] == false)
            #expect(columns.first { $0["name"] == "age" }?["type"] == "INT")
            #expect(columns.first { $0["name"] == "email" }?["identity"] == true)
        }
    }

    @Test("POST emailtemplate/send sends the template (SDK names), answers scheduled, and the message is published")
    func emailTemplate() async throws {
        let setup = #"local app = understudy.backendless{}; app.email.templates.define{ name = "Offer", subject = "Hi {Users.name}", body = "{discount}% off" }"#
        try await withServer(setup: setup) { server, client in
            _ = try await people(server, client)
            let reply = try await client.send(
                .post, "\(backendless)/emailtemplate/send",
                json: #"{"template-name":"Offer","criteria":"age > 30","addresses":["bob@example.com"],"template-values":{"discount":15},"attachment":["x.pdf"]}"#
            )
            #expect(reply.status == 200)
            #expect(reply.json("status") == "scheduled")
            #expect(reply.json("errorMessage") == .null)
            let id = try #require(reply.json("messageId")?.stringValue)
            let email = server.withStage { $0.world.backendless(id: DefaultApps.backendlessAppID)?.outbox.emails.last }
            #expect(email?.to == "ann@example.com")
            #expect(email?.subject == "Hi Ann")
            #expect(email?.body == "15% off")
            #expect(try await client.send(.get, "\(backendless)/messaging/\(id)").json("status") == "published")
            let unknown = try await client.send(.post, "\(backendless)/emailtemplate/send", json: #"{"template-name":"Nope","addresses":["a@example.com"]}"#)
            #expect(unknown.json("code") == 24002)
            let none = try await client.send(.post, "\(backendless)/emailtemplate/send", json: #"{"template-name":"Offer","cc-addresses":["a@example.com"]}"#)
            #expect(none.json("code") == 5048)
        }
    }
}
