--[[
  Backendless: "forgot password" (users.restore_password) and the change-password page (users.reset_password)

  The console chooses how recovery works, here the setting `password_recovery`:
    * "link" (default): the email carries a `link` to a change-password page. The old password keeps
      working until the link is used. app.users.reset_password(link, new_password) does what the page does:
      the new password works, the old one stops, the user's sessions stay. A link works once: using it
      again (or an unknown link) answers 3092 (Understudy's choice: the real page documents no code).
    * "temporary": the email carries a new system-generated `password`, which replaces the old one at once.
    * false: recovery is switched off.
  The email is { to, kind = "password_recovery", subject, link? , password? }.
  Errors, checked in this order: 3101 recovery off; 3020 no user with that identity; 3025 the user has
  no email to send to.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

local function app_with_bond(settings)
  local app = understudy.backendless(settings)
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  return app, user
end

local function last_email(app)
  local emails = app.outbox.emails()
  return expect.not_nil(emails[#emails], "an email in the outbox")
end

scenario("password recovery is by link unless the console says otherwise", function()
  local app = understudy.backendless()
  expect.equal(app.settings.password_recovery, "link")
end)

scenario("forgot password: a recovery email with a link goes to the user's address", { tags = { "smoke" } }, function()
  local app = app_with_bond()
  expect.equal(app.users.restore_password(BOND), true)
  local email = last_email(app)
  expect.equal(email.to, BOND)
  expect.equal(email.kind, "password_recovery")
  expect.equal(type(email.subject), "string", "subject type")
  expect.match(email.link, "^http")
  expect.is_nil(email.password)
end)

scenario("the identity is matched without regard to case, as at login", function()
  local app = app_with_bond()
  expect.ok(app.users.restore_password("James.Bond@MI6.co.uk"))
  expect.equal(last_email(app).to, BOND)
end)

scenario("in link mode the old password keeps working until the link is used", function()
  local app = app_with_bond()
  expect.ok(app.users.restore_password(BOND))
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("using the link sets the new password and ends the old one; sessions stay", function()
  local app = app_with_bond()
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.restore_password(BOND))
  expect.equal(app.users.reset_password(last_email(app).link, "shakenNotStirred"), true)
  expect.error(3003, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, "shakenNotStirred"))
  expect.ok(app.users.logout(session.token), "the session opened before the reset")
end)

scenario("the link's token alone works as well as the whole link", function()
  local app = app_with_bond()
  expect.ok(app.users.restore_password(BOND))
  local token = last_email(app).link:match("([^/]+)$")
  expect.ok(app.users.reset_password(token, "shakenNotStirred"))
  expect.ok(app.users.login(BOND, "shakenNotStirred"))
end)

scenario("a recovery link works once: the second use answers 3092 and changes nothing", function()
  local app = app_with_bond()
  expect.ok(app.users.restore_password(BOND))
  local link = last_email(app).link
  expect.ok(app.users.reset_password(link, "shakenNotStirred"))
  local err = expect.error(3092, app.users.reset_password(link, "somethingElse"))
  expect.match(err.message, "already used")
  expect.ok(app.users.login(BOND, "shakenNotStirred"))
  expect.error(3003, app.users.login(BOND, "somethingElse"))
end)

scenario("an unknown link answers 3092", function()
  local app = app_with_bond()
  expect.error(3092, app.users.reset_password("http://127.0.0.1:8080/no/such/link", "shakenNotStirred"))
  expect.error(3092, app.users.reset_password("", "shakenNotStirred"))
end)

scenario("each request sends its own link, and each works until used", function()
  local app = app_with_bond()
  expect.ok(app.users.restore_password(BOND))
  expect.ok(app.users.restore_password(BOND))
  local emails = expect.length(app.outbox.emails(), 2)
  expect.not_equal(emails[1].link, emails[2].link)
  expect.ok(app.users.reset_password(emails[1].link, "firstNewPassword"))
  expect.ok(app.users.reset_password(emails[2].link, "secondNewPassword"))
  expect.ok(app.users.login(BOND, "secondNewPassword"))
end)

scenario("the page refuses an empty new password with 3045, and the link stays usable", function()
  local app = app_with_bond()
  expect.ok(app.users.restore_password(BOND))
  local link = last_email(app).link
  expect.error(3045, app.users.reset_password(link, ""))
  expect.ok(app.users.login(BOND, PASSWORD))
  expect.ok(app.users.reset_password(link, "shakenNotStirred"))
end)

scenario("in temporary mode the email carries a new password that replaces the old one at once", function()
  local app = app_with_bond{ password_recovery = "temporary" }
  expect.ok(app.users.restore_password(BOND))
  local email = last_email(app)
  expect.equal(email.kind, "password_recovery")
  expect.equal(type(email.password), "string", "password type")
  expect.is_nil(email.link)
  expect.error(3003, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, email.password))
end)

scenario("recovery switched off answers 3101 and sends nothing", function()
  local app = app_with_bond{ password_recovery = false }
  expect.equal(app.settings.password_recovery, false)
  expect.error(3101, app.users.restore_password(BOND))
  expect.length(app.outbox.emails(), 0)
end)

scenario("3101 comes before 3020: an unknown identity with recovery off is 3101", function()
  local app = understudy.backendless{ password_recovery = false }
  expect.error(3101, app.users.restore_password("nobody@example.com"))
end)

scenario("no user with that identity: 3020", function()
  local app = app_with_bond()
  local err = expect.error(3020, app.users.restore_password("nobody@example.com"))
  expect.contains(err.message, "nobody@example.com")
  expect.length(app.outbox.emails(), 0)
end)

scenario("a user with no email to send to: 3025 (identity is the name)", function()
  local app = understudy.backendless{ identity = "name" }
  expect.ok(app.users.register{ name = "bond", password = PASSWORD })
  expect.error(3025, app.users.restore_password("bond"))
  expect.length(app.outbox.emails(), 0)
end)

scenario("3020 comes before 3025: an unknown name is 3020", function()
  local app = understudy.backendless{ identity = "name" }
  expect.ok(app.users.register{ name = "bond", password = PASSWORD })
  expect.error(3020, app.users.restore_password("blofeld"))
end)

scenario("the setting takes only \"link\", \"temporary\" or false", function()
  local app = understudy.backendless()
  expect.fails(function() app.settings.password_recovery = "sms" end, "password_recovery")
  expect.fails(function() app.settings.password_recovery = true end, "password_recovery")
  app.settings.password_recovery = "temporary"
  expect.equal(app.settings.password_recovery, "temporary")
end)

scenario("misuse raises and names the function and argument", function()
  local app = app_with_bond()
  expect.fails(function() app.users.restore_password(42) end, "users.restore_password: identity")
  expect.fails(function() app.users.reset_password("link", nil) end, "users.reset_password: new_password")
end)

scenario("faults apply to both calls, by the contract's names", function()
  local app = app_with_bond()
  app.faults.inject{ op = "users.restore_password", code = 5050, times = 1 }
  expect.error(5050, app.users.restore_password(BOND))
  expect.length(app.outbox.emails(), 0)
  expect.ok(app.users.restore_password(BOND))
  app.faults.inject{ op = "users.reset_password", code = 3092, times = 1 }
  expect.error(3092, app.users.reset_password(last_email(app).link, "shakenNotStirred"))
  expect.ok(app.users.reset_password(last_email(app).link, "shakenNotStirred"))
end)
