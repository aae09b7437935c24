-- Benchmark (issue 24): a 1,000-device channel with a message repeating every minute for a day, advanced through
-- the day in one clock.advance: 1,440 firings, 1.44 million outbox pushes. Run with
--   /usr/bin/time -v understudy run --in-process bench/scheduled-push/day.lua
-- (bench/scheduled-push/run does it with a release build and prints time and peak memory).

local DEVICES = 1000
local DAY = 86400

scenario("a day of a message repeating every minute to 1,000 devices, in one clock.advance", function()
  local app = understudy.backendless()
  for i = 1, DEVICES do
    assert(app.devices.register{ token = "token-" .. i, device_id = string.format("device-%04d", i), os = "IOS",
                                 channels = { "news" } })
  end
  local start = app.clock.now()
  local message = expect.ok(app.push.publish{ channel = "news", message = "tick", publish_at = start + 60,
                                              repeat_every = 60, repeat_expires_at = start + DAY })
  app.clock.advance(DAY)
  expect.equal(expect.ok(app.push.status(message.messageId)).status, "published")
  expect.length(app.outbox.pushes("device-0001"), DAY / 60)
  expect.equal(app.outbox.pushes("device-1000")[DAY / 60].messageId, message.messageId)
end)
