-- A first Backendless scenario file. Run it with:   understudy run scenarios/
-- Each scenario gets a fresh backend; nothing is shared between scenarios.
-- Every call returns `result` on success and `nil, err` on failure (err = { code, message }).

scenario("a new user registers and logs in", { tags = { "smoke" } }, function()
  local app = understudy.backendless()            -- settings are optional: understudy.backendless{ registration = false }
  local user = expect.ok(app.users.register{ email = "james.bond@mi6.co.uk", password = "iAmWatchingU" })
  expect.equal(user.userStatus, "ENABLED")
  local session = expect.ok(app.users.login("james.bond@mi6.co.uk", "iAmWatchingU"))
  expect.match(session.token, "%w")
end)

scenario("the same email cannot register twice (3033)", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  -- expect.error checks the code and returns err for more checks
  local err = expect.error(3033, app.users.register{ email = "Q@MI6.CO.UK", password = "gadgets4U" })
  expect.equal(err.message, "Unable to register user. User already exists.")
end)

scenario("a confirmation email waits in the outbox", function()
  local app = understudy.backendless{ email_confirmation = true }
  local user = expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "secret" })
  expect.error(3087, app.users.login("m@mi6.co.uk", "secret"))    -- not confirmed yet
  expect.match(app.outbox.last_email("m@mi6.co.uk").link, "/users/confirmemail/")
  expect.ok(app.users.confirm_email(user.objectId))
  expect.ok(app.users.login("m@mi6.co.uk", "secret"))
end)
