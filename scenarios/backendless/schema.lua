--[[
  Backendless: the user schema (dynamic properties, required properties, lengths)

  The Users table has columns. With "Dynamic Schema Definition" on (the default, setting
  `dynamic_properties = true`), any extra property sent at registration simply becomes a new column.
  With it off, a property that is not in the schema is refused with 3010.

  The `properties` setting declares extra columns and their rules:
      properties = { codename = { required = true, max_length = 50 } }
    * required and absent               -> 3012 "Unable to register user. Property 'codename' is required"
    * required and present but empty "" -> 3041
    * a string longer than max_length   -> 8000 (max_length defaults to 500, the STRING column size)
  Property values are strings, numbers or booleans; anything else (a table, a function) is a mistake in
  the scenario itself and raises a Lua error naming the property.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("extra properties are stored and returned by default", { tags = { "smoke" } }, function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD,
                                             codename = "007", licence_to_kill = true, missions = 24 })
  expect.equal(user.codename, "007")
  expect.equal(user.licence_to_kill, true)
  expect.equal(user.missions, 24)
  expect.equal(expect.ok(app.users.find(BOND)).codename, "007")
end)

scenario("dynamic properties are on by default", function()
  local app = understudy.backendless()
  expect.equal(app.settings.dynamic_properties, true)
end)

scenario("with dynamic properties off, email and password alone still register", function()
  local app = understudy.backendless{ dynamic_properties = false }
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
end)

scenario("with dynamic properties off, a property declared in the schema is accepted", function()
  local app = understudy.backendless{ dynamic_properties = false, properties = { codename = { max_length = 10 } } }
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD, codename = "007" })
  expect.equal(user.codename, "007")
end)

scenario("with dynamic properties off, an undeclared property fails with 3010 and stores nothing", function()
  local app = understudy.backendless{ dynamic_properties = false, properties = { codename = {} } }
  expect.error(3010, app.users.register{ email = BOND, password = PASSWORD, codename = "007", gadget = "watch" })
  expect.equal(app.users.count(), 0)
end)

scenario("dynamic properties can be switched off at runtime", function()
  local app = understudy.backendless()
  app.settings.dynamic_properties = false
  expect.error(3010, app.users.register{ email = BOND, password = PASSWORD, gadget = "watch" })
end)

scenario("a required property that is absent fails with 3012 naming it", function()
  local app = understudy.backendless{ properties = { rank = { required = true } } }
  local err = expect.error(3012, app.users.register{ email = BOND, password = PASSWORD })
  expect.contains(err.message, "rank")
end)

scenario("a required property given as an empty string fails with 3041 naming it", function()
  local app = understudy.backendless{ properties = { rank = { required = true } } }
  local err = expect.error(3041, app.users.register{ email = BOND, password = PASSWORD, rank = "" })
  expect.contains(err.message, "rank")
end)

scenario("a required property with a value registers", function()
  local app = understudy.backendless{ properties = { rank = { required = true } } }
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD, rank = "Commander" })
  expect.equal(user.rank, "Commander")
end)

scenario("a declared property that is not required may be left out", function()
  local app = understudy.backendless{ properties = { rank = { max_length = 20 } } }
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.is_nil(user.rank)
end)

scenario("required properties can be added at runtime through app.settings.properties", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.settings.properties = { rank = { required = true } }
  expect.error(3012, app.users.register{ email = "m@mi6.co.uk", password = "olderThanYou" })
end)

scenario("a value exactly max_length long is accepted, one character more fails with 8000", function()
  local app = understudy.backendless{ properties = { codename = { max_length = 3 } } }
  expect.ok(app.users.register{ email = BOND, password = PASSWORD, codename = "007" })
  local err = expect.error(8000, app.users.register{ email = "alec.trevelyan@mi6.co.uk", password = PASSWORD,
                                                     codename = "0006" })
  expect.contains(err.message, "codename")
end)

scenario("without a declared max_length a string may be 500 characters long", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD, biography = string.rep("b", 500) })
  expect.equal(#user.biography, 500)
end)

scenario("without a declared max_length a 501-character string fails with 8000", function()
  local app = understudy.backendless()
  local err = expect.error(8000, app.users.register{ email = BOND, password = PASSWORD,
                                                     biography = string.rep("b", 501) })
  expect.contains(err.message, "biography")
end)

scenario("the 500 default also applies to a declared property without max_length", function()
  local app = understudy.backendless{ properties = { biography = { required = true } } }
  expect.error(8000, app.users.register{ email = BOND, password = PASSWORD, biography = string.rep("b", 501) })
end)

scenario("a declared max_length above 500 raises the limit for that property", function()
  local app = understudy.backendless{ properties = { biography = { max_length = 1000 } } }
  expect.ok(app.users.register{ email = BOND, password = PASSWORD, biography = string.rep("b", 800) })
end)

scenario("a property value that is a table raises a Lua error naming the property", function()
  local app = understudy.backendless()
  expect.fails(function()
    app.users.register{ email = BOND, password = PASSWORD, gadgets = { "watch", "pen" } }
  end, "gadgets")
end)
