--[[
  Backendless: registering a user (app.users.register)

  A Backendless app keeps its users in a "Users" table. A client registers a user by sending a set of
  properties: the identity property (by default "email"), a "password", and any other properties
  ("name", "codename", ...). The server answers with the stored user, never with the password, and
  does NOT log the user in.

  When a registration is refused, the call returns nil plus an error { code, message }. The codes
  below come from the Backendless error catalogue. When a request breaks several rules at once, the
  rules are checked in a fixed order and the first broken rule decides the code:

    3038 nothing sent            3009 registration off       3039 objectId/id not a guest's
    3043 same property twice     3011 no password            3013 no identity value
    3078 no email (confirmation) 3040 malformed email        3010 unknown property (schema closed)
    3012 required prop missing   3041 required prop empty    8000 value too long
    3033 identity already taken  (3014 / 3021 / 2002 only through fault injection)

  The second half of this file pins that order: each scenario breaks two rules at once.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

-- Happy path ---------------------------------------------------------------------------------------

scenario("a new user registers with an email and a password", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD, name = "James Bond" })
  expect.equal(type(user.objectId), "string", "objectId type")
  expect.truthy(#user.objectId > 0, "objectId is not empty")
  expect.equal(user.email, BOND)
  expect.equal(user.name, "James Bond")
  expect.equal(user.userStatus, "ENABLED")
  expect.equal(user.___class, "Users")
  expect.equal(math.type(user.created), "integer", "created is an integer")
  expect.equal(user.created, 1893456000000, "created is ms on the virtual clock")
end)

scenario("the registered user that comes back never contains the password", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.is_nil(user.password)
end)

scenario("registering does not log the user in", function()
  -- With multiple logins denied, the first login would fail with 3002 if register had opened a session.
  local app = understudy.backendless{ multiple_logins = "deny" }
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.is_nil(user["user-token"])
  expect.is_nil(user.token)
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("every registered user gets an objectId of its own", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local moneypenny = expect.ok(app.users.register{ email = "eve.moneypenny@mi6.co.uk", password = "p3nnyW1se" })
  expect.not_equal(bond.objectId, moneypenny.objectId)
end)

-- One scenario per register error code -------------------------------------------------------------

scenario("registering with no properties at all fails with 3038", function()
  local app = understudy.backendless()
  expect.error(3038, app.users.register(nil))
end)

scenario("registering with an empty property table fails with 3038", function()
  local app = understudy.backendless()
  expect.error(3038, app.users.register{})
end)

scenario("registering while registration is switched off fails with 3009", function()
  local app = understudy.backendless{ registration = false }
  expect.error(3009, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 0)
end)

scenario("registration switched off and on again accepts users again", function()
  local app = understudy.backendless()
  app.settings.registration = false
  expect.error(3009, app.users.register{ email = BOND, password = PASSWORD })
  app.settings.registration = true
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("registering with a made-up objectId fails with 3039", function()
  local app = understudy.backendless()
  expect.error(3039, app.users.register{ objectId = "6EAFFE12-B424-8C51-FFB0-FE99548CAA00",
                                         email = BOND, password = PASSWORD })
end)

scenario("registering with an id property fails with 3039", function()
  local app = understudy.backendless()
  expect.error(3039, app.users.register{ id = "007", email = BOND, password = PASSWORD })
end)

scenario("registering with the objectId of an already registered user fails with 3039", function()
  local app = understudy.backendless()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3039, app.users.register{ objectId = bond.objectId, email = "m@mi6.co.uk", password = "olderThanYou" })
end)

scenario("sending the same property twice (names differing only in case) fails with 3043", function()
  local app = understudy.backendless()
  expect.error(3043, app.users.register{ email = BOND, Email = BOND, password = PASSWORD })
end)

scenario("registering without a password fails with 3011", function()
  local app = understudy.backendless()
  local err = expect.error(3011, app.users.register{ email = BOND })
  expect.contains(err.message, "password")
end)

scenario("registering with an empty password fails with 3011", function()
  local app = understudy.backendless()
  expect.error(3011, app.users.register{ email = BOND, password = "" })
end)

scenario("registering without the identity property (email) fails with 3013 naming it", function()
  local app = understudy.backendless()
  local err = expect.error(3013, app.users.register{ name = "James Bond", password = PASSWORD })
  expect.contains(err.message, "email")
end)

scenario("registering with an empty identity value fails with 3013", function()
  local app = understudy.backendless()
  expect.error(3013, app.users.register{ email = "", password = PASSWORD })
end)

scenario("with email confirmation on, a user without an email fails with 3078", function()
  -- The identity is "name" here, so the missing email is not already an identity problem (3013).
  local app = understudy.backendless{ identity = "name", email_confirmation = true }
  expect.error(3078, app.users.register{ name = "James Bond", password = PASSWORD })
end)

scenario("registering with a malformed email fails with 3040", function()
  local app = understudy.backendless()
  for _, bad in ipairs{ "james.bond-at-mi6.co.uk", "james.bond@", "@mi6.co.uk" } do
    expect.error(3040, app.users.register{ email = bad, password = PASSWORD })
  end
  expect.equal(app.users.count(), 0)
end)

scenario("with dynamic properties off, an unknown property fails with 3010", function()
  local app = understudy.backendless{ dynamic_properties = false }
  expect.error(3010, app.users.register{ email = BOND, password = PASSWORD, favourite_car = "Aston Martin DB5" })
end)

scenario("a missing required property fails with 3012 naming it", function()
  local app = understudy.backendless{ properties = { codename = { required = true } } }
  local err = expect.error(3012, app.users.register{ email = BOND, password = PASSWORD })
  expect.contains(err.message, "codename")
end)

scenario("an empty required property fails with 3041 naming it", function()
  local app = understudy.backendless{ properties = { codename = { required = true } } }
  local err = expect.error(3041, app.users.register{ email = BOND, password = PASSWORD, codename = "" })
  expect.contains(err.message, "codename")
end)

scenario("a value longer than 500 characters fails with 8000 naming the property", function()
  local app = understudy.backendless()
  local err = expect.error(8000, app.users.register{ email = BOND, password = PASSWORD,
                                                     biography = string.rep("x", 501) })
  expect.contains(err.message, "biography")
end)

scenario("registering the same email twice fails with 3033", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3033, app.users.register{ email = BOND, password = "anotherPassword" })
  expect.equal(app.users.count(), 1)
end)

scenario("emails differing only in case are the same identity: 3033", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3033, app.users.register{ email = "James.Bond@MI6.co.uk", password = PASSWORD })
end)

