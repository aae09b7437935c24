-- Kii: usernames
--
-- The username (stored as loginName) is optional, but with it a user can always log in, whatever the
-- email/phone verification settings. Rules:
--   * 3 to 64 characters, each one of A-Z a-z 0-9 _ - .   anything else: 400 INVALID_INPUT_DATA, field loginName
--   * stored lower-cased: "Bond007" is stored and shown as "bond007"
--   * unique regardless of case: "bond007" and "BOND007" are the same username;
--     a taken one gives 409 USER_ALREADY_EXISTS with field = "loginName" and value = the username
--     (the iOS SDK reports this as NSError code 503)
--   * it can never be changed after registration (see change_address.lua)

local PASSWORD = "123ABC"

local function register(app, username)
  return app.users.register{ username = username, password = PASSWORD }
end

local INVALID = { status = 400, code = "INVALID_INPUT_DATA", field = "loginName" }

scenario("a 3-character username is accepted", function()
  local app = understudy.kii()
  expect.equal(expect.ok(register(app, "abc")).loginName, "abc")
end)

scenario("a 64-character username is accepted", function()
  local app = understudy.kii()
  local name = string.rep("a", 64)
  expect.equal(expect.ok(register(app, name)).loginName, name)
end)

scenario("a 2-character username is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "ab"))
end)

scenario("a 65-character username is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, string.rep("a", 65)))
end)

scenario("letters, digits, underscore, hyphen and period are all allowed in a username", function()
  local app = understudy.kii()
  expect.ok(register(app, "agent_007-mi6.uk"))
  expect.ok(register(app, "._-"))
end)

scenario("any other character in a username is refused", function()
  local app = understudy.kii()
  for _, name in ipairs{ "bond 007", "bond@007", "bond+007", "bond!", "bond/007", "bond#7", "bond,007",
                         "bönd007", "bond\t007" } do
    print("username: " .. name)
    expect.error(INVALID, register(app, name))
  end
  expect.equal(app.users.count(), 0, "users")
end)

scenario("a username is stored lower-cased", function()
  local app = understudy.kii()
  expect.equal(expect.ok(register(app, "Bond007")).loginName, "bond007")
end)

scenario("a taken username is refused with 409 naming loginName and the value", function()
  local app = understudy.kii()
  expect.ok(register(app, "bond007"))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName", value = "bond007" },
               app.users.register{ username = "bond007", password = "secret12" })
end)

scenario("the 409 message names the field and the username", function()
  local app = understudy.kii()
  expect.ok(register(app, "user_123456"))
  local err = expect.error("USER_ALREADY_EXISTS", register(app, "user_123456"))
  expect.contains(err.message, "loginName")
  expect.contains(err.message, "user_123456")
end)

scenario("usernames differing only in case are the same username", function()
  local app = understudy.kii()
  expect.ok(register(app, "bond007"))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName" },
               app.users.register{ username = "Bond007", password = "secret12" })
end)

scenario("a username registered in capitals blocks its lower-case form too", function()
  local app = understudy.kii()
  expect.ok(register(app, "BOND007"))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName" }, register(app, "bond007"))
end)

scenario("a refused duplicate creates no second user", function()
  local app = understudy.kii()
  expect.ok(register(app, "bond007"))
  expect.error("USER_ALREADY_EXISTS", register(app, "BOND007"))
  expect.equal(app.users.count(), 1, "users")
end)

scenario("the username logs in whatever case it is typed in", function()
  local app = understudy.kii()
  local user = expect.ok(register(app, "Bond007"))
  for _, typed in ipairs{ "bond007", "BOND007", "Bond007", "bOnD007" } do
    print("login as " .. typed)
    expect.equal(expect.ok(app.users.login(typed, PASSWORD)).user.userID, user.userID)
  end
end)

scenario("a taken username is reported even when the email is new", function()
  local app = understudy.kii()
  expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = PASSWORD })
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName" },
               app.users.register{ username = "bond007", email = "other@mi6.co.uk", password = PASSWORD })
end)

scenario("when username and email are both taken, the username is reported", function()
  local app = understudy.kii()
  expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = PASSWORD })
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName" },
               app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = PASSWORD })
end)
