-- Kii: pseudo (anonymous) users and their upgrade to normal users (contract v3)
--
-- app.users.register_pseudo(fields?) -> user with token, no loginName/emailAddress/phoneNumber, hasPassword = false.
--   fields: displayName, country, locale and custom fields (the users.update rules). 400 INVALID_INPUT_DATA for
--   loginName, emailAddress, phoneNumber, password or a reserved name.
-- app.users.put_identity(token, identity), identity = { username?, email?, phone?, country?, password, fields? }
--   -> user with hasPassword = true and the new identifiers; the same token keeps working.
--   Errors in order: fault; 403 WRONG_TOKEN; 409 INVALID_STATUS (already has a password); 400 INVALID_INPUT_DATA
--   (bad formats, refused fields, no identifier, the verification combinations, no password); 400
--   PASSWORD_TOO_SHORT; 409 USER_ALREADY_EXISTS (field).
-- Every user record has hasPassword; users.count() includes pseudo users; users.delete ends a pseudo user's token.

local PASSWORD = "123ABC"

scenario("register_pseudo answers a user with a token and no identifier or password", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register_pseudo())
  expect.not_nil(user.token, "token")
  expect.is_nil(user.loginName, "loginName")
  expect.is_nil(user.emailAddress, "emailAddress")
  expect.is_nil(user.phoneNumber, "phoneNumber")
  expect.equal(user.hasPassword, false, "hasPassword")
  expect.equal(expect.ok(app.users.me(user.token)).userID, user.userID)
  expect.equal(app.users.count(), 1, "users.count includes pseudo users")
end)

scenario("register_pseudo keeps displayName, country, locale and custom fields", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register_pseudo{ displayName = "Anon", country = "JP", locale = "ja", score = 10, vip = true })
  expect.equal(user.displayName, "Anon")
  expect.equal(user.country, "JP")
  expect.equal(user.locale, "ja")
  expect.equal(user.score, 10)
  expect.equal(user.vip, true)
  expect.equal(app.users.get(user.userID).score, 10)
end)

scenario("register_pseudo refuses identifiers, a password and reserved names with INVALID_INPUT_DATA", function()
  local app = understudy.kii()
  for _, name in ipairs({ "loginName", "emailAddress", "phoneNumber", "password", "userID", "internalUserID",
                          "_hidden", "hasPassword", "disabled", "token" }) do
    expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = name },
      app.users.register_pseudo{ [name] = "x" })
  end
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "displayName" },
    app.users.register_pseudo{ displayName = string.rep("d", 51) })
  expect.equal(app.users.count(), 0, "nothing registered")
end)

scenario("every user record has hasPassword; a user who signed up with a password has it true", function()
  local app = understudy.kii()
  local normal = expect.ok(app.users.register{ username = "bond007", password = PASSWORD })
  expect.equal(normal.hasPassword, true)
  expect.equal(app.users.get(normal.userID).hasPassword, true)
  expect.equal(app.users.all()[1].hasPassword, true)
end)

scenario("a pseudo user cannot log in (no identifier) but me() works", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register_pseudo())
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login(user.userID, ""))
  expect.equal(expect.ok(app.users.me(user.token)).hasPassword, false)
end)

scenario("put_identity gives a username and a password: the same token keeps working and login works", function()
  local app = understudy.kii()
  local pseudo = expect.ok(app.users.register_pseudo())
  local user = expect.ok(app.users.put_identity(pseudo.token, { username = "Bond007", password = PASSWORD }))
  expect.equal(user.userID, pseudo.userID)
  expect.equal(user.loginName, "bond007")
  expect.equal(user.hasPassword, true)
  expect.equal(expect.ok(app.users.me(pseudo.token)).loginName, "bond007")
  local session = expect.ok(app.users.login("bond007", PASSWORD))
  expect.equal(session.user.userID, pseudo.userID)
  expect.equal(app.users.count(), 1)
end)

scenario("put_identity with an email and phone, verification off: both log in at once", function()
  local app = understudy.kii()
  local pseudo = expect.ok(app.users.register_pseudo())
  local user = expect.ok(app.users.put_identity(pseudo.token,
    { email = "bond@mi6.co.uk", phone = "09012345678", country = "JP", password = PASSWORD }))
  expect.equal(user.emailAddress, "bond@mi6.co.uk")
  expect.equal(user.phoneNumber, "+819012345678")
  expect.equal(user.country, "JP")
  expect.equal(user.emailAddressVerified, true)
  expect.ok(app.users.login("bond@mi6.co.uk", PASSWORD))
  expect.ok(app.users.login("+819012345678", PASSWORD))
  expect.length(app.outbox.emails(), 0)
end)

