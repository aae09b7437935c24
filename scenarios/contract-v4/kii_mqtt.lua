-- Kii: the MQTT endpoint and the payloads an MQTT client receives (contract v4)
--
-- app.installations.mqtt_endpoint(installationID) -> { installationID, username, password, mqttTopic, host,
--   portTCP, portSSL, portWS, portWSS, ["X-MQTT-TTL"] }
--   errors in order: fault; 404 INSTALLATION_NOT_FOUND; 404 MQTT_ENDPOINT_NOT_FOUND (not an MQTT installation)
-- Each outbox push to an MQTT installation carries `payload`: the exact JSON the broker publishes on mqttTopic.
-- (choice) the same values on every call until the installation is removed; username {appID}/{installationID};
--   password and mqttTopic 32 letters and digits; portSSL = portWSS = 0; X-MQTT-TTL = 2147483647.
-- (choice) topic payload: data keys, then meta keys topic, objectScopeType, objectScopeAppID, objectScopeUserID
--   (user scope), sender (absent when the administrator sent); keys in byte order; a meta key overwrites data.
-- (choice) push.send_to_user payload: {"message","senderURI":"kiicloud://admins/APP_ADMIN","sourceURI"}.

local PASSWORD = "123ABC"

local function user(app, name)
  return expect.ok(app.users.register{ username = name, password = PASSWORD })
end

local function mqtt(app, owner)
  return expect.ok(app.installations.register{ user = owner.userID, type = "MQTT" }).installationID
end

