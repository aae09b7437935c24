import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP
import UnderstudyLua

// MARK: Helpers

/// `Authorization: Basic base64(appID:key)`; Kii checks only the app id.
private func basic(_ appID: String = DefaultApps.kiiAppID, key: String = "any-value") -> HTTPFields {
    [.authorization: "Basic " + Data("\(appID):\(key)".utf8).base64EncodedString()]
}

private let appAuth = basic()

private func bearer(_ token: String) -> HTTPFields {
    [.authorization: "Bearer \(token)"]
}

private func kiiHeaders(id: String = DefaultApps.kiiAppID, key: String = DefaultApps.kiiAppKey) -> HTTPFields {
    var fields = HTTPFields()
    fields[HTTPField.Name("X-Kii-AppID")!] = id
    fields[HTTPField.Name("X-Kii-AppKey")!] = key
    return fields
}

/// Runs `body` on the default Kii app, under the server's lock.
private func onKii<T: Sendable>(_ server: UnderstudyServer, _ body: (KiiApp) throws -> T) rethrows -> T {
    try server.withStage { stage in try body(stage.world.kii(id: DefaultApps.kiiAppID)!) }
}

extension TestClientProtocol {
    fileprivate func signUp(_ json: String) async throws -> TestReply {
        try await send(.post, "\(kii)/users", json: json, headers: appAuth)
    }

    fileprivate func login(_ username: String, _ password: String) async throws -> TestReply {
        try await send(
            .post, "\(kii)/oauth2/token", json: #"{"grant_type":"password","username":"\#(username)","password":"\#(password)"}"#,
            headers: appAuth
        )
    }

    /// Logs in and returns the access token (fails the test when login fails).
    fileprivate func token(_ username: String, _ password: String) async throws -> String {
        let reply = try await login(username, password)
        #expect(reply.status == 200, "login \(username): \(reply.text)")
        return try #require(reply.json("access_token")?.stringValue)
    }
}

@Suite("Kii over HTTP")
struct KiiRouteTests {
    let bond = #"{"loginName":"Bond007","emailAddress":"bond@mi6.co.uk","phoneNumber":"+819012345678","country":"JP","password":"martini","displayName":"James","locale":"en","score":7,"gadgets":{"pen":true}}"#

    // MARK: Sign-up

    @Test("sign-up answers 201 with Location and the user record, and no token")
    func signUp() async throws {
        try await withServer { _, client in
            let reply = try await client.signUp(bond)
            #expect(reply.status == 201)
            let userID = try #require(reply.json("userID")?.stringValue)
            #expect(reply.header("Location") == "http://127.0.0.1:0/api/apps/\(DefaultApps.kiiAppID)/users/\(userID)")
            #expect(reply.header("Content-Type") == "application/vnd.kii.RegistrationResponse+json")
            guard case .integer(let internalID)? = reply.json("internalUserID") else {
                Issue.record("internalUserID is not a number: \(reply.text)")
                return
            }
            #expect(internalID > 0)
            #expect(reply.json("loginName") == "bond007")
            #expect(reply.json("displayName") == "James")
            #expect(reply.json("locale") == "en")
            #expect(reply.json("emailAddress") == "bond@mi6.co.uk")
            #expect(reply.json("phoneNumber") == "+819012345678")
            #expect(reply.json("country") == "JP")
            #expect(reply.json("emailAddressVerified") == true)
            #expect(reply.json("phoneNumberVerified") == true)
            #expect(reply.json("_hasPassword") == true)
            // Contract v4: every other member of the body is stored as a custom field, any JSON value.
            #expect(reply.json("score") == .integer(7))
            #expect(reply.json("gadgets") == .object([.init("pen", .bool(true))]))
            for absent in ["access_token", "_accessToken", "password"] {
                #expect(reply.json(absent) == nil, "\(absent) in \(reply.text)")
            }

            // The same user again: the same internalUserID through GET.
            let token = try await client.token("bond007", "martini")
            let me = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(me.json("internalUserID") == .integer(internalID))
            #expect(me.json("displayName") == "James")
            #expect(me.json("locale") == "en")
            #expect(me.json("score") == .integer(7))
        }
    }

