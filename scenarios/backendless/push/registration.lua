-- Backendless push: registering a device
--
-- Before a phone can receive push notifications, the app registers it with Backendless:
--   app.devices.register{ token = <APNS/FCM token>, device_id = <stable id>, os = "IOS" | "ANDROID",
--                         channels = { ... }?, expiration = <seconds>? }
-- What QA should know:
--   * No channels given: the device is put on the "default" channel.
--   * A channel that does not exist yet is created on the fly and appears in app.channels.list().
--   * The reply carries one registration id per channel: reg.channels = { [channel] = id }, and
--     reg.registrationId, the service's own string form "<id>::<channel>,<id>::<channel>".
--   * device_id is the key: registering the same device_id again replaces its registration
--     (it is not a second device).
--   * app.channels.list() is sorted and always contains "default"; app.channels.devices(name) is the
--     sorted list of live device_ids on a channel.
-- Error codes are in errors.lua, expiry in expiration.lua, delivery in publish.lua.

local function register(app, device_id, channels, os)
  return app.devices.register{ token = "token-" .. device_id, device_id = device_id,
                               os = os or "IOS", channels = channels }
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

scenario("a device registered without channels lands on the default channel", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1"))
  expect.equal(sorted_keys(reg.channels), { "default" }, "reg.channels")
  expect.equal(app.channels.devices("default"), { "phone-1" })
end)

scenario("a device registered with channels is not also put on the default channel", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads" }))
  expect.is_nil(reg.channels.default, "reg.channels.default")
  expect.equal(app.channels.devices("default"), {})
end)

scenario("the reply echoes the device_id", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads" }))
  expect.equal(reg.device_id, "phone-1")
end)

scenario("the channels map has exactly one string registration id per registered channel", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads", "news" }))
  expect.equal(sorted_keys(reg.channels), { "ads", "news" }, "reg.channels")
  expect.equal(type(reg.channels.ads), "string", "type of reg.channels.ads")
  expect.equal(type(reg.channels.news), "string", "type of reg.channels.news")
end)

scenario("each channel gets its own registration id", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads", "news" }))
  expect.not_equal(reg.channels.ads, reg.channels.news, "registration ids of ads and news")
end)

scenario("registrationId is a string of id::channel pairs in channel order", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads", "news" }))
  expect.equal(type(reg.registrationId), "string", "type of registrationId")
  expect.equal(reg.registrationId, reg.channels.ads .. "::ads," .. reg.channels.news .. "::news")
end)

scenario("registrationId of a default-channel registration names the default channel", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1"))
  expect.equal(reg.registrationId, reg.channels.default .. "::default")
end)

scenario("a fresh backend lists only the default channel", function()
  local app = understudy.backendless()
  expect.equal(app.channels.list(), { "default" })
end)

scenario("an unknown channel is created by the registration and listed", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "sports" }))
  expect.equal(app.channels.list(), { "default", "sports" })
  expect.equal(app.channels.devices("sports"), { "phone-1" })
end)

scenario("the channel list is sorted and keeps default even when nobody is on it", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "news", "ads" }))
  expect.equal(app.channels.list(), { "ads", "default", "news" })
end)

scenario("a channel shared by two devices is listed once and lists both devices sorted", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-2", { "ads" }, "ANDROID"))
  expect.ok(register(app, "phone-1", { "ads" }, "IOS"))
  expect.equal(app.channels.list(), { "ads", "default" })
  expect.equal(app.channels.devices("ads"), { "phone-1", "phone-2" })
end)

scenario("letters, digits, underscore and hyphen make a valid channel name", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "Promo_2030-Q1" }))
  expect.not_nil(reg.channels["Promo_2030-Q1"], "reg.channels['Promo_2030-Q1']")
  expect.contains(app.channels.list(), "Promo_2030-Q1")
end)

scenario("devices.get returns the registration that register returned", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads", "news" }))
  local got = expect.not_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
  expect.equal(got.device_id, reg.device_id, "device_id")
  expect.equal(got.channels, reg.channels, "channels")
  expect.equal(got.registrationId, reg.registrationId, "registrationId")
end)

scenario("devices.get of a device never registered answers nil, not an error", function()
  local app = understudy.backendless()
  local reg, err = app.devices.get("ghost")
  expect.is_nil(reg, "registration")
  expect.is_nil(err, "error")
end)

scenario("registering the same device_id again replaces its channels", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads", "news" }))
  local reg = expect.ok(register(app, "phone-1", { "sports" }))
  expect.equal(sorted_keys(reg.channels), { "sports" }, "reg.channels after re-registering")
  expect.equal(sorted_keys(app.devices.get("phone-1").channels), { "sports" }, "devices.get channels")
  expect.equal(app.channels.devices("ads"), {})
  expect.equal(app.channels.devices("news"), {})
  expect.equal(app.channels.devices("sports"), { "phone-1" })
end)

scenario("re-registering without channels moves the device back to the default channel", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }))
  expect.ok(register(app, "phone-1"))
  expect.equal(app.channels.devices("ads"), {})
  expect.equal(app.channels.devices("default"), { "phone-1" })
end)

scenario("registering the same device twice does not make it a second device", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }))
  expect.ok(register(app, "phone-1", { "ads" }))
  expect.equal(app.channels.devices("ads"), { "phone-1" })
end)

scenario("unregistering removes the device from every channel", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads", "news" }))
  expect.equal(expect.ok(app.devices.unregister("phone-1")), true)
  expect.is_nil(app.devices.get("phone-1"), "devices.get after unregister")
  expect.equal(app.channels.devices("ads"), {})
  expect.equal(app.channels.devices("news"), {})
end)

scenario("unregistering one device leaves the others on the channel", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }))
  expect.ok(register(app, "phone-2", { "ads" }))
  expect.ok(app.devices.unregister("phone-1"))
  expect.equal(app.channels.devices("ads"), { "phone-2" })
end)
