--[[
  Backendless: resending the confirmation email (users.resend_confirmation) and making a confirmation
  link without sending it (users.confirmation_url)

  A user who registered while "Require Email Confirmation" is on (setting `email_confirmation = true`) and
  lost the email can ask for another one. resend_confirmation(identity) puts a new "confirmation" email in
  the outbox; confirmation_url(identity) returns a new link and sends nothing (the app delivers it itself,
  by SMS say). Earlier links keep working.
  Errors, checked in this order: 3103 email confirmation is off; 3104 no user with that identity;
  3102 the user has already confirmed.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

local function pending_bond()
  local app = understudy.backendless{ email_confirmation = true }
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  return app, user
end

scenario("resending puts a second confirmation email in the outbox", { tags = { "smoke" } }, function()
  local app = pending_bond()
  expect.equal(app.users.resend_confirmation(BOND), true)
  local emails = expect.length(app.outbox.emails(), 2)
  expect.equal(emails[2].to, BOND)
  expect.equal(emails[2].kind, "confirmation")
  expect.not_equal(emails[2].link, emails[1].link)
end)

scenario("confirmation_url returns a link and sends no email", function()
  local app = pending_bond()
  local link = expect.ok(app.users.confirmation_url(BOND))
  expect.match(link, "^http.*/users/confirmemail/")
  expect.length(app.outbox.emails(), 1)
end)

scenario("a resend does not end the earlier link: the user is still confirmed by it", function()
  local app, user = pending_bond()
  expect.ok(app.users.resend_confirmation(BOND))
  -- opening a link is what confirm_email stands for in Lua; over HTTP both links confirm
  expect.equal(expect.ok(app.users.confirm_email(user.objectId)).userStatus, "ENABLED")
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("confirmation off: 3103", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3103, app.users.resend_confirmation(BOND))
  expect.error(3103, app.users.confirmation_url(BOND))
  expect.length(app.outbox.emails(), 0)
end)

scenario("3103 comes before 3104: an unknown identity with confirmation off is 3103", function()
  local app = understudy.backendless()
  expect.error(3103, app.users.resend_confirmation("nobody@example.com"))
end)

scenario("no user with that identity: 3104", function()
  local app = pending_bond()
  expect.error(3104, app.users.resend_confirmation("nobody@example.com"))
  expect.error(3104, app.users.confirmation_url("nobody@example.com"))
  expect.length(app.outbox.emails(), 1)
end)

scenario("already confirmed: 3102, and no email", function()
  local app, user = pending_bond()
  expect.ok(app.users.confirm_email(user.objectId))
  expect.error(3102, app.users.resend_confirmation(BOND))
  expect.error(3102, app.users.confirmation_url(BOND))
  expect.length(app.outbox.emails(), 1)
end)

scenario("a user registered before confirmation was switched on counts as confirmed: 3102", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.settings.email_confirmation = true
  expect.error(3102, app.users.resend_confirmation(BOND))
end)

scenario("the identity is matched without regard to case", function()
  local app = pending_bond()
  expect.ok(app.users.resend_confirmation("JAMES.BOND@mi6.co.uk"))
end)

scenario("faults apply by the contract's names", function()
  local app = pending_bond()
  app.faults.inject{ op = "users.resend_confirmation", code = 5050, times = 1 }
  app.faults.inject{ op = "users.confirmation_url", code = 5050, times = 1 }
  expect.error(5050, app.users.resend_confirmation(BOND))
  expect.error(5050, app.users.confirmation_url(BOND))
  expect.length(app.outbox.emails(), 1)
end)

scenario("misuse raises and names the function and argument", function()
  local app = pending_bond()
  expect.fails(function() app.users.resend_confirmation() end, "users.resend_confirmation: identity")
  expect.fails(function() app.users.confirmation_url({}) end, "users.confirmation_url: identity")
end)