scenario("with email verification on, a new email waits for verification exactly as at sign-up", function()
  local app = understudy.kii{ email_verification = true }
  local pseudo = expect.ok(app.users.register_pseudo())
  local user = expect.ok(app.users.put_identity(pseudo.token,
    { username = "bond007", email = "bond@mi6.co.uk", password = PASSWORD }))
  expect.equal(user.emailAddressVerified, false)
  local mail = expect.length(app.outbox.emails(), 1)[1]
  expect.equal(mail.kind, "verification")
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login("bond@mi6.co.uk", PASSWORD))
  expect.ok(app.users.login("bond007", PASSWORD))
  expect.ok(app.users.verify_email(user.userID, mail.code))
  expect.ok(app.users.login("bond@mi6.co.uk", PASSWORD))
end)

scenario("with phone verification on, a new phone is texted a code and logs in once verified", function()
  local app = understudy.kii{ phone_verification = true }
  local pseudo = expect.ok(app.users.register_pseudo())
  local user = expect.ok(app.users.put_identity(pseudo.token,
    { username = "bond007", phone = "+819012345678", password = PASSWORD }))
  expect.equal(user.phoneNumberVerified, false)
  local sms = expect.length(app.outbox.sms(), 1)[1]
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login("+819012345678", PASSWORD))
  expect.ok(app.users.verify_phone(user.userID, sms.code))
  expect.ok(app.users.login("+819012345678", PASSWORD))
end)

scenario("put_identity follows the version 1 sign-up combinations (fine point 10)", function()
  local app = understudy.kii{ email_verification = true, phone_verification = true }
  local pseudo = expect.ok(app.users.register_pseudo())
  local INVALID = { status = 400, code = "INVALID_INPUT_DATA" }
  expect.error(INVALID, app.users.put_identity(pseudo.token, { email = "bond@mi6.co.uk", password = PASSWORD }))
  expect.error(INVALID, app.users.put_identity(pseudo.token, { phone = "+819012345678", password = PASSWORD }))
  expect.error(INVALID, app.users.put_identity(pseudo.token,
    { email = "bond@mi6.co.uk", phone = "+819012345678", password = PASSWORD }))
  app.settings.email_verification = false
  expect.ok(app.users.put_identity(pseudo.token, { email = "bond@mi6.co.uk", password = PASSWORD }))
end)

scenario("a phone as the only identifier needs phone verification off", function()
  local app = understudy.kii{ phone_verification = true }
  local pseudo = expect.ok(app.users.register_pseudo())
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" },
    app.users.put_identity(pseudo.token, { phone = "+819012345678", password = PASSWORD }))
  expect.ok(app.users.put_identity(pseudo.token, { email = "bond@mi6.co.uk", password = PASSWORD }))
end)

scenario("put_identity without fields keeps the custom fields; with fields replaces them by the merge rule", function()
  local app = understudy.kii()
  local a = expect.ok(app.users.register_pseudo{ score = 10, level = "gold" })
  local kept = expect.ok(app.users.put_identity(a.token, { username = "alice", password = PASSWORD }))
  expect.equal(kept.score, 10)
  expect.equal(kept.level, "gold")
  local b = expect.ok(app.users.register_pseudo{ score = 10, level = "gold" })
  local replaced = expect.ok(app.users.put_identity(b.token,
    { username = "bob", password = PASSWORD, fields = { score = 20, displayName = "Bob" } }))
  expect.equal(replaced.score, 20)
  expect.is_nil(replaced.level, "a custom field not sent is deleted")
  expect.equal(replaced.displayName, "Bob")
end)

