-- Kii: logging in
--
-- Registration already logs the user in: the returned user carries a token.
-- Later logins use app.users.login(identifier, password) -> { user = user, token = string }.
-- The identifier may be:
--   * the username, in any case ("ID123456" finds "id123456")
--   * the email address, or the REST prefix form "EMAIL:user@mydomain.com"
--   * the phone number in international form "+819012345678", or "PHONE:+819012345678"
--   * the phone number in country-local form "JP-09012345678", or "PHONE:JP-09012345678"
-- Any failure (unknown identifier, wrong password, an address not yet verified) is the same
-- 400 invalid_grant: the answer never tells which part was wrong.

local PASSWORD = "123ABC"

local function register_full(app)
  return expect.ok(app.users.register{ username = "id123456", email = "user@mydomain.com",
                                       phone = "+819012345678", password = PASSWORD })
end

local function logs_in_as(app, user, identifier)
  local session, err = app.users.login(identifier, PASSWORD)
  if session == nil then print("login with " .. identifier .. " failed") end
  expect.ok(session, err)
  expect.equal(session.user.userID, user.userID, "userID after logging in with " .. identifier)
  return session
end

local INVALID_GRANT = { status = 400, code = "invalid_grant" }

scenario("registration logs the user in: the new user carries a token", function()
  local app = understudy.kii()
  local user = register_full(app)
  expect.equal(type(user.token), "string", "type of user.token")
  expect.truthy(#user.token > 0, "user.token is not empty")
end)

scenario("login with the username returns the user and a token", function()
  local app = understudy.kii()
  local user = register_full(app)
  local session = logs_in_as(app, user, "id123456")
  expect.equal(type(session.token), "string", "type of session.token")
  expect.truthy(#session.token > 0, "session.token is not empty")
  expect.equal(session.user.loginName, "id123456")
end)

scenario("the username logs in whatever its case", function()
  local app = understudy.kii()
  local user = register_full(app)
  logs_in_as(app, user, "ID123456")
  logs_in_as(app, user, "Id123456")
end)

scenario("the email address logs in", function()
  local app = understudy.kii()
  logs_in_as(app, register_full(app), "user@mydomain.com")
end)

scenario("the international phone number logs in", function()
  local app = understudy.kii()
  logs_in_as(app, register_full(app), "+819012345678")
end)

scenario("the country-local phone number logs in", function()
  local app = understudy.kii()
  logs_in_as(app, register_full(app), "JP-09012345678")
end)

scenario("the REST prefix EMAIL: logs in with the email address", function()
  local app = understudy.kii()
  logs_in_as(app, register_full(app), "EMAIL:user@mydomain.com")
end)

scenario("the REST prefix PHONE: logs in with the international number", function()
  local app = understudy.kii()
  logs_in_as(app, register_full(app), "PHONE:+819012345678")
end)

scenario("the REST prefix PHONE: logs in with the country-local number", function()
  local app = understudy.kii()
  logs_in_as(app, register_full(app), "PHONE:JP-09012345678")
end)

scenario("a wrong password is refused with 400 invalid_grant", function()
  local app = understudy.kii()
  register_full(app)
  expect.error(INVALID_GRANT, app.users.login("id123456", "wrong-password"))
end)

scenario("passwords are case-sensitive", function()
  local app = understudy.kii()
  register_full(app)
  expect.error(INVALID_GRANT, app.users.login("id123456", "123abc"))
end)

scenario("a wrong password is refused whichever identifier is used", function()
  local app = understudy.kii()
  register_full(app)
  for _, identifier in ipairs{ "user@mydomain.com", "+819012345678", "JP-09012345678" } do
    expect.error(INVALID_GRANT, app.users.login(identifier, "wrong-password"))
  end
end)

scenario("an unknown user is refused with 400 invalid_grant", function()
  local app = understudy.kii()
  register_full(app)
  expect.error(INVALID_GRANT, app.users.login("nobody", PASSWORD))
  expect.error(INVALID_GRANT, app.users.login("nobody@mydomain.com", PASSWORD))
  expect.error(INVALID_GRANT, app.users.login("+819087654321", PASSWORD))
  expect.error(INVALID_GRANT, app.users.login("JP-09087654321", PASSWORD))
end)

scenario("a fresh backend knows nobody", function()
  local app = understudy.kii()
  expect.error(INVALID_GRANT, app.users.login("id123456", PASSWORD))
end)

scenario("each user logs in to their own account", function()
  local app = understudy.kii()
  local a = expect.ok(app.users.register{ username = "alice", password = "alice-pw" })
  local b = expect.ok(app.users.register{ username = "bob", password = "bob-pw" })
  expect.equal(expect.ok(app.users.login("alice", "alice-pw")).user.userID, a.userID)
  expect.equal(expect.ok(app.users.login("bob", "bob-pw")).user.userID, b.userID)
  expect.error(INVALID_GRANT, app.users.login("alice", "bob-pw"))
end)