scenario("an external registration failure (3014) can only be produced by fault injection", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 3014,
                     message = "Unable to register user. External registration failed with message: LDAP timeout" }
  local err = expect.error(3014, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(err.message, "Unable to register user. External registration failed with message: LDAP timeout")
end)

scenario("a general registration error (3021) can only be produced by fault injection", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 3021 }
  expect.error(3021, app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("an invalid application (2002) can only be produced by fault injection in-process", function()
  local app = understudy.backendless()
  app.faults.inject{ op = "users.register", code = 2002 }
  expect.error(2002, app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("error messages use the server's wording", function()
  local app = understudy.backendless()
  local err = expect.error(3011, app.users.register{ email = BOND })
  expect.equal(err.message, "Property 'password' is required")
  err = expect.error(3013, app.users.register{ password = PASSWORD })
  expect.equal(err.message, "Unable to register user. Missing identity value for 'email'")
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  err = expect.error(3033, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(err.message, "Unable to register user. User already exists.")
  app.settings.registration = false
  err = expect.error(3009, app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(err.message, "User registration is disabled.")
end)

-- ORDER: two rules broken at once, the earlier code in the catalogue wins ----------------------------

scenario("ORDER: no properties while registration is off gives 3038, not 3009", function()
  local app = understudy.backendless{ registration = false }
  expect.error(3038, app.users.register(nil))
end)

scenario("ORDER: registration off wins over a bad objectId (3009, not 3039)", function()
  local app = understudy.backendless{ registration = false }
  expect.error(3009, app.users.register{ objectId = "not-a-guest", email = BOND, password = PASSWORD })
end)

scenario("ORDER: registration off wins over a missing password (3009, not 3011)", function()
  local app = understudy.backendless{ registration = false }
  expect.error(3009, app.users.register{ email = BOND })
end)

scenario("ORDER: registration off wins over a taken email (3009, not 3033)", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.settings.registration = false
  expect.error(3009, app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("ORDER: a bad objectId wins over a duplicated property (3039, not 3043)", function()
  local app = understudy.backendless()
  expect.error(3039, app.users.register{ objectId = "not-a-guest", email = BOND, EMAIL = BOND, password = PASSWORD })
end)

scenario("ORDER: a duplicated property wins over a missing password (3043, not 3011)", function()
  local app = understudy.backendless()
  expect.error(3043, app.users.register{ email = BOND, Email = BOND })
end)

scenario("ORDER: a missing password wins over a missing identity (3011, not 3013)", function()
  local app = understudy.backendless()
  expect.error(3011, app.users.register{ name = "James Bond" })
end)

scenario("ORDER: a missing password wins over a taken email (3011, not 3033)", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3011, app.users.register{ email = BOND })
end)

scenario("ORDER: a missing identity wins over a missing email under confirmation (3013, not 3078)", function()
  local app = understudy.backendless{ identity = "name", email_confirmation = true }
  expect.error(3013, app.users.register{ password = PASSWORD })
end)

scenario("ORDER: an empty email identity gives 3013, not the format error 3040", function()
  local app = understudy.backendless()
  expect.error(3013, app.users.register{ email = "", password = PASSWORD })
end)

scenario("ORDER: a missing identity wins over a malformed email (3013, not 3040)", function()
  local app = understudy.backendless{ identity = "name" }
  expect.error(3013, app.users.register{ email = "james.bond-at-mi6", password = PASSWORD })
end)

scenario("ORDER: a missing email under confirmation wins over an unknown property (3078, not 3010)", function()
  local app = understudy.backendless{ identity = "name", email_confirmation = true, dynamic_properties = false,
                                      properties = { name = { max_length = 100 } } }
  expect.error(3078, app.users.register{ name = "James Bond", password = PASSWORD, licence = "to kill" })
end)

scenario("ORDER: a malformed email wins over an unknown property (3040, not 3010)", function()
  local app = understudy.backendless{ dynamic_properties = false }
  expect.error(3040, app.users.register{ email = "james.bond-at-mi6", password = PASSWORD, licence = "to kill" })
end)

scenario("ORDER: an unknown property wins over a missing required one (3010, not 3012)", function()
  local app = understudy.backendless{ dynamic_properties = false, properties = { codename = { required = true } } }
  expect.error(3010, app.users.register{ email = BOND, password = PASSWORD, licence = "to kill" })
end)

scenario("ORDER: a missing required property wins over an empty one (3012, not 3041)", function()
  local app = understudy.backendless{ properties = { codename = { required = true }, rank = { required = true } } }
  local err = expect.error(3012, app.users.register{ email = BOND, password = PASSWORD, codename = "" })
  expect.contains(err.message, "rank")
end)

scenario("ORDER: an empty required property wins over an over-long value (3041, not 8000)", function()
  local app = understudy.backendless{ properties = { codename = { required = true } } }
  expect.error(3041, app.users.register{ email = BOND, password = PASSWORD, codename = "",
                                         biography = string.rep("x", 501) })
end)

scenario("ORDER: an over-long value wins over a taken email (8000, not 3033)", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(8000, app.users.register{ email = BOND, password = PASSWORD, biography = string.rep("x", 501) })
end)