scenario("put_identity checks in order: WRONG_TOKEN, INVALID_STATUS, INVALID_INPUT_DATA, PASSWORD_TOO_SHORT, USER_ALREADY_EXISTS", function()
  local app = understudy.kii()
  local taken = expect.ok(app.users.register{ username = "taken", email = "taken@example.com", phone = "+819011112222",
                                               password = PASSWORD })
  local pseudo = expect.ok(app.users.register_pseudo())
  -- 403 WRONG_TOKEN: a token that is not live, whatever else is wrong
  expect.error({ status = 403, code = "WRONG_TOKEN" }, app.users.put_identity("nope", { password = "x" }))
  -- 409 INVALID_STATUS: the user already has a password (before the identity's own checks)
  expect.error({ status = 409, code = "INVALID_STATUS" }, app.users.put_identity(taken.token, { password = "x" }))
  -- 400 INVALID_INPUT_DATA: bad formats, no identifier, no password; before PASSWORD_TOO_SHORT
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "loginName" },
    app.users.put_identity(pseudo.token, { username = "x!", password = "x" }))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "emailAddress" },
    app.users.put_identity(pseudo.token, { email = "not-an-email", password = "x" }))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "country" },
    app.users.put_identity(pseudo.token, { phone = "09012345678", password = "x" }))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "emailAddress" },
    app.users.put_identity(pseudo.token, { username = "bond007", password = PASSWORD, fields = { emailAddress = "a@b.c" } }))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.users.put_identity(pseudo.token, { password = "x" }))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "password" },
    app.users.put_identity(pseudo.token, { username = "taken" }))
  -- 400 PASSWORD_TOO_SHORT before USER_ALREADY_EXISTS
  expect.error({ status = 400, code = "PASSWORD_TOO_SHORT" }, app.users.put_identity(pseudo.token, { username = "taken", password = "x" }))
  -- 409 USER_ALREADY_EXISTS naming the field
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName" },
    app.users.put_identity(pseudo.token, { username = "TAKEN", password = PASSWORD }))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "emailAddress" },
    app.users.put_identity(pseudo.token, { email = "Taken@example.com", password = PASSWORD }))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "phoneNumber" },
    app.users.put_identity(pseudo.token, { phone = "+819011112222", password = PASSWORD }))
  -- nothing changed
  local still = expect.ok(app.users.me(pseudo.token))
  expect.equal(still.hasPassword, false)
  expect.is_nil(still.loginName)
end)

scenario("put_identity a second time answers 409 INVALID_STATUS", function()
  local app = understudy.kii()
  local pseudo = expect.ok(app.users.register_pseudo())
  expect.ok(app.users.put_identity(pseudo.token, { username = "bond007", password = PASSWORD }))
  expect.error({ status = 409, code = "INVALID_STATUS" },
    app.users.put_identity(pseudo.token, { username = "other", password = PASSWORD }))
end)

scenario("users.delete of a pseudo user ends its token", function()
  local app = understudy.kii()
  local pseudo = expect.ok(app.users.register_pseudo())
  expect.ok(app.users.delete(pseudo.userID))
  expect.error({ status = 403, code = "WRONG_TOKEN" }, app.users.me(pseudo.token))
  expect.error({ status = 403, code = "WRONG_TOKEN" },
    app.users.put_identity(pseudo.token, { username = "bond007", password = PASSWORD }))
  expect.equal(app.users.count(), 0)
end)

scenario("faults: a faulted register_pseudo or put_identity changes nothing; when(args) sees args.identity", function()
  local app = understudy.kii()
  local fault = app.faults.inject{ op = "users.register_pseudo", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
  expect.error({ status = 503 }, app.users.register_pseudo())
  expect.equal(app.users.count(), 0)
  fault:remove()
  local pseudo = expect.ok(app.users.register_pseudo())
  app.faults.inject{ op = "users.put_identity", status = 500, code = "UNDEFINED_ERROR",
                     when = function(args) return args.identity.username == "blocked" end }
  expect.error({ status = 500 }, app.users.put_identity(pseudo.token, { username = "blocked", password = PASSWORD }))
  expect.equal(expect.ok(app.users.me(pseudo.token)).hasPassword, false)
  expect.ok(app.users.put_identity(pseudo.token, { username = "allowed", password = PASSWORD }))
end)

scenario("misuse raises: a non-table identity or fields, an unknown identity field", function()
  local app = understudy.kii()
  local pseudo = expect.ok(app.users.register_pseudo())
  expect.fails(function() app.users.put_identity(pseudo.token, "bond007") end, "identity")
  expect.fails(function() app.users.put_identity(pseudo.token, { username = "a", password = "b", fields = 3 }) end, "identity.fields")
  expect.fails(function() app.users.put_identity(pseudo.token, { user = "a", password = "b" }) end, "unknown field")
  expect.fails(function() app.users.register_pseudo("x") end, "fields")
end)
