-- Kii: changing a user's email address or phone number
--
-- app.users.change_email(userID, email) and app.users.change_phone(userID, phone, country?) replace an
-- address after registration. The new address follows the same rules as at registration (format, mobile
-- only, unique: 409 USER_ALREADY_EXISTS with field emailAddress / phoneNumber).
--   * Verification off: the new address works at once, the old one no longer logs in (and is free for
--     someone else).
--   * Verification on: the old address stays in force until the new one is verified. Meanwhile the new
--     address is shown as user.pendingEmailAddress / user.pendingPhoneNumber and a new verification
--     email / SMS is sent to it. Verifying it swaps the addresses; the old one no longer logs in.
--   * An unknown userID gives 404 USER_NOT_FOUND.
-- The username can never change: there is no call for it.

local PASSWORD = "123ABC"
local OLD_EMAIL, NEW_EMAIL = "old@mydomain.com", "new@mydomain.com"
local OLD_PHONE, NEW_PHONE = "+819012345678", "+819087654321"

local INVALID_GRANT = { status = 400, code = "invalid_grant" }

local function register(app)
  return expect.ok(app.users.register{ username = "id123456", email = OLD_EMAIL, phone = OLD_PHONE,
                                       password = PASSWORD })
end

local function last(list)
  return expect.not_nil(list[#list], "the last outbox entry")
end

-- with verification on, the registration's own addresses are verified first so that they log in
local function register_verified(app)
  local user = register(app)
  if #app.outbox.emails() > 0 then expect.ok(app.users.verify_email(user.userID, app.outbox.emails()[1].code)) end
  if #app.outbox.sms() > 0 then expect.ok(app.users.verify_phone(user.userID, app.outbox.sms()[1].code)) end
  return user
end

-- verification off ------------------------------------------------------------------------------------

scenario("with verification off, a changed email works at once", function()
  local app = understudy.kii()
  local user = register(app)
  expect.equal(expect.ok(app.users.change_email(user.userID, NEW_EMAIL)).emailAddress, NEW_EMAIL)
  expect.equal(expect.ok(app.users.login(NEW_EMAIL, PASSWORD)).user.userID, user.userID)
end)

scenario("with verification off, the old email no longer logs in after a change", function()
  local app = understudy.kii()
  local user = register(app)
  expect.ok(app.users.change_email(user.userID, NEW_EMAIL))
  expect.error(INVALID_GRANT, app.users.login(OLD_EMAIL, PASSWORD))
end)

scenario("with verification off, a changed phone works at once and the old one no longer logs in", function()
  local app = understudy.kii()
  local user = register(app)
  expect.equal(expect.ok(app.users.change_phone(user.userID, NEW_PHONE)).phoneNumber, NEW_PHONE)
  expect.equal(expect.ok(app.users.login(NEW_PHONE, PASSWORD)).user.userID, user.userID)
  expect.error(INVALID_GRANT, app.users.login(OLD_PHONE, PASSWORD))
  expect.error(INVALID_GRANT, app.users.login("JP-09012345678", PASSWORD))
end)

scenario("change_phone accepts a local number with its country", function()
  local app = understudy.kii()
  local user = register(app)
  expect.equal(expect.ok(app.users.change_phone(user.userID, "09087654321", "JP")).phoneNumber, NEW_PHONE)
  expect.ok(app.users.login("JP-09087654321", PASSWORD))
end)

scenario("with verification off, a change sends no verification", function()
  local app = understudy.kii()
  local user = register(app)
  expect.ok(app.users.change_email(user.userID, NEW_EMAIL))
  expect.ok(app.users.change_phone(user.userID, NEW_PHONE))
  expect.equal(app.outbox.emails(), {})
  expect.equal(app.outbox.sms(), {})
end)

scenario("an address given up is free for another user", function()
  local app = understudy.kii()
  local user = register(app)
  expect.ok(app.users.change_email(user.userID, NEW_EMAIL))
  expect.ok(app.users.change_phone(user.userID, NEW_PHONE))
  expect.ok(app.users.register{ username = "bond007", email = OLD_EMAIL, phone = OLD_PHONE, password = PASSWORD })
end)

-- verification on: email ------------------------------------------------------------------------------

scenario("with email verification on, a change sends a verification email to the new address", function()
  local app = understudy.kii{ email_verification = true }
  local user = register_verified(app)
  expect.ok(app.users.change_email(user.userID, NEW_EMAIL))
  expect.length(app.outbox.emails(), 2)
  local mail = last(app.outbox.emails())
  expect.equal(mail.to, NEW_EMAIL)
  expect.equal(mail.kind, "verification")
  expect.equal(type(mail.code), "string", "type of code")
end)

scenario("with email verification on, the old email stays in force until the new one is verified", function()
  local app = understudy.kii{ email_verification = true }
  local user = register_verified(app)
  local changed = expect.ok(app.users.change_email(user.userID, NEW_EMAIL))
  expect.equal(changed.emailAddress, OLD_EMAIL)
  expect.equal(changed.pendingEmailAddress, NEW_EMAIL)
  expect.ok(app.users.login(OLD_EMAIL, PASSWORD))
  expect.error(INVALID_GRANT, app.users.login(NEW_EMAIL, PASSWORD))
end)

scenario("verifying the new email makes it the address and retires the old one", function()
  local app = understudy.kii{ email_verification = true }
  local user = register_verified(app)
  expect.ok(app.users.change_email(user.userID, NEW_EMAIL))
  local verified = expect.ok(app.users.verify_email(user.userID, last(app.outbox.emails()).code))
  expect.equal(verified.emailAddress, NEW_EMAIL)
  expect.is_nil(verified.pendingEmailAddress, "pendingEmailAddress")
  expect.equal(expect.ok(app.users.login(NEW_EMAIL, PASSWORD)).user.userID, user.userID)
  expect.error(INVALID_GRANT, app.users.login(OLD_EMAIL, PASSWORD))
end)

-- verification on: phone ------------------------------------------------------------------------------

scenario("with phone verification on, a change texts a code to the new number", function()
  local app = understudy.kii{ phone_verification = true }
  local user = register_verified(app)
  expect.ok(app.users.change_phone(user.userID, NEW_PHONE))
  expect.length(app.outbox.sms(), 2)
  local sms = last(app.outbox.sms())
  expect.equal(sms.to, NEW_PHONE)
  expect.equal(type(sms.code), "string", "type of code")
end)

scenario("with phone verification on, the old number stays in force until the new one is verified", function()
  local app = understudy.kii{ phone_verification = true }
  local user = register_verified(app)
  local changed = expect.ok(app.users.change_phone(user.userID, NEW_PHONE))
  expect.equal(changed.phoneNumber, OLD_PHONE)
  expect.equal(changed.pendingPhoneNumber, NEW_PHONE)
  expect.ok(app.users.login(OLD_PHONE, PASSWORD))
  expect.error(INVALID_GRANT, app.users.login(NEW_PHONE, PASSWORD))
end)

scenario("verifying the new number makes it the number and retires the old one", function()
  local app = understudy.kii{ phone_verification = true }
  local user = register_verified(app)
  expect.ok(app.users.change_phone(user.userID, NEW_PHONE))
  local verified = expect.ok(app.users.verify_phone(user.userID, last(app.outbox.sms()).code))
  expect.equal(verified.phoneNumber, NEW_PHONE)
  expect.is_nil(verified.pendingPhoneNumber, "pendingPhoneNumber")
  expect.equal(expect.ok(app.users.login(NEW_PHONE, PASSWORD)).user.userID, user.userID)
  expect.error(INVALID_GRANT, app.users.login(OLD_PHONE, PASSWORD))
end)

-- refusals --------------------------------------------------------------------------------------------

scenario("changing to another user's email is refused with 409 naming emailAddress", function()
  local app = understudy.kii()
  local user = register(app)
  expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = PASSWORD })
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "emailAddress", value = "james@mi6.co.uk" },
               app.users.change_email(user.userID, "james@mi6.co.uk"))
