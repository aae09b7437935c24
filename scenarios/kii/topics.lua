-- Kii: topics and push to subscribers (contract v3)
--
-- app.topics.create(topicID, owner?) -> { topicID, scope = "APP"|"APP_AND_USER", owner? }
--   errors in order: 400 INVALID_INPUT_DATA (id not 1-64 of [A-Za-z0-9_-]); 404 USER_NOT_FOUND; 409 TOPIC_ALREADY_EXISTS
-- app.topics.delete(topicID, owner?) -> true (its subscriptions go with it); 404 TOPIC_NOT_FOUND
-- app.topics.list(owner?) -> sorted topic ids of that scope; 404 USER_NOT_FOUND
-- app.topics.subscribe(topicID, userID, owner?) -> true; 404 TOPIC_NOT_FOUND, 404 USER_NOT_FOUND,
--   401 UNAUTHORIZED (another user's topic), 409 PUSH_SUBSCRIPTION_ALREADY_EXISTS
-- app.topics.unsubscribe(...) -> true; 404 TOPIC_NOT_FOUND, 404 PUSH_SUBSCRIPTION_NOT_FOUND
-- app.topics.is_subscribed(...) -> true/false; 404 TOPIC_NOT_FOUND
-- app.topics.send(topicID, message, owner?) -> { pushMessageID, delivered = { installationID... } }
--   message = { data = { [key] = string }, development?, production?, networks? }; one outbox push per installation
--   { installation_id, user, topic, data, pushMessageID }.
-- Fine point 12: an unknown owner or userID answers USER_NOT_FOUND before any topic check.

local PASSWORD = "123ABC"

local function user(app, name)
  return expect.ok(app.users.register{ username = name, password = PASSWORD })
end

local function device(app, owner, type, token, development)
  return expect.ok(app.installations.register{ user = owner.userID, type = type, token = token,
                                               development = development }).installationID
end

local function sorted(list)
  table.sort(list)
  return list
end

scenario("create answers the topic in its scope; list is sorted in byte order", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.equal(expect.ok(app.topics.create("news")), { topicID = "news", scope = "APP" })
  expect.equal(expect.ok(app.topics.create("mine", alice.userID)),
    { topicID = "mine", scope = "APP_AND_USER", owner = alice.userID })
  expect.ok(app.topics.create("Zeta"))
  expect.ok(app.topics.create("alpha_1"))
  expect.ok(app.topics.create("-dash"))
  expect.equal(expect.ok(app.topics.list()), { "-dash", "Zeta", "alpha_1", "news" })
  expect.equal(expect.ok(app.topics.list(alice.userID)), { "mine" })
end)

scenario("an app-scope and a user-scope topic with the same id are two topics; ids are case-sensitive", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.create("news", alice.userID))
  expect.ok(app.topics.create("NEWS"))
  expect.ok(app.topics.delete("news"))
  expect.equal(expect.ok(app.topics.list(alice.userID)), { "news" })
  expect.equal(expect.ok(app.topics.list()), { "NEWS" })
end)

scenario("create checks the id, then the owner, then that it is new", function()
  local app = understudy.kii()
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "topicID" }, app.topics.create("bad id", "nobody"))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.topics.create(""))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.topics.create(string.rep("t", 65)))
  expect.ok(app.topics.create(string.rep("t", 64)))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.topics.create("caf\u{e9}"))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.topics.create("news", "nobody"))
  expect.ok(app.topics.create("news"))
  expect.error({ status = 409, code = "TOPIC_ALREADY_EXISTS" }, app.topics.create("news"))
end)

scenario("delete removes the topic and its subscriptions; an unknown topic is TOPIC_NOT_FOUND", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.equal(app.topics.delete("news"), true)
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.delete("news"))
  expect.ok(app.topics.create("news"))
  expect.equal(expect.ok(app.topics.is_subscribed("news", alice.userID)), false, "subscriptions went with the topic")
end)

scenario("a user-scope topic named without its owner is TOPIC_NOT_FOUND", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.ok(app.topics.create("mine", alice.userID))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.delete("mine"))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.subscribe("mine", alice.userID))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.is_subscribed("mine", alice.userID))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.send("mine", { data = { m = "x" } }))
end)

