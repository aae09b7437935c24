-- Kii: which identifiers a user registers with, and which of them log in
--
-- A Kii user is registered with a password and at least one identifier: a username, an email address,
-- a phone number, or a combination. Each identifier given at registration can later be used to log in
-- (the seed's table, one scenario per row below):
--
--   username  email  phone   | logs in with
--   yes       -      -       | username
--   yes       -      yes     | username or phone number
--   yes       yes    -       | username or email address
--   yes       yes    yes     | username, email address or phone number
--   -         -      yes *1  | phone number
--   -         yes *2 -       | email address
--   -         yes *3 yes *3  | email address or phone number
--
--   *1 only while phone verification is off     *2 only while email verification is off
--   *3 only while at least one of the two verifications is off
-- Otherwise the registration is refused with 400 INVALID_INPUT_DATA (the message names the verification
-- setting) and no user is created. Reason: with verification on, an address cannot log in until it is
-- verified, so a user without a username would have no way in.
-- Registration itself logs the user in (user.token); see login.lua for every accepted login form.

local PASSWORD = "123ABC"
local USERNAME = "id123456"
local EMAIL = "user@mydomain.com"
local PHONE = "+819012345678"

local function logs_in(app, user, identifier)
  local session, err = app.users.login(identifier, PASSWORD)
  if session == nil then print("expected a login with " .. identifier .. " to succeed") end
  expect.ok(session, err)
  expect.equal(session.user.userID, user.userID, "userID of the session logged in with " .. identifier)
end

local function cannot_log_in(app, identifier)
  local session, err = app.users.login(identifier, PASSWORD)
  if session ~= nil then print("expected a login with " .. identifier .. " to fail") end
  expect.error({ status = 400, code = "invalid_grant" }, session, err)
end

local function refused_for_verification(app, props)
  local err = expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.users.register(props))
  expect.contains(err.message:lower(), "verification")
  expect.equal(app.users.count(), 0, "users after the refused registration")
  return err
end

-- the seed's table, row by row (verification off, the default) ------------------------------------

scenario("row 1: a user registered with a username logs in with the username only", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = USERNAME, password = PASSWORD })
  expect.equal(user.loginName, USERNAME)
  expect.is_nil(user.emailAddress, "emailAddress")
  expect.is_nil(user.phoneNumber, "phoneNumber")
  logs_in(app, user, USERNAME)
  cannot_log_in(app, EMAIL)
  cannot_log_in(app, PHONE)
end)

scenario("row 2: a user registered with username and phone logs in with either", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = USERNAME, phone = PHONE, password = PASSWORD })
  expect.equal(user.phoneNumber, PHONE)
  expect.is_nil(user.emailAddress, "emailAddress")
  logs_in(app, user, USERNAME)
  logs_in(app, user, PHONE)
  cannot_log_in(app, EMAIL)
end)

scenario("row 3: a user registered with username and email logs in with either", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = USERNAME, email = EMAIL, password = PASSWORD })
  expect.equal(user.emailAddress, EMAIL)
  expect.is_nil(user.phoneNumber, "phoneNumber")
  logs_in(app, user, USERNAME)
  logs_in(app, user, EMAIL)
  cannot_log_in(app, PHONE)
end)

scenario("row 4: a user registered with username, email and phone logs in with any of the three", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = USERNAME, email = EMAIL, phone = PHONE,
                                             password = PASSWORD })
  expect.equal(user.loginName, USERNAME)
  expect.equal(user.emailAddress, EMAIL)
  expect.equal(user.phoneNumber, PHONE)
  logs_in(app, user, USERNAME)
  logs_in(app, user, EMAIL)
  logs_in(app, user, PHONE)
end)

scenario("row 5: a user registered with a phone number only logs in with the phone number", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ phone = PHONE, password = PASSWORD })
  expect.is_nil(user.loginName, "loginName")
  expect.equal(user.phoneNumber, PHONE)
  logs_in(app, user, PHONE)
  cannot_log_in(app, EMAIL)
  cannot_log_in(app, USERNAME)
end)

scenario("row 6: a user registered with an email only logs in with the email address", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ email = EMAIL, password = PASSWORD })
  expect.is_nil(user.loginName, "loginName")
  expect.equal(user.emailAddress, EMAIL)
  logs_in(app, user, EMAIL)
  cannot_log_in(app, PHONE)
  cannot_log_in(app, USERNAME)
end)

scenario("row 7: a user registered with email and phone logs in with either", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ email = EMAIL, phone = PHONE, password = PASSWORD })
  expect.is_nil(user.loginName, "loginName")
  logs_in(app, user, EMAIL)
  logs_in(app, user, PHONE)
  cannot_log_in(app, USERNAME)
end)

