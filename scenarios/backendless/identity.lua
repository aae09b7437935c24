--[[
  Backendless: the identity property

  Every Backendless app marks one user property as the "identity": the value a user types to log in,
  and the value that must be unique across users. By default it is "email". In the console it can be
  switched to another property, for example "name". Here that is the `identity` setting:

      understudy.backendless{ identity = "name" }      or      app.settings.identity = "name"

  With another identity:
    * registration needs that property (3013 when absent or empty) and no longer needs an email;
    * uniqueness (3033) applies to that property; only email identities compare case-insensitively;
    * login and find take that property's value.
  An email that IS sent must still be a well-formed address (3040).
]]

local PASSWORD = "iAmWatchingU"

scenario("the default identity is email", function()
  local app = understudy.backendless()
  expect.equal(app.settings.identity, "email")
  expect.error(3013, app.users.register{ name = "James Bond", password = PASSWORD })
end)

scenario("with identity 'name', a user registers with a name and no email", { tags = { "smoke" } }, function()
  local app = understudy.backendless{ identity = "name" }
  local user = expect.ok(app.users.register{ name = "James Bond", password = PASSWORD })
  expect.equal(user.name, "James Bond")
  expect.is_nil(user.email)
  expect.equal(user.userStatus, "ENABLED")
end)

scenario("with identity 'name', a user without a name fails with 3013 naming 'name'", function()
  local app = understudy.backendless{ identity = "name" }
  local err = expect.error(3013, app.users.register{ email = "james.bond@mi6.co.uk", password = PASSWORD })
  expect.contains(err.message, "'name'")
end)

scenario("with identity 'name', an empty name fails with 3013", function()
  local app = understudy.backendless{ identity = "name" }
  expect.error(3013, app.users.register{ name = "", password = PASSWORD })
end)

scenario("with identity 'name', an email that is sent must still be well formed (3040)", function()
  local app = understudy.backendless{ identity = "name" }
  expect.error(3040, app.users.register{ name = "James Bond", email = "bond-at-mi6", password = PASSWORD })
end)

scenario("with identity 'name', registering the same name twice fails with 3033", function()
  local app = understudy.backendless{ identity = "name" }
  expect.ok(app.users.register{ name = "James Bond", password = PASSWORD })
  expect.error(3033, app.users.register{ name = "James Bond", password = "somethingElse" })
end)

scenario("a non-email identity is case-sensitive: 'Bond' and 'bond' are two users", function()
  local app = understudy.backendless{ identity = "name" }
  expect.ok(app.users.register{ name = "Bond", password = PASSWORD })
  expect.ok(app.users.register{ name = "bond", password = PASSWORD })
  expect.equal(app.users.count(), 2)
end)

scenario("with identity 'name', users log in with their name, not their email", function()
  local app = understudy.backendless{ identity = "name" }
  expect.ok(app.users.register{ name = "James Bond", email = "james.bond@mi6.co.uk", password = PASSWORD })
  local session = expect.ok(app.users.login("James Bond", PASSWORD))
  expect.equal(session.user.name, "James Bond")
  expect.error(3003, app.users.login("james.bond@mi6.co.uk", PASSWORD))
end)

scenario("with identity 'name', find looks users up by exact name", function()
  local app = understudy.backendless{ identity = "name" }
  local bond = expect.ok(app.users.register{ name = "James Bond", email = "james.bond@mi6.co.uk", password = PASSWORD })
  expect.equal(expect.ok(app.users.find("James Bond")).objectId, bond.objectId)
  expect.is_nil(app.users.find("james bond"))
  expect.is_nil(app.users.find("james.bond@mi6.co.uk"))
end)

scenario("the identity can be switched through app.settings before anyone registers", function()
  local app = understudy.backendless()
  app.settings.identity = "name"
  expect.equal(app.settings.identity, "name")
  expect.ok(app.users.register{ name = "Felix Leiter", password = "langleyVA" })
  expect.ok(app.users.login("Felix Leiter", "langleyVA"))
end)
