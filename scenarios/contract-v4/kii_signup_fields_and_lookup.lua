-- Kii: sign-up fields, other users' records, the administrator's view, the MFA grant (contract v4)
--
-- app.users.register{ ..., displayName?, locale?, fields? }: stored at sign-up; every later read shows them.
--   A field breaking its rule: 400 INVALID_INPUT_DATA naming it, after the version 1 field checks and before
--   the uniqueness checks (choice). fields may not hold the sign-up's own names or reserved names.
-- app.admin.token() (console) -> an application-administrator access token
-- app.users.lookup(identifier, token) -> the full record for the user's own token and an administrator token;
--   { userID, loginName?, displayName? } for another user's token (the full record with expose_full_user_data)
--   errors in order: fault; 401 UNAUTHORIZED (never issued); 403 WRONG_TOKEN (stopped working); 404 USER_NOT_FOUND
-- app.users.login_mfa{ totp_code | recovery_code } -> never succeeds: 400 invalid_grant "The MFA code is not valid"
--   (choice: no MFA enrolment is emulated)

local PASSWORD = "123ABC"

scenario("displayName, locale and custom fields are stored at sign-up and shown by every read", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = "alice", password = PASSWORD, displayName = "Alice A.",
                                             locale = "ja-JP", fields = { age = 41, vip = true, team = "blue" } })
  expect.equal(user.displayName, "Alice A.")
  expect.equal(user.locale, "ja-JP")
  expect.equal(user.age, 41)
  expect.equal(user.vip, true)
  expect.equal(user.team, "blue")
  for _, read in ipairs({ app.users.find("alice"), expect.ok(app.users.get(user.userID)), expect.ok(app.users.me(user.token)) }) do
    expect.equal(read.displayName, "Alice A.")
    expect.equal(read.locale, "ja-JP")
    expect.equal(read.age, 41)
  end
  local session = expect.ok(app.users.login("alice", PASSWORD))
  expect.equal(session.user.team, "blue")
end)

scenario("(choice) a sign-up field breaking its rule is INVALID_INPUT_DATA after the v1 field checks, before uniqueness", function()
  local app = understudy.kii()
  expect.ok(app.users.register{ username = "taken", password = PASSWORD })
  -- a v1 field check (the password) comes first
  expect.error({ status = 400, code = "PASSWORD_TOO_SHORT" },
    app.users.register{ username = "taken", password = "123", displayName = string.rep("x", 51) })
  -- then the sign-up fields, before the username is found taken
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "displayName" },
    app.users.register{ username = "taken", password = PASSWORD, displayName = string.rep("x", 51) })
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "displayName" },
    app.users.register{ username = "bob", password = PASSWORD, displayName = "" })
  expect.ok(app.users.register{ username = "bob", password = PASSWORD, displayName = string.rep("é", 50) })
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS" },
    app.users.register{ username = "taken", password = PASSWORD, displayName = "fine" })
end)

scenario("fields may not hold the sign-up's own names or reserved names", function()
  local app = understudy.kii()
  for _, name in ipairs({ "loginName", "emailAddress", "phoneNumber", "password", "displayName", "country", "locale",
                          "userID", "internalUserID", "_secret", "hasPassword", "thirdPartyAccounts",
                          "emailAddressVerified", "phoneNumberVerified", "token" }) do
    expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = name },
      app.users.register{ username = "carol", password = PASSWORD, fields = { [name] = "x" } })
  end
  expect.is_nil(app.users.find("carol"))
  expect.fails(function() app.users.register{ username = "carol", password = PASSWORD, fields = { nested = {} } } end, "fields")
end)

scenario("lookup: the user's own token and an administrator token see the full record", function()
  local app = understudy.kii()
  local alice = expect.ok(app.users.register{ username = "alice", email = "alice@example.com", password = PASSWORD,
                                              displayName = "Alice", fields = { team = "blue" } })
  local own = expect.ok(app.users.lookup(alice.userID, alice.token))
  expect.equal(own.emailAddress, "alice@example.com")
  expect.equal(own.team, "blue")
  local admin = app.admin.token()
  local full = expect.ok(app.users.lookup("LOGIN_NAME:alice", admin))
  expect.equal(full.emailAddress, "alice@example.com")
  expect.equal(full.team, "blue")
end)

scenario("lookup: another user's token sees only userID, loginName and displayName, those the user has", function()
  local app = understudy.kii()
  local alice = expect.ok(app.users.register{ username = "alice", email = "alice@example.com", password = PASSWORD,
                                              displayName = "Alice", fields = { team = "blue" } })
  local bob = expect.ok(app.users.register{ email = "bob@example.com", password = PASSWORD })
  expect.equal(expect.ok(app.users.lookup("alice", bob.token)),
    { userID = alice.userID, loginName = "alice", displayName = "Alice" })
  expect.equal(expect.ok(app.users.lookup("EMAIL:bob@example.com", alice.token)), { userID = bob.userID })
  app.settings.expose_full_user_data = true
  expect.equal(expect.ok(app.users.lookup("alice", bob.token)).team, "blue")
end)

scenario("lookup checks the fault, then the token, then the user; an unverified address finds nobody", function()
  local app = understudy.kii{ email_verification = true }
  local alice = expect.ok(app.users.register{ username = "alice", email = "alice@example.com", password = PASSWORD })
  local fault = app.faults.inject{ op = "users.lookup", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE",
                                   when = function(args) return args.identifier == "nobody" end }
  expect.error({ status = 503 }, app.users.lookup("nobody", "never-issued"))
  fault:remove()
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.users.lookup("nobody", "never-issued"))
  local session = expect.ok(app.users.login("alice", PASSWORD))
  expect.ok(app.users.change_password(alice.userID, PASSWORD, "NEWPASS"))
  expect.error({ status = 403, code = "WRONG_TOKEN" }, app.users.lookup("nobody", session.token))
  local live = expect.ok(app.users.login("alice", "NEWPASS")).token
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.lookup("nobody", live))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.lookup("alice@example.com", live))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.lookup("EMAIL:alice@example.com", live))
  expect.equal(expect.ok(app.users.lookup("alice", live)).userID, alice.userID)
end)

scenario("(choice) the mfa grant is always refused: 400 invalid_grant, after the fault", function()
  local app = understudy.kii()
  local err = expect.error({ status = 400, code = "invalid_grant" }, app.users.login_mfa{ totp_code = "123456" })
  expect.equal(err.message, "The MFA code is not valid")
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login_mfa{ recovery_code = "abcd-efgh" })
  local fault = app.faults.inject{ op = "users.login_mfa", status = 500, code = "UNDEFINED_ERROR",
                                   when = function(args) return args.totp_code == "999999" end }
  expect.error({ status = 500 }, app.users.login_mfa{ totp_code = "999999" })
  fault:remove()
  expect.fails(function() app.users.login_mfa{} end, "exactly one")
  expect.fails(function() app.users.login_mfa{ totp_code = "1", recovery_code = "2" } end, "exactly one")
end)
