-- Backendless push: what a device registration can fail with
--
-- Every failure comes back as `nil, err` with err = { code = <integer>, message = <string> }:
--   5011  no device_id                                   "Unable to register device, deviceId cannot be null"
--   8000  token longer than 500 characters, or device_id longer than 100 (the message names which)
--   5044  a channel name with a character outside A-Z a-z 0-9 _ - , or longer than 100 characters
--   5004  expiration not later than app.clock.now(), or not a number
--   5001  unregistering a device that is not registered
-- When several things are wrong, the first in this order wins: 5011, 8000, 5044, 5004.
-- A refused registration changes nothing (no device, no new channel).
-- Mistakes in using the Lua API itself (an unknown os, no token, publishing without a message) are not
-- backend errors: they raise a Lua error that names the field.

local NOW = 1893456000 -- a new backend's clock: 2030-01-01T00:00:00Z

local function device(fields)
  local d = { token = "a1b2c3", device_id = "phone-1", os = "IOS" }
  for k, v in pairs(fields or {}) do d[k] = v end
  return d
end

-- 5011 ------------------------------------------------------------------------------------------

scenario("a registration without device_id is refused with 5011", function()
  local app = understudy.backendless()
  local err = expect.error(5011, app.devices.register{ token = "a1b2c3", os = "IOS" })
  expect.equal(type(err.message), "string", "type of err.message")
end)

-- 5044 ------------------------------------------------------------------------------------------

scenario("a channel name with a character outside A-Z a-z 0-9 _ - is refused with 5044", function()
  local app = understudy.backendless()
  for _, name in ipairs{ "ads!", "ads news", "ads.news", "ads/news", "ads:news", "café" } do
    print("channel name: " .. name)
    local err = expect.error(5044, app.devices.register(device{ channels = { name } }))
    expect.contains(err.message, "Channel name contains invalid character")
  end
end)

scenario("a channel name of 101 characters is refused with 5044, whose message says it is too long", function()
  local app = understudy.backendless()
  local err = expect.error(5044, app.devices.register(device{ channels = { string.rep("c", 101) } }))
  expect.contains(err.message, "Channel name is too long: 101 characters, at most 100 allowed")
  expect.equal(err.message:find("invalid character", 1, true), nil, "'invalid character' in " .. err.message)
end)

scenario("an empty channel name is refused with 5044, whose message says it is empty", function()
  local app = understudy.backendless()
  local err = expect.error(5044, app.devices.register(device{ channels = { "" } }))
  expect.equal(err.message, "Channel name is empty")
end)

scenario("a channel name of exactly 100 characters is accepted", function()
  local app = understudy.backendless()
  local name = string.rep("c", 100)
  local reg = expect.ok(app.devices.register(device{ channels = { name } }))
  expect.not_nil(reg.channels[name], "registration id of the 100-character channel")
end)

scenario("one bad channel name refuses the whole registration and creates no channel", function()
  local app = understudy.backendless()
  expect.error(5044, app.devices.register(device{ channels = { "sports", "bad!" } }))
  expect.is_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
  expect.equal(app.channels.list(), { "default" })
end)

-- 8000 ------------------------------------------------------------------------------------------

scenario("a token of 501 characters is refused with 8000 naming the token", function()
  local app = understudy.backendless()
  local err = expect.error(8000, app.devices.register(device{ token = string.rep("t", 501) }))
  expect.contains(err.message:lower(), "token")
end)

scenario("a token of exactly 500 characters is accepted", function()
  local app = understudy.backendless()
  expect.ok(app.devices.register(device{ token = string.rep("t", 500) }))
end)

scenario("a device_id of 101 characters is refused with 8000 naming the device id", function()
  local app = understudy.backendless()
  local err = expect.error(8000, app.devices.register(device{ device_id = string.rep("d", 101) }))
  expect.contains((err.message:lower():gsub("_", "")), "deviceid")
end)

scenario("a device_id of exactly 100 characters is accepted", function()
  local app = understudy.backendless()
  local id = string.rep("d", 100)
  expect.ok(app.devices.register(device{ device_id = id }))
  expect.not_nil(app.devices.get(id), "devices.get of the 100-character device_id")
end)

