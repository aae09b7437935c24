--[[
  Backendless: guest (anonymous) users and converting them

  An app can let people in before they register: app.users.guest_login() creates an anonymous user
  with userStatus "GUEST" and returns a session { user, token }. Guests have an objectId like any
  user, but no identity, so they cannot be found by find() and are not counted by count().

  Later the guest can become a real user: register the usual properties plus the guest's objectId.
      app.users.register{ objectId = guest.objectId, email = ..., password = ... }
  The user keeps the same objectId (so everything the guest created stays theirs), becomes
  "ENABLED" (or "EMAIL_CONFIRMATION_PENDING" with email confirmation on), and keeps the guest session.
  `id` works the same way: register{ id = guest.objectId, ... } converts that guest too.
  An objectId (or id) that does not belong to a guest is refused with 3039.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("a guest login gives a GUEST user with an objectId and a token", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  local session = expect.ok(app.users.guest_login())
  expect.equal(session.user.userStatus, "GUEST")
  expect.equal(type(session.user.objectId), "string", "objectId type")
  expect.equal(type(session.token), "string", "token type")
  expect.is_nil(session.user.password)
end)

scenario("two guest logins are two different guests", function()
  local app = understudy.backendless()
  local first = expect.ok(app.users.guest_login())
  local second = expect.ok(app.users.guest_login())
  expect.not_equal(first.user.objectId, second.user.objectId)
  expect.not_equal(first.token, second.token)
end)

scenario("guests are not counted as registered users", function()
  local app = understudy.backendless()
  expect.ok(app.users.guest_login())
  expect.ok(app.users.guest_login())
  expect.equal(app.users.count(), 0)
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 1)
end)

scenario("a guest can log out like any user", function()
  local app = understudy.backendless()
  local session = expect.ok(app.users.guest_login())
  expect.equal(app.users.logout(session.token), true)
  expect.error(3064, app.users.logout(session.token))
end)

scenario("registering with a guest's objectId converts the guest and keeps its objectId", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  local guest = expect.ok(app.users.guest_login()).user
  local user = expect.ok(app.users.register{ objectId = guest.objectId, email = BOND, password = PASSWORD })
  expect.equal(user.objectId, guest.objectId)
  expect.equal(user.userStatus, "ENABLED")
  expect.equal(user.email, BOND)
  expect.is_nil(user.password)
end)

scenario("a converted guest is counted, can be found and can log in", function()
  local app = understudy.backendless()
  local guest = expect.ok(app.users.guest_login()).user
  expect.ok(app.users.register{ objectId = guest.objectId, email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 1)
  expect.equal(expect.ok(app.users.find(BOND)).objectId, guest.objectId)
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(session.user.objectId, guest.objectId)
end)

scenario("a converted guest keeps its guest session", function()
  local app = understudy.backendless()
  local guest = expect.ok(app.users.guest_login())
  expect.ok(app.users.register{ objectId = guest.user.objectId, email = BOND, password = PASSWORD })
  expect.equal(app.users.logout(guest.token), true)
end)

scenario("with email confirmation on, a converted guest is EMAIL_CONFIRMATION_PENDING", function()
  local app = understudy.backendless{ email_confirmation = true }
  local guest = expect.ok(app.users.guest_login()).user
  local user = expect.ok(app.users.register{ objectId = guest.objectId, email = BOND, password = PASSWORD })
  expect.equal(user.userStatus, "EMAIL_CONFIRMATION_PENDING")
  expect.error(3087, app.users.login(BOND, PASSWORD))
end)

scenario("converting the same guest twice fails with 3039: it is no longer a guest", function()
  local app = understudy.backendless()
  local guest = expect.ok(app.users.guest_login()).user
  expect.ok(app.users.register{ objectId = guest.objectId, email = BOND, password = PASSWORD })
  expect.error(3039, app.users.register{ objectId = guest.objectId, email = "m@mi6.co.uk", password = "olderThanYou" })
end)

scenario("registering with the objectId of a registered user fails with 3039", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3039, app.users.register{ objectId = bond.objectId, email = "m@mi6.co.uk", password = "olderThanYou" })
  expect.equal(app.users.count(), 1)
end)

scenario("a guest conversion is still a registration: a missing password fails with 3011", function()
  local app = understudy.backendless()
  local guest = expect.ok(app.users.guest_login()).user
  expect.error(3011, app.users.register{ objectId = guest.objectId, email = BOND })
  expect.equal(app.users.count(), 0)
end)

scenario("a guest cannot take an email that is already registered (3033) and stays a guest", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local guest = expect.ok(app.users.guest_login()).user
  expect.error(3033, app.users.register{ objectId = guest.objectId, email = BOND, password = PASSWORD })
  local user = expect.ok(app.users.register{ objectId = guest.objectId, email = "q@mi6.co.uk", password = "gadgets4U" })
  expect.equal(user.objectId, guest.objectId)
end)

scenario("registering with a guest's objectId given as id converts the guest the same way", function()
  local app = understudy.backendless()
  local guest = expect.ok(app.users.guest_login())
  local user = expect.ok(app.users.register{ id = guest.user.objectId, email = BOND, password = PASSWORD })
  expect.equal(user.objectId, guest.user.objectId)
  expect.equal(user.userStatus, "ENABLED")
  expect.is_nil(user.id)
  expect.equal(app.users.count(), 1)
  expect.equal(expect.ok(app.users.find(BOND)).objectId, guest.user.objectId)
  expect.equal(app.users.logout(guest.token), true)
  expect.error(3039, app.users.register{ id = guest.user.objectId, email = "m@mi6.co.uk", password = "olderThanYou" })
end)

scenario("an id that names no guest fails with 3039", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3039, app.users.register{ id = bond.objectId, email = "m@mi6.co.uk", password = "olderThanYou" })
  expect.error(3039, app.users.register{ id = "007", email = "m@mi6.co.uk", password = "olderThanYou" })
  expect.equal(app.users.count(), 1)
end)
