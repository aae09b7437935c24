-- Kii: forgotten passwords (request_password_reset, complete_password_reset, open_reset_link)
--
-- A reset is requested for an identifier: a userID, EMAIL:address, PHONE:+number or LOGIN_NAME:name.
-- Three ways to reach the user:
--   * "EMAIL" (the default): an email (kind "password_reset") with a link;
--   * "SMS": a text message with a link;
--   * "SMS_PIN": a text message with a PIN (digits) for complete_password_reset.
-- Opening the link does what Kii's default "auto-generate" does: a new password is set and sent
-- (email kind "password_reset_done" with `password`, or a text message).
-- After any completed reset every token of the user answers 403 WRONG_TOKEN.
-- A new request replaces the earlier PIN and link. PINs live `sms_reset_pin_ttl` seconds (default 3600).
--
-- request_password_reset errors, in this order:
--   404 USER_NOT_FOUND, 401 USER_DISABLED, 409 INVALID_STATUS (the address the method needs is missing
--   or not verified)
-- complete_password_reset errors, in this order:
--   404 USER_NOT_FOUND, 401 USER_DISABLED, 400 INVALID_INPUT_DATA (empty PIN, new password = old),
--   400 PASSWORD_TOO_SHORT, 403 INVALID_VERIFICATION_CODE (wrong PIN, or none requested), 410 PIN_CODE_EXPIRED

local PHONE = "+819012345678"

local function bond(app)
  return expect.ok(app.users.register{ username = "bond007", email = "bond@mi6.co.uk", phone = PHONE,
                                       password = "martini" })
end

local function pin_reset(app, user)
  expect.ok(app.users.request_password_reset(user.userID, "SMS_PIN"))
  return app.outbox.last_sms(PHONE).code
end

scenario("an email reset sends a link; opening it emails a new password that logs in", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.equal(app.users.request_password_reset("EMAIL:bond@mi6.co.uk"), true)
  local email = app.outbox.last_email("bond@mi6.co.uk")
  expect.equal(email.kind, "password_reset")
  expect.not_nil(email.link)
  expect.ok(app.users.open_reset_link(email.link))
  local done = app.outbox.last_email("bond@mi6.co.uk")
  expect.equal(done.kind, "password_reset_done")
  expect.ok(app.users.login("bond007", done.password))
  expect.error("invalid_grant", app.users.login("bond007", "martini"))
  expect.error({ status = 403, code = "WRONG_TOKEN" }, app.users.me(user.token))
end)

scenario("a used reset link answers 404 USER_NOT_FOUND", function()
  local app = understudy.kii()
  bond(app)
  expect.ok(app.users.request_password_reset("LOGIN_NAME:bond007", "EMAIL"))
  local link = app.outbox.last_email().link
  expect.ok(app.users.open_reset_link(link))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.open_reset_link(link))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.open_reset_link("http://nowhere/?code=1"))
end)

scenario("an SMS reset texts a link; opening it texts the new password", function()
  local app = understudy.kii()
  bond(app)
  expect.ok(app.users.request_password_reset("PHONE:" .. PHONE, "SMS"))
  local sms = app.outbox.last_sms(PHONE)
  expect.not_nil(sms.link)
  expect.is_nil(sms.code)
  expect.ok(app.users.open_reset_link(sms.link))
  local password = app.outbox.last_sms(PHONE).body:match("new password is (%w+)")
  expect.ok(app.users.login("bond007", password))
end)

scenario("a PIN reset: the PIN is digits and sets the new password; tokens die", function()
  local app = understudy.kii()
  local user = bond(app)
  local pin = pin_reset(app, user)
  expect.match(pin, "^%d+$")
  expect.equal(app.users.complete_password_reset(user.userID, pin, "shaken"), true)
  expect.ok(app.users.login("bond007", "shaken"))
  expect.error({ status = 403, code = "WRONG_TOKEN" }, app.users.me(user.token))
end)

