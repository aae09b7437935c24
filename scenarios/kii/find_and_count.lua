-- Kii: looking users up and counting them
--
-- app.users.find(identifier) takes the same identifiers as login (username in any case, email,
-- "+international" phone, "CC-local" phone) and returns the stored user, or nil when there is none
-- (no error). app.users.count() is the number of registered users of this backend.
-- Refused registrations are never counted, and each backend has its own users.

local PASSWORD = "123ABC"

local function register_full(app)
  return expect.ok(app.users.register{ username = "id123456", email = "user@mydomain.com",
                                       phone = "+819012345678", password = PASSWORD })
end

scenario("a fresh backend has no users", function()
  local app = understudy.kii()
  expect.equal(app.users.count(), 0)
end)

scenario("count grows by one with each registration", function()
  local app = understudy.kii()
  expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  expect.equal(app.users.count(), 1)
  expect.ok(app.users.register{ email = "bob@mydomain.com", password = PASSWORD })
  expect.equal(app.users.count(), 2)
  expect.ok(app.users.register{ phone = "+819087654321", password = PASSWORD })
  expect.equal(app.users.count(), 3)
end)

scenario("refused registrations are not counted", function()
  local app = understudy.kii()
  register_full(app)
  expect.error("USER_ALREADY_EXISTS", app.users.register{ username = "ID123456", password = PASSWORD })
  expect.error("INVALID_INPUT_DATA", app.users.register{ username = "x", password = PASSWORD })
  expect.error("PASSWORD_TOO_SHORT", app.users.register{ username = "alice", password = "123" })
  expect.equal(app.users.count(), 1)
end)

scenario("logging in does not change the count", function()
  local app = understudy.kii()
  register_full(app)
  expect.ok(app.users.login("id123456", PASSWORD))
  expect.ok(app.users.login("user@mydomain.com", PASSWORD))
  expect.equal(app.users.count(), 1)
end)

scenario("each backend has its own users", function()
  local a = understudy.kii()
  local b = understudy.kii()
  register_full(a)
  expect.equal(b.users.count(), 0)
  expect.is_nil(b.users.find("id123456"), "find in the other backend")
  register_full(b) -- the same identifiers are free there
  expect.equal(a.users.count(), 1)
end)

scenario("find by username returns the stored user", function()
  local app = understudy.kii()
  local user = register_full(app)
  local found = expect.not_nil(app.users.find("id123456"), "find('id123456')")
  expect.equal(found.userID, user.userID)
  expect.equal(found.loginName, "id123456")
  expect.equal(found.emailAddress, "user@mydomain.com")
  expect.equal(found.phoneNumber, "+819012345678")
end)

scenario("find by username ignores case", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = "Bond007", password = PASSWORD })
  expect.equal(expect.not_nil(app.users.find("BOND007"), "find('BOND007')").userID, user.userID)
  expect.equal(expect.not_nil(app.users.find("bond007"), "find('bond007')").userID, user.userID)
end)

scenario("find by email address", function()
  local app = understudy.kii()
  local user = register_full(app)
  expect.equal(expect.not_nil(app.users.find("user@mydomain.com"), "find by email").userID, user.userID)
end)

scenario("find by phone number in international or country-local form", function()
  local app = understudy.kii()
  local user = register_full(app)
  expect.equal(expect.not_nil(app.users.find("+819012345678"), "find by +international").userID, user.userID)
  expect.equal(expect.not_nil(app.users.find("JP-09012345678"), "find by CC-local").userID, user.userID)
end)

scenario("find answers nil, not an error, for an unknown identifier", function()
  local app = understudy.kii()
  register_full(app)
  for _, identifier in ipairs{ "nobody", "nobody@mydomain.com", "+819087654321", "JP-09087654321" } do
    local user, err = app.users.find(identifier)
    expect.is_nil(user, "find('" .. identifier .. "')")
    expect.is_nil(err, "error of find('" .. identifier .. "')")
  end
end)

scenario("find tells two users apart", function()
  local app = understudy.kii()
  local a = expect.ok(app.users.register{ username = "alice", email = "alice@mydomain.com", password = PASSWORD })
  local b = expect.ok(app.users.register{ username = "bob", email = "bob@mydomain.com", password = PASSWORD })
  expect.equal(app.users.find("alice@mydomain.com").userID, a.userID)
  expect.equal(app.users.find("bob").userID, b.userID)
end)

scenario("find follows a changed address", function()
  local app = understudy.kii()
  local user = register_full(app)
  expect.ok(app.users.change_email(user.userID, "new@mydomain.com"))
  expect.equal(expect.not_nil(app.users.find("new@mydomain.com"), "find by new email").userID, user.userID)
  expect.is_nil(app.users.find("user@mydomain.com"), "find by old email")
end)

scenario("a user found by lookup shows the lower-cased username", function()
  local app = understudy.kii()
  expect.ok(app.users.register{ username = "Agent.Smith", password = PASSWORD })
  expect.equal(app.users.find("agent.smith").loginName, "agent.smith")
end)
