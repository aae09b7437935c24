--[[
  Backendless: several sessions for one account ("multiple logins")

  The console decides what happens when a user who already has a session logs in again
  (setting `multiple_logins`):
    "allow" (default)  every login gets a new token; earlier tokens stay valid.
    "deny"             a second login is refused with 3002 while a session exists; the existing
                       session stays valid; once it is logged out, logging in works again.
    a number N         up to N sessions at once; login number N+1 is refused with 3044 and the
                       earlier sessions stay valid.
  The policy is checked last, after the credentials: a wrong password still answers 3003.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

local function app_with_bond(settings)
  local app = understudy.backendless(settings)
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  return app
end

scenario("by default a user may hold several sessions, all of them valid", { tags = { "smoke" } }, function()
  local app = app_with_bond()
  expect.equal(app.settings.multiple_logins, "allow")
  local laptop = expect.ok(app.users.login(BOND, PASSWORD))
  local phone = expect.ok(app.users.login(BOND, PASSWORD))
  local tablet = expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(app.users.logout(laptop.token), true)
  expect.equal(app.users.logout(phone.token), true)
  expect.equal(app.users.logout(tablet.token), true)
end)

scenario("with multiple logins denied, a second login fails with 3002", function()
  local app = app_with_bond{ multiple_logins = "deny" }
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3002, app.users.login(BOND, PASSWORD))
end)

scenario("with multiple logins denied, the first session survives the refused second login", function()
  local app = app_with_bond{ multiple_logins = "deny" }
  local first = expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3002, app.users.login(BOND, PASSWORD))
  expect.equal(app.users.logout(first.token), true)
end)

scenario("with multiple logins denied, logging out allows a new login", function()
  local app = app_with_bond{ multiple_logins = "deny" }
  local first = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.logout(first.token))
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("with multiple logins denied, a wrong password still answers 3003, not 3002", function()
  local app = app_with_bond{ multiple_logins = "deny" }
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3003, app.users.login(BOND, "iAmNotWatching"))
end)

scenario("denying multiple logins is per user: another user can still log in", function()
  local app = app_with_bond{ multiple_logins = "deny" }
  expect.ok(app.users.register{ email = "eve.moneypenny@mi6.co.uk", password = "p3nnyW1se" })
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login("eve.moneypenny@mi6.co.uk", "p3nnyW1se"))
end)

scenario("with a limit of 2 sessions, the third login fails with 3044", function()
  local app = app_with_bond{ multiple_logins = 2 }
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3044, app.users.login(BOND, PASSWORD))
end)

scenario("with a session limit, the earlier sessions stay valid after a refusal", function()
  local app = app_with_bond{ multiple_logins = 2 }
  local laptop = expect.ok(app.users.login(BOND, PASSWORD))
  local phone = expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3044, app.users.login(BOND, PASSWORD))
  expect.equal(app.users.logout(laptop.token), true)
  expect.equal(app.users.logout(phone.token), true)
end)

scenario("with a session limit, logging out one session makes room for a new one", function()
  local app = app_with_bond{ multiple_logins = 2 }
  local laptop = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.logout(laptop.token))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3044, app.users.login(BOND, PASSWORD))
end)

scenario("a limit of 1 session refuses the second login with 3044, not 3002", function()
  local app = app_with_bond{ multiple_logins = 1 }
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3044, app.users.login(BOND, PASSWORD))
end)

scenario("the multiple-login policy can be changed at runtime through app.settings", function()
  local app = app_with_bond()
  app.settings.multiple_logins = "deny"
  expect.equal(app.settings.multiple_logins, "deny")
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.error(3002, app.users.login(BOND, PASSWORD))
end)
