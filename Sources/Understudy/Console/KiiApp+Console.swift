/// What a console (the dashboard) reads of a Kii app's users: pages in registration order, searched by userID,
/// username, email address and phone number (current or pending), and the codes waiting for verification.
extension KiiApp {
    /// A page of users with their open sessions (access tokens).
    package func userPage(_ query: UserQuery) -> UserPage<KiiUser> {
        var sessionCounts: [ObjectIdentifier: Int] = [:]
        for user in sessions.values { sessionCounts[ObjectIdentifier(user), default: 0] += 1 }
        return UserPage.collect(
            registrationOrder, liveCount: users.count, query: query,
            isLive: { [users] in users[$0.id] === $0 },
            matches: { user, needle in
                for text in [user.userID, user.loginName, user.email.current, user.email.pending, user.phone.current, user.phone.pending] {
                    if let text, ASCIISearch.contains(text, needle) { return true }
                }
                return false
            },
            entry: { UserPage.Entry(user: $0.snapshot(), openSessions: sessionCounts[ObjectIdentifier($0)] ?? 0) }
        )
    }

    /// The code that would verify the user's email address (`email`) or phone number (`phone`) now, or nil when
    /// nothing waits for verification: what the user would read in the latest email or SMS.
    package func pendingVerificationCode(userID: String, email: Bool) -> String? {
        guard let user = try? storedUser(userID) else { return nil }
        if email { return user.email.awaitingVerification == nil ? nil : user.email.code }
        return user.phone.awaitingVerification == nil ? nil : user.phone.code
    }
}

extension KiiApp {
    /// How many access tokens are open for the user; 0 for an unknown userID.
    package func openSessions(userID: String) -> Int {
        guard let user = try? storedUser(userID) else { return 0 }
        return sessions.values.reduce(0) { $0 + ($1 === user ? 1 : 0) }
    }
}
