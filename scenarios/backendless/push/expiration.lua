-- Backendless push: registrations that expire
--
-- A registration may carry an expiration: a point in time, in seconds, on the backend's virtual clock
-- (app.clock). Backendless removes the registration at that moment: from then on devices.get answers
-- nil, the device is gone from app.channels.devices(...), and publishing no longer reaches it.
-- "At that moment" is exact: at expiration - 1 the device is still there, at expiration it is gone.
-- The virtual clock starts at 2030-01-01T00:00:00Z (1893456000) and only moves when a scenario moves it
-- with app.clock.advance(seconds) or app.clock.set(seconds).
-- Registering the same device_id again replaces the whole registration, its expiration included.

local NOW = 1893456000

local function register(app, device_id, channels, expiration)
  return app.devices.register{ token = "token-" .. device_id, device_id = device_id, os = "ANDROID",
                               channels = channels, expiration = expiration }
end

scenario("a new backend's clock starts at 2030-01-01T00:00:00Z and advance returns the new time", function()
  local app = understudy.backendless()
  expect.equal(app.clock.now(), NOW)
  expect.equal(app.clock.advance(90), NOW + 90)
  expect.equal(app.clock.now(), NOW + 90)
end)

scenario("the clock does not move by itself while registering and publishing", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 3600))
  expect.ok(app.push.publish{ channel = "ads", message = "hello" })
  expect.equal(app.clock.now(), NOW)
end)

scenario("the registration echoes its expiration", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads" }, NOW + 3600))
  expect.equal(reg.expiration, NOW + 3600, "reg.expiration")
  expect.equal(app.devices.get("phone-1").expiration, NOW + 3600, "devices.get expiration")
end)

scenario("a registration without expiration has none and is still there ten years later", function()
  local app = understudy.backendless()
  local reg = expect.ok(register(app, "phone-1", { "ads" }))
  expect.is_nil(reg.expiration, "reg.expiration")
  app.clock.advance(10 * 365 * 86400)
  expect.not_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
end)

scenario("one second before its expiration a registration is still live", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 3600))
  app.clock.advance(3599)
  expect.not_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
  expect.equal(app.channels.devices("ads"), { "phone-1" })
  expect.equal(expect.ok(app.push.publish{ channel = "ads", message = "last call" }).delivered, { "phone-1" })
end)

scenario("when the clock reaches the expiration, devices.get answers nil", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 3600))
  app.clock.advance(3600)
  expect.is_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
end)

scenario("when the clock reaches the expiration, the device leaves its channels", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads", "news" }, NOW + 3600))
  app.clock.advance(3600)
  expect.equal(app.channels.devices("ads"), {})
  expect.equal(app.channels.devices("news"), {})
end)

scenario("when the clock reaches the expiration, publishing no longer reaches the device", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 3600))
  app.clock.advance(3600)
  expect.equal(expect.ok(app.push.publish{ channel = "ads", message = "too late" }).delivered, {})
  expect.equal(app.outbox.pushes(), {})
end)

scenario("an expired device is not reached by device_ids targeting either", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", nil, NOW + 60))
  app.clock.advance(60)
  expect.equal(expect.ok(app.push.publish{ device_ids = { "phone-1" }, message = "too late" }).delivered, {})
  expect.equal(app.outbox.pushes(), {})
end)

scenario("clock.set to the expiration expires the registration too", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 3600))
  expect.equal(app.clock.set(NOW + 3600), NOW + 3600)
  expect.is_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
  expect.equal(app.channels.devices("ads"), {})
end)

scenario("clock.set to one second before the expiration keeps the registration", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 3600))
  app.clock.set(NOW + 3599)
  expect.not_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
end)

scenario("only the expired device leaves a shared channel", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 60))
  expect.ok(register(app, "phone-2", { "ads" }, NOW + 3600))
  expect.ok(register(app, "phone-3", { "ads" }))
  app.clock.advance(60)
  expect.equal(app.channels.devices("ads"), { "phone-2", "phone-3" })
  expect.equal(expect.ok(app.push.publish{ channel = "ads", message = "hi" }).delivered, { "phone-2", "phone-3" })
end)

scenario("re-registering without an expiration cancels the earlier expiry", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 60))
  local reg = expect.ok(register(app, "phone-1", { "ads" }))
  expect.is_nil(reg.expiration, "reg.expiration after re-registering")
  app.clock.advance(3600)
  expect.not_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
end)

scenario("re-registering with a later expiration extends the registration", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 60))
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 7200))
  app.clock.advance(3600)
  expect.equal(app.channels.devices("ads"), { "phone-1" })
end)

scenario("a device whose registration expired can register again", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }, NOW + 60))
  app.clock.advance(120)
  expect.ok(register(app, "phone-1", { "ads" }, app.clock.now() + 60))
  expect.equal(app.channels.devices("ads"), { "phone-1" })
end)
