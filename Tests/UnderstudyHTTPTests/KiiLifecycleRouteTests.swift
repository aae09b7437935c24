import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP

// MARK: Helpers

/// The headers the Kii JS SDK sends for anonymous calls: lower-case `x-kii-appid` / `x-kii-appkey`.
private let jsAppHeaders: HTTPFields = {
    var fields = HTTPFields()
    fields[HTTPField.Name("x-kii-appid")!] = DefaultApps.kiiAppID
    fields[HTTPField.Name("x-kii-appkey")!] = DefaultApps.kiiAppKey
    return fields
}()

private let appBasic: HTTPFields = [
    .authorization: "Basic " + Data("\(DefaultApps.kiiAppID):key".utf8).base64EncodedString()
]

/// `authorization: bearer TOKEN`, in lower case as the JS SDK sends it.
private func jsBearer(_ token: String, contentType: String? = nil) -> HTTPFields {
    var fields = HTTPFields()
    fields[HTTPField.Name("authorization")!] = "bearer \(token)"
    if let contentType { fields[.contentType] = contentType }
    return fields
}

private func onKii<T: Sendable>(_ server: UnderstudyServer, _ body: (KiiApp) throws -> T) rethrows -> T {
    try server.withStage { stage in try body(stage.world.kii(id: DefaultApps.kiiAppID)!) }
}

extension TestClientProtocol {
    /// Signs `bond007` up (email and phone verified: verification is off) and returns the access token.
    fileprivate func bondToken(username: String = "bond007", email: String = "bond@mi6.co.uk", phone: String = "+819012345678") async throws -> String {
        let signUp = try await send(
            .post, "\(kii)/users",
            json: #"{"loginName":"\#(username)","emailAddress":"\#(email)","phoneNumber":"\#(phone)","password":"martini"}"#,
            headers: appBasic
        )
        #expect(signUp.status == 201, "\(signUp.text)")
        let login = try await send(
            .post, "\(kii)/oauth2/token", json: #"{"username":"\#(username)","password":"martini"}"#, headers: appBasic
        )
        return try #require(login.json("access_token")?.stringValue)
    }

    fileprivate func me(_ token: String) async throws -> TestReply {
        try await send(.get, "\(kii)/users/me", headers: jsBearer(token))
    }
}

