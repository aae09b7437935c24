-- Kii: verifying email addresses and phone numbers
--
-- Two app settings, both off by default: email_verification and phone_verification.
-- With email_verification on:
--   * registering sends an email (see app.outbox.emails()) with kind = "verification", a code and a link;
--   * user.emailAddressVerified is false, and the email cannot be used to log in (400 invalid_grant)
--     until app.users.verify_email(userID, code) succeeds; the username or another identifier works meanwhile.
-- With phone_verification on, the same with an SMS (app.outbox.sms(): { to, body, code }),
-- user.phoneNumberVerified and app.users.verify_phone(userID, code).
-- Errors: a wrong code 403 INVALID_VERIFICATION_CODE; verifying again 400 INVALID_ACCOUNT_STATUS;
-- an unknown userID 404 USER_NOT_FOUND.
-- An SMS code expires: older than the sms_code_ttl setting (default 24 hours = 86400 s, on the virtual
-- clock) it gives 410 PHONE_NUMBER_VERIFICATION_CODE_EXPIRED. Email codes do not expire.
-- With verification off nothing is sent and the address counts as verified at once.

local PASSWORD = "123ABC"
local EMAIL = "user@mydomain.com"
local PHONE = "+819012345678"

local INVALID_GRANT = { status = 400, code = "invalid_grant" }

local function with_email(app)
  return expect.ok(app.users.register{ username = "id123456", email = EMAIL, password = PASSWORD })
end

local function with_phone(app, phone, country)
  return expect.ok(app.users.register{ username = "id123456", phone = phone or PHONE, country = country,
                                       password = PASSWORD })
end

