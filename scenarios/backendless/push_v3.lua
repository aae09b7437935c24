-- Backendless push, contract version 3: targeted, scheduled and repeated messages
--
-- app.push.publish{ channel?, message, headers?, broadcast?, singlecast?, policy?, publish_at?,
--                   repeat_every?, repeat_expires_at? }
--   → { messageId, status, delivered = { device_id, ... } }
-- Each delivery is one outbox push { device_id, channel, message, headers, messageId }.
-- A scheduled message is delivered when the clock reaches its time (advance or set), each firing at its own
-- time; recipients are resolved at each firing.

local NOW = 1893456000

local function device(app, id, os, channels, expiration)
  return expect.ok(app.devices.register{ token = "token-" .. id, device_id = id, os = os or "IOS",
                                         channels = channels, expiration = expiration })
end

local function ids(pushes)
  local list = {}
  for _, push in ipairs(pushes) do list[#list + 1] = push.device_id end
  return list
end

-- Publishing now

scenario("an immediate publish is published at once, with a seeded message id", function()
  local app = understudy.backendless()
  device(app, "phone-2")
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "hello" })
  expect.match(result.messageId, "^message:%x+%-")
  expect.equal(result.status, "published")
  expect.equal(result.delivered, { "phone-1", "phone-2" })
end)

scenario("message ids come from the seeded generator: two messages, two ids", function()
  local app = understudy.backendless()
  local a = expect.ok(app.push.publish{ message = "a" })
  local b = expect.ok(app.push.publish{ message = "b" })
  expect.not_equal(a.messageId, b.messageId)
end)

scenario("every outbox push carries the message's headers and id", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "hi",
    headers = { ["ios-alert"] = "Alert!", ["android-content-title"] = "Title" } })
  expect.equal(app.outbox.pushes(), { {
    device_id = "phone-1", channel = "default", message = "hi", messageId = result.messageId,
    headers = { ["ios-alert"] = "Alert!", ["android-content-title"] = "Title" },
  } })
end)

scenario("a push without headers carries an empty headers table (fine point 6)", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  expect.ok(app.push.publish{ message = "hi" })
  expect.equal(app.outbox.pushes()[1].headers, {})
  expect.is_nil(app.outbox.pushes()[1].title)
  expect.is_nil(app.outbox.pushes()[1].template)
end)

scenario("publishing on an unknown channel creates it", function()
  local app = understudy.backendless()
  expect.equal(expect.ok(app.push.publish{ channel = "brand-new", message = "x" }).delivered, {})
  expect.contains(app.channels.list(), "brand-new")
end)

-- broadcast and singlecast

local function mixed(app)
  device(app, "ios-1", "IOS", { "news" })
  device(app, "ios-2", "IOS", { "news" })
  device(app, "droid-1", "ANDROID", { "news" })
  device(app, "ios-other", "IOS", { "sports" })
end

scenario("broadcast IOS reaches only the channel's IOS devices", function()
  local app = understudy.backendless()
  mixed(app)
  expect.equal(expect.ok(app.push.publish{ channel = "news", message = "x", broadcast = { "IOS" } }).delivered,
               { "ios-1", "ios-2" })
end)

scenario("broadcast ANDROID reaches only the channel's ANDROID devices", function()
  local app = understudy.backendless()
  mixed(app)
  expect.equal(expect.ok(app.push.publish{ channel = "news", message = "x", broadcast = { "ANDROID" } }).delivered,
               { "droid-1" })
end)

scenario("broadcast ALL, or a list of both, reaches every device of the channel", function()
  local app = understudy.backendless()
  mixed(app)
  expect.equal(expect.ok(app.push.publish{ channel = "news", message = "x", broadcast = "ALL" }).delivered,
               { "droid-1", "ios-1", "ios-2" })
  expect.equal(expect.ok(app.push.publish{ channel = "news", message = "x", broadcast = { "IOS", "ANDROID" } }).delivered,
               { "droid-1", "ios-1", "ios-2" })
end)

scenario("broadcast WP and OSX are accepted and match no device (fine point 2)", function()
  local app = understudy.backendless()
  mixed(app)
  local result = expect.ok(app.push.publish{ channel = "news", message = "x", broadcast = { "WP", "OSX" } })
  expect.equal(result.delivered, {})
  expect.equal(result.status, "published")
end)