@Suite("Kii lifecycle over HTTP")
struct KiiLifecycleRouteTests {
    @Test("the JS SDK's email reset: 204, the link's page emails a new password, old tokens answer 403 WRONG_TOKEN")
    func emailResetAndLink() async throws {
        try await withServer { server, client in
            let token = try await client.bondToken()
            var headers = jsAppHeaders
            headers[.contentType] = "application/json"
            let request = try await client.send(.post, "\(kii)/users/EMAIL:bond%40mi6.co.uk/password/request-reset", text: "", headers: headers)
            #expect(request.status == 204)
            #expect(request.text.isEmpty)
            let link = try #require(onKii(server) { $0.outbox.emails.last?.link })
            let path = String(link.dropFirst("http://127.0.0.1:0".count))
            let page = try await client.send(.get, path)
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains("has been reset"))
            let done = try #require(onKii(server) { $0.outbox.emails.last })
            #expect(done.kind == .passwordResetDone)
            let password = try #require(done.password)
            let relogin = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"username":"bond007","password":"\#(password)"}"#, headers: appBasic
            )
            #expect(relogin.status == 200)
            let stale = try await client.me(token)
            #expect(stale.status == 403)
            #expect(stale.json("errorCode") == "WRONG_TOKEN")

            let again = try await client.send(.get, path)
            #expect(again.status == 404)
            #expect(again.text.contains("already been used"))
        }
    }

    @Test("the reset page escapes what it echoes and never holds a bare %")
    func resetPageEscapes() async throws {
        try await withServer { _, client in
            let page = try await client.send(.get, "\(kii)/password-reset?code=%3Cscript%3E%25")
            #expect(page.status == 404)
            #expect(!page.text.contains("<script>"))
            #expect(!page.text.contains("%"))
        }
    }

    @Test("an SMS PIN reset: a wrong PIN is 403 and keeps the PIN; the right one is 204 and ends tokens")
    func pinReset() async throws {
        try await withServer { server, client in
            let token = try await client.bondToken()
            var headers = jsAppHeaders
            headers[.contentType] = "application/vnd.kii.ResetPasswordRequest+json"
            let request = try await client.send(
                .post, "\(kii)/users/PHONE:%2B819012345678/password/request-reset",
                json: #"{"notificationMethod":"SMS","smsResetMethod":"PIN"}"#, headers: headers
            )
            #expect(request.status == 204)
            let pin = try #require(onKii(server) { $0.outbox.sms.last?.code })
            headers[.contentType] = "application/vnd.kii.CompletePasswordResetRequest+json"
            let wrong = try await client.send(
                .post, "\(kii)/users/LOGIN_NAME:bond007/password/complete-reset",
                json: #"{"pinCode":"x","newPassword":"shaken"}"#, headers: headers
            )
            #expect(wrong.status == 403)
            #expect(wrong.json("errorCode") == "INVALID_VERIFICATION_CODE")
            let right = try await client.send(
                .post, "\(kii)/users/LOGIN_NAME:bond007/password/complete-reset",
                json: #"{"pinCode":"\#(pin)","newPassword":"shaken"}"#, headers: headers
            )
            #expect(right.status == 204)
            #expect(try await client.me(token).status == 403)
        }
    }

    @Test("a bad reset request changes nothing: unknown method 400, non-JSON body 400, a user id with path characters 404")
    func badResetRequests() async throws {
        try await withServer { server, client in
            _ = try await client.bondToken()
            let method = try await client.send(
                .post, "\(kii)/users/LOGIN_NAME:bond007/password/request-reset", json: #"{"notificationMethod":"PIGEON"}"#,
                headers: appBasic
            )
            #expect(method.status == 400)
            #expect(method.json("field") == "notificationMethod")
            let notJSON = try await client.send(
                .post, "\(kii)/users/LOGIN_NAME:bond007/password/request-reset", json: "{oops", headers: appBasic
            )
            #expect(notJSON.status == 400)
            #expect(notJSON.json("errorCode") == "INVALID_JSON")
            let path = try await client.send(.post, "\(kii)/users/..%2F..%2Fetc/password/request-reset", headers: appBasic)
            #expect(path.status == 404)
            #expect(path.json("errorCode") == "USER_NOT_FOUND")
            #expect(onKii(server) { $0.outbox.emails.isEmpty && $0.outbox.sms.isEmpty })
        }
    }

    @Test("changing the password: 204, then the old token answers 403 WRONG_TOKEN on every route")
    func changePassword() async throws {
        try await withServer { _, client in
            let token = try await client.bondToken()
            let wrong = try await client.send(
                .put, "\(kii)/users/me/password", json: #"{"oldPassword":"nope","newPassword":"shaken"}"#,
                headers: jsBearer(token, contentType: "application/vnd.kii.ChangePasswordRequest+json")
            )
            #expect(wrong.status == 401)
            #expect(wrong.json("errorCode") == "WRONG_PASSWORD")
            let changed = try await client.send(
                .put, "\(kii)/users/me/password", json: #"{"oldPassword":"martini","newPassword":"shaken"}"#,
                headers: jsBearer(token, contentType: "application/vnd.kii.ChangePasswordRequest+json")
            )
            #expect(changed.status == 204)
            #expect(try await client.me(token).json("errorCode") == "WRONG_TOKEN")
            let install = try await client.send(
                .post, "\(kii)/installations", json: #"{"deviceType":"MQTT"}"#, headers: jsBearer(token)
            )
            #expect(install.status == 403)
            let update = try await client.send(.post, "\(kii)/users/me", json: "{}", headers: jsBearer(token))
            #expect(update.status == 403)
        }
    }

    @Test("update answers 200 {modifiedAt}; the record shows custom fields, and ones not sent again are deleted")
    func updateMergeRule() async throws {
        try await withServer { _, client in
            let token = try await client.bondToken()
            let headers = jsBearer(token, contentType: "application/vnd.kii.UserUpdateRequest+json")
            let first = try await client.send(
                .post, "\(kii)/users/me", json: #"{"displayName":"James","score":7,"motto":"100% shaken"}"#, headers: headers
            )
            #expect(first.status == 200)
            #expect(first.header("Content-Type") == "application/vnd.kii.UserDataRetrievalResponse+json")
            guard case .integer? = first.json("modifiedAt") else {
                Issue.record("modifiedAt is not a number: \(first.text)")
                return
            }
            let record = try await client.me(token)
            #expect(record.json("score") == .integer(7))
            #expect(record.json("motto") == "100% shaken")
            #expect(!record.text.contains("%"), "a bare % would break the JS SDK's decodeURIComponent")
            #expect(record.text.contains(#"100\u0025 shaken"#))

            // What the JS SDK sends back: everything it read, internalUserID included.
            let internalID = try #require(record.json("internalUserID"))
            let second = try await client.send(
                .post, "\(kii)/users/me", json: #"{"internalUserID":\#(JSONWriter.string(internalID)),"rank":"captain"}"#,
                headers: headers
            )
            #expect(second.status == 200, "\(second.text)")
            let after = try await client.me(token)
            #expect(after.json("displayName") == "James")
            #expect(after.json("score") == nil)
            #expect(after.json("rank") == "captain")

            let refused = try await client.send(.post, "\(kii)/users/me", json: #"{"password":"x","rank":"admiral"}"#, headers: headers)
            #expect(refused.status == 400)
            #expect(refused.json("field") == "password")
            #expect(try await client.me(token).json("rank") == "captain")
        }
    }

    @Test("deleting: 204, the token dies, the username is free again")
    func deleteUser() async throws {
        try await withServer { _, client in
            let token = try await client.bondToken()
            let deleted = try await client.send(.delete, "\(kii)/users/me", headers: jsBearer(token))
            #expect(deleted.status == 204)
            #expect(try await client.me(token).status == 403)
            _ = try await client.bondToken()
        }
    }

    @Test("disabling takes app credentials; a disabled user cannot log in and the status reads back")
    func disable() async throws {
        try await withServer { _, client in
            let token = try await client.bondToken()
            let byUser = try await client.send(.put, "\(kii)/users/me/status", json: #"{"disabled":true}"#, headers: jsBearer(token))
            #expect(byUser.status == 401)
            let put = try await client.send(
                .put, "\(kii)/users/LOGIN_NAME:bond007/status", json: #"{"disabled":true}"#, headers: appBasic
            )
            #expect(put.status == 204)
            let status = try await client.send(.get, "\(kii)/users/LOGIN_NAME:bond007/status", headers: appBasic)
            #expect(status.json("disabled") == true)
            let login = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"username":"bond007","password":"martini"}"#, headers: appBasic
            )
            #expect(login.status == 400)
            #expect(login.json("errorCode") == "invalid_grant")
            #expect(try await client.me(token).status == 403)
        }
    }

    @Test("installations: 201 with Location, read by id and by type:regID, moved to a new owner, deleted")
    func installations() async throws {
        try await withServer { _, client in
            let alice = try await client.bondToken()
            let bob = try await client.bondToken(username: "bob", email: "bob@mi6.co.uk", phone: "+819012345679")
            let type = "application/vnd.kii.InstallationCreationRequest+json"
            let created = try await client.send(
                .post, "\(kii)/installations", json: #"{"installationRegistrationID":"fcm:1","deviceType":"ANDROID","development":true}"#,
                headers: jsBearer(alice, contentType: type)
            )
            #expect(created.status == 201)
            #expect(created.header("Content-Type") == "application/vnd.kii.InstallationCreationResponse+json")
            let id = try #require(created.json("installationID")?.stringValue)
            #expect(created.header("Location")?.hasSuffix("/installations/\(id)") == true)

            let byKey = try await client.send(.get, "\(kii)/installations/ANDROID:fcm:1", headers: jsBearer(alice))
            #expect(byKey.json("installationID")?.stringValue == id)
            #expect(byKey.json("development") == true)
            #expect(try await client.send(.get, "\(kii)/installations/\(id)", headers: jsBearer(bob)).status == 401)

            let moved = try await client.send(
                .post, "\(kii)/installations", json: #"{"installationRegistrationID":"fcm:1","deviceType":"ANDROID"}"#,
                headers: jsBearer(bob, contentType: type)
            )
            #expect(moved.status == 201)
            #expect(moved.json("installationID")?.stringValue == id)
            let owner = try await client.send(.get, "\(kii)/installations/\(id)", headers: appBasic)
            #expect(owner.json("userID") != byKey.json("userID"))

            #expect(try await client.send(.delete, "\(kii)/installations/ANDROID:fcm:1", headers: jsBearer(bob)).status == 204)
            let gone = try await client.send(.get, "\(kii)/installations/\(id)", headers: jsBearer(bob))
            #expect(gone.status == 404)
            #expect(gone.json("errorCode") == "INSTALLATION_NOT_FOUND")
        }
    }

    @Test("bad installations change nothing: unknown type, a 10 kB registration id, a body that is not JSON")
    func badInstallations() async throws {
        try await withServer { server, client in
            let token = try await client.bondToken()
            let cases = [
                #"{"installationRegistrationID":"x","deviceType":"FAX"}"#,
                #"{"installationRegistrationID":"\#(String(repeating: "x", count: 10_240))","deviceType":"IOS"}"#,
                #"{"deviceType":"ANDROID"}"#,
                "not json",
            ]
            for body in cases {
                let reply = try await client.send(.post, "\(kii)/installations", json: body, headers: jsBearer(token))
                #expect(reply.status == 400, "\(body.prefix(60)): \(reply.text)")
                #expect(reply.text.utf8.count < 1000, "the error does not echo the whole registration id")
            }
            #expect(onKii(server) { app in app.allUsers.allSatisfy { app.installations(userID: $0.userID).isEmpty } })
        }
    }

    @Test("the MQTT endpoint answers the broker's credentials and address, the same on every call (contract v4)")
    func mqttEndpoint() async throws {
        var options = ServerOptions(port: 0, clockStart: VirtualClock.start)
        options.mqttPort = 1999
        try await withServer(options) { _, client in
            let token = try await client.bondToken()
            let created = try await client.send(.post, "\(kii)/installations", json: #"{"deviceType":"MQTT"}"#, headers: jsBearer(token))
            #expect(created.status == 201)
            let id = try #require(created.json("installationID")?.stringValue)
            let endpoint = try await client.send(.get, "\(kii)/installations/\(id)/mqtt-endpoint", headers: jsBearer(token))
            #expect(endpoint.status == 200)
            #expect(endpoint.header("X-MQTT-TTL") == "2147483647")
            #expect(endpoint.json("X-MQTT-TTL") == .integer(2_147_483_647))
            #expect(endpoint.json("installationID") == .string(id))
            #expect(endpoint.json("username") == .string("\(DefaultApps.kiiAppID)/\(id)"))
            #expect(endpoint.json("mqttTopic")?.stringValue?.count == 32)
            #expect(endpoint.json("password")?.stringValue?.count == 32)
            #expect(endpoint.json("host") == "127.0.0.1")
            #expect(endpoint.json("portTCP") == .integer(1999))
            #expect(endpoint.json("portSSL") == .integer(0))
            #expect(endpoint.json("portWSS") == .integer(0))
            let again = try await client.send(.get, "\(kii)/installations/\(id)/mqtt-endpoint", headers: jsBearer(token))
            #expect(again.json == endpoint.json)

            // Another user's token: 401; an installation that is not MQTT: 404 MQTT_ENDPOINT_NOT_FOUND.
            let felix = try await client.bondToken(username: "felix", email: "felix@cia.gov", phone: "+819012345679")
            let foreign = try await client.send(.get, "\(kii)/installations/\(id)/mqtt-endpoint", headers: jsBearer(felix))
            #expect(foreign.status == 401)
            let android = try await client.send(
                .post, "\(kii)/installations", json: #"{"deviceType":"ANDROID","installationRegistrationID":"fcm-1"}"#,
                headers: jsBearer(token)
            )
            let androidID = try #require(android.json("installationID")?.stringValue)
            let notMQTT = try await client.send(.get, "\(kii)/installations/\(androidID)/mqtt-endpoint", headers: jsBearer(token))
            #expect(notMQTT.status == 404)
            #expect(notMQTT.json("errorCode") == "MQTT_ENDPOINT_NOT_FOUND")
        }
    }
}
