internal import Understudy
internal import UnderstudyMQTT

extension ControlRoutes {
    /// `GET /_understudy/kii[?app=]` → `{"topics": [{flavour, app_id, topic, owner, SUBSCRIBE_TO_TOPIC,
    /// SEND_MESSAGE_TO_TOPIC}], "groups": [{..., groupID, name, owner, members}], "social": [{..., provider, token,
    /// profile, user}], "mqtt": [{app_id, client}]}`: the Kii apps' topic ACLs, groups, provider accounts (with the
    /// user each is linked to, null when none) and the MQTT clients connected to the broker (contract v4).
    static let kiiState = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var topics: [JSON] = [], groups: [JSON] = [], social: [JSON] = []
        var appIDs: Set<String> = []
        for app in try request.selectedApps() {
            guard case .kii(let kii) = app.flavoured else { continue }
            appIDs.insert(app.appID)
            let identity = ControlPresentation.identity(app)
            for entry in kii.allTopicACLs {
                topics.append(.object(identity + [
                    .init("topic", .string(entry.topicID)), .init("owner", entry.owner.map(JSON.string) ?? .null),
                    .init("SUBSCRIBE_TO_TOPIC", .array(entry.acl.subscribe.map(JSON.string))),
                    .init("SEND_MESSAGE_TO_TOPIC", .array(entry.acl.send.map(JSON.string))),
                ]))
            }
            for group in kii.allGroups {
                groups.append(.object(identity + [
                    .init("groupID", .string(group.groupID)), .init("name", .string(group.name)), .init("owner", .string(group.owner)),
                    .init("members", .array(group.members.map(JSON.string))),
                ]))
            }
            for (account, user) in kii.allSocialAccounts {
                social.append(.object(identity + [
                    .init("provider", .string(account.provider.rawValue)), .init("token", .string(account.token)),
                    .init("profile", .object(account.profile.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) })),
                    .init("user", user.map(JSON.string) ?? .null),
                ]))
            }
        }
        let clients = (request.stage.mqttDeliveries as? MQTTBroker)?.connectedClients ?? []
        let mqtt: [JSON] = clients.filter { appIDs.contains($0.appID) }.map { client in
            .object([.init("app_id", .string(client.appID)), .init("client", .string(client.topic))])
        }
        return Reply(body: ["topics": .array(topics), "groups": .array(groups), "social": .array(social), "mqtt": .array(mqtt)])
    }
}
