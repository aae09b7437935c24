-- Backendless push: publishing a notification
--
-- app.push.publish{ channel = "news", message = "..." } sends a push to every live device registered
-- on the channel; without `channel` it goes to the "default" channel. Instead of a channel, a list of
-- device_ids can be targeted: publish{ device_ids = { ... }, message = "..." } reaches those listed
-- devices that are registered (and not expired).
-- The reply is { delivered = { device_id, ... } }, sorted. Publishing where nobody listens is not an
-- error: delivered is simply empty.
-- Nothing really leaves the machine: each delivery is recorded in app.outbox.pushes() as
-- { device_id, channel, message, headers, messageId } (oldest first; contract version 3 added headers and
-- messageId); a device_ids push has no channel.

local function register(app, device_id, channels)
  return app.devices.register{ token = "token-" .. device_id, device_id = device_id, os = "IOS",
                               channels = channels }
end

scenario("a fresh backend has sent no pushes", function()
  local app = understudy.backendless()
  expect.equal(app.outbox.pushes(), {})
end)

scenario("a push on a channel reaches every device registered on it", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-2", { "news" }))
  expect.ok(register(app, "phone-1", { "news" }))
  local result = expect.ok(app.push.publish{ channel = "news", message = "Breaking" })
  expect.equal(result.delivered, { "phone-1", "phone-2" })
end)

scenario("the delivered list is sorted by device_id, not by registration order", function()
  local app = understudy.backendless()
  for _, id in ipairs{ "zulu", "alpha", "mike" } do expect.ok(register(app, id, { "news" })) end
  expect.equal(expect.ok(app.push.publish{ channel = "news", message = "x" }).delivered,
               { "alpha", "mike", "zulu" })
end)

scenario("each delivery is recorded in the push outbox with device, channel and message", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news" }))
  expect.ok(register(app, "phone-2", { "news" }))
  local id = expect.ok(app.push.publish{ channel = "news", message = "Breaking" }).messageId
  local pushes = expect.length(app.outbox.pushes(), 2)
  expect.contains(pushes, { device_id = "phone-1", channel = "news", message = "Breaking", headers = {}, messageId = id })
  expect.contains(pushes, { device_id = "phone-2", channel = "news", message = "Breaking", headers = {}, messageId = id })
end)

scenario("devices on other channels get nothing", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news" }))
  expect.ok(register(app, "phone-2", { "sports" }))
  local result = expect.ok(app.push.publish{ channel = "news", message = "x" })
  expect.equal(result.delivered, { "phone-1" })
  expect.equal(app.outbox.pushes(), { { device_id = "phone-1", channel = "news", message = "x", headers = {},
                                        messageId = result.messageId } })
end)

scenario("a push without a channel goes to the default channel", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1"))
  expect.ok(register(app, "phone-2", { "ads" }))
  local result = expect.ok(app.push.publish{ message = "hello" })
  expect.equal(result.delivered, { "phone-1" })
  expect.equal(app.outbox.pushes(), { { device_id = "phone-1", channel = "default", message = "hello", headers = {},
                                        messageId = result.messageId } })
end)

scenario("publishing on a channel nobody is registered on delivers to nobody without an error", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news" }))
  expect.equal(expect.ok(app.push.publish{ channel = "empty", message = "anyone?" }).delivered, {})
  expect.equal(app.outbox.pushes(), {})
end)

scenario("a device on two channels gets one push per channel published to", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads", "news" }))
  local sale = expect.ok(app.push.publish{ channel = "ads", message = "sale" })
  local headline = expect.ok(app.push.publish{ channel = "news", message = "headline" })
  expect.equal(app.outbox.pushes(), {
    { device_id = "phone-1", channel = "ads", message = "sale", headers = {}, messageId = sale.messageId },
    { device_id = "phone-1", channel = "news", message = "headline", headers = {}, messageId = headline.messageId },
  })
end)

scenario("the push outbox keeps every push, oldest first", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1"))
  expect.ok(app.push.publish{ message = "first" })
  expect.ok(app.push.publish{ message = "second" })
  local pushes = expect.length(app.outbox.pushes(), 2)
  expect.equal(pushes[1].message, "first")
  expect.equal(pushes[2].message, "second")
end)

scenario("device_ids targeting reaches only the listed devices that are registered", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news" }))
  expect.ok(register(app, "phone-2", { "news" }))
  local result = expect.ok(app.push.publish{ device_ids = { "phone-2", "ghost" }, message = "just you" })
  expect.equal(result.delivered, { "phone-2" })
end)

scenario("a device_ids push is recorded without a channel", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news" }))
  local result = expect.ok(app.push.publish{ device_ids = { "phone-1" }, message = "just you" })
  expect.equal(app.outbox.pushes(), { { device_id = "phone-1", message = "just you", headers = {},
                                        messageId = result.messageId } })
end)

scenario("device_ids targeting sorts the delivered list", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1"))
  expect.ok(register(app, "phone-2"))
  expect.equal(expect.ok(app.push.publish{ device_ids = { "phone-2", "phone-1" }, message = "x" }).delivered,
               { "phone-1", "phone-2" })
end)

scenario("an unregistered device receives nothing", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news" }))
  expect.ok(register(app, "phone-2", { "news" }))
  expect.ok(app.devices.unregister("phone-1"))
  local result = expect.ok(app.push.publish{ channel = "news", message = "x" })
  expect.equal(result.delivered, { "phone-2" })
  expect.equal(expect.ok(app.push.publish{ device_ids = { "phone-1" }, message = "y" }).delivered, {})
  expect.equal(app.outbox.pushes(), { { device_id = "phone-2", channel = "news", message = "x", headers = {},
                                        messageId = result.messageId } })
end)

scenario("a device moved to another channel no longer gets the old channel's pushes", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news" }))
  expect.ok(register(app, "phone-1", { "sports" }))
  expect.equal(expect.ok(app.push.publish{ channel = "news", message = "x" }).delivered, {})
  expect.equal(expect.ok(app.push.publish{ channel = "sports", message = "y" }).delivered, { "phone-1" })
end)

scenario("one backend's pushes are not seen by another backend", function()
  local a = understudy.backendless()
  local b = understudy.backendless()
  expect.ok(register(a, "phone-1"))
  expect.ok(register(b, "phone-1"))
  expect.ok(a.push.publish{ message = "only a" })
  expect.length(a.outbox.pushes(), 1)
  expect.equal(b.outbox.pushes(), {})
end)
