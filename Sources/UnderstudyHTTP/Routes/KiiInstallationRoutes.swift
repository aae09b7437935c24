internal import HTTPTypes
internal import Understudy

/// Kii push installations over HTTP: `POST installations`, `GET`/`DELETE installations/{id}` and
/// `installations/{deviceType}:{registrationID}`. `GET installations/{id}/mqtt-endpoint` (contract v4) is declared
/// (`KiiDeclarations`: the installation resolver, the `kiiMqttEndpoint` presenter).
///
/// Registering needs the user's `Bearer` token, or app credentials (standing in for the app-administrator token)
/// with `"userID"` in the body. Reading or deleting needs the owner's token or app credentials; another user's
/// token answers 401 `UNAUTHORIZED`.
enum KiiInstallationRoutes {
    /// The installation `{installation}` names (an id, or `TYPE:registrationID`), visible to the caller: 404
    /// `INSTALLATION_NOT_FOUND`; 401 for another user's token.
    static func installation(_ app: KiiApp, _ exchange: Exchange) throws(KiiError) -> KiiInstallation {
        let caller = try KiiRoutes.anyCaller(app, exchange)
        let name = exchange.parameters["installation"]
        let found: KiiInstallation?
        if let colon = name.firstIndex(of: ":") {
            found = app.installation(type: String(name[..<colon]), registrationID: String(name[name.index(after: colon)...]))
        } else {
            found = app.installation(id: name)
        }
        guard let found else { throw .installationNotFound(name) }
        if let user = caller.user, user.userID != found.userID {
            throw .unauthorized("Not authorized to retrieve the installation: it belongs to another user")
        }
        return found
    }
}