scenario("an empty broadcast list reaches nobody (fine point 2)", function()
  local app = understudy.backendless()
  mixed(app)
  expect.equal(expect.ok(app.push.publish{ channel = "news", message = "x", broadcast = {} }).delivered, {})
  expect.equal(app.outbox.pushes(), {})
end)

scenario("singlecast reaches only the listed devices of the channel (choice: limited to the channel)", function()
  local app = understudy.backendless()
  mixed(app)
  local result = expect.ok(app.push.publish{ channel = "news", message = "x",
                                             singlecast = { "ios-2", "ios-other", "ghost" } })
  expect.equal(result.delivered, { "ios-2" })
end)

scenario("broadcast and singlecast together: a device in either receives it", function()
  local app = understudy.backendless()
  mixed(app)
  local result = expect.ok(app.push.publish{ channel = "news", message = "x", broadcast = { "ANDROID" },
                                             singlecast = { "ios-1" } })
  expect.equal(result.delivered, { "droid-1", "ios-1" })
end)

scenario("a bad broadcast or policy is misuse", function()
  local app = understudy.backendless()
  expect.fails(function() app.push.publish{ message = "x", broadcast = { "BLACKBERRY" } } end, "broadcast")
  expect.fails(function() app.push.publish{ message = "x", broadcast = "IOS" } end, "broadcast")
  expect.fails(function() app.push.publish{ message = "x", policy = "SOMETIMES" } end, "policy")
  expect.fails(function() app.push.publish{ message = "x", headers = { n = 1 } } end, "headers")
  expect.fails(function() app.push.publish{ message = "x", singlecast = "phone" } end, "singlecast")
end)

-- policy

scenario("policy PUBSUB reaches no device and is still published", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "x", policy = "PUBSUB" })
  expect.equal(result.delivered, {})
  expect.equal(result.status, "published")
  expect.equal(app.outbox.pushes(), {})
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "published")
end)

scenario("policy PUSH and BOTH reach the devices", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  expect.equal(expect.ok(app.push.publish{ message = "x", policy = "PUSH" }).delivered, { "phone-1" })
  expect.equal(expect.ok(app.push.publish{ message = "x", policy = "BOTH" }).delivered, { "phone-1" })
end)

-- publish_at

scenario("a message with publish_at is scheduled and delivered when the clock reaches it, not before", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "later", publish_at = NOW + 3600 })
  expect.equal(result.status, "scheduled")
  expect.equal(result.delivered, {})
  app.clock.advance(3599)
  expect.equal(app.outbox.pushes(), {})
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "scheduled")
  app.clock.advance(1)
  expect.equal(ids(app.outbox.pushes()), { "phone-1" })
  expect.equal(app.outbox.pushes()[1].messageId, result.messageId)
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "published")
end)

scenario("clock.set past publish_at delivers it too", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  expect.ok(app.push.publish{ message = "later", publish_at = NOW + 60 })
  app.clock.set(NOW + 86400)
  expect.equal(ids(app.outbox.pushes()), { "phone-1" })
end)

scenario("publish_at not later than now answers 5030 Invalid publish date (choice)", function()
  local app = understudy.backendless()
  local err = expect.error(5030, app.push.publish{ message = "x", publish_at = NOW })
  expect.equal(err.message, "Invalid publish date")
  expect.error(5030, app.push.publish{ message = "x", publish_at = NOW - 1 })
end)

scenario("a publish_at that is not a number is misuse", function()
  local app = understudy.backendless()
  expect.fails(function() app.push.publish{ message = "x", publish_at = "tomorrow" } end, "publish_at")
end)

scenario("deliveries due in one clock move happen in time order, each at its own time", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  expect.ok(app.push.publish{ message = "second", publish_at = NOW + 120 })
  expect.ok(app.push.publish{ message = "first", publish_at = NOW + 60 })
  app.clock.advance(3600)
  local pushes = expect.length(app.outbox.pushes(), 2)
  expect.equal(pushes[1].message, "first")
  expect.equal(pushes[2].message, "second")
  expect.equal(app.clock.now(), NOW + 3600)
end)

-- Recipients at each firing (fine point 3)

scenario("a device registered after scheduling receives the message", function()
  local app = understudy.backendless()
  expect.ok(app.push.publish{ message = "later", publish_at = NOW + 60 })
  device(app, "late-phone")
  app.clock.advance(60)
  expect.equal(ids(app.outbox.pushes()), { "late-phone" })
end)