scenario("list of an unknown owner is USER_NOT_FOUND; an owner with no topics has an empty list", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.topics.list("nobody"))
  expect.equal(expect.ok(app.topics.list(alice.userID)), {})
  expect.equal(expect.ok(app.topics.list()), {})
end)

scenario("anyone may subscribe to an app-scope topic; is_subscribed and unsubscribe follow", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  local pseudo = expect.ok(app.users.register_pseudo())
  expect.ok(app.topics.create("news"))
  expect.equal(app.topics.subscribe("news", alice.userID), true)
  expect.equal(app.topics.subscribe("news", pseudo.userID), true)
  expect.equal(expect.ok(app.topics.is_subscribed("news", alice.userID)), true)
  expect.equal(expect.ok(app.topics.is_subscribed("news", bob.userID)), false)
  expect.error({ status = 409, code = "PUSH_SUBSCRIPTION_ALREADY_EXISTS" }, app.topics.subscribe("news", alice.userID))
  expect.equal(app.topics.unsubscribe("news", alice.userID), true)
  expect.equal(expect.ok(app.topics.is_subscribed("news", alice.userID)), false)
  expect.error({ status = 404, code = "PUSH_SUBSCRIPTION_NOT_FOUND" }, app.topics.unsubscribe("news", alice.userID))
end)

scenario("only its owner may subscribe to a user-scope topic (fine point 12)", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  expect.ok(app.topics.create("mine", alice.userID))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.subscribe("mine", bob.userID, alice.userID))
  expect.equal(expect.ok(app.topics.is_subscribed("mine", bob.userID, alice.userID)), false)
  expect.error({ status = 404, code = "PUSH_SUBSCRIPTION_NOT_FOUND" }, app.topics.unsubscribe("mine", bob.userID, alice.userID))
  expect.ok(app.topics.subscribe("mine", alice.userID, alice.userID))
  expect.equal(expect.ok(app.topics.is_subscribed("mine", alice.userID, alice.userID)), true)
end)

scenario("subscription calls check the owner and the user before the topic, then the rights, then the state", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  expect.ok(app.topics.create("mine", alice.userID))
  local NO_USER = { status = 404, code = "USER_NOT_FOUND" }
  expect.error(NO_USER, app.topics.subscribe("missing", "nobody"))
  expect.error(NO_USER, app.topics.subscribe("missing", alice.userID, "nobody"))
  expect.error(NO_USER, app.topics.unsubscribe("missing", "nobody"))
  expect.error(NO_USER, app.topics.is_subscribed("missing", "nobody"))
  expect.error(NO_USER, app.topics.delete("missing", "nobody"))
  expect.error(NO_USER, app.topics.send("missing", { data = { m = "x" } }, "nobody"))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.subscribe("missing", bob.userID, alice.userID))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.subscribe("mine", bob.userID, alice.userID))
  expect.ok(app.topics.subscribe("mine", alice.userID, alice.userID))
  expect.error({ status = 409, code = "PUSH_SUBSCRIPTION_ALREADY_EXISTS" }, app.topics.subscribe("mine", alice.userID, alice.userID))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.unsubscribe("missing", alice.userID))
end)

scenario("send reaches every installation of every subscriber, one outbox push each", function()
  local app = understudy.kii()
  local alice, bob, carol = user(app, "alice"), user(app, "bob"), user(app, "carol")
  local a1 = device(app, alice, "ANDROID", "fcm-a1")
  local a2 = device(app, alice, "IOS", "apns-a2")
  local b1 = device(app, bob, "JPUSH", "jp-b1")
  device(app, carol, "ANDROID", "fcm-c1")
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.ok(app.topics.subscribe("news", bob.userID))
  local result = expect.ok(app.topics.send("news", { data = { message = "hello", kind = "greeting" } }))
  expect.equal(result.delivered, sorted({ a1, a2, b1 }))
  expect.equal(type(result.pushMessageID), "string")
  local pushes = app.outbox.pushes()
  expect.length(pushes, 3)
  local owners = { [a1] = alice.userID, [a2] = alice.userID, [b1] = bob.userID }
  for i, push in ipairs(pushes) do
    expect.equal(push, { installation_id = result.delivered[i], user = owners[result.delivered[i]], topic = "news",
                         data = { message = "hello", kind = "greeting" }, pushMessageID = result.pushMessageID })
  end
end)

