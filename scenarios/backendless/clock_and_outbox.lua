--[[
  Backendless: the virtual clock and the outbox

  Time in the emulator is virtual. Every new backend starts at 2030-01-01T00:00:00Z, that is
  1893456000 seconds since the Unix epoch, and the clock only moves when the scenario moves it:
      app.clock.advance(seconds)  -> the new now()
      app.clock.set(seconds)      -> the new now()
  Everything time-based reads this clock: a user's `created` is its value in MILLISECONDS
  (Backendless dates are ms since epoch), account locks expire on it, and so on. Each backend has its
  own clock.

  The emulator never sends real mail, SMS or pushes. It records them in the outbox, oldest first:
  app.outbox.emails(), app.outbox.sms(), app.outbox.pushes().
]]

local EPOCH = 1893456000
local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("a new backend's clock reads 2030-01-01T00:00:00Z", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  expect.equal(app.clock.now(), EPOCH)
  expect.equal(os.date("!%Y-%m-%dT%H:%M:%SZ", app.clock.now()), "2030-01-01T00:00:00Z")
end)

scenario("advance moves the clock forward and returns the new time", function()
  local app = understudy.backendless()
  expect.equal(app.clock.advance(3600), EPOCH + 3600)
  expect.equal(app.clock.now(), EPOCH + 3600)
end)

scenario("advances add up", function()
  local app = understudy.backendless()
  app.clock.advance(60)
  app.clock.advance(90)
  expect.equal(app.clock.now(), EPOCH + 150)
end)

scenario("set puts the clock at a given time and returns it", function()
  local app = understudy.backendless()
  expect.equal(app.clock.set(1900000000), 1900000000)
  expect.equal(app.clock.now(), 1900000000)
end)

scenario("the clock does not move by itself", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  for _ = 1, 10 do expect.ok(app.users.login(BOND, PASSWORD)) end
  expect.equal(app.clock.now(), EPOCH)
end)

scenario("a user registered on a fresh backend was created at 1893456000000 ms", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(user.created, EPOCH * 1000)
  expect.equal(math.type(user.created), "integer", "created is an integer")
end)

scenario("created follows the virtual clock in milliseconds", function()
  local app = understudy.backendless()
  app.clock.advance(90)
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(bond.created, (EPOCH + 90) * 1000)
  app.clock.set(1900000000)
  local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  expect.equal(q.created, 1900000000000)
end)

scenario("two users registered without moving the clock share the same created time", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  expect.equal(q.created, bond.created)
end)

scenario("each backend has its own clock", function()
  local first = understudy.backendless()
  first.clock.advance(86400)
  local second = understudy.backendless()
  expect.equal(second.clock.now(), EPOCH)
  expect.equal(first.clock.now(), EPOCH + 86400)
end)

scenario("the outbox starts empty", function()
  local app = understudy.backendless()
  expect.equal(app.outbox.emails(), {})
  expect.equal(app.outbox.sms(), {})
  expect.equal(app.outbox.pushes(), {})
end)

scenario("registering and logging in without email confirmation sends nothing", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.length(app.outbox.emails(), 0)
  expect.length(app.outbox.sms(), 0)
end)

scenario("confirmation emails are listed oldest first", function()
  local app = understudy.backendless{ email_confirmation = true }
  for _, email in ipairs{ BOND, "eve.moneypenny@mi6.co.uk", "q@mi6.co.uk" } do
    expect.ok(app.users.register{ email = email, password = PASSWORD })
    app.clock.advance(60)
  end
  local emails = expect.length(app.outbox.emails(), 3)
  expect.equal(emails[1].to, BOND)
  expect.equal(emails[2].to, "eve.moneypenny@mi6.co.uk")
  expect.equal(emails[3].to, "q@mi6.co.uk")
end)

scenario("each backend has its own outbox", function()
  local confirming = understudy.backendless{ email_confirmation = true }
  local other = understudy.backendless{ email_confirmation = true }
  expect.ok(confirming.users.register{ email = BOND, password = PASSWORD })
  expect.length(confirming.outbox.emails(), 1)
  expect.length(other.outbox.emails(), 0)
end)
