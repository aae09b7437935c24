internal import Understudy

extension ControlRoutes {
    /// `GET /_understudy/roles[?app=]` → `{"system": [names], "roles": [{flavour, app_id, name, holders: [{objectId,
    /// identity}]}], "templates": [{flavour, app_id, name, subject, body, html}]}`: the Backendless apps' custom roles
    /// (in definition order, each with the users holding it in registration order) and email templates (by name),
    /// as the console defined them (`app.roles.define`, `app.email.templates.define`). The system roles every app
    /// has are listed once.
    static let rolesAndTemplates = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var roles: [JSON] = []
        var templates: [JSON] = []
        for app in try request.selectedApps() {
            guard case .backendless(let backendless) = app.flavoured else { continue }
            for role in backendless.customRoles {
                let holders = backendless.holders(of: role.name).map { holder in
                    JSON.object([.init("objectId", .string(holder.objectID)), .init("identity", holder.identity.map(JSON.string) ?? .null)])
                }
                roles.append(.object(ControlPresentation.identity(app) + [.init("name", .string(role.name)), .init("holders", .array(holders))]))
            }
            for template in backendless.allEmailTemplates {
                templates.append(
                    .object(
                        ControlPresentation.identity(app) + [
                            .init("name", .string(template.name)), .init("subject", .string(template.subject)),
                            .init("body", .string(template.body)), .init("html", template.html.map(JSON.string) ?? .null),
                        ]
                    )
                )
            }
        }
        return Reply(body: ["system": .array(BackendlessApp.systemRoles.map(JSON.string)), "roles": .array(roles), "templates": .array(templates)])
    }
}
