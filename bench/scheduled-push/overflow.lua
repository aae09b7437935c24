-- Benchmark (issue 24): the same day with 100,000 devices would be 144 million outbox pushes. The clock move must
-- stop at --max-memory with the memory cap's message, never hang. This scenario FAILS by design: the run prints
-- "memory cap exceeded ..." for it. Run with
--   /usr/bin/time -v understudy run --in-process bench/scheduled-push/overflow.lua

local DEVICES = 100000
local DAY = 86400

scenario("a day of a message repeating every minute to 100,000 devices stops at the memory cap", function()
  local app = understudy.backendless()
  for i = 1, DEVICES do
    assert(app.devices.register{ token = "token-" .. i, device_id = string.format("device-%06d", i), os = "IOS",
                                 channels = { "news" } })
  end
  local start = app.clock.now()
  expect.ok(app.push.publish{ channel = "news", message = "tick", publish_at = start + 60, repeat_every = 60,
                              repeat_expires_at = start + DAY })
  app.clock.advance(DAY)
  error("not reached: the advance should have stopped at the memory cap")
end)