-- 5004 ------------------------------------------------------------------------------------------

scenario("an expiration equal to now is refused with 5004", function()
  local app = understudy.backendless()
  expect.error(5004, app.devices.register(device{ expiration = app.clock.now() }))
end)

scenario("an expiration in the past is refused with 5004", function()
  local app = understudy.backendless()
  expect.error(5004, app.devices.register(device{ expiration = app.clock.now() - 3600 }))
end)

scenario("an expiration that is not a number is refused with 5004", function()
  local app = understudy.backendless()
  expect.error(5004, app.devices.register(device{ expiration = "tomorrow" }))
end)

scenario("an expiration one second from now is accepted", function()
  local app = understudy.backendless()
  expect.ok(app.devices.register(device{ expiration = app.clock.now() + 1 }))
end)

scenario("the past is judged by the virtual clock, not the wall clock", function()
  local app = understudy.backendless()
  app.clock.advance(86400)
  -- one hour after the backend's start, but already in the past on the virtual clock
  expect.error(5004, app.devices.register(device{ expiration = NOW + 3600 }))
end)

scenario("a refused re-registration leaves the earlier registration untouched", function()
  local app = understudy.backendless()
  expect.ok(app.devices.register(device{ channels = { "ads" } }))
  expect.error(5004, app.devices.register(device{ channels = { "news" }, expiration = app.clock.now() }))
  expect.not_nil(app.devices.get("phone-1").channels.ads, "phone-1 still on ads")
  expect.equal(app.channels.devices("ads"), { "phone-1" })
end)

-- which error wins ------------------------------------------------------------------------------

scenario("a missing device_id is reported before any other problem", function()
  local app = understudy.backendless()
  expect.error(5011, app.devices.register{ token = string.rep("t", 501), os = "IOS",
                                           channels = { "bad!" }, expiration = app.clock.now() - 1 })
end)

scenario("an over-long device_id is reported before a bad channel name or expiration", function()
  local app = understudy.backendless()
  expect.error(8000, app.devices.register(device{ device_id = string.rep("d", 101),
                                                  channels = { "bad!" }, expiration = app.clock.now() }))
end)

scenario("an over-long token is reported before a bad channel name or expiration", function()
  local app = understudy.backendless()
  expect.error(8000, app.devices.register(device{ token = string.rep("t", 501),
                                                  channels = { "bad!" }, expiration = app.clock.now() }))
end)

scenario("a bad channel name is reported before a bad expiration", function()
  local app = understudy.backendless()
  expect.error(5044, app.devices.register(device{ channels = { "bad!" }, expiration = app.clock.now() }))
end)

-- 5001 ------------------------------------------------------------------------------------------

scenario("unregistering a device that was never registered fails with 5001", function()
  local app = understudy.backendless()
  local err = expect.error(5001, app.devices.unregister("ghost"))
  expect.equal(type(err.message), "string", "type of err.message")
end)

scenario("unregistering the same device twice fails with 5001 the second time", function()
  local app = understudy.backendless()
  expect.ok(app.devices.register(device()))
  expect.ok(app.devices.unregister("phone-1"))
  expect.error(5001, app.devices.unregister("phone-1"))
end)

-- API misuse: Lua errors, not backend errors ----------------------------------------------------

scenario("an os other than IOS or ANDROID is a Lua error naming os", function()
  local app = understudy.backendless()
  expect.fails(function() app.devices.register(device{ os = "WINDOWS" }) end, "os")
end)

scenario("a registration without a token is a Lua error naming token", function()
  local app = understudy.backendless()
  expect.fails(function() app.devices.register{ device_id = "phone-1", os = "IOS" } end, "token")
end)

scenario("publishing without a message is a Lua error naming message", function()
  local app = understudy.backendless()
  expect.ok(app.devices.register(device()))
  expect.fails(function() app.push.publish{ channel = "default" } end, "message")
  expect.equal(app.outbox.pushes(), {})
end)