scenario("a registration that expires at or before the firing time receives nothing", function()
  local app = understudy.backendless()
  device(app, "at", "IOS", nil, NOW + 60)
  device(app, "after", "IOS", nil, NOW + 61)
  expect.ok(app.push.publish{ message = "m", publish_at = NOW + 60 })
  app.clock.advance(600)
  expect.equal(ids(app.outbox.pushes()), { "after" })
end)

scenario("a device that expires between two firings gets only the earlier ones", function()
  local app = understudy.backendless()
  device(app, "short", "IOS", nil, NOW + 150)
  device(app, "long")
  expect.ok(app.push.publish{ message = "tick", publish_at = NOW + 60, repeat_every = 60,
                              repeat_expires_at = NOW + 240 })
  app.clock.advance(1000)
  expect.equal(#app.outbox.pushes("short"), 2)   -- at +60 and +120
  expect.equal(#app.outbox.pushes("long"), 4)    -- at +60, +120, +180, +240
end)

scenario("an unregistered device receives no later firing", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  device(app, "phone-2")
  expect.ok(app.push.publish{ message = "later", publish_at = NOW + 60 })
  expect.ok(app.devices.unregister("phone-1"))
  app.clock.advance(60)
  expect.equal(ids(app.outbox.pushes()), { "phone-2" })
end)

-- Repeats

scenario("a repeating message fires at publish_at, then every repeat_every while <= repeat_expires_at", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "tick", publish_at = NOW + 10, repeat_every = 10,
                                             repeat_expires_at = NOW + 40 })
  expect.equal(result.status, "scheduled")
  app.clock.advance(25)
  expect.equal(#app.outbox.pushes(), 2)
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "scheduled")
  app.clock.advance(100)
  local pushes = expect.length(app.outbox.pushes(), 4)   -- +10, +20, +30, +40
  for _, push in ipairs(pushes) do expect.equal(push.messageId, result.messageId, "one messageId for every firing") end
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "published")
end)

scenario("without publish_at a repeating message fires now, during the call, and stays scheduled", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "tick", repeat_every = 60, repeat_expires_at = NOW + 120 })
  expect.equal(result.status, "scheduled")
  expect.equal(result.delivered, { "phone-1" })
  app.clock.advance(120)
  expect.equal(#app.outbox.pushes(), 3)   -- now, +60, +120
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "published")
end)

scenario("an immediate repeating message with no firing left is published at once", function()
  local app = understudy.backendless()
  local result = expect.ok(app.push.publish{ message = "tick", repeat_every = 60, repeat_expires_at = NOW + 30 })
  expect.equal(result.status, "published")
end)

scenario("repeat_every without repeat_expires_at answers 5003 Invalid expiration date (choice)", function()
  local app = understudy.backendless()
  local err = expect.error(5003, app.push.publish{ message = "x", repeat_every = 60 })
  expect.equal(err.message, "Invalid expiration date")
end)

scenario("repeat_expires_at not later than the first firing answers 5003", function()
  local app = understudy.backendless()
  expect.error(5003, app.push.publish{ message = "x", repeat_every = 60, repeat_expires_at = NOW })
  expect.error(5003, app.push.publish{ message = "x", publish_at = NOW + 100, repeat_every = 60,
                                       repeat_expires_at = NOW + 100 })
  expect.ok(app.push.publish{ message = "x", publish_at = NOW + 100, repeat_every = 60, repeat_expires_at = NOW + 101 })
end)

scenario("publish_at is checked (5030) before repeat_expires_at (5003) (fine point 4)", function()
  local app = understudy.backendless()
  expect.error(5030, app.push.publish{ message = "x", publish_at = NOW - 10, repeat_every = 60,
                                       repeat_expires_at = NOW - 100 })
end)

scenario("repeat_every that is not a whole number >= 1 is misuse (fine point 4)", function()
  local app = understudy.backendless()
  expect.fails(function() app.push.publish{ message = "x", repeat_every = 0, repeat_expires_at = NOW + 60 } end,
               "repeat_every")
  expect.fails(function() app.push.publish{ message = "x", repeat_every = 1.5, repeat_expires_at = NOW + 60 } end,
               "repeat_every")
  expect.fails(function() app.push.publish{ message = "x", repeat_every = "1", repeat_expires_at = NOW + 60 } end,
               "repeat_every")
end)

