-- Kii: the account after sign-up (change_password, update, delete, set_disabled, me)
--
-- * change_password(userID, old, new): 404 USER_NOT_FOUND, 401 WRONG_PASSWORD, 400 PASSWORD_TOO_SHORT;
--   every token of the user stops working.
-- * update(userID, fields): Kii's merge rule: custom fields not sent are DELETED, predefined fields
--   (displayName, country, locale, emailAddress, phoneNumber) not sent stay. userID, password,
--   internalUserID and names starting with "_" are refused (400 INVALID_INPUT_DATA); loginName only
--   unchanged; a taken email or phone is 409 USER_ALREADY_EXISTS.
-- * delete(userID): tokens stop, identifiers are free again, installations are removed.
-- * set_disabled(userID, disabled): login fails (400 invalid_grant), verification and reset answer
--   401 USER_DISABLED, tokens stop and stay stopped after re-enabling.
-- * me(token): the user, or nil, { status = 403, code = "WRONG_TOKEN" }.

local WRONG_TOKEN = { status = 403, code = "WRONG_TOKEN" }

local function bond(app)
  return expect.ok(app.users.register{ username = "bond007", email = "bond@mi6.co.uk", password = "martini" })
end

scenario("me returns the user of a live token", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.equal(expect.ok(app.users.me(user.token)).userID, user.userID)
  expect.error(WRONG_TOKEN, app.users.me("not-a-token"))
end)

scenario("changing the password ends every token, and only the new password logs in", function()
  local app = understudy.kii()
  local user = bond(app)
  local session = expect.ok(app.users.login("bond007", "martini"))
  expect.equal(app.users.change_password(user.userID, "martini", "shaken"), true)
  expect.error(WRONG_TOKEN, app.users.me(user.token))
  expect.error(WRONG_TOKEN, app.users.me(session.token))
  expect.error("invalid_grant", app.users.login("bond007", "martini"))
  local fresh = expect.ok(app.users.login("bond007", "shaken"))
  expect.ok(app.users.me(fresh.token))
end)

scenario("change_password checks in order: user, old password, new password", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.change_password("nobody", "x", "y"))
  expect.error({ status = 401, code = "WRONG_PASSWORD" }, app.users.change_password(user.userID, "wrong", "y"))
  expect.error({ status = 400, code = "PASSWORD_TOO_SHORT" }, app.users.change_password(user.userID, "martini", "abc"))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" },
    app.users.change_password(user.userID, "martini", string.rep("p", 51)))
  expect.ok(app.users.me(user.token))
end)

scenario("update: custom fields not sent are deleted, predefined ones stay", function()
  local app = understudy.kii()
  local user = bond(app)
  local updated = expect.ok(app.users.update(user.userID, { displayName = "James", score = 7, rank = "commander" }))
  expect.equal(updated.displayName, "James")
  expect.equal(updated.score, 7)
  updated = expect.ok(app.users.update(user.userID, { rank = "captain" }))
  expect.equal(updated.displayName, "James")
  expect.is_nil(updated.score)
  expect.equal(updated.rank, "captain")
  expect.equal(app.users.find("bond007").rank, "captain")
  expect.equal(expect.ok(app.users.me(user.token)).rank, "captain")
end)

scenario("update refuses userID, password, internalUserID, _names and a changed loginName", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.ok(app.users.update(user.userID, { score = 1 }))
  for _, fields in ipairs{ { userID = "x" }, { password = "secret" }, { internalUserID = 1 }, { _secret = "x" },
                           { loginName = "bond008" } } do
    local name = next(fields)
    expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = name }, app.users.update(user.userID, fields))
  end
  expect.equal(app.users.find("bond007").score, 1, "a refused update changes nothing")
  expect.ok(app.users.update(user.userID, { loginName = "BOND007" }))
end)

scenario("update of email: taken is 409; with verification on it waits like change_email", function()
  local app = understudy.kii{ email_verification = true }
  local user = bond(app)
  expect.ok(app.users.register{ username = "moneypenny", email = "m@mi6.co.uk", password = "martini" })
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "emailAddress" },
    app.users.update(user.userID, { emailAddress = "m@mi6.co.uk" }))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "emailAddress" },
    app.users.update(user.userID, { emailAddress = "not an email" }))
  local updated = expect.ok(app.users.update(user.userID, { emailAddress = "007@mi6.co.uk" }))
  expect.equal(updated.pendingEmailAddress, "007@mi6.co.uk")
  expect.equal(app.outbox.last_email().to, "007@mi6.co.uk")
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.update("nobody", {}))
end)

scenario("deleting a user ends tokens, frees the username and address, removes installations", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.ok(app.installations.register{ user = user.userID, type = "ANDROID", token = "fcm-1" })
  expect.equal(app.users.delete(user.userID), true)
  expect.error(WRONG_TOKEN, app.users.me(user.token))
  expect.is_nil(app.users.find("bond007"))
  expect.length(app.installations.list(user.userID), 0)
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.delete(user.userID))
  expect.ok(bond(app))
  expect.equal(app.users.count(), 1)
end)

scenario("a disabled user cannot log in, verify or reset; tokens stay dead after re-enabling", function()
  local app = understudy.kii{ email_verification = true }
  local user = bond(app)
  local code = app.outbox.last_email().code
  local disabled = expect.ok(app.users.set_disabled(user.userID, true))
  expect.equal(disabled.disabled, true)
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login("bond007", "martini"))
  expect.error({ status = 401, code = "USER_DISABLED" }, app.users.verify_email(user.userID, code))
  expect.error({ status = 401, code = "USER_DISABLED" }, app.users.request_password_reset(user.userID))
  expect.error(WRONG_TOKEN, app.users.me(user.token))
  expect.ok(app.users.set_disabled(user.userID, false))
  expect.error(WRONG_TOKEN, app.users.me(user.token))
  expect.ok(app.users.login("bond007", "martini"))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.users.set_disabled("nobody", true))
end)

scenario("set_disabled needs a boolean", function()
  local app = understudy.kii()
  local user = bond(app)
  expect.fails(function() app.users.set_disabled(user.userID, "yes") end, "disabled")
end)
