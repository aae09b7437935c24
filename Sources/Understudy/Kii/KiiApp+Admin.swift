/// The application administrator (`Kii.authenticateAsAppAdmin`: `POST oauth2/token` with `client_id` and
/// `client_secret`): the emulator's client credentials are the app id and the app key.
extension KiiApp {
    /// An administrator token for the client credentials; 401 `UNAUTHORIZED` when they are not this app's id and
    /// key. Each call issues a new token; earlier ones keep working.
    package func adminToken(clientID: String, clientSecret: String) throws(KiiError) -> String {
        guard clientID == settings.appID, clientSecret == settings.appKey else {
            throw .unauthorized("The client credentials are wrong: client_id is the app id, client_secret the app key")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(43)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        while bytes.count < 43 {
            var word = tokens.next()
            for _ in 0..<10 where bytes.count < 43 {
                bytes.append(alphabet[Int(word & 63)])
                word >>= 6
            }
        }
        let token = String(decoding: bytes, as: UTF8.self)
        adminTokens.insert(token)
        return token
    }

    /// True for a token `adminToken` issued.
    package func isAdminToken(_ token: String) -> Bool { adminTokens.contains(token) }
}
