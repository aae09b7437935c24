import Testing
import Understudy

/// The password every Kii test user has unless a test says otherwise.
let kiiPassword = "123ABC"

/// A fresh Kii app with the given verification settings.
func makeKiiApp(
    emailVerification: Bool = false, phoneVerification: Bool = false, seed: UInt64 = 7, capacity: Capacity = Capacity()
) -> KiiApp {
    var settings = KiiSettings()
    settings.emailVerification = emailVerification
    settings.phoneVerification = phoneVerification
    return KiiApp(settings: settings, seed: seed, capacity: capacity)
}

/// The `KiiError` that `body` throws, or nil when it succeeds. (Closures are not inferred to throw a typed
/// error, so `body` is untyped; any other error is recorded as an issue.)
func kiiFailure<T>(_ body: () throws -> T) -> KiiError? {
    do {
        _ = try body()
        return nil
    } catch let error as KiiError {
        return error
    } catch {
        Issue.record("expected a KiiError, got \(error)")
        return nil
    }
}

extension KiiApp {
    /// Registers with the default password.
    @discardableResult
    func registerUser(
        username: String? = nil, email: String? = nil, phone: String? = nil, country: String? = nil
    ) throws(KiiError) -> KiiUser {
        try register(username: username, email: email, phone: phone, country: country, password: kiiPassword)
    }

    /// The userID `identifier` logs in as with the default password, or nil when the login fails.
    func loginUserID(_ identifier: String, password: String = kiiPassword) -> String? {
        try? login(identifier: identifier, password: password).user.userID
    }
}
