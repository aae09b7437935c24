-- Kii: passwords
--
-- Every registration needs a password of 4 to 50 characters, each a printable ASCII character
-- (U+0020 space through U+007E tilde): letters, digits, symbols and the space.
--   * shorter than 4 characters: 400 PASSWORD_TOO_SHORT
--   * longer than 50, or any other character (accented letters, tabs, newlines, DEL...):
--     400 INVALID_INPUT_DATA with field = "password"
-- A refused password creates no user. Passwords are case-sensitive at login.

local INVALID = { status = 400, code = "INVALID_INPUT_DATA", field = "password" }
local TOO_SHORT = { status = 400, code = "PASSWORD_TOO_SHORT" }

local function register(app, password)
  return app.users.register{ username = "bond007", password = password }
end

local function logs_in(app, password)
  expect.ok(app.users.login("bond007", password))
end

scenario("a 4-character password is accepted and logs in", function()
  local app = understudy.kii()
  expect.ok(register(app, "1234"))
  logs_in(app, "1234")
end)

scenario("a 50-character password is accepted and logs in", function()
  local app = understudy.kii()
  local password = string.rep("p", 50)
  expect.ok(register(app, password))
  logs_in(app, password)
end)

scenario("a 3-character password is refused as too short", function()
  local app = understudy.kii()
  expect.error(TOO_SHORT, register(app, "123"))
end)

scenario("an empty password is refused as too short", function()
  local app = understudy.kii()
  expect.error(TOO_SHORT, register(app, ""))
end)

scenario("a 51-character password is refused naming the password field", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, string.rep("p", 51)))
end)

scenario("a space is allowed in a password", function()
  local app = understudy.kii()
  expect.ok(register(app, "my secret phrase"))
  logs_in(app, "my secret phrase")
end)

scenario("every printable ASCII symbol is allowed", function()
  local app = understudy.kii()
  local password = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
  expect.ok(register(app, password))
  logs_in(app, password)
end)

scenario("a non-ASCII character is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "pässword"))
  expect.error(INVALID, register(app, "secret€"))
end)

scenario("a control character is refused", function()
  local app = understudy.kii()
  for _, password in ipairs{ "pass\tword", "pass\nword", "pass\0word", "password\127" } do
    expect.error(INVALID, register(app, password))
  end
end)

scenario("a refused password creates no user and leaves the username free", function()
  local app = understudy.kii()
  expect.error(TOO_SHORT, register(app, "123"))
  expect.error(INVALID, register(app, string.rep("p", 51)))
  expect.equal(app.users.count(), 0, "users")
  expect.ok(register(app, "1234"))
end)
