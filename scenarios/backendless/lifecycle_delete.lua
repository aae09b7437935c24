--[[
  Backendless: deleting an account (users.delete)

  app.users.delete(objectId) returns true. From then on the user's tokens answer 3064, get returns nil,
  and the identity is free for a new registration. An unknown objectId answers 1000 (Understudy's choice:
  the vendor does not document the code for users).
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("a deleted user is gone: get returns nil and login fails", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.delete(user.objectId), true)
  expect.is_nil(app.users.get(user.objectId))
  expect.is_nil(app.users.find(BOND))
  expect.equal(app.users.count(), 0)
  expect.error(3003, app.users.login(BOND, PASSWORD))
end)

scenario("the deleted user's tokens answer 3064 from then on", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local first = expect.ok(app.users.login(BOND, PASSWORD))
  local second = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.delete(user.objectId))
  expect.error(3064, app.users.logout(first.token))
  expect.error(3064, app.users.update(user.objectId, { name = "Jim" }, second.token))
end)

scenario("the identity is free again: the same email registers a new user", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.delete(user.objectId))
  local again = expect.ok(app.users.register{ email = BOND, password = "newLife" })
  expect.not_equal(again.objectId, user.objectId)
  expect.ok(app.users.login(BOND, "newLife"))
end)

scenario("deleting an unknown user: 1000", function()
  local app = understudy.backendless()
  expect.error(1000, app.users.delete("00000000-0000-0000-0000-000000000000"))
  expect.error(1000, app.users.delete("not an id"))
end)

scenario("deleting twice: the second answers 1000", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.delete(user.objectId))
  expect.error(1000, app.users.delete(user.objectId))
end)

scenario("a deleted user's recovery link answers 3092", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.restore_password(BOND))
  expect.ok(app.users.delete(user.objectId))
  expect.error(3092, app.users.reset_password(app.outbox.emails()[1].link, "shakenNotStirred"))
end)

scenario("a guest can be deleted too, and the registered count is unchanged", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local guest = expect.ok(app.users.guest_login())
  expect.ok(app.users.delete(guest.user.objectId))
  expect.equal(app.users.count(), 1)
  expect.error(3064, app.users.logout(guest.token))
end)

scenario("other users and their sessions are untouched", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "secret" })
  local m = expect.ok(app.users.login("m@mi6.co.uk", "secret"))
  expect.ok(app.users.delete(bond.objectId))
  expect.ok(app.users.logout(m.token))
end)

scenario("a fault on users.delete leaves the user in place", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.faults.inject{ op = "users.delete", code = 3095, times = 1 }
  expect.error(3095, app.users.delete(user.objectId))
  expect.not_nil(app.users.get(user.objectId))
end)
