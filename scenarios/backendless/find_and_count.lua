--[[
  Backendless: looking users up (app.users.find) and counting them (app.users.count)

  These two calls are the emulator's window on the Users table, for checking what a scenario did:
    * find(identity_value) returns the stored user (never the password), or nil when nobody has
      that identity. "Nobody" is not an error: there is no second return value.
      Email identities compare case-insensitively; other identities (see identity.lua) exactly.
    * count() returns how many registered users exist, as an integer. Guests are not counted;
      users waiting for email confirmation and disabled users are.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("find returns the registered user without the password", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD, name = "James Bond" })
  local found = expect.ok(app.users.find(BOND))
  expect.equal(found.objectId, bond.objectId)
  expect.equal(found.name, "James Bond")
  expect.equal(found.userStatus, "ENABLED")
  expect.equal(found.created, bond.created)
  expect.equal(found.___class, "Users")
  expect.is_nil(found.password)
end)

scenario("find returns nil and no error for an unknown email", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local user, err = app.users.find("ernst.blofeld@spectre.org")
  expect.is_nil(user)
  expect.is_nil(err)
end)

scenario("find matches emails case-insensitively", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(expect.ok(app.users.find("James.Bond@MI6.CO.UK")).objectId, bond.objectId)
end)

scenario("find tells users apart", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  expect.equal(expect.ok(app.users.find(BOND)).objectId, bond.objectId)
  expect.equal(expect.ok(app.users.find("q@mi6.co.uk")).objectId, q.objectId)
end)

scenario("a refused registration stores nothing", function()
  local app = understudy.backendless()
  expect.error(3011, app.users.register{ email = BOND })
  expect.is_nil(app.users.find(BOND))
  expect.equal(app.users.count(), 0)
end)

scenario("count starts at 0 and is an integer", function()
  local app = understudy.backendless()
  local n = app.users.count()
  expect.equal(math.type(n), "integer", "count is an integer")
  expect.equal(n, 0)
end)

scenario("count goes up by one per registered user", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 1)
  expect.ok(app.users.register{ email = "eve.moneypenny@mi6.co.uk", password = "p3nnyW1se" })
  expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  expect.equal(app.users.count(), 3)
end)

scenario("count does not change on a duplicate registration", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3033, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 1)
end)

scenario("logging in and out does not change the count", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.logout(session.token))
  expect.equal(app.users.count(), 1)
end)

scenario("count includes users waiting for email confirmation and disabled users", function()
  local app = understudy.backendless{ email_confirmation = true }
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  expect.ok(app.users.set_status(q.objectId, "DISABLED"))
  expect.equal(app.users.count(), 2)
end)

scenario("count excludes guests", function()
  local app = understudy.backendless()
  expect.ok(app.users.guest_login())
  expect.equal(app.users.count(), 0)
end)
