internal import Synchronization
internal import Understudy
internal import UnderstudyLua
internal import UnderstudyMQTT

/// The broker's view of the served world: a CONNECT's username names an app and an MQTT installation
/// (`{appID}/{installationID}`), checked on the stage's thread under the stage lock, so a Lua chunk holding the
/// lock never stalls an event loop.
final class ServedMQTTAuthority: MQTTAuthority {
    /// Set once the server exists (the broker is made before it).
    let server = Mutex<UnderstudyServer?>(nil)

    func connect(
        username: String?, password: String?, clientID: String, extraBytes: Int,
        answer: @escaping @Sendable (MqttConnectAnswer?, String) -> Void
    ) {
        guard let server = server.withLock({ $0 }) else { return answer(.badCredentials, "") }
        server.worker.runLater {
            let (result, appID): (MqttConnectAnswer?, String) = server.withStage { stage in
                guard let username, let slash = username.firstIndex(of: "/") else { return (.badCredentials, "") }
                let appID = String(username[..<slash])
                let installationID = String(username[username.index(after: slash)...])
                guard let app = stage.world.kii(id: appID) else { return (.badCredentials, appID) }
                let answer = app.mqttConnect(installationID: installationID, password: password, clientID: clientID)
                if case .accepted = answer, stage.world.appBytes + extraBytes > stage.options.limits.maxMemory {
                    return (nil, appID)
                }
                return (answer, appID)
            }
            answer(result, appID)
        }
    }
}
