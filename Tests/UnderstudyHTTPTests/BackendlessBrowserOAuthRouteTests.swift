import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Understudy
import UnderstudyHTTP

@Suite("Backendless social login in the browser over HTTP (contract v4)")
struct BackendlessBrowserOAuthRouteTests {
    static let setup = BackendlessOAuthRouteTests.setup
        + "\napp.oauth.account{ provider = 'googleplus', token = 'g-1', profile = { id = 'g-9', email = 'm@mi6.co.uk' } }"
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// The path and query of a URL the server made (the in-process server's link base is not reachable).
    static func path(of url: String) throws -> String {
        let marker = "/\(DefaultApps.backendlessAppID)/"
        let range = try #require(url.range(of: marker), "\(url) holds no \(marker)")
        return String(url[range.lowerBound...])
    }

    @Test("the JS SDK's popup request: the URL as a JSON string, then the page, then a page posting the session")
    func popupFlow() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let request = try await client.send(
                .post, "\(backendless)/users/social/oauth/Facebook/request_url", json: #"{"fieldsMapping":{"email":"email","name":"name"},"permissions":["email"]}"#
            )
            #expect(request.status == 200, "\(request.text)")
            let url = try #require(request.json?.stringValue)
            #expect(url.contains("/users/oauth/facebook/authorize?state="))
            let path = try Self.path(of: url)

            let page = try await client.send(.get, path)
            #expect(page.status == 200)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.text.contains("Sign in with Facebook"))
            #expect(page.text.contains("Continue as James (bond@mi6.co.uk)"))
            #expect(page.text.contains(#"name="accessToken""#))
            #expect(page.text.contains("sends the session to the app that opened it"))

            let signIn = try await client.send(.post, path, text: "accessToken=fb-1", headers: Self.form)
            #expect(signIn.status == 200)
            #expect(signIn.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(signIn.text.contains("window.opener.postMessage") || signIn.text.contains("target.postMessage"))
            #expect(signIn.text.contains(#""email":"bond@mi6.co.uk""#))
            #expect(signIn.text.contains(#""user-token":""#))
            #expect(signIn.text.contains(#""socialAccount":"facebook""#))