scenario("a whole-number float repeat_every (3600 / 60) is accepted", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  expect.ok(app.push.publish{ message = "x", publish_at = NOW + 60, repeat_every = 3600 / 60,
                              repeat_expires_at = NOW + 120 })
  app.clock.advance(120)
  expect.equal(#app.outbox.pushes(), 2)
end)

scenario("repeat_expires_at without repeat_every is misuse (fine point 4)", function()
  local app = understudy.backendless()
  expect.fails(function() app.push.publish{ message = "x", repeat_expires_at = NOW + 60 } end, "repeat_expires_at")
end)

-- Status (fine point 5)

scenario("status of an id never issued is unknown, without an error (choice)", function()
  local app = understudy.backendless()
  local status = expect.ok(app.push.status("message:nothing-like-it"))
  expect.equal(status, { messageId = "message:nothing-like-it", status = "unknown" })
  expect.is_nil(status.errorMessage)
end)

scenario("a message that reached nobody is still published", function()
  local app = understudy.backendless()
  local result = expect.ok(app.push.publish{ channel = "empty", message = "anyone?" })
  expect.equal(expect.ok(app.push.status(result.messageId)),
               { messageId = result.messageId, status = "published" })
end)

-- Cancel

scenario("cancel drops a scheduled message's firings; its status is cancelled", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "later", publish_at = NOW + 60 })
  expect.equal(app.push.cancel(result.messageId), true)
  app.clock.advance(3600)
  expect.equal(app.outbox.pushes(), {})
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "cancelled")
end)

scenario("cancel of a repeating message keeps the firings already delivered and drops the rest", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  local result = expect.ok(app.push.publish{ message = "tick", publish_at = NOW + 60, repeat_every = 60,
                                             repeat_expires_at = NOW + 600 })
  app.clock.advance(130)
  expect.ok(app.push.cancel(result.messageId))
  app.clock.advance(3600)
  expect.equal(#app.outbox.pushes(), 2)
end)

scenario("cancel answers 5040 for an unknown id, a cancelled message and a delivered one (choice for the last)", function()
  local app = understudy.backendless()
  local err = expect.error(5040, app.push.cancel("message:unknown"))
  expect.equal(err.message, "Can't cancel message. Already cancelled or there is no such message")
  local scheduled = expect.ok(app.push.publish{ message = "x", publish_at = NOW + 60 })
  expect.ok(app.push.cancel(scheduled.messageId))
  expect.error(5040, app.push.cancel(scheduled.messageId))
  local sent = expect.ok(app.push.publish{ message = "now" })
  expect.error(5040, app.push.cancel(sent.messageId))
  local repeated = expect.ok(app.push.publish{ message = "r", publish_at = NOW + 100, repeat_every = 10,
                                               repeat_expires_at = NOW + 120 })
  app.clock.advance(200)
  expect.error(5040, app.push.cancel(repeated.messageId))
end)

scenario("cancelling a message that reached nobody answers 5040 (fine point 5)", function()
  local app = understudy.backendless()
  local result = expect.ok(app.push.publish{ channel = "empty", message = "x" })
  expect.error(5040, app.push.cancel(result.messageId))
end)

-- Faults

scenario("push.publish faults see the new fields by name; a faulted publish schedules nothing", function()
  local app = understudy.backendless()
  device(app, "phone-1")
  app.faults.inject{ op = "push.publish", code = 5007, times = 1,
                     when = function(args)
                       -- the fields directly, and the table under its parameter name (fine point 13)
                       return args.broadcast[1] == "IOS" and args.headers.h == "v"
                          and args.publication.publish_at == NOW + 60 and args.publication.headers.h == "v"
                     end }
  expect.error(5007, app.push.publish{ message = "x", broadcast = { "IOS" }, headers = { h = "v" },
                                       publish_at = NOW + 60 })
  app.clock.advance(3600)
  expect.equal(app.outbox.pushes(), {})
end)

scenario("push.message_status and push.cancel take faults; when(args) sees messageId", function()
  local app = understudy.backendless()
  local result = expect.ok(app.push.publish{ message = "x", publish_at = NOW + 60 })
  app.faults.inject{ op = "push.message_status", code = 5050, times = 1,
                     when = function(args) return args.messageId == result.messageId end }
  expect.error(5050, app.push.status(result.messageId))
  app.faults.inject{ op = "push.cancel", code = 5040, times = 1,
                     when = function(args) return args.messageId == result.messageId end }
  local err = expect.error(5040, app.push.cancel(result.messageId))
  expect.equal(err.message, "Can't cancel message. Already cancelled or there is no such message")
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "scheduled", "a faulted cancel changes nothing")
end)