scenario("send to a topic nobody subscribes to still answers a pushMessageID and delivers nothing", function()
  local app = understudy.kii()
  expect.ok(app.topics.create("news"))
  local first = expect.ok(app.topics.send("news", { data = { m = "1" } }))
  local second = expect.ok(app.topics.send("news", { data = { m = "2" } }))
  expect.equal(first.delivered, {})
  expect.not_equal(first.pushMessageID, second.pushMessageID)
  expect.length(app.outbox.pushes(), 0)
end)

scenario("networks limit the device types; development and production the environments", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  local android = device(app, alice, "ANDROID", "fcm-1")
  local ios_dev = device(app, alice, "IOS", "apns-1", true)
  local mqtt = expect.ok(app.installations.register{ user = alice.userID, type = "MQTT" }).installationID
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.equal(expect.ok(app.topics.send("news", { data = { m = "x" }, networks = { "ANDROID" } })).delivered, { android })
  expect.equal(expect.ok(app.topics.send("news", { data = { m = "x" }, networks = { "IOS", "MQTT" } })).delivered,
    sorted({ ios_dev, mqtt }))
  expect.equal(expect.ok(app.topics.send("news", { data = { m = "x" }, development = false })).delivered,
    sorted({ android, mqtt }), "an installation registered without development is a production one")
  expect.equal(expect.ok(app.topics.send("news", { data = { m = "x" }, production = false })).delivered, { ios_dev })
  expect.equal(expect.ok(app.topics.send("news", { data = { m = "x" }, development = false, production = false })).delivered,
    {}, "both false: nobody, no error")
end)

scenario("a disabled subscriber receives nothing; a deleted one is no longer subscribed", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  device(app, alice, "ANDROID", "fcm-a")
  local b = device(app, bob, "ANDROID", "fcm-b")
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.ok(app.topics.subscribe("news", bob.userID))
  expect.ok(app.users.set_disabled(alice.userID, true))
  expect.equal(expect.ok(app.topics.send("news", { data = { m = "x" } })).delivered, { b })
  expect.ok(app.users.delete(bob.userID))
  expect.equal(expect.ok(app.topics.send("news", { data = { m = "x" } })).delivered, {})
end)

scenario("deleting a user deletes their user-scope topics", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.ok(app.topics.create("mine", alice.userID))
  expect.ok(app.users.delete(alice.userID))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.topics.list(alice.userID))
end)

scenario("send checks data: empty, not flat strings, reserved keys (fine point 11)", function()
  local app = understudy.kii()
  expect.ok(app.topics.create("news"))
  local INVALID = { status = 400, code = "INVALID_INPUT_DATA" }
  expect.error(INVALID, app.topics.send("news", { data = {} }))
  expect.error(INVALID, app.topics.send("news", { data = { count = 3 } }))
  expect.error(INVALID, app.topics.send("news", { data = { flag = true } }))
  expect.error(INVALID, app.topics.send("news", { data = { nested = { a = "b" } } }))
  expect.error(INVALID, app.topics.send("news", { data = { from = "me" } }))
  expect.error(INVALID, app.topics.send("news", { data = { ["google.sent_time"] = "1" } }))
  expect.error(INVALID, app.topics.send("news", { data = { collapse_key = "k" } }))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "networks" },
    app.topics.send("news", { data = { m = "x" }, networks = {} }))
  expect.fails(function() app.topics.send("news", { data = "hello" }) end, "message.data")
  expect.fails(function() app.topics.send("news", {}) end, "message.data")
  expect.fails(function() app.topics.send("news", { data = { m = "x" }, networks = { "FAX" } }) end, "networks")
  expect.fails(function() app.topics.send("news", { data = { m = "x" }, development = "yes" }) end, "development")
  expect.fails(function() app.topics.send("news", { data = { m = "x" }, extra = 1 }) end, "unknown field")