scenario("a wrong PIN does not use the PIN up; the right one then works once", function()
  local app = understudy.kii()
  local user = bond(app)
  local pin = pin_reset(app, user)
  local wrong = pin == "000000" and "111111" or "000000"
  expect.error({ status = 403, code = "INVALID_VERIFICATION_CODE" },
    app.users.complete_password_reset(user.userID, wrong, "shaken"))
  expect.ok(app.users.complete_password_reset(user.userID, pin, "shaken"))
  expect.error({ status = 403, code = "INVALID_VERIFICATION_CODE" },
    app.users.complete_password_reset(user.userID, pin, "stirred"))
end)

scenario("a PIN exactly sms_reset_pin_ttl seconds old works; one second later it has expired", function()
  local app = understudy.kii{ sms_reset_pin_ttl = 600 }
  local user = bond(app)
  local pin = pin_reset(app, user)
  app.clock.advance(601)
  expect.error({ status = 410, code = "PIN_CODE_EXPIRED" }, app.users.complete_password_reset(user.userID, pin, "shaken"))
  pin = pin_reset(app, user)
  app.clock.advance(600)
  expect.ok(app.users.complete_password_reset(user.userID, pin, "shaken"))
end)

scenario("PINs live an hour by default", function()
  local app = understudy.kii()
  expect.equal(app.settings.sms_reset_pin_ttl, 3600)
  local user = bond(app)
  local pin = pin_reset(app, user)
  app.clock.advance(3601)
  expect.error("PIN_CODE_EXPIRED", app.users.complete_password_reset(user.userID, pin, "shaken"))
end)

scenario("a new request replaces the earlier PIN and link", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.ok(app.users.request_password_reset(user.userID))
  local link = app.outbox.last_email().link
  local first = pin_reset(app, user)
  local second = pin_reset(app, user)
  expect.error("USER_NOT_FOUND", app.users.open_reset_link(link))
  if first ~= second then
    expect.error("INVALID_VERIFICATION_CODE", app.users.complete_password_reset(user.userID, first, "shaken"))
  end
  expect.ok(app.users.complete_password_reset(user.userID, second, "shaken"))
end)

scenario("complete_password_reset checks in order: user, disabled, empty PIN, same password, length, PIN", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.complete_password_reset("LOGIN_NAME:nobody", "", "x"))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.users.complete_password_reset(user.userID, "", "x"))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.users.complete_password_reset(user.userID, "1", "martini"))
  expect.error({ status = 400, code = "PASSWORD_TOO_SHORT" }, app.users.complete_password_reset(user.userID, "1", "abc"))
  expect.error({ status = 403, code = "INVALID_VERIFICATION_CODE" },
    app.users.complete_password_reset(user.userID, "123456", "shaken"))
  expect.ok(app.users.set_disabled(user.userID, true))
  expect.error({ status = 401, code = "USER_DISABLED" }, app.users.complete_password_reset(user.userID, "", "x"))
end)

scenario("request_password_reset checks in order: user, disabled, verified address", function()
  local app = understudy.kii{ email_verification = true }
  local user = expect.ok(app.users.register{ username = "bond007", email = "bond@mi6.co.uk", password = "martini" })
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.request_password_reset("EMAIL:m@mi6.co.uk"))
  expect.error({ status = 409, code = "INVALID_STATUS" }, app.users.request_password_reset("EMAIL:bond@mi6.co.uk"))
  expect.error({ status = 409, code = "INVALID_STATUS" }, app.users.request_password_reset(user.userID, "SMS"))
  expect.ok(app.users.set_disabled(user.userID, true))
  expect.error({ status = 401, code = "USER_DISABLED" }, app.users.request_password_reset(user.userID, "SMS"))
  expect.length(app.outbox.sms(), 0)
end)

scenario("an unknown reset method is a misuse and raises", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.fails(function() app.users.request_password_reset(user.userID, "PIGEON") end, "method")
end)

scenario("a fault on users.request_password_reset sees the identifier and the method", function()
  local app = understudy.kii()
  local user = bond(app)
  app.faults.inject{ op = "users.request_password_reset", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE",
                     when = function(args) return args.method == "SMS_PIN" end }
  expect.error({ status = 503 }, app.users.request_password_reset(user.userID, "SMS_PIN"))
  expect.ok(app.users.request_password_reset(user.userID, "EMAIL"))
end)