    @Test("sign-up refuses a reserved custom field name with 400 naming it, storing nothing (contract v4)")
    func signUpReservedNames() async throws {
        try await withServer { _, client in
            for name in ["userID", "internalUserID", "_secret", "hasPassword", "thirdPartyAccounts", "token"] {
                let reply = try await client.signUp(#"{"loginName":"bond","password":"martini","\#(name)":"x"}"#)
                #expect(reply.status == 400, "\(name)")
                #expect(reply.json("errorCode") == "INVALID_INPUT_DATA")
                #expect(reply.json("field") == .string(name))
            }
            #expect(try await client.signUp(#"{"loginName":"bond","password":"martini","displayName":""}"#).json("field") == "displayName")
            #expect(try await client.signUp(#"{"loginName":"bond","password":"martini"}"#).status == 201)
        }
    }

    @Test("sign-up takes the legacy app headers, a vendor content type, or a user's token")
    func signUpCredentials() async throws {
        try await withServer { _, client in
            var headers = kiiHeaders()
            headers[.contentType] = "application/vnd.kii.RegistrationRequest+json"
            let legacy = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"m","password":"pw"}"#, headers: headers)
            #expect(legacy.status == 400)  // reached the rules: `m` is too short
            #expect(legacy.json("field") == "loginName")
            let ok = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"moneypenny","password":"pw12"}"#, headers: headers)
            #expect(ok.status == 201)
            let token = try await client.token("moneypenny", "pw12")
            let byUser = try await client.send(
                .post, "\(kii)/users", json: #"{"loginName":"q-branch","password":"gadgets"}"#, headers: bearer(token)
            )
            #expect(byUser.status == 201)
        }
    }

    @Test("every sign-up error arrives with status, errorCode and field")
    func signUpErrors() async throws {
        try await withServer { _, client in
            #expect(try await client.signUp(bond).status == 201)
            let cases: [(body: String, status: Int, code: String, field: String?)] = [
                (#"{"loginName":"BOND007","password":"pw12"}"#, 409, "USER_ALREADY_EXISTS", "loginName"),
                (#"{"loginName":"other","emailAddress":"BOND@mi6.co.uk","password":"pw12"}"#, 409, "USER_ALREADY_EXISTS", "emailAddress"),
                (#"{"loginName":"other","phoneNumber":"JP-09012345678","password":"pw12"}"#, 409, "USER_ALREADY_EXISTS", "phoneNumber"),
                (#"{"loginName":"no spaces","password":"pw12"}"#, 400, "INVALID_INPUT_DATA", "loginName"),
                (#"{"emailAddress":"not-an-email","password":"pw12"}"#, 400, "INVALID_INPUT_DATA", "emailAddress"),
                (#"{"loginName":"other","country":"jp","password":"pw12"}"#, 400, "INVALID_INPUT_DATA", "country"),
                (#"{"loginName":"other","phoneNumber":"09011112222","password":"pw12"}"#, 400, "INVALID_INPUT_DATA", "country"),
                (#"{"loginName":"other","phoneNumber":"+81312345678","password":"pw12"}"#, 400, "INVALID_INPUT_DATA", "phoneNumber"),
                (#"{"loginName":"other","password":"pw"}"#, 400, "PASSWORD_TOO_SHORT", "password"),
                (#"{"loginName":"other"}"#, 400, "INVALID_INPUT_DATA", "password"),
                (#"{"password":"pw12"}"#, 400, "INVALID_INPUT_DATA", nil),
                (#"{"loginName":7,"password":"pw12"}"#, 400, "INVALID_INPUT_DATA", "loginName"),
                (#"{"loginName":"other","password":1234}"#, 400, "INVALID_INPUT_DATA", "password"),
                (#"{"loginName":"other","password":"pw12","displayName":""}"#, 400, "INVALID_INPUT_DATA", "displayName"),
            ]
            for item in cases {
                let reply = try await client.signUp(item.body)
                #expect(reply.status == item.status, "\(item.body): \(reply.text)")
                #expect(reply.json("errorCode") == .string(item.code), "\(item.body): \(reply.text)")
                #expect(reply.json("field") == item.field.map(JSON.string), "\(item.body): \(reply.text)")
                #expect(reply.json("message")?.stringValue?.isEmpty == false)
            }
            let duplicate = try await client.signUp(#"{"loginName":"BOND007","password":"pw12"}"#)
            #expect(duplicate.json("value") == "bond007")
            #expect(duplicate.json("message") == "User with loginName bond007 already exists")
            #expect(try await client.login("other", "pw12").status == 400)  // nothing was stored
        }
    }

    @Test("without a username, an address that needs verification cannot sign up")
    func verificationCombination() async throws {
        try await withServer { server, client in
            onKii(server) { $0.settings.emailVerification = true }
            let reply = try await client.signUp(#"{"emailAddress":"solo@example.com","password":"pw12"}"#)
            #expect(reply.status == 400)
            #expect(reply.json("errorCode") == "INVALID_INPUT_DATA")
            #expect(reply.json("message")?.stringValue?.contains("email_verification") == true)
        }
    }

    // MARK: Credentials and bodies

    @Test("missing or wrong credentials answer 401 UNAUTHORIZED; an unknown app 404 APP_NOT_FOUND")
    func credentials() async throws {
        try await withServer { _, client in
            let body = #"{"loginName":"felix","password":"leiter"}"#
            var onlyID = HTTPFields()
            onlyID[HTTPField.Name("X-Kii-AppID")!] = DefaultApps.kiiAppID
            let refused: [(String, HTTPFields)] = [
                ("none", [:]),
                ("wrong Basic app id", basic("someone-else")),
                ("Basic not base64", [.authorization: "Basic %%%"]),
                ("wrong app key header", kiiHeaders(key: "wrong")),
                ("app id header alone", onlyID),
                ("unknown token", bearer("no-such-token")),
                ("unknown scheme", [.authorization: "Digest abc"]),
            ]
            for (name, headers) in refused {
                let reply = try await client.send(.post, "\(kii)/users", json: body, headers: headers)
                #expect(reply.status == 401, "\(name): \(reply.text)")
                #expect(reply.json("errorCode") == "UNAUTHORIZED", "\(name)")
            }
            // The key part of Basic may be anything (Kii's docs).
            #expect(try await client.send(.post, "\(kii)/users", json: body, headers: basic(key: "whatever")).status == 201)

            let unknown = try await client.send(.post, "/api/apps/no-such-app/users", json: body, headers: basic("no-such-app"))
            #expect(unknown.status == 404)
            #expect(unknown.json("errorCode") == "APP_NOT_FOUND")
            #expect(unknown.json("appID") == "no-such-app")
        }
    }

    @Test("malformed JSON, a foreign content type and a non-object body are refused in Kii's shape")
    func badBodies() async throws {
        try await withServer { _, client in
            let malformed = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"#, headers: appAuth)
            #expect(malformed.status == 400)
            #expect(malformed.json("errorCode") == "INVALID_JSON")

            for type in ["text/plain", "application/x-www-form-urlencoded", "application/other+json"] {
                var headers = appAuth
                headers[.contentType] = type
                let reply = try await client.send(.post, "\(kii)/users", json: #"{"loginName":"x"}"#, headers: headers)
                #expect(reply.status == 415, "\(type)")
                #expect(reply.json("errorCode") == "UNSUPPORTED_MEDIA_TYPE", "\(type)")
            }

            let array = try await client.send(.post, "\(kii)/users", json: #"[{"loginName":"felix"}]"#, headers: appAuth)
            #expect(array.status == 400)
            #expect(array.json("errorCode") == "INVALID_INPUT_DATA")
            #expect(array.json("message")?.stringValue?.contains("array") == true)
        }
    }

    // MARK: Login

    @Test("the app-scoped token endpoint takes every username form and answers the OAuth2 token")
    func appLogin() async throws {
        try await withServer { server, client in
            let userID = try #require(try await client.signUp(bond).json("userID")?.stringValue)
            for username in [
                "bond007", "BOND007", "bond@mi6.co.uk", "EMAIL:bond@mi6.co.uk", "+819012345678", "PHONE:+819012345678",
                "PHONE:JP-09012345678", "JP-09012345678", "LOGIN_NAME:bond007",
            ] {
                let reply = try await client.login(username, "martini")
                #expect(reply.status == 200, "\(username): \(reply.text)")
                #expect(reply.json("id") == .string(userID), "\(username)")
                #expect(reply.json("expires_in") == 2_147_483_647)
                #expect(reply.json("token_type") == "Bearer")
                #expect(reply.json("access_token")?.stringValue?.count == 43)
            }
            // Without grant_type (as the legacy body), and with expiresAt an hour ahead.
            let now = onKii(server) { $0.clock.milliseconds }
            let expiring = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"username":"bond007","password":"martini","expiresAt":\#(now + 3_600_000)}"#,
                headers: appAuth
            )
            #expect(expiring.status == 200)
            #expect(expiring.json("expires_in") == 3600)
            // The form body the reference lists.
            var form = appAuth
            form[.contentType] = "application/x-www-form-urlencoded"
            let formReply = try await client.send(
                .post, "\(kii)/oauth2/token", text: "grant_type=password&username=EMAIL%3Abond%40mi6.co.uk&password=martini",
                headers: form
            )
            #expect(formReply.status == 200, "\(formReply.text)")
            #expect(formReply.json("id") == .string(userID))
        }
    }

    @Test("login failures answer 400 invalid_grant in the OAuth2 shape, never saying which part was wrong")
    func loginFailures() async throws {
        try await withServer { _, client in
            #expect(try await client.signUp(bond).status == 201)
            for (username, password) in [("bond007", "wrong"), ("nobody", "martini"), ("", "")] {
                let reply = try await client.login(username, password)
                #expect(reply.status == 400, "\(username)")
                #expect(reply.json("errorCode") == "invalid_grant")
                #expect(reply.json("error") == "invalid_grant")
                #expect(reply.json("error_description") == "The user was not found or a wrong password was provided")
            }
            let noCredentials = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"username":"bond007","password":"martini"}"#
            )
            #expect(noCredentials.status == 401)
            #expect(noCredentials.json("errorCode") == "UNAUTHORIZED")

            let grant = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"grant_type":"refresh_token","refresh_token":"x"}"#,
                headers: appAuth
            )
            #expect(grant.status == 400)
            #expect(grant.json("error") == "unsupported_grant_type")

            // Client credentials other than the app id and key (the administrator's, contract v3) are 401.
            let client_credentials = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"grant_type":"client_credentials","client_id":"x","client_secret":"y"}"#,
                headers: appAuth
            )
            #expect(client_credentials.status == 401)
            #expect(client_credentials.json("errorCode") == "UNAUTHORIZED")

            let typed = try await client.send(
                .post, "\(kii)/oauth2/token", json: #"{"username":"bond007","password":42}"#, headers: appAuth
            )
            #expect(typed.status == 400)
            #expect(typed.json("errorCode") == "INVALID_INPUT_DATA")
            #expect(typed.json("field") == "password")

            for expiresAt in ["true", #""soon""#] {
                let expires = try await client.send(
                    .post, "\(kii)/oauth2/token",
                    json: #"{"username":"bond007","password":"martini","expiresAt":\#(expiresAt)}"#, headers: appAuth
                )
                #expect(expires.status == 400, "\(expiresAt)")
                #expect(expires.json("field") == "expiresAt", "\(expiresAt)")
            }
        }
    }

    @Test("the legacy /api/oauth2/token takes X-Kii-AppID and X-Kii-AppKey")
    func legacyLogin() async throws {
        try await withServer { _, client in
            let userID = try #require(try await client.signUp(bond).json("userID")?.stringValue)
            var headers = kiiHeaders()
            headers[.contentType] = "application/vnd.kii.OauthTokenRequest+json"
            let body = #"{"username":"bond007","password":"martini"}"#
            let reply = try await client.send(.post, "/api/oauth2/token", json: body, headers: headers)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json("id") == .string(userID))
            let token = try #require(reply.json("access_token")?.stringValue)
            #expect(try await client.send(.get, "\(kii)/users/me", headers: bearer(token)).status == 200)

            let wrongPassword = try await client.send(
                .post, "/api/oauth2/token", json: #"{"username":"bond007","password":"nope"}"#, headers: headers
            )
            #expect(wrongPassword.status == 400)
            #expect(wrongPassword.json("error") == "invalid_grant")

            let wrongKey = try await client.send(.post, "/api/oauth2/token", json: body, headers: kiiHeaders(key: "nope"))
            #expect(wrongKey.status == 401)
            #expect(wrongKey.json("errorCode") == "UNAUTHORIZED")
            let none = try await client.send(.post, "/api/oauth2/token", json: body)
            #expect(none.status == 401)
            let unknown = try await client.send(.post, "/api/oauth2/token", json: body, headers: kiiHeaders(id: "nope"))
            #expect(unknown.status == 404)
            #expect(unknown.json("errorCode") == "APP_NOT_FOUND")
            let viaBasic = try await client.send(.post, "/api/oauth2/token", json: body, headers: appAuth)
            #expect(viaBasic.status == 200)
        }
    }

    // MARK: Records

    @Test("users/me needs the user's token and shows the predefined fields")
    func usersMe() async throws {
        try await withServer { _, client in
            #expect(try await client.signUp(bond).status == 201)
            let token = try await client.token("bond007", "martini")
            let me = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(me.status == 200)
            #expect(me.json("loginName") == "bond007")
            #expect(me.json("emailAddress") == "bond@mi6.co.uk")
            #expect(me.json("phoneNumberVerified") == true)
            #expect(me.json("_hasPassword") == true)
            #expect(me.json("_emailAddressPending") == nil)

            for (name, headers) in [("no token", HTTPFields()), ("app credentials", appAuth), ("bad token", bearer("x"))] {
                let reply = try await client.send(.get, "\(kii)/users/me", headers: headers)
                #expect(reply.status == 401, "\(name)")
                #expect(reply.json("errorCode") == "UNAUTHORIZED", "\(name)")
            }
        }
    }

    @Test("GET users/{user}: the full record for its owner and the administrator, userID, loginName and displayName for others, 404 when unknown")
    func getUser() async throws {
        try await withServer { _, client in
            let bondID = try #require(try await client.signUp(bond).json("userID")?.stringValue)
            #expect(try await client.signUp(#"{"loginName":"felix","password":"leiter"}"#).status == 201)
            let bondToken = try await client.token("bond007", "martini")
            let felixToken = try await client.token("felix", "leiter")

            let own = try await client.send(.get, "\(kii)/users/\(bondID)", headers: bearer(bondToken))
            #expect(own.status == 200)
            #expect(own.json("emailAddress") == "bond@mi6.co.uk")

            for headers in [bearer(felixToken), appAuth] {
                let other = try await client.send(.get, "\(kii)/users/\(bondID)", headers: headers)
                #expect(other.status == 200)
                #expect(other.json == ["userID": .string(bondID), "loginName": "bond007", "displayName": "James"])
            }
            // Contract v4: the administrator (Basic appID:appKey, or a client-credentials token) reads the full record.
            let adminToken = try #require(try await client.send(
                .post, "\(kii)/oauth2/token",
                json: #"{"client_id":"\#(DefaultApps.kiiAppID)","client_secret":"\#(DefaultApps.kiiAppKey)"}"#
            ).json("access_token")?.stringValue)
            for headers in [basic(key: DefaultApps.kiiAppKey), bearer(adminToken)] {
                let full = try await client.send(.get, "\(kii)/users/\(bondID)", headers: headers)
                #expect(full.json("emailAddress") == "bond@mi6.co.uk")
                #expect(full.json("score") == .integer(7))
            }
            for address in ["LOGIN_NAME:bond007", "EMAIL:bond@mi6.co.uk", "PHONE:+819012345678"] {
                let byAddress = try await client.send(.get, "\(kii)/users/\(address)", headers: appAuth)
                #expect(byAddress.json("userID") == .string(bondID), "\(address)")
            }

            let missing = try await client.send(.get, "\(kii)/users/00000000-0000-0000-0000-000000000000", headers: appAuth)
            #expect(missing.status == 404)
            #expect(missing.json("errorCode") == "USER_NOT_FOUND")
            #expect(missing.json("field") == "userID")
            let noEmail = try await client.send(.get, "\(kii)/users/EMAIL:nobody@example.com", headers: appAuth)
            #expect(noEmail.status == 404)
            #expect(noEmail.json("field") == "emailAddress")
            let badType = try await client.send(.get, "\(kii)/users/THING:x", headers: appAuth)
            #expect(badType.status == 400)
            #expect(badType.json("errorCode") == "ACCOUNT_TYPE_NOT_SUPPORTED")
            let anonymous = try await client.send(.get, "\(kii)/users/\(bondID)")
            #expect(anonymous.status == 401)
        }
    }

    // MARK: Verification

    @Test("an unverified email cannot log in; its code or its link verifies it")
    func emailVerification() async throws {
        try await withServer { server, client in
            onKii(server) { $0.settings.emailVerification = true }
            #expect(try await client.signUp(bond).status == 201)
            let refused = try await client.login("bond@mi6.co.uk", "martini")
            #expect(refused.status == 400)
            #expect(refused.json("errorCode") == "invalid_grant")
            let token = try await client.token("bond007", "martini")
            let before = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(before.json("emailAddressVerified") == false)

            let code = try #require(onKii(server) { $0.outbox.emails.last?.code })
            let wrong = try await client.send(
                .post, "\(kii)/users/me/email-address/verify", json: #"{"verificationCode":"000000x"}"#, headers: bearer(token)
            )
            #expect(wrong.status == 403)
            #expect(wrong.json("errorCode") == "INVALID_VERIFICATION_CODE")
            let missing = try await client.send(.post, "\(kii)/users/me/email-address/verify", json: "{}", headers: bearer(token))
            #expect(missing.status == 400)
            #expect(missing.json("field") == "verificationCode")

            var headers = bearer(token)
            headers[.contentType] = "application/vnd.kii.AddressVerificationRequest+json"
            let ok = try await client.send(
                .post, "\(kii)/users/me/email-address/verify", json: #"{"verificationCode":"\#(code)"}"#, headers: headers
            )
            #expect(ok.status == 200, "\(ok.text)")
            #expect(ok.json("verificationStatus") == "VERIFIED")
            #expect(try await client.login("bond@mi6.co.uk", "martini").status == 200)
            let after = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(after.json("emailAddressVerified") == true)

            let again = try await client.send(
                .post, "\(kii)/users/me/email-address/verify", json: #"{"verificationCode":"\#(code)"}"#, headers: bearer(token)
            )
            #expect(again.status == 400)
            #expect(again.json("errorCode") == "INVALID_ACCOUNT_STATUS")
        }
    }

    @Test("the link in the verification email verifies without credentials")
    func emailLink() async throws {
        try await withServer { server, client in
            onKii(server) { $0.settings.emailVerification = true }
            #expect(try await client.signUp(bond).status == 201)
            let link = try #require(onKii(server) { $0.outbox.emails.last?.link })
            let path = String(link.dropFirst("http://127.0.0.1:0".count))
            #expect(path.hasPrefix("\(kii)/users/"))

            let wrong = try await client.send(.get, path.replacingOccurrences(of: "code=", with: "code=9"))
            #expect(wrong.status == 403)
            #expect(wrong.json("errorCode") == "INVALID_VERIFICATION_CODE")

            let reply = try await client.send(.get, path)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json("verificationStatus") == "VERIFIED")
            #expect(try await client.login("EMAIL:bond@mi6.co.uk", "martini").status == 200)

            let again = try await client.send(.get, path)
            #expect(again.status == 400)
            #expect(again.json("errorCode") == "INVALID_ACCOUNT_STATUS")
        }
    }

    @Test("SMS codes: wrong code 403, expired code 410, resend 204 with a new code that works")
    func phoneVerification() async throws {
        try await withServer { server, client in
            onKii(server) { $0.settings.phoneVerification = true }
            #expect(try await client.signUp(bond).status == 201)
            #expect(try await client.login("+819012345678", "martini").status == 400)
            let token = try await client.token("bond007", "martini")
            let first = try #require(onKii(server) { $0.outbox.sms.last?.code })
            let verify = "\(kii)/users/me/phone-number/verify"

            let wrong = try await client.send(.post, verify, json: #"{"verificationCode":"wrong"}"#, headers: bearer(token))
            #expect(wrong.status == 403)
            #expect(wrong.json("errorCode") == "INVALID_VERIFICATION_CODE")

            onKii(server) { _ = $0.clock.advance(by: 86_401) }
            let expired = try await client.send(.post, verify, json: #"{"verificationCode":"\#(first)"}"#, headers: bearer(token))
            #expect(expired.status == 410)
            #expect(expired.json("errorCode") == "PHONE_NUMBER_VERIFICATION_CODE_EXPIRED")

            let resend = try await client.send(.post, "\(kii)/users/me/phone-number/resend-verification", headers: bearer(token))
            #expect(resend.status == 204)
            #expect(resend.text.isEmpty)
            let (count, second) = onKii(server) { ($0.outbox.sms.count, $0.outbox.sms.last?.code) }
            #expect(count == 2)
            let code = try #require(second)
            let ok = try await client.send(.post, verify, json: #"{"verificationCode":"\#(code)"}"#, headers: bearer(token))
            #expect(ok.status == 200)
            #expect(ok.json("verificationStatus") == "VERIFIED")
            for username in ["+819012345678", "PHONE:+819012345678", "PHONE:JP-09012345678"] {
                #expect(try await client.login(username, "martini").status == 200, "\(username)")
            }
            let resendAgain = try await client.send(.post, "\(kii)/users/me/phone-number/resend-verification", headers: bearer(token))
            #expect(resendAgain.status == 400)
            #expect(resendAgain.json("errorCode") == "INVALID_ACCOUNT_STATUS")
        }
    }

    @Test("verification by userID: app credentials or the owner's token; another user's token 401; unknown user 404")
    func verificationByUserID() async throws {
        try await withServer { server, client in
            onKii(server) {
                $0.settings.emailVerification = true
                $0.settings.phoneVerification = true
            }
            let bondID = try #require(try await client.signUp(bond).json("userID")?.stringValue)
            #expect(try await client.signUp(#"{"loginName":"felix","password":"leiter"}"#).status == 201)
            let felix = try await client.token("felix", "leiter")
            let (emailCode, smsCode) = try #require(
                onKii(server) { app in app.outbox.emails.last.flatMap { email in app.outbox.sms.last.map { (email.code ?? "", $0.code ?? "") } } }
            )

            let stranger = try await client.send(
                .post, "\(kii)/users/\(bondID)/phone-number/verify", json: #"{"verificationCode":"\#(smsCode)"}"#,
                headers: bearer(felix)
            )
            #expect(stranger.status == 401)
            #expect(stranger.json("errorCode") == "UNAUTHORIZED")
            let anonymous = try await client.send(
                .post, "\(kii)/users/\(bondID)/phone-number/verify", json: #"{"verificationCode":"\#(smsCode)"}"#
            )
            #expect(anonymous.status == 401)
            let unknown = try await client.send(
                .post, "\(kii)/users/00000000-0000-0000-0000-000000000000/phone-number/verify",
                json: #"{"verificationCode":"1"}"#, headers: appAuth
            )
            #expect(unknown.status == 404)
            #expect(unknown.json("errorCode") == "USER_NOT_FOUND")

            let phone = try await client.send(
                .post, "\(kii)/users/\(bondID)/phone-number/verify", json: #"{"verificationCode":"\#(smsCode)"}"#, headers: appAuth
            )
            #expect(phone.status == 200)
            let email = try await client.send(
                .post, "\(kii)/users/\(bondID)/email-address/verify", json: #"{"verificationCode":"\#(emailCode)"}"#,
                headers: appAuth
            )
            #expect(email.status == 200)
            #expect(try await client.login("bond@mi6.co.uk", "martini").status == 200)
        }
    }

    @Test("resending the email answers 204 with the same code; only the user's own token may ask")
    func resendEmail() async throws {
        try await withServer { server, client in
            onKii(server) { $0.settings.emailVerification = true }
            let bondID = try #require(try await client.signUp(bond).json("userID")?.stringValue)
            let token = try await client.token("bond007", "martini")
            let reply = try await client.send(.post, "\(kii)/users/\(bondID)/email-address/resend-verification", headers: bearer(token))
            #expect(reply.status == 204)
            let codes = onKii(server) { $0.outbox.emails.map(\.code) }
            #expect(codes.count == 2)
            #expect(codes.first == codes.last)

            for headers in [appAuth, HTTPFields()] {
                let refused = try await client.send(.post, "\(kii)/users/\(bondID)/email-address/resend-verification", headers: headers)
                #expect(refused.status == 401)
                #expect(refused.json("errorCode") == "UNAUTHORIZED")
            }
        }
    }

    // MARK: Address changes

    @Test("a changed email stays pending, the old one logs in until the new one is verified")
    func changeEmail() async throws {
        try await withServer { server, client in
            #expect(try await client.signUp(bond).status == 201)
            #expect(try await client.signUp(#"{"loginName":"felix","emailAddress":"felix@cia.gov","password":"leiter"}"#).status == 201)
            onKii(server) { $0.settings.emailVerification = true }
            let token = try await client.token("bond007", "martini")
            let change = "\(kii)/users/me/email-address"

            var vendor = bearer(token)
            vendor[.contentType] = "application/vnd.kii.EmailAddressModificationRequest+json"
            let reply = try await client.send(.put, change, json: #"{"emailAddress":"james@mi6.co.uk"}"#, headers: vendor)
            #expect(reply.status == 204, "\(reply.text)")
            let pending = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(pending.json("emailAddress") == "bond@mi6.co.uk")
            #expect(pending.json("_emailAddressPending") == "james@mi6.co.uk")
            #expect(try await client.login("bond@mi6.co.uk", "martini").status == 200)
            #expect(try await client.login("james@mi6.co.uk", "martini").status == 400)

            let link = try #require(onKii(server) { $0.outbox.emails.last?.link })
            #expect(try await client.send(.get, String(link.dropFirst("http://127.0.0.1:0".count))).status == 200)
            let done = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(done.json("emailAddress") == "james@mi6.co.uk")
            #expect(done.json("_emailAddressPending") == nil)
            #expect(try await client.login("bond@mi6.co.uk", "martini").status == 400)
            #expect(try await client.login("james@mi6.co.uk", "martini").status == 200)

            let cases: [(body: String, status: Int, code: String, field: String)] = [
                (#"{"emailAddress":"felix@cia.gov"}"#, 409, "USER_ALREADY_EXISTS", "emailAddress"),
                (#"{"emailAddress":"nope"}"#, 400, "INVALID_INPUT_DATA", "emailAddress"),
                (#"{}"#, 400, "INVALID_INPUT_DATA", "emailAddress"),
                (#"{"emailAddress":"x@y.com","verified":"yes"}"#, 400, "INVALID_INPUT_DATA", "verified"),
            ]
            for item in cases {
                let refused = try await client.send(.put, change, json: item.body, headers: bearer(token))
                #expect(refused.status == item.status, "\(item.body): \(refused.text)")
                #expect(refused.json("errorCode") == .string(item.code), "\(item.body)")
                #expect(refused.json("field") == .string(item.field), "\(item.body)")
            }
            let admin = try await client.send(.put, change, json: #"{"emailAddress":"x@y.com","verified":true}"#, headers: bearer(token))
            #expect(admin.status == 401)
            let felix = try await client.token("felix", "leiter")
            let bondID = try #require(done.json("userID")?.stringValue)
            let other = try await client.send(
                .put, "\(kii)/users/\(bondID)/email-address", json: #"{"emailAddress":"x@y.com"}"#, headers: bearer(felix)
            )
            #expect(other.status == 401)
            let byApp = try await client.send(
                .put, "\(kii)/users/\(bondID)/email-address", json: #"{"emailAddress":"x@y.com"}"#, headers: appAuth
            )
            #expect(byApp.status == 401)
        }
    }

    @Test("changing the phone number: at once without verification; landlines, bad countries and duplicates refused")
    func changePhone() async throws {
        try await withServer { _, client in
            #expect(try await client.signUp(bond).status == 201)
            #expect(try await client.signUp(#"{"loginName":"felix","phoneNumber":"+12015550123","password":"leiter"}"#).status == 201)
            let token = try await client.token("bond007", "martini")
            let change = "\(kii)/users/me/phone-number"
            let local = try await client.send(
                .put, change, json: #"{"phoneNumber":"08011112222","country":"JP"}"#, headers: bearer(token)
            )
            #expect(local.status == 204, "\(local.text)")
            let me = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(me.json("phoneNumber") == "+818011112222")
            #expect(try await client.login("PHONE:+818011112222", "martini").status == 200)
            #expect(try await client.login("+819012345678", "martini").status == 400)

            let cases: [(body: String, status: Int, code: String, field: String)] = [
                (#"{"phoneNumber":"+81312345678"}"#, 400, "INVALID_INPUT_DATA", "phoneNumber"),
                (#"{"phoneNumber":"+12015550123"}"#, 409, "USER_ALREADY_EXISTS", "phoneNumber"),
                (#"{"phoneNumber":"08011112223","country":"japan"}"#, 400, "INVALID_INPUT_DATA", "country"),
                (#"{"phoneNumber":819012345678}"#, 400, "INVALID_INPUT_DATA", "phoneNumber"),
                (#"{}"#, 400, "INVALID_INPUT_DATA", "phoneNumber"),
            ]
            for item in cases {
                let refused = try await client.send(.put, change, json: item.body, headers: bearer(token))
                #expect(refused.status == item.status, "\(item.body): \(refused.text)")
                #expect(refused.json("errorCode") == .string(item.code), "\(item.body)")
                #expect(refused.json("field") == .string(item.field), "\(item.body)")
            }
            #expect(try await client.send(.put, change, json: #"{"phoneNumber":"+819012345678"}"#).status == 401)
        }
    }

    @Test("a changed phone number stays pending until its SMS code is verified")
    func changePhonePending() async throws {
        try await withServer { server, client in
            #expect(try await client.signUp(bond).status == 201)
            onKii(server) { $0.settings.phoneVerification = true }
            let token = try await client.token("bond007", "martini")
            let reply = try await client.send(
                .put, "\(kii)/users/me/phone-number", json: #"{"phoneNumber":"+818011112222"}"#, headers: bearer(token)
            )
            #expect(reply.status == 204)
            let me = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            #expect(me.json("phoneNumber") == "+819012345678")
            #expect(me.json("_phoneNumberPending") == "+818011112222")
            let code = try #require(onKii(server) { $0.outbox.sms.last?.code })
            let verify = try await client.send(
                .post, "\(kii)/users/me/phone-number/verify", json: #"{"verificationCode":"\#(code)"}"#, headers: bearer(token)
            )
            #expect(verify.status == 200)
            #expect(try await client.login("+818011112222", "martini").status == 200)
        }
    }

    // MARK: Journal, faults, listing

    @Test("the journal names each Kii operation; an injected fault answers its status and code")
    func journalAndFaults() async throws {
        let setup = """
            local app = understudy.kii{}
            app.faults.inject{ op = "users.register", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE", times = 1 }
            """
        try await withServer(setup: setup) { server, client in
            let failed = try await client.signUp(bond)
            #expect(failed.status == 503)
            #expect(failed.json("errorCode") == "RESOURCE_TEMPORARILY_UNAVAILABLE")
            #expect(try await client.signUp(bond).status == 201)
            let token = try await client.token("bond007", "martini")
            _ = try await client.send(.get, "\(kii)/users/me", headers: bearer(token))
            _ = try await client.send(.post, "\(kii)/users/me/email-address/resend-verification", headers: bearer(token))
            let entries = server.withStage { $0.world.journal.entries() }
            #expect(entries.map(\.operation) == ["users.register", "users.register", "users.login", "users.me", "users.resend_email_verification"])
            #expect(entries.allSatisfy { $0.flavour == "kii" && $0.appID == DefaultApps.kiiAppID })
            #expect(entries.first?.code == .string("RESOURCE_TEMPORARILY_UNAVAILABLE"))
            #expect(entries.last?.status == 400)
        }
    }

    @Test("every Kii route is listed under the kii area with a summary")
    func routeListing() async throws {
        let server = try UnderstudyServer(options: ServerOptions(port: 0, clockStart: VirtualClock.start))
        let routes = server.routeDescriptions.filter { $0.area == .kii }
        #expect(routes.count == 55)  // 24 of versions 1 and 2, 20 topic routes of version 3, 11 of version 4 (ACLs 6, groups 2, social 3)
        #expect(routes.allSatisfy { !$0.summary.isEmpty && $0.path.hasPrefix("/api/") })
        #expect(routes.contains { $0.method == .post && $0.path == "/api/oauth2/token" })
    }
}
