// mqtt.js (Debian's node-mqtt) as a Kii web app uses it: connect with the endpoint's credentials, subscribe to
// mqttTopic, print each message. Usage: node subscribe.js URL CLIENT_ID USERNAME PASSWORD TOPIC
// Prints "subscribed <granted qos>", then "message <payload>" per message; "error <text>" and exit 1 on a refusal.
const mqtt = require("mqtt");
const [url, clientId, username, password, topic] = process.argv.slice(2);
const client = mqtt.connect(url, { clientId, username, password, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 });
client.on("connect", () => {
  client.subscribe(topic, { qos: 1 }, (err, granted) => {
    if (err) { console.log("error " + err.message); process.exit(1); }
    console.log("subscribed " + granted.map((g) => g.qos).join(","));
  });
});
client.on("message", (t, payload) => { console.log("message " + payload.toString("utf8")); });
client.on("error", (err) => { console.log("error " + err.message); process.exit(1); });
client.on("close", () => { console.log("closed"); process.exit(0); });