local function last(list)
  return expect.not_nil(list[#list], "the last outbox entry")
end

-- email ---------------------------------------------------------------------------------------------

scenario("with email verification on, registering sends a verification email with a code and a link", function()
  local app = understudy.kii{ email_verification = true }
  with_email(app)
  local mail = expect.length(app.outbox.emails(), 1)[1]
  expect.equal(mail.to, EMAIL)
  expect.equal(mail.kind, "verification")
  expect.equal(type(mail.code), "string", "type of code")
  expect.equal(type(mail.link), "string", "type of link")
  expect.equal(type(mail.subject), "string", "type of subject")
end)

scenario("an email waiting for verification is flagged unverified", function()
  local app = understudy.kii{ email_verification = true }
  expect.equal(with_email(app).emailAddressVerified, false)
end)

scenario("an unverified email cannot log in, but the username can", function()
  local app = understudy.kii{ email_verification = true }
  with_email(app)
  expect.error(INVALID_GRANT, app.users.login(EMAIL, PASSWORD))
  expect.ok(app.users.login("id123456", PASSWORD))
end)

scenario("verify_email with the emailed code marks the email verified", function()
  local app = understudy.kii{ email_verification = true }
  local user = with_email(app)
  local verified = expect.ok(app.users.verify_email(user.userID, app.outbox.emails()[1].code))
  expect.equal(verified.emailAddressVerified, true)
  expect.equal(verified.userID, user.userID)
end)

scenario("once verified, the email logs in", function()
  local app = understudy.kii{ email_verification = true }
  local user = with_email(app)
  expect.ok(app.users.verify_email(user.userID, app.outbox.emails()[1].code))
  expect.equal(expect.ok(app.users.login(EMAIL, PASSWORD)).user.userID, user.userID)
end)

scenario("a wrong email code is refused with 403 and leaves the email unverified", function()
  local app = understudy.kii{ email_verification = true }
  local user = with_email(app)
  local code = app.outbox.emails()[1].code
  expect.error({ status = 403, code = "INVALID_VERIFICATION_CODE" },
               app.users.verify_email(user.userID, "not-" .. code))
  expect.error(INVALID_GRANT, app.users.login(EMAIL, PASSWORD))
end)

scenario("after a wrong code, the right one still works", function()
  local app = understudy.kii{ email_verification = true }
  local user = with_email(app)
  local code = app.outbox.emails()[1].code
  expect.error("INVALID_VERIFICATION_CODE", app.users.verify_email(user.userID, "not-" .. code))
  expect.ok(app.users.verify_email(user.userID, code))
end)

scenario("verifying an email twice is refused with 400 INVALID_ACCOUNT_STATUS", function()
  local app = understudy.kii{ email_verification = true }
  local user = with_email(app)
  local code = app.outbox.emails()[1].code
  expect.ok(app.users.verify_email(user.userID, code))
  expect.error({ status = 400, code = "INVALID_ACCOUNT_STATUS" }, app.users.verify_email(user.userID, code))
end)

scenario("verifying the email of an unknown user is refused with 404 USER_NOT_FOUND", function()
  local app = understudy.kii{ email_verification = true }
  with_email(app)
  expect.error({ status = 404, code = "USER_NOT_FOUND" },
               app.users.verify_email("no-such-user", app.outbox.emails()[1].code))
end)

scenario("one user's email code does not verify another user", function()
  local app = understudy.kii{ email_verification = true }
  local a = expect.ok(app.users.register{ username = "alice", email = "alice@mydomain.com", password = PASSWORD })
  local b = expect.ok(app.users.register{ username = "bob", email = "bob@mydomain.com", password = PASSWORD })
  local codes = {}
  for _, mail in ipairs(app.outbox.emails()) do codes[mail.to] = mail.code end
  expect.not_equal(codes["alice@mydomain.com"], codes["bob@mydomain.com"], "the two codes")
  expect.error("INVALID_VERIFICATION_CODE", app.users.verify_email(b.userID, codes["alice@mydomain.com"]))
  expect.ok(app.users.verify_email(a.userID, codes["alice@mydomain.com"]))
end)

scenario("email verification codes do not expire", function()
  local app = understudy.kii{ email_verification = true }
  local user = with_email(app)
  app.clock.advance(30 * 86400)
  expect.ok(app.users.verify_email(user.userID, app.outbox.emails()[1].code))
end)

scenario("with email verification off, no email is sent and the email logs in at once", function()
  local app = understudy.kii()
  local user = with_email(app)
  expect.equal(user.emailAddressVerified, true)
  expect.equal(app.outbox.emails(), {})
  expect.ok(app.users.login(EMAIL, PASSWORD))
end)

scenario("email verification does not hold up the phone number", function()
  local app = understudy.kii{ email_verification = true }
  local user = expect.ok(app.users.register{ username = "id123456", email = EMAIL, phone = PHONE,
                                             password = PASSWORD })
  expect.equal(user.phoneNumberVerified, true)
  expect.equal(app.outbox.sms(), {})
  expect.ok(app.users.login(PHONE, PASSWORD))
end)

-- phone ---------------------------------------------------------------------------------------------

scenario("with phone verification on, registering texts a code to the number", function()
  local app = understudy.kii{ phone_verification = true }
  with_phone(app)
  local sms = expect.length(app.outbox.sms(), 1)[1]
  expect.equal(sms.to, PHONE)
  expect.equal(type(sms.body), "string", "type of body")
  expect.equal(type(sms.code), "string", "type of code")
end)

scenario("the SMS goes to the international form of a number registered in local form", function()
  local app = understudy.kii{ phone_verification = true }
  with_phone(app, "09012345678", "JP")
  expect.equal(last(app.outbox.sms()).to, "+819012345678")
end)

scenario("a phone waiting for verification is flagged unverified and cannot log in in either form", function()
  local app = understudy.kii{ phone_verification = true }
  local user = with_phone(app)
  expect.equal(user.phoneNumberVerified, false)
  expect.error(INVALID_GRANT, app.users.login(PHONE, PASSWORD))
  expect.error(INVALID_GRANT, app.users.login("JP-09012345678", PASSWORD))
  expect.ok(app.users.login("id123456", PASSWORD))
end)

scenario("verify_phone with the texted code lets the phone log in in both forms", function()
  local app = understudy.kii{ phone_verification = true }
  local user = with_phone(app)
  local verified = expect.ok(app.users.verify_phone(user.userID, app.outbox.sms()[1].code))
  expect.equal(verified.phoneNumberVerified, true)
  expect.equal(expect.ok(app.users.login(PHONE, PASSWORD)).user.userID, user.userID)
  expect.equal(expect.ok(app.users.login("JP-09012345678", PASSWORD)).user.userID, user.userID)
end)

scenario("a wrong SMS code is refused with 403 INVALID_VERIFICATION_CODE", function()
  local app = understudy.kii{ phone_verification = true }
  local user = with_phone(app)
  expect.error({ status = 403, code = "INVALID_VERIFICATION_CODE" },
               app.users.verify_phone(user.userID, "not-" .. app.outbox.sms()[1].code))
  expect.error(INVALID_GRANT, app.users.login(PHONE, PASSWORD))
end)

scenario("verifying a phone twice is refused with 400 INVALID_ACCOUNT_STATUS", function()
  local app = understudy.kii{ phone_verification = true }
  local user = with_phone(app)
  local code = app.outbox.sms()[1].code
  expect.ok(app.users.verify_phone(user.userID, code))
  expect.error({ status = 400, code = "INVALID_ACCOUNT_STATUS" }, app.users.verify_phone(user.userID, code))
end)

scenario("verifying the phone of an unknown user is refused with 404 USER_NOT_FOUND", function()
  local app = understudy.kii{ phone_verification = true }
  with_phone(app)
  expect.error({ status = 404, code = "USER_NOT_FOUND" },
               app.users.verify_phone("no-such-user", app.outbox.sms()[1].code))
end)

scenario("an SMS code is still good a second short of 24 hours", function()
  local app = understudy.kii{ phone_verification = true }
  local user = with_phone(app)
  app.clock.advance(86399)
  expect.ok(app.users.verify_phone(user.userID, app.outbox.sms()[1].code))
end)

scenario("an SMS code older than 24 hours is refused with 410 and the phone stays unverified", function()
  local app = understudy.kii{ phone_verification = true }
  local user = with_phone(app)
  app.clock.advance(86401)
  expect.error({ status = 410, code = "PHONE_NUMBER_VERIFICATION_CODE_EXPIRED" },
               app.users.verify_phone(user.userID, app.outbox.sms()[1].code))
  expect.error(INVALID_GRANT, app.users.login(PHONE, PASSWORD))
end)

scenario("clock.set past the SMS lifetime expires the code too", function()
  local app = understudy.kii{ phone_verification = true }
  local user = with_phone(app)
  app.clock.set(app.clock.now() + 2 * 86400)
  expect.error("PHONE_NUMBER_VERIFICATION_CODE_EXPIRED", app.users.verify_phone(user.userID, app.outbox.sms()[1].code))
end)

scenario("a custom sms_code_ttl sets how long an SMS code lives", function()
  local app = understudy.kii{ phone_verification = true, sms_code_ttl = 600 }
  local a = expect.ok(app.users.register{ username = "alice", phone = "+819012345678", password = PASSWORD })
  local b = expect.ok(app.users.register{ username = "bob", phone = "+819087654321", password = PASSWORD })
  local codes = {}
  for _, sms in ipairs(app.outbox.sms()) do codes[sms.to] = sms.code end
  app.clock.advance(599)
  expect.ok(app.users.verify_phone(a.userID, codes["+819012345678"]))
  app.clock.advance(2) -- 601 seconds after registration
  expect.error({ status = 410, code = "PHONE_NUMBER_VERIFICATION_CODE_EXPIRED" },
               app.users.verify_phone(b.userID, codes["+819087654321"]))
end)

scenario("with phone verification off, no SMS is sent and the phone logs in at once", function()
  local app = understudy.kii()
  local user = with_phone(app)
  expect.equal(user.phoneNumberVerified, true)
  expect.equal(app.outbox.sms(), {})
  expect.ok(app.users.login(PHONE, PASSWORD))
end)

-- both ------------------------------------------------------------------------------------------------

scenario("with both verifications on, a user gets an email and an SMS and verifies each separately", function()
  local app = understudy.kii{ email_verification = true, phone_verification = true }
  local user = expect.ok(app.users.register{ username = "id123456", email = EMAIL, phone = PHONE,
                                             password = PASSWORD })
  expect.length(app.outbox.emails(), 1)
  expect.length(app.outbox.sms(), 1)
  expect.ok(app.users.verify_phone(user.userID, app.outbox.sms()[1].code))
  expect.ok(app.users.login(PHONE, PASSWORD))
  expect.error(INVALID_GRANT, app.users.login(EMAIL, PASSWORD))
  local verified = expect.ok(app.users.verify_email(user.userID, app.outbox.emails()[1].code))
  expect.equal(verified.emailAddressVerified, true)
  expect.equal(verified.phoneNumberVerified, true)
  expect.ok(app.users.login(EMAIL, PASSWORD))
end)
