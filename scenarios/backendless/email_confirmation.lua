--[[
  Backendless: email confirmation and user status

  When "Require Email Confirmation" is on in the console (setting `email_confirmation = true`):
    * every new user must have a well-formed email (3078 without one when email is not the identity,
      3040 when malformed);
    * the new user's userStatus is "EMAIL_CONFIRMATION_PENDING" instead of "ENABLED";
    * Backendless sends a confirmation email. The emulator does not send mail: it records it in the
      outbox, app.outbox.emails(), as
        { to = <email>, subject = "Please confirm your email address", kind = "confirmation", link = ... };
    * the user cannot log in (3087) until the link is clicked. app.users.confirm_email(objectId) stands
      for that click: the status becomes "ENABLED" and login works.
  The feature is off by default. The password is checked before the status: a pending user who types a
  wrong password gets the usual 3003; only the right password reaches the 3087 answer.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

local function pending_app()
  return understudy.backendless{ email_confirmation = true }
end

scenario("email confirmation is off by default and new users are enabled at once", function()
  local app = understudy.backendless()
  expect.equal(app.settings.email_confirmation, false)
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(user.userStatus, "ENABLED")
  expect.length(app.outbox.emails(), 0)
end)

scenario("with email confirmation on, a new user is EMAIL_CONFIRMATION_PENDING", function()
  local app = pending_app()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(user.userStatus, "EMAIL_CONFIRMATION_PENDING")
  expect.equal(expect.ok(app.users.find(BOND)).userStatus, "EMAIL_CONFIRMATION_PENDING")
end)

scenario("registration with confirmation on puts one confirmation email in the outbox", function()
  local app = pending_app()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local emails = expect.length(app.outbox.emails(), 1)
  expect.equal(emails[1].to, BOND)
  expect.equal(emails[1].kind, "confirmation")
  expect.equal(emails[1].subject, "Please confirm your email address")
  expect.equal(type(emails[1].link), "string", "link type")
end)

scenario("a pending user cannot log in: 3087", function()
  local app = pending_app()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3087, app.users.login(BOND, PASSWORD))
end)

scenario("a pending user with a wrong password gets 3003, not 3087", function()
  local app = pending_app()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3003, app.users.login(BOND, "notMyPassword"))
end)

scenario("confirming the email enables the user, who can then log in", { tags = { "smoke" } }, function()
  local app = pending_app()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local confirmed = expect.ok(app.users.confirm_email(user.objectId))
  expect.equal(confirmed.userStatus, "ENABLED")
  expect.equal(confirmed.objectId, user.objectId)
  expect.is_nil(confirmed.password)
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  expect.equal(session.user.userStatus, "ENABLED")
end)

scenario("the login stays refused with 3087 for as long as the email is not confirmed", function()
  local app = pending_app()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.clock.advance(7 * 24 * 3600)
  expect.error(3087, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.confirm_email(user.objectId))
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("confirming one user leaves the others pending", function()
  local app = pending_app()
  local bond = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.register{ email = "eve.moneypenny@mi6.co.uk", password = "p3nnyW1se" })
  expect.ok(app.users.confirm_email(bond.objectId))
  expect.error(3087, app.users.login("eve.moneypenny@mi6.co.uk", "p3nnyW1se"))
end)

scenario("confirming an already enabled user returns it unchanged", function()
  local app = understudy.backendless()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  local again = expect.ok(app.users.confirm_email(user.objectId))
  expect.equal(again.userStatus, "ENABLED")
end)

scenario("confirming a disabled user does not enable it", function()
  local app = pending_app()
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  expect.equal(expect.ok(app.users.confirm_email(user.objectId)).userStatus, "DISABLED")
  expect.error(3090, app.users.login(BOND, PASSWORD))
end)

scenario("confirming an unknown objectId fails with 1000", function()
  local app = pending_app()
  expect.error(1000, app.users.confirm_email("6EAFFE12-B424-8C51-FFB0-FE99548CAA00"))
end)

scenario("with confirmation on, a malformed email fails with 3040", function()
  local app = pending_app()
  expect.error(3040, app.users.register{ email = "bond-at-mi6", password = PASSWORD })
end)

scenario("with confirmation on and identity 'name', the email is still required (3078)", function()
  local app = understudy.backendless{ identity = "name", email_confirmation = true }
  expect.error(3078, app.users.register{ name = "James Bond", password = PASSWORD })
  local user = expect.ok(app.users.register{ name = "James Bond", email = BOND, password = PASSWORD })
  expect.equal(user.userStatus, "EMAIL_CONFIRMATION_PENDING")
end)

scenario("a refused registration sends no confirmation email", function()
  local app = pending_app()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3033, app.users.register{ email = BOND, password = PASSWORD })
  expect.error(3011, app.users.register{ email = "m@mi6.co.uk" })
  expect.length(app.outbox.emails(), 1)
end)

scenario("each registration sends its own email, oldest first", function()
  local app = pending_app()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  local emails = expect.length(app.outbox.emails(), 2)
  expect.equal(emails[1].to, BOND)
  expect.equal(emails[2].to, "q@mi6.co.uk")
end)

scenario("email confirmation can be switched on at runtime", function()
  local app = understudy.backendless()
  app.settings.email_confirmation = true
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(user.userStatus, "EMAIL_CONFIRMATION_PENDING")
end)