scenario("every row's registration logs the user in with a token", function()
  local rows = {
    { username = USERNAME },
    { username = USERNAME, phone = PHONE },
    { username = USERNAME, email = EMAIL },
    { username = USERNAME, email = EMAIL, phone = PHONE },
    { phone = PHONE },
    { email = EMAIL },
    { email = EMAIL, phone = PHONE },
  }
  for i, row in ipairs(rows) do
    local app = understudy.kii()
    row.password = PASSWORD
    print("row " .. i)
    local user = expect.ok(app.users.register(row))
    expect.equal(type(user.token), "string", "type of user.token in row " .. i)
    expect.not_nil(user.userID, "user.userID in row " .. i)
  end
end)

scenario("a registration without username, email or phone is refused", function()
  local app = understudy.kii()
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.users.register{ password = PASSWORD })
  expect.equal(app.users.count(), 0, "users")
end)

-- footnote *1: phone only ------------------------------------------------------------------------

scenario("*1: a phone-only registration is refused while phone verification is on", function()
  local app = understudy.kii{ phone_verification = true }
  local err = refused_for_verification(app, { phone = PHONE, password = PASSWORD })
  expect.contains(err.message, "while phone_verification is on")
  expect.equal(app.outbox.sms(), {})
end)

scenario("*1: a phone-only registration is accepted when only email verification is on", function()
  local app = understudy.kii{ email_verification = true }
  local user = expect.ok(app.users.register{ phone = PHONE, password = PASSWORD })
  logs_in(app, user, PHONE)
end)

-- footnote *2: email only ------------------------------------------------------------------------

scenario("*2: an email-only registration is refused while email verification is on", function()
  local app = understudy.kii{ email_verification = true }
  refused_for_verification(app, { email = EMAIL, password = PASSWORD })
  expect.equal(app.outbox.emails(), {})
end)

scenario("*2: an email-only registration is accepted when only phone verification is on", function()
  local app = understudy.kii{ phone_verification = true }
  local user = expect.ok(app.users.register{ email = EMAIL, password = PASSWORD })
  logs_in(app, user, EMAIL)
end)

-- footnote *3: email and phone -------------------------------------------------------------------

scenario("*3: an email + phone registration is refused when both verifications are on", function()
  local app = understudy.kii{ email_verification = true, phone_verification = true }
  local err = refused_for_verification(app, { email = EMAIL, phone = PHONE, password = PASSWORD })
  expect.contains(err.message, "while email_verification and phone_verification are on")
  expect.equal(app.outbox.emails(), {})
  expect.equal(app.outbox.sms(), {})
end)

scenario("*3: with only email verification on, email + phone is accepted and logs in by phone", function()
  local app = understudy.kii{ email_verification = true }
  local user = expect.ok(app.users.register{ email = EMAIL, phone = PHONE, password = PASSWORD })
  logs_in(app, user, PHONE)
  cannot_log_in(app, EMAIL) -- not verified yet
end)

scenario("*3: with only phone verification on, email + phone is accepted and logs in by email", function()
  local app = understudy.kii{ phone_verification = true }
  local user = expect.ok(app.users.register{ email = EMAIL, phone = PHONE, password = PASSWORD })
  logs_in(app, user, EMAIL)
  cannot_log_in(app, PHONE) -- not verified yet
end)

-- with a username, verification never blocks registration ----------------------------------------

scenario("with a username, every combination is accepted even with both verifications on", function()
  for _, row in ipairs{
    { username = USERNAME, phone = PHONE },
    { username = USERNAME, email = EMAIL },
    { username = USERNAME, email = EMAIL, phone = PHONE },
  } do
    local app = understudy.kii{ email_verification = true, phone_verification = true }
    row.password = PASSWORD
    local user = expect.ok(app.users.register(row))
    logs_in(app, user, USERNAME)
  end
end)

scenario("with both verifications on, the username logs in but the unverified addresses do not", function()
  local app = understudy.kii{ email_verification = true, phone_verification = true }
  local user = expect.ok(app.users.register{ username = USERNAME, email = EMAIL, phone = PHONE,
                                             password = PASSWORD })
  logs_in(app, user, USERNAME)
  cannot_log_in(app, EMAIL)
  cannot_log_in(app, PHONE)
end)

-- which check comes first ------------------------------------------------------------------------

scenario("a malformed email is reported before a forbidden verification combination", function()
  local app = understudy.kii{ email_verification = true }
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "emailAddress" },
               app.users.register{ email = "not-an-email", password = PASSWORD })
end)

scenario("a forbidden verification combination is reported before a taken address", function()
  local app = understudy.kii{ email_verification = true, phone_verification = true }
  local first = expect.ok(app.users.register{ username = USERNAME, email = EMAIL, phone = PHONE,
                                              password = PASSWORD })
  expect.ok(app.users.verify_email(first.userID, app.outbox.emails()[1].code))
  expect.ok(app.users.verify_phone(first.userID, app.outbox.sms()[1].code))
  -- the address is now verified and taken, yet the combination is what gets reported
  local err = expect.error({ status = 400, code = "INVALID_INPUT_DATA" },
                           app.users.register{ email = EMAIL, phone = PHONE, password = PASSWORD })
  expect.contains(err.message:lower(), "verification")
  expect.equal(app.users.count(), 1, "users")
end)
