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
    static func register(in table: inout RouteTable<RouteHandler>) {
        table.add(KiiOperation.registerInstallation, create)
        table.add(KiiOperation.getInstallation, get)
    }

    /// `{"installationRegistrationID"?, "deviceType", "development"?, "userID"?}` → 201
    /// `{"installationID", "installationRegistrationID"}`.
    static let create: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .registerInstallation) { app, exchange in
            let caller = try KiiRoutes.anyCaller(app, exchange)
            let body = try KiiRoutes.object(exchange)
            let owner: String
            switch caller {
            case .user(let user):
                if let other = try KiiRoutes.string(body, "userID"), other != user.userID {
                    throw KiiError.unauthorized("Only the application administrator may register an installation for another user")
                }
                owner = user.userID
            case .app:
                owner = try KiiRoutes.requiredString(body, "userID")
            }
            let type = try KiiRoutes.requiredString(body, "deviceType")
            let token = try KiiRoutes.string(body, "installationRegistrationID")
            let development: Bool
            switch body["development"] {
            case nil, .null?: development = false
            case .bool(let flag)?: development = flag
            case let other?:
                throw KiiError.invalidInput(
                    field: "development", value: nil, message: "development must be a boolean, got \(other.kindName)"
                )
            }
            let installation = try app.registerInstallation(
                userID: owner, type: type, token: type == "MQTT" && token == "" ? nil : token, development: development
            )
            var reply = Reply(
                status: 201,
                body: [
                    "installationID": .string(installation.installationID),
                    "installationRegistrationID": .string(installation.installationRegistrationID),
                ]
            )
            reply.contentType = "application/vnd.kii.InstallationCreationResponse+json"
            reply.headers.append(
                (name: "Location", value: "\(app.linkBase)/api/apps/\(app.settings.appID)/installations/\(installation.installationID)")
            )
            return reply
        }
    }

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

    static let get: RouteHandler = { exchange in
        KiiRoutes.serve(&exchange, .getInstallation) { app, exchange in
            KiiRoutes.withContentType(
                Reply(body: JSONRecordWriter.json(try installation(app, exchange))),
                "application/vnd.kii.InstallationRetrievalResponse+json"
            )
        }
    }
}
