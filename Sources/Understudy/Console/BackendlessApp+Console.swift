/// What a console (the dashboard) reads of a Backendless app's users: pages in registration order, searched by
/// objectId and every text property.
extension BackendlessApp {
    /// A page of users (guests included), with their open sessions. Drops users no longer stored (deleted) from
    /// the registration order first.
    package func userPage(_ query: UserQuery) -> UserPage<BackendlessUser> {
        if registrationOrder.count != users.count {
            registrationOrder.removeAll { users[$0.objectID] !== $0 }
        }
        return UserPage.collect(
            registrationOrder, liveCount: users.count, query: query,
            isLive: { [users] in users[$0.objectID] === $0 },
            matches: { [searchesIDs = ASCIISearch.couldBeInIdentifier(query.needle ?? [])] user, needle in
                if searchesIDs, ASCIISearch.contains(user.objectID.formatted(), needle) { return true }
                for property in user.properties {
                    if case .string(let text) = property.value, ASCIISearch.contains(text, needle) { return true }
                }
                return false
            },
            entry: { UserPage.Entry(user: $0.snapshot, openSessions: $0.sessions.count) }
        )
    }
}

extension BackendlessApp {
    /// How many sessions (user tokens) are open for the user; 0 for an unknown objectId.
    package func openSessions(objectID: String) -> Int {
        guard let id = Identifier128(parsing: objectID) else { return 0 }
        return users[id]?.sessions.count ?? 0
    }
}
