internal import Understudy

/// The examples of contract version 3's push codes: a scenario by the real trigger and the HTTP request that
/// answers the code (whatever the server's clock shows: the publishAt is in 1970).
extension CodeExample {
    static let scheduledPushScenarios: [String: String] = [
        "backendless:5030": #"¤app.push.publish{ message = "hi", publish_at = app.clock.now() })"#,
        "backendless:5003": #"¤app.push.publish{ message = "hi", repeat_every = 60 })"#,
        "backendless:5040": #"¤app.push.cancel("message:no-such-message"))"#,
        "backendless:24002": #"¤app.push.with_template("no-such-template"))"#,
    ]

    static let scheduledPushHTTP: [String: [ExampleRequest]] = [
        "backendless:5030": [ExampleRequest("POST", bl + "/messaging/default", headers: json, body: #"{"message":"hi","publishAt":1000}"#)],
        "backendless:5003": [ExampleRequest("POST", bl + "/messaging/default", headers: json, body: #"{"message":"hi","repeatEvery":60}"#)],
        "backendless:5040": [ExampleRequest("DELETE", bl + "/messaging/message:no-such-message")],
        "backendless:24002": [ExampleRequest("POST", bl + "/messaging/push/no-such-template", headers: json, body: "{}")],
    ]
}
