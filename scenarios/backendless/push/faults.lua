-- Backendless push: injected faults
--
-- To test how an app copes with a failing backend, a scenario can make the next calls of an operation
-- fail on purpose:
--   local fault = app.faults.inject{ op = "devices.register", code = 5043, message = "Could not register channel" }
-- The call then answers `nil, err` with that code (and message), exactly as a real failure would, and does
-- nothing else: no device is registered, removed or pushed to.
-- Options: times = N (fail only the next N calls; default unlimited), probability = p (default 1),
-- when = function(args) ... end (fail only matching calls). fault.hits counts the calls it failed;
-- fault:remove() and app.faults.clear() switch faults off again.
-- Push operations: devices.register, devices.unregister, push.publish.

local function register(app, device_id, channels)
  return app.devices.register{ token = "token-" .. device_id, device_id = device_id, os = "IOS",
                               channels = channels }
end

-- true when any value in args (looked at recursively) equals `needle`; works whatever the shape of args
local function mentions(args, needle)
  if args == needle then return true end
  if type(args) ~= "table" then return false end
  for _, v in pairs(args) do
    if mentions(v, needle) then return true end
  end
  return false
end

scenario("a fault on devices.register makes it fail with the injected code and message", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "devices.register", code = 5043, message = "Could not register channel" }
  expect.error({ code = 5043, message = "Could not register channel" }, register(app, "phone-1", { "ads" }))
end)

scenario("a failed devices.register registers nothing and creates no channel", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "devices.register", code = 5043 }
  expect.error(5043, register(app, "phone-1", { "ads" }))
  expect.is_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
  expect.equal(app.channels.list(), { "default" })
end)

scenario("a fault without times fails every call until it is removed", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "devices.register", code = 5043 }
  expect.error(5043, register(app, "phone-1"))
  expect.error(5043, register(app, "phone-2"))
  expect.error(5043, register(app, "phone-3"))
  fault:remove()
  expect.ok(register(app, "phone-4"))
end)

scenario("fault.hits counts the calls the fault failed", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "devices.register", code = 5043 }
  expect.equal(fault.hits, 0, "hits before any call")
  understudy.ignore(register(app, "phone-1"))
  understudy.ignore(register(app, "phone-2"))
  expect.equal(fault.hits, 2, "hits after two calls")
end)

scenario("a fault with times = 1 fails only the next call", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "devices.register", code = 5043, times = 1 }
  expect.error(5043, register(app, "phone-1"))
  expect.ok(register(app, "phone-1"))
  expect.equal(fault.hits, 1, "fault.hits")
end)

scenario("a fault on devices.unregister keeps the device registered", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1", { "ads" }))
  app.faults.inject{ op = "devices.unregister", code = 5001, message = "Unable to cancel device registration" }
  expect.error(5001, app.devices.unregister("phone-1"))
  expect.not_nil(app.devices.get("phone-1"), "devices.get('phone-1')")
  expect.equal(app.channels.devices("ads"), { "phone-1" })
end)

scenario("a fault on push.publish delivers nothing and records nothing", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1"))
  app.faults.inject{ op = "push.publish", code = 5010 }
  expect.error(5010, app.push.publish{ message = "lost" })
  expect.equal(app.outbox.pushes(), {})
end)

scenario("a fault on one operation leaves the other operations working", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "push.publish", code = 5010 }
  expect.ok(register(app, "phone-1"))
  expect.ok(app.devices.unregister("phone-1"))
end)

scenario("a when predicate fails only the matching calls", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "devices.register", code = 5043,
                                   when = function(args) return mentions(args, "phone-2") end }
  expect.ok(register(app, "phone-1"))
  expect.error(5043, register(app, "phone-2"))
  expect.ok(register(app, "phone-3"))
  expect.equal(fault.hits, 1, "fault.hits")
end)

scenario("a fault with probability 0 never fires", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "devices.register", code = 5043, probability = 0 }
  for i = 1, 20 do expect.ok(register(app, "phone-" .. i)) end
  expect.equal(fault.hits, 0, "fault.hits")
end)

scenario("faults.clear removes every fault", function()
  local app = understudy.backendless()
  expect.ok(register(app, "phone-1"))
  app.faults.inject{ op = "devices.register", code = 5043 }
  app.faults.inject{ op = "push.publish", code = 5010 }
  expect.equal(app.faults.clear(), true)
  expect.ok(register(app, "phone-2"))
  expect.equal(expect.ok(app.push.publish{ message = "back" }).delivered, { "phone-1", "phone-2" })
end)

scenario("after a removed fault, the retried call behaves normally", function()
  local app = understudy.backendless()
  local fault = app.faults.inject{ op = "push.publish", code = 5010 }
  expect.ok(register(app, "phone-1"))
  expect.error(5010, app.push.publish{ message = "retry me" })
  fault:remove()
  local result = expect.ok(app.push.publish{ message = "retry me" })
  expect.equal(result.delivered, { "phone-1" })
  expect.equal(app.outbox.pushes(), { { device_id = "phone-1", channel = "default", message = "retry me",
                                        headers = {}, messageId = result.messageId } })
end)
