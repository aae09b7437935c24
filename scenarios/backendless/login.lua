--[[
  Backendless: login and logout

  app.users.login(identity_value, password) checks the credentials and opens a session:
      { user = <the user, without password>, token = <string> }
  The token stands for the session (the "user-token" header over HTTP). app.users.logout(token)
  ends it and returns true; a token that is unknown or already logged out answers 3064.

  Refusals, in the order the emulator checks them:
    3034  logins are switched off for the app (setting `logins = false`)
    3006  the identity or the password is an empty string
    3003  unknown identity OR wrong password: the same code and message for both, so that nobody
          can find out which emails are registered
    3036  account locked (see lockout.lua)
    3090  the account was DISABLED (app.users.set_status(objectId, "DISABLED"), as from the console)
    3087  email not confirmed yet (see email_confirmation.lua)
    3002 / 3044  multiple-login policy (see multiple_logins.lua)
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

local function app_with_bond(settings)
  local app = understudy.backendless(settings)
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD, name = "James Bond" })
  return app, user
end

scenario("a registered user logs in and gets a session token", { tags = { "smoke" } }, function()
  local app, user = app_with_bond()
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(type(session.token), "string", "token type")
  expect.truthy(#session.token > 0, "token is not empty")
  expect.equal(session.user.objectId, user.objectId)
  expect.equal(session.user.email, BOND)
  expect.equal(session.user.name, "James Bond")
  expect.equal(session.user.userStatus, "ENABLED")
  expect.is_nil(session.user.password)
end)

scenario("logout ends the session and returns true", { tags = { "smoke" } }, function()
  local app = app_with_bond()
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(app.users.logout(session.token), true)
end)

scenario("logging out twice with the same token fails with 3064", function()
  local app = app_with_bond()
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.logout(session.token))
  expect.error(3064, app.users.logout(session.token))
end)

scenario("logging out with a token that was never issued fails with 3064", function()
  local app = app_with_bond()
  expect.error(3064, app.users.logout("2807A065-BF75-7024-FFBD-2D00CA840300"))
end)

scenario("each login gets a new token", function()
  local app = app_with_bond()
  local first = expect.ok(app.users.login(BOND, PASSWORD))
  local second = expect.ok(app.users.login(BOND, PASSWORD))
  expect.not_equal(first.token, second.token)
end)

scenario("a wrong password fails with 3003", function()
  local app = app_with_bond()
  expect.error(3003, app.users.login(BOND, "iAmNotWatching"))
end)

scenario("an unknown email fails with 3003", function()
  local app = app_with_bond()
  expect.error(3003, app.users.login("ernst.blofeld@spectre.org", PASSWORD))
end)

scenario("unknown user and wrong password are indistinguishable: same code, same message", function()
  local app = app_with_bond()
  local wrong_password = expect.error(3003, app.users.login(BOND, "iAmNotWatching"))
  local unknown_user = expect.error(3003, app.users.login("ernst.blofeld@spectre.org", "iAmNotWatching"))
  expect.equal(unknown_user.message, wrong_password.message)
end)

scenario("passwords are case-sensitive", function()
  local app = app_with_bond()
  expect.error(3003, app.users.login(BOND, "IAMWATCHINGU"))
end)

scenario("an empty identity fails with 3006", function()
  local app = app_with_bond()
  expect.error(3006, app.users.login("", PASSWORD))
end)

scenario("an empty password fails with 3006", function()
  local app = app_with_bond()
  expect.error(3006, app.users.login(BOND, ""))
end)

scenario("empty credentials give 3006 even on an app with no users, not 3003", function()
  local app = understudy.backendless()
  expect.error(3006, app.users.login("", ""))
end)

scenario("with logins switched off, even the right password fails with 3034", function()
  local app = app_with_bond{ logins = false }
  expect.error(3034, app.users.login(BOND, PASSWORD))
end)

scenario("with logins switched off, 3034 comes before any credential check", function()
  local app = app_with_bond{ logins = false }
  expect.error(3034, app.users.login("", ""))
  expect.error(3034, app.users.login("ernst.blofeld@spectre.org", "whatever"))
end)

scenario("switching logins back on lets users in again", function()
  local app = app_with_bond()
  app.settings.logins = false
  expect.error(3034, app.users.login(BOND, PASSWORD))
  app.settings.logins = true
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("a disabled user cannot log in: 3090", function()
  local app, user = app_with_bond()
  local disabled = expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  expect.equal(disabled.userStatus, "DISABLED")
  expect.error(3090, app.users.login(BOND, PASSWORD))
end)

scenario("a disabled user with a wrong password gets 3003, not 3090", function()
  local app, user = app_with_bond()
  expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  expect.error(3003, app.users.login(BOND, "iAmNotWatching"))
end)

scenario("re-enabling a disabled user lets them log in again", function()
  local app, user = app_with_bond()
  expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  local enabled = expect.ok(app.users.set_status(user.objectId, "ENABLED"))
  expect.equal(enabled.userStatus, "ENABLED")
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("disabling a user ends their sessions: the old token answers 3064", function()
  local app, user = app_with_bond()
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  expect.error(3064, app.users.logout(session.token))
end)

scenario("a pending user who is disabled gets 3090, not 3087", function()
  local app, user = app_with_bond{ email_confirmation = true }
  expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  expect.error(3090, app.users.login(BOND, PASSWORD))
end)

scenario("set_status on an unknown objectId fails with 1000", function()
  local app = app_with_bond()
  expect.error(1000, app.users.set_status("6EAFFE12-B424-8C51-FFB0-FE99548CAA00", "DISABLED"))
end)

scenario("the status set by set_status shows in find", function()
  local app, user = app_with_bond()
  expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  expect.equal(expect.ok(app.users.find(BOND)).userStatus, "DISABLED")
end)

scenario("logging out one session leaves the user's other sessions alive", function()
  local app = app_with_bond()
  local laptop = expect.ok(app.users.login(BOND, PASSWORD))
  local phone = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.logout(laptop.token))
  expect.equal(app.users.logout(phone.token), true)
end)
