--[[
  Snapshots inside a scenario

  understudy.snapshot(name) keeps the scenario's backends as they are; understudy.restore(name) brings them back
  in place, as POST /_understudy/snapshots/NAME/restore does for the served world. A test that seeds once and
  restores before each case needs no setup in between, and a recorded session that restored a snapshot between
  an app's tests replays as it ran.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("a restore brings back users, sessions, settings, clock, outbox, faults and the next ids", function()
  local app = understudy.backendless{ email_confirmation = true }
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD, name = "James" })
  expect.ok(app.users.confirm_email(bond.objectId))
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  local kept = expect.ok(app.users.find(BOND))
  understudy.snapshot("seeded")

  local first = expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "secret1" })
  expect.ok(app.users.update(kept.objectId, { name = "Jim" }, session.token))
  expect.ok(app.users.logout(session.token))
  app.settings.registration = false
  app.clock.advance(86400)
  app.faults.inject{ op = "users.login", code = 3003 }

  expect.equal(understudy.restore("seeded"), true)
  expect.equal(app.users.count(), 1)
  expect.equal(app.users.find(BOND), kept)
  expect.is_nil(app.users.find("m@mi6.co.uk"))
  expect.equal(app.settings.registration, true)
  expect.equal(app.clock.now(), 1893456000)
  expect.length(app.outbox.emails(), 1)
  expect.length(app.faults.list(), 0)
  expect.ok(app.users.update(kept.objectId, { name = "Bond" }, session.token))  -- the session lives again
  -- The generators went back too: the same registration gets the same id.
  local again = expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "secret1" })
  expect.equal(again.objectId, first.objectId)
end)

scenario("restoring again, or another snapshot, gives back each one's backends; a name kept twice is replaced", function()
  local app = understudy.kii{}
  expect.ok(app.users.register{ username = "agent007", password = PASSWORD })
  understudy.snapshot("one")
  expect.ok(app.users.register{ username = "agent006", password = PASSWORD })
  understudy.snapshot("two")
  for _, name in ipairs({ "one", "two", "two", "one" }) do
    expect.ok(app.users.register{ username = "agent009", password = PASSWORD })
    understudy.restore(name)
    expect.equal(app.users.count(), name == "one" and 1 or 2, name)
    expect.is_nil(app.users.find("agent009"), name)
  end
  understudy.snapshot("one")  -- now the world with one user (restored above)
  expect.ok(app.users.register{ username = "agent009", password = PASSWORD })
  understudy.restore("one")
  expect.equal(app.users.count(), 1)
end)

scenario("a backend made after the snapshot is gone after the restore; the others keep working", function()
  local kept = understudy.backendless()
  understudy.snapshot("before")
  local later = understudy.kii()
  expect.length(understudy.apps(), 2)
  understudy.restore("before")
  expect.length(understudy.apps(), 1)
  expect.fails(function() later.users.count() end, "made after the snapshot that understudy.restore brought back")
  expect.ok(kept.users.register{ email = BOND, password = PASSWORD })
  local another = understudy.kii()  -- a new backend never takes the dropped one's place
  expect.equal(another.users.count(), 0)
  expect.fails(function() later.users.count() end, "made after the snapshot")
end)

scenario("restoring a name never kept raises, listing the names kept", function()
  understudy.backendless()
  expect.fails(function() understudy.restore("seeded") end, "no snapshot is named 'seeded' %(none is kept yet")
  understudy.snapshot("a")
  expect.fails(function() understudy.restore("b") end, "no snapshot is named 'b' %(snapshots: a%)")
  expect.fails(function() understudy.snapshot() end, "name")
end)

scenario("snapshots end with their scenario", function()
  understudy.backendless()
  expect.fails(function() understudy.restore("before") end, "no snapshot is named 'before'")
end)