scenario("an MQTT installation has an endpoint at once: credentials, where the broker listens, no TLS", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  local id = mqtt(app, alice)
  local endpoint = expect.ok(app.installations.mqtt_endpoint(id))
  expect.equal(endpoint.installationID, id)
  expect.equal(endpoint.username, app.settings.app_id .. "/" .. id)
  expect.match(endpoint.password, "^[A-Za-z0-9]+$")
  expect.equal(#endpoint.password, 32)
  expect.match(endpoint.mqttTopic, "^[A-Za-z0-9]+$")
  expect.equal(#endpoint.mqttTopic, 32)
  expect.not_equal(endpoint.password, endpoint.mqttTopic)
  expect.equal(endpoint.host, "127.0.0.1")
  expect.equal(endpoint.portTCP, 1883)
  expect.equal(endpoint.portWS, 8080)
  expect.equal(endpoint.portSSL, 0)
  expect.equal(endpoint.portWSS, 0)
  expect.equal(endpoint["X-MQTT-TTL"], 2147483647)
end)

scenario("the endpoint is the same on every call; each installation has its own", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  local a, b = mqtt(app, alice), mqtt(app, bob)
  local first = expect.ok(app.installations.mqtt_endpoint(a))
  expect.equal(expect.ok(app.installations.mqtt_endpoint(a)), first)
  local other = expect.ok(app.installations.mqtt_endpoint(b))
  expect.not_equal(other.password, first.password)
  expect.not_equal(other.mqttTopic, first.mqttTopic)
  -- registering MQTT again returns the same installation, and so the same endpoint
  expect.equal(mqtt(app, alice), a)
  expect.equal(expect.ok(app.installations.mqtt_endpoint(a)), first)
end)

scenario("mqtt_endpoint checks the fault, then that the installation exists, then that it is MQTT", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  local android = expect.ok(app.installations.register{ user = alice.userID, type = "ANDROID", token = "fcm-1" }).installationID
  local fault = app.faults.inject{ op = "installations.mqtt_endpoint", status = 503, code = "MQTT_ENDPOINT_NOT_READY",
                                   when = function(args) return args.installationID == "nope" end }
  expect.error({ status = 503, code = "MQTT_ENDPOINT_NOT_READY" }, app.installations.mqtt_endpoint("nope"))
  fault:remove()
  expect.error({ status = 404, code = "INSTALLATION_NOT_FOUND" }, app.installations.mqtt_endpoint("nope"))
  expect.error({ status = 404, code = "MQTT_ENDPOINT_NOT_FOUND" }, app.installations.mqtt_endpoint(android))
  local id = mqtt(app, alice)
  expect.ok(app.installations.unregister(id))
  expect.error({ status = 404, code = "INSTALLATION_NOT_FOUND" }, app.installations.mqtt_endpoint(id))
  expect.fails(function() app.installations.mqtt_endpoint(42) end, "installationID")
end)

scenario("a topic message's payload: data, then the meta keys, in byte order; only MQTT pushes carry one", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  local id = mqtt(app, alice)
  local android = expect.ok(app.installations.register{ user = alice.userID, type = "ANDROID", token = "fcm-1" }).installationID
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.ok(app.topics.send("news", { data = { zeta = "z", alpha = "a \"quoted\" ü" } }))
  local byInstallation = {}
  for _, push in ipairs(app.outbox.pushes()) do byInstallation[push.installation_id] = push end
  expect.equal(byInstallation[id].payload,
    '{"alpha":"a \\"quoted\\" ü","objectScopeAppID":"' .. app.settings.app_id
      .. '","objectScopeType":"APP","topic":"news","zeta":"z"}')
  expect.is_nil(byInstallation[android].payload)
end)

scenario("a user-scope message names its owner as scope user and as sender; a meta key overwrites a data key", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  mqtt(app, alice)
  expect.ok(app.topics.create("mine", alice.userID))
  expect.ok(app.topics.subscribe("mine", alice.userID, alice.userID))
  expect.ok(app.topics.send("mine", { data = { topic = "mine?", hello = "world" } }, alice.userID))
  expect.equal(app.outbox.pushes()[1].payload,
    '{"hello":"world","objectScopeAppID":"' .. app.settings.app_id .. '","objectScopeType":"APP_AND_USER",'
      .. '"objectScopeUserID":"' .. alice.userID .. '","sender":"' .. alice.userID .. '","topic":"mine"}')
end)

scenario("message.sender names the sender in the payload; the administrator's message has none", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  mqtt(app, alice)
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.ok(app.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. bob.userID))
  expect.ok(app.topics.send("news", { data = { m = "1" }, sender = bob.userID }))
  expect.truthy(app.outbox.pushes()[1].payload:find('"sender":"' .. bob.userID .. '"', 1, true))
  expect.ok(app.topics.send("news", { data = { m = "2" } }))
  expect.is_nil(app.outbox.pushes()[2].payload:find('"sender"', 1, true))
end)

scenario("push.send_to_user's payload follows the vendor's direct-push example", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  mqtt(app, alice)
  expect.ok(app.push.send_to_user{ user = alice.userID, message = "Hello\n" })
  expect.equal(app.outbox.pushes()[1].payload,
    '{"message":"Hello\\n","senderURI":"kiicloud://admins/APP_ADMIN","sourceURI":"kiicloud://users/' .. alice.userID .. '"}')
end)

scenario("a payload over 4096 bytes with its meta keys is INVALID_INPUT_DATA when MQTT is among the networks", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  mqtt(app, alice)
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  -- data alone fits FCM's 4096 bytes; with the meta keys it does not
  local big = string.rep("x", 4096 - #'{"k":""}')
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.topics.send("news", { data = { k = big } }))
  expect.length(app.outbox.pushes(), 0)
  expect.ok(app.topics.send("news", { data = { k = big }, networks = { "ANDROID" } }))
end)

scenario("the endpoint stays the same until the installation is removed; a new one gets new credentials", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  local id = mqtt(app, alice)
  local first = expect.ok(app.installations.mqtt_endpoint(id))
  expect.ok(app.installations.unregister(id))
  local again = mqtt(app, alice)
  expect.not_equal(again, id)
  local second = expect.ok(app.installations.mqtt_endpoint(again))
  expect.not_equal(second.password, first.password)
end)