end)

scenario("changing to another user's phone is refused with 409 naming phoneNumber", function()
  local app = understudy.kii()
  local user = register(app)
  expect.ok(app.users.register{ username = "bond007", phone = NEW_PHONE, password = PASSWORD })
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "phoneNumber", value = NEW_PHONE },
               app.users.change_phone(user.userID, NEW_PHONE))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "phoneNumber" },
               app.users.change_phone(user.userID, "09087654321", "JP"))
end)

scenario("a refused change leaves the old addresses in place", function()
  local app = understudy.kii()
  local user = register(app)
  expect.ok(app.users.register{ username = "bond007", email = NEW_EMAIL, phone = NEW_PHONE, password = PASSWORD })
  expect.error("USER_ALREADY_EXISTS", app.users.change_email(user.userID, NEW_EMAIL))
  expect.error("USER_ALREADY_EXISTS", app.users.change_phone(user.userID, NEW_PHONE))
  expect.equal(expect.ok(app.users.login(OLD_EMAIL, PASSWORD)).user.userID, user.userID)
  expect.equal(expect.ok(app.users.login(OLD_PHONE, PASSWORD)).user.userID, user.userID)
end)

scenario("a malformed new email is refused with 400 naming emailAddress", function()
  local app = understudy.kii()
  local user = register(app)
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "emailAddress" },
               app.users.change_email(user.userID, "not-an-email"))
  expect.ok(app.users.login(OLD_EMAIL, PASSWORD))
end)

scenario("a landline as the new phone is refused with 400 naming phoneNumber", function()
  local app = understudy.kii()
  local user = register(app)
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "phoneNumber" },
               app.users.change_phone(user.userID, "+81312345678"))
  expect.ok(app.users.login(OLD_PHONE, PASSWORD))
end)

scenario("changing the addresses of an unknown user is refused with 404 USER_NOT_FOUND", function()
  local app = understudy.kii()
  register(app)
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.change_email("no-such-user", NEW_EMAIL))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.change_phone("no-such-user", NEW_PHONE))
end)

-- the username ----------------------------------------------------------------------------------------

scenario("there is no call to change a username", function()
  local app = understudy.kii()
  for _, name in ipairs{ "change_username", "change_login_name", "change_loginName", "set_username",
                         "rename" } do
    local ok, fn = pcall(function() return app.users[name] end)
    assert(not ok or fn == nil, "app.users." .. name .. " should not exist: a username can never change")
  end
end)

scenario("changing the email and phone keeps the username", function()
  local app = understudy.kii()
  local user = register(app)
  expect.equal(expect.ok(app.users.change_email(user.userID, NEW_EMAIL)).loginName, "id123456")
  expect.equal(expect.ok(app.users.change_phone(user.userID, NEW_PHONE)).loginName, "id123456")
  expect.ok(app.users.login("id123456", PASSWORD))
end)
