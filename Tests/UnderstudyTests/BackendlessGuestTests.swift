import Testing
import Understudy

@Suite("Backendless guest conversion")
struct BackendlessGuestTests {
    static let email = "james.bond@mi6.co.uk"

    func registration(_ key: String, _ objectID: String, email: String = email) -> [Property] {
        [Property(key, .string(objectID)), Property("email", .string(email)), Property("password", "iAmWatchingU")]
    }

    @Test("`id` naming a guest converts it like `objectId`: same objectId, ENABLED, counted, no longer a guest", arguments: ["objectId", "id"])
    func idConvertsAGuest(key: String) throws {
        let app = BackendlessApp(seed: 1)
        let guest = try app.guestLogin()
        let user = try app.register(registration(key, guest.user.objectID))
        #expect(user.objectID == guest.user.objectID)
        #expect(user.status == .enabled)
        #expect(user.properties[named: "email"] == .string(Self.email))
        #expect(user.properties[named: key] == nil)
        #expect(app.userCount == 1)
        #expect(app.allUsers.count == 1)
        #expect(app.find(identity: Self.email)?.objectID == guest.user.objectID)
        #expect(try app.login(identity: Self.email, password: "iAmWatchingU").user.objectID == guest.user.objectID)
        // No longer a guest: converting it again is 3039.
        #expect(backendlessFailure { try app.register(registration(key, guest.user.objectID, email: "m@mi6.co.uk")) }?.code == 3039)
    }

    @Test("with email confirmation on, a guest converted by `id` is EMAIL_CONFIRMATION_PENDING")
    func idConvertsToPending() throws {
        var settings = BackendlessSettings()
        settings.emailConfirmation = true
        let app = BackendlessApp(settings: settings, seed: 1)
        let guest = try app.guestLogin()
        let user = try app.register(registration("id", guest.user.objectID))
        #expect(user.objectID == guest.user.objectID)
        #expect(user.status == .emailConfirmationPending)
        #expect(app.userCount == 1)
    }

    @Test("`id` naming nothing or a registered user stays 3039, and nobody is registered")
    func idNotAGuestIs3039() throws {
        let app = BackendlessApp(seed: 1)
        let bond = try app.register([Property("email", .string(Self.email)), Property("password", "pw")])
        for id in ["007", "6EAFFE12-B424-8C51-FFB0-FE99548CAA00", bond.objectID] {
            #expect(backendlessFailure { try app.register(registration("id", id, email: "m@mi6.co.uk")) }?.code == 3039)
        }
        #expect(backendlessFailure { try app.register([Property("id", 7), Property("email", "m@mi6.co.uk"), Property("password", "pw")]) }?.code == 3039)
        #expect(app.userCount == 1)
    }

    @Test("`objectId` and `id` naming two different guests is 3039; both guests stay guests")
    func twoGuestsAre3039() throws {
        let app = BackendlessApp(seed: 1)
        let first = try app.guestLogin().user
        let second = try app.guestLogin().user
        let request = [
            Property("objectId", .string(first.objectID)), Property("id", .string(second.objectID)),
            Property("email", .string(Self.email)), Property("password", "pw"),
        ]
        #expect(backendlessFailure { try app.register(request) }?.code == 3039)
        #expect(app.userCount == 0)
        #expect(app.user(objectID: first.objectID)?.status == .guest)
        #expect(app.user(objectID: second.objectID)?.status == .guest)
    }
}