            let used = try await client.send(.get, path)
            #expect(used.status == 400)
            #expect(used.json("code") == 3080)
            #expect(used.json("message") == "Wrong or unsupported authorized user redirect URL")
        }
    }

    @Test("a popup's failed sign-in posts {fault} to the opener with the error's status, and leaves the URL usable")
    func popupFailure() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let request = try await client.send(.post, "\(backendless)/users/social/oauth/twitter/request_url", json: #"{"fieldsMapping":{},"permissions":[]}"#)
            let path = try Self.path(of: try #require(request.json?.stringValue))
            let failed = try await client.send(.post, path, text: "accessToken=tw-1&accessTokenSecret=wrong", headers: Self.form)
            #expect(failed.status == 400)
            #expect(failed.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(failed.text.contains(#"{"fault":"External authentication failed with message 'Invalid access token'"}"#) ||
                failed.text.contains(#"{"fault":"External authentication failed with message \u0027Invalid access token\u0027"}"#))
            let journal = try await client.send(.get, "/_understudy/journal?op=users.oauth_authorize")
            #expect(journal.text.contains("3052"))
            let ok = try await client.send(.post, path, text: "accessToken=tw-1&accessTokenSecret=s3cret", headers: Self.form)
            #expect(ok.status == 200)
            #expect(ok.text.contains(#""socialAccount":"twitter""#))
        }
    }

    @Test("getAuthorizationUrlLink: a 302 to the URL unless redirect is false; the URL carries the key the request used")
    func authorizationURLLink() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let redirected = try await client.send(.post, "\(backendless)/users/oauth/googleplus/request_url", json: #"{"fieldsMapping":{"email":"email"},"permissions":"email"}"#)
            #expect(redirected.status == 302)
            let location = try #require(redirected.header("Location"))
            #expect(redirected.json?.stringValue == location)
            #expect(location.contains("/\(DefaultApps.backendlessAPIKey)/users/oauth/googleplus/authorize?state="))

            let plain = try await client.send(.post, "\(backendless)/users/oauth/googleplus/request_url", json: #"{"redirect":false}"#)
            #expect(plain.status == 200)
            #expect(plain.header("Location") == nil)

            let cloud = try await client.send(
                .post, "/\(DefaultApps.backendlessAppID)/UNDERSTUDY-CLOUDCODE-KEY/users/oauth/googleplus/request_url",
                json: #"{"redirect":false,"callbackUrlDomain":"ignored.example"}"#
            )
            let cloudURL = try #require(cloud.json?.stringValue)
            #expect(cloudURL.contains("/UNDERSTUDY-CLOUDCODE-KEY/users/oauth/googleplus/authorize?state="))
            let signIn = try await client.send(.post, try Self.path(of: cloudURL), text: "accessToken=g-1", headers: Self.form)
            #expect(signIn.status == 200, "no popup, no redirect: the user as JSON")
            #expect(signIn.json("socialAccount") == "googleplus")
            #expect(signIn.json("user-token")?.stringValue != nil)
        }
    }

    @Test("redirectAfterLoginUrl: the sign-in answers a 302 there with userId and userToken; a failure answers the error JSON")
    func redirectEnding() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let request = try await client.send(
                .post, "\(backendless)/users/oauth/facebook/request_url",
                json: #"{"redirect":false,"redirectAfterLoginUrl":"https://app.example/done?from=fb"}"#
            )
            let path = try Self.path(of: try #require(request.json?.stringValue))
            let page = try await client.send(.get, path)
            #expect(page.text.contains("https://app.example/done?from=fb"))
            let failed = try await client.send(.post, path, text: "accessToken=nope", headers: Self.form)
            #expect(failed.status == 400)
            #expect(failed.json("code") == 3052)
            #expect(failed.header("Location") == nil)
            let signIn = try await client.send(.post, path, text: "accessToken=fb-1", headers: Self.form)
            #expect(signIn.status == 302)
            let location = try #require(signIn.header("Location"))
            #expect(location.hasPrefix("https://app.example/done?from=fb&userId="))
            #expect(location.contains("&userToken="))
        }
    }

    @Test("3080 for an unknown state or a path naming another provider; 8002 for a body field of the wrong kind")
    func refusals() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let unknown = try await client.send(.get, "\(backendless)/users/oauth/facebook/authorize?state=nope")
            #expect(unknown.status == 400)
            #expect(unknown.json("code") == 3080)
            let request = try await client.send(.post, "\(backendless)/users/oauth/facebook/request_url", json: #"{"redirect":false}"#)
            let path = try Self.path(of: try #require(request.json?.stringValue))
            let otherProvider = path.replacingOccurrences(of: "/facebook/", with: "/twitter/")
            let wrong = try await client.send(.post, otherProvider, text: "accessToken=fb-1", headers: Self.form)
            #expect(wrong.json("code") == 3080)
            let badMapping = try await client.send(.post, "\(backendless)/users/oauth/facebook/request_url", json: #"{"fieldsMapping":{"email":1}}"#)
            #expect(badMapping.json("code") == 8002)
            #expect(badMapping.json("message") == "Could not parse request with message: fieldsMapping.email must be a string, got number")
            let badRedirect = try await client.send(.post, "\(backendless)/users/oauth/facebook/request_url", json: #"{"redirect":"soon"}"#)
            #expect(badRedirect.status == 302, "redirect is read by the reply alone: anything but false redirects")
        }
    }

    @Test("a fault on users.oauth_page answers the page's error; one on users.oauth_url the URL's")
    func faults() async throws {
        try await withServer(setup: Self.setup) { _, client in
            let request = try await client.send(.post, "\(backendless)/users/oauth/facebook/request_url", json: #"{"redirect":false}"#)
            let path = try Self.path(of: try #require(request.json?.stringValue))
            let inject = try await client.send(.post, "/_understudy/faults", json: #"{"op":"users.oauth_page","code":3000,"times":1}"#)
            #expect(inject.status == 200 || inject.status == 201, "\(inject.text)")
            let page = try await client.send(.get, path)
            #expect(page.json("code") == 3000)
            #expect(try await client.send(.get, path).status == 200)
        }
    }
}
