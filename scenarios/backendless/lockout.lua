--[[
  Backendless: locking an account after failed logins

  In the console an app can lock an account after N failed logins in a row (setting
  `lockout_after = N`; 0, the default, means never). The lock lasts `lockout_minutes` (default 30)
  on the emulator's virtual clock, which only moves when the scenario moves it
  (app.clock.advance / app.clock.set).

    * failed logins 1..N answer the usual 3003;
    * from then on, for lockout_minutes, every login of that account answers 3036, even with the
      right password, and failed attempts during the lock do not extend it;
    * when the lock ends, the count of failures starts again from zero;
    * a successful login also resets the count;
    * the lock is per account: other users are not affected.
]]

local BOND, PASSWORD, WRONG = "james.bond@mi6.co.uk", "iAmWatchingU", "iAmNotWatching"

local function app_with_bond(settings)
  local app = understudy.backendless(settings)
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  return app
end

local function fail_logins(app, n)
  for _ = 1, n do expect.error(3003, app.users.login(BOND, WRONG)) end
end

scenario("by default failed logins never lock an account", function()
  local app = app_with_bond()
  expect.equal(app.settings.lockout_after, 0)
  fail_logins(app, 20)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("after lockout_after failed logins, even the right password fails with 3036", { tags = { "smoke" } }, function()
  local app = app_with_bond{ lockout_after = 3 }
  fail_logins(app, 3)
  expect.error(3036, app.users.login(BOND, PASSWORD))
end)

scenario("fewer failed logins than lockout_after do not lock the account", function()
  local app = app_with_bond{ lockout_after = 3 }
  fail_logins(app, 2)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("while locked, a wrong password also answers 3036", function()
  local app = app_with_bond{ lockout_after = 2 }
  fail_logins(app, 2)
  expect.error(3036, app.users.login(BOND, WRONG))
end)

scenario("the lock lasts 30 minutes by default", function()
  local app = app_with_bond{ lockout_after = 1 }
  expect.equal(app.settings.lockout_minutes, 30)
  fail_logins(app, 1)
  app.clock.advance(29 * 60)
  expect.error(3036, app.users.login(BOND, PASSWORD))
  app.clock.advance(2 * 60)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("the lock lasts lockout_minutes on the virtual clock and then the account unlocks", function()
  local app = app_with_bond{ lockout_after = 2, lockout_minutes = 10 }
  fail_logins(app, 2)
  app.clock.advance(10 * 60 - 1)
  expect.error(3036, app.users.login(BOND, PASSWORD))
  app.clock.advance(2)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("an account stays locked while the virtual clock stands still", function()
  local app = app_with_bond{ lockout_after = 1, lockout_minutes = 1 }
  fail_logins(app, 1)
  for _ = 1, 5 do expect.error(3036, app.users.login(BOND, PASSWORD)) end
end)

scenario("attempts during the lock do not extend it", function()
  local app = app_with_bond{ lockout_after = 2, lockout_minutes = 30 }
  fail_logins(app, 2)
  app.clock.advance(25 * 60)
  expect.error(3036, app.users.login(BOND, WRONG))
  app.clock.advance(5 * 60 + 1)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("when a lock ends the failure count starts again from zero", function()
  local app = app_with_bond{ lockout_after = 2, lockout_minutes = 30 }
  fail_logins(app, 2)
  app.clock.advance(30 * 60 + 1)
  fail_logins(app, 1)                                 -- one failure after the lock: not locked again
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("after a lock ends, N new failures lock the account again", function()
  local app = app_with_bond{ lockout_after = 2, lockout_minutes = 30 }
  fail_logins(app, 2)
  app.clock.advance(30 * 60 + 1)
  fail_logins(app, 2)
  expect.error(3036, app.users.login(BOND, PASSWORD))
end)

scenario("a successful login resets the count of failed logins", function()
  local app = app_with_bond{ lockout_after = 3 }
  fail_logins(app, 2)
  expect.ok(app.users.login(BOND, PASSWORD))
  fail_logins(app, 2)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("a locked account does not lock anyone else", function()
  local app = app_with_bond{ lockout_after = 1 }
  expect.ok(app.users.register{ email = "eve.moneypenny@mi6.co.uk", password = "p3nnyW1se" })
  fail_logins(app, 1)
  expect.error(3036, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login("eve.moneypenny@mi6.co.uk", "p3nnyW1se"))
end)

scenario("the lockout can be configured at runtime through app.settings", function()
  local app = app_with_bond()
  app.settings.lockout_after = 1
  app.settings.lockout_minutes = 5
  fail_logins(app, 1)
  expect.error(3036, app.users.login(BOND, PASSWORD))
  app.clock.advance(5 * 60 + 1)
  expect.ok(app.users.login(BOND, PASSWORD))
end)