end)

scenario("the data size is its compact JSON: 2048 bytes with IOS among the networks, else 4096", function()
  local app = understudy.kii()
  expect.ok(app.topics.create("news"))
  local INVALID = { status = 400, code = "INVALID_INPUT_DATA" }
  -- {"m":"..."} is 8 bytes plus the value
  expect.ok(app.topics.send("news", { data = { m = string.rep("x", 2040) } }))
  expect.error(INVALID, app.topics.send("news", { data = { m = string.rep("x", 2041) } }))
  expect.ok(app.topics.send("news", { data = { m = string.rep("x", 2041) }, networks = { "ANDROID", "JPUSH", "MQTT" } }))
  expect.ok(app.topics.send("news", { data = { m = string.rep("x", 4088) }, networks = { "ANDROID" } }))
  expect.error(INVALID, app.topics.send("news", { data = { m = string.rep("x", 4089) }, networks = { "ANDROID" } }))
  -- escapes count as JSON writes them: a quote is 2 bytes, a newline 2, an e-acute 2 (UTF-8)
  expect.ok(app.topics.send("news", { data = { m = string.rep('"', 1020) } }))
  expect.error(INVALID, app.topics.send("news", { data = { m = string.rep('"', 1021) } }))
  expect.ok(app.topics.send("news", { data = { m = string.rep("\u{e9}", 1020) } }))
  expect.error(INVALID, app.topics.send("news", { data = { m = string.rep("\u{e9}", 1021) } }))
end)

scenario("send checks the topic before the data", function()
  local app = understudy.kii()
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.send("missing", { data = {} }))
end)

scenario("user-scope topics: the owner subscribes and sends to their own devices", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  local a = device(app, alice, "ANDROID", "fcm-a")
  expect.ok(app.topics.create("mine", alice.userID))
  expect.ok(app.topics.subscribe("mine", alice.userID, alice.userID))
  local result = expect.ok(app.topics.send("mine", { data = { m = "x" } }, alice.userID))
  expect.equal(result.delivered, { a })
  expect.equal(app.outbox.pushes()[1].topic, "mine")
end)

scenario("faults on topic operations: the call changes nothing; when(args) sees args.message.data", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  device(app, alice, "ANDROID", "fcm-a")
  local fault = app.faults.inject{ op = "topics.create", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
  expect.error({ status = 503 }, app.topics.create("news"))
  expect.equal(expect.ok(app.topics.list()), {})
  fault:remove()
  expect.ok(app.topics.create("news"))
  local sub = app.faults.inject{ op = "topics.subscribe", status = 500, code = "UNDEFINED_ERROR",
                                 when = function(args) return args.userID == alice.userID and args.topicID == "news" end }
  expect.error({ status = 500 }, app.topics.subscribe("news", alice.userID))
  expect.equal(expect.ok(app.topics.is_subscribed("news", alice.userID)), false)
  sub:remove()
  expect.ok(app.topics.subscribe("news", alice.userID))
  app.faults.inject{ op = "topics.send", status = 500, code = "UNDEFINED_ERROR",
                     when = function(args) return args.message.data.m == "blocked" end }
  expect.error({ status = 500 }, app.topics.send("news", { data = { m = "blocked" } }))
  expect.length(app.outbox.pushes(), 0)
  expect.ok(app.topics.send("news", { data = { m = "fine" } }))
  expect.length(app.outbox.pushes(), 1)
  for _, op in ipairs({ "topics.delete", "topics.list", "topics.unsubscribe", "topics.is_subscribed" }) do
    local f = app.faults.inject{ op = op, status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
    if op == "topics.list" then
      expect.error({ status = 503 }, app.topics.list())
    elseif op == "topics.delete" then
      expect.error({ status = 503 }, app.topics.delete("news"))
    else
      expect.error({ status = 503 }, app.topics[op:sub(8)]("news", alice.userID))
    end
    f:remove()
  end
  expect.equal(expect.ok(app.topics.is_subscribed("news", alice.userID)), true)
  expect.equal(expect.ok(app.topics.list()), { "news" })
end)
