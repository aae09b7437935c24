-- Written from the contract (version 2) alone, without reading the code, by a blind audit; kept as an acceptance suite.

local function bfails(code, what, r, err)
  assert(r == nil, what .. ": expected nil result, got " .. tostring(r))
  assert(type(err) == "table" and err.code == code, what .. ": expected " .. code .. ", got "
    .. tostring(err and err.code) .. " (" .. tostring(err and err.message) .. ")")
end

local function kfails(status, code, what, r, err)
  assert(r == nil, what .. ": expected nil result, got " .. tostring(r))
  assert(type(err) == "table" and err.status == status and err.code == code, what .. ": expected " .. status .. " "
    .. code .. ", got " .. tostring(err and err.status) .. " " .. tostring(err and err.code)
    .. " (" .. tostring(err and err.message) .. ")")
end

local function last(l) return l[#l] end

local function kalice(settings)
  local app = understudy.kii(settings)
  local u = assert(app.users.register{ username = "alice", email = "alice@example.com", phone = "+12015550123", password = "secret1" })
  return app, u
end

local function kpin(app)
  assert(app.users.request_password_reset("LOGIN_NAME:alice", "SMS_PIN"))
  return last(app.outbox.sms()).code
end

-- Backendless -----------------------------------------------------------------------------------

scenario("edge bl: reset_password accepts the bare token of the link (link_or_token)", function()
  local app = understudy.backendless()
  assert(app.users.register{ email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob@example.com"))
  local link = last(app.outbox.emails()).link
  local token = link:match("([^/=?&]+)$")
  assert(token and token ~= link, "could not take a token from " .. link)
  local r, err = app.users.reset_password(token, "new-pass")
  assert(r == true, "bare token should be accepted: " .. tostring(err and err.code))
  assert(app.users.login("bob@example.com", "new-pass"))
  bfails(3092, "link after its token was used", app.users.reset_password(link, "x-pass"))
end)

scenario("edge bl: a recovery link of a deleted user answers 3092", function()
  local app = understudy.backendless()
  local u = assert(app.users.register{ email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob@example.com"))
  local link = last(app.outbox.emails()).link
  assert(app.users.delete(u.objectId))
  assert(app.users.register{ email = "bob@example.com", password = "fresh-pass" })
  bfails(3092, "link of a deleted user", app.users.reset_password(link, "new-pass"))
  assert(app.users.login("bob@example.com", "fresh-pass"), "the new user's password is untouched")
end)

scenario("edge bl: a deleted user's token stays dead after the identity is re-registered", function()
  local app = understudy.backendless()
  local u = assert(app.users.register{ email = "bob@example.com", password = "pw1" })
  local s = assert(app.users.login("bob@example.com", "pw1"))
  assert(app.users.delete(u.objectId))
  local u2 = assert(app.users.register{ email = "bob@example.com", password = "pw1" })
  bfails(3064, "old token on the new user", app.users.update(u2.objectId, { name = "x" }, s.token))
end)

scenario("edge bl: update to one's own email in another case is not 3018", function()
  local app = understudy.backendless()
  local u = assert(app.users.register{ email = "bob@example.com", password = "pw1" })
  local s = assert(app.users.login("bob@example.com", "pw1"))
  local r, err = app.users.update(u.objectId, { email = "Bob@Example.com" }, s.token)
  assert(r, "own identity in another case: " .. tostring(err and err.code))
end)

scenario("edge bl: update can change the password with dynamic_properties off", function()
  local app = understudy.backendless{ dynamic_properties = false }
  local u = assert(app.users.register{ email = "bob@example.com", password = "pw1" })
  local s = assert(app.users.login("bob@example.com", "pw1"))
  assert(app.users.update(u.objectId, { password = "pw2" }, s.token))
  assert(app.users.login("bob@example.com", "pw2"), "password is not a dynamic property")
end)

scenario("edge bl: temporary password recovery when recovery is switched off later answers 3101", function()
  local app = understudy.backendless{ password_recovery = "temporary" }
  assert(app.users.register{ email = "bob@example.com", password = "pw1" })
  app.settings.password_recovery = false
  bfails(3101, "switched off", app.users.restore_password("bob@example.com"))
  assert(app.users.login("bob@example.com", "pw1"), "password unchanged")
end)

scenario("edge bl: ignored props alone do not create a lastLogin or change created", function()
  local app = understudy.backendless()
  local u = assert(app.users.register{ email = "bob@example.com", password = "pw1" })
  local s = assert(app.users.login("bob@example.com", "pw1"))
  local r = assert(app.users.update(u.objectId, { created = 0 }, s.token))
  assert(r.created == u.created and math.type(r.created) == "integer")
end)

-- Kii -------------------------------------------------------------------------------------------

scenario("edge kii: the same password with a wrong PIN answers INVALID_INPUT_DATA (before the PIN check)", function()
  local app, u = kalice()
  local pin = kpin(app)
  local wrong = (pin == "000000") and "111111" or "000000"
  kfails(400, "INVALID_INPUT_DATA", "wrong PIN + same password", app.users.complete_password_reset(u.userID, wrong, "secret1"))
end)

scenario("edge kii: the same password with an expired PIN answers INVALID_INPUT_DATA", function()
  local app, u = kalice()
  local pin = kpin(app)
  app.clock.advance(99999)
  kfails(400, "INVALID_INPUT_DATA", "expired + same password", app.users.complete_password_reset(u.userID, pin, "secret1"))
end)

scenario("edge kii: a short password with an expired PIN answers PASSWORD_TOO_SHORT", function()
  local app, u = kalice()
  local pin = kpin(app)
  app.clock.advance(99999)
  kfails(400, "PASSWORD_TOO_SHORT", "expired + short", app.users.complete_password_reset(u.userID, pin, "ab"))
end)

scenario("edge kii: a deleted user's PIN does not work for a new user with the same name", function()
  local app, u = kalice()
  local pin = kpin(app)
  assert(app.users.delete(u.userID))
  local u2 = assert(app.users.register{ username = "alice", phone = "+12015550123", password = "other1" })
  kfails(403, "INVALID_VERIFICATION_CODE", "stale PIN", app.users.complete_password_reset(u2.userID, pin, "newpass1"))
end)

scenario("edge kii: a deleted user's reset link answers 404", function()
  local app, u = kalice()
  assert(app.users.request_password_reset(u.userID))
  local link = last(app.outbox.emails()).link
  assert(app.users.delete(u.userID))
  kfails(404, "USER_NOT_FOUND", "link of a deleted user", app.users.open_reset_link(link))
end)

scenario("edge kii: the auto-generated password obeys the version 1 password rule", function()
  local app, u = kalice()
  assert(app.users.request_password_reset(u.userID))
  assert(app.users.open_reset_link(last(app.outbox.emails()).link))
  local p = last(app.outbox.emails()).password
  assert(#p >= 4 and #p <= 50 and p:match("^[\32-\126]+$"), "password " .. tostring(p))
end)

scenario("edge kii: the texted new password logs in", function()
  local app, u = kalice()
  assert(app.users.request_password_reset(u.userID, "SMS"))
  assert(app.users.open_reset_link(last(app.outbox.sms()).link))
  local body = last(app.outbox.sms()).body
  local ok = false
  for word in body:gmatch("[\33-\126]+") do
    if understudy.ignore(app.users.login("alice", word)) then ok = true break end
  end
  assert(ok, "no word of the SMS body logs in: " .. body)
end)

scenario("edge kii: an emailed link survives a wrong PIN attempt but not a completed PIN reset", function()
  local app, u = kalice()
  local pin = kpin(app)
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1"))
  assert(app.users.request_password_reset(u.userID))
  local link = last(app.outbox.emails()).link
  assert(app.users.open_reset_link(link) == true)
end)

scenario("edge kii: deleting a user keeps an installation that moved away from them", function()
  local app, a = kalice()
  local b = assert(app.users.register{ username = "bob", password = "secret1" })
  local i = assert(app.installations.register{ user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.installations.register{ user = b.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.users.delete(a.userID))
  local g = app.installations.get(i.installationID)
  assert(g and g.userID == b.userID, "bob's installation must survive alice's deletion")
end)

scenario("edge kii: deleting a user removes installations of every type", function()
  local app, a = kalice()
  local ids = {}
  for _, t in ipairs{ "ANDROID", "IOS", "JPUSH" } do
    ids[#ids + 1] = assert(app.installations.register{ user = a.userID, type = t, token = "t-" .. t }).installationID
  end
  ids[#ids + 1] = assert(app.installations.register{ user = a.userID, type = "MQTT" }).installationID
  assert(app.users.delete(a.userID))
  for _, id in ipairs(ids) do assert(app.installations.get(id) == nil, "left over " .. id) end
end)

scenario("edge kii: a token moved installation can be moved back", function()
  local app, a = kalice()
  local b = assert(app.users.register{ username = "bob", password = "secret1" })
  local i = assert(app.installations.register{ user = a.userID, type = "IOS", token = "apns" })
  assert(app.installations.register{ user = b.userID, type = "IOS", token = "apns" })
  local back = assert(app.installations.register{ user = a.userID, type = "IOS", token = "apns" })
  assert(back.installationID == i.installationID and back.userID == a.userID)
end)

scenario("edge kii: update result and find carry no password", function()
  local app, u = kalice()
  local r = assert(app.users.update(u.userID, { displayName = "A" }))
  assert(r.password == nil, "no password in update result")
  assert(app.users.find("alice").password == nil, "no password in find")
end)

scenario("edge kii: custom fields survive a predefined-only verification of email", function()
  local app = understudy.kii{ email_verification = true }
  local u = assert(app.users.register{ username = "bob", email = "bob@example.com", password = "secret1" })
  assert(app.users.update(u.userID, { shoe = 41 }))
  assert(app.users.verify_email(u.userID, last(app.outbox.emails()).code))
  assert(app.users.find("bob").shoe == 41, "verification must not drop custom fields")
end)

scenario("edge kii: update with a new email and custom fields in one call", function()
  local app, u = kalice()
  local r = assert(app.users.update(u.userID, { emailAddress = "al@example.com", shoe = 3 }))
  assert(r.emailAddress == "al@example.com" and r.shoe == 3)
  local f = app.users.find("EMAIL:al@example.com") or app.users.find("al@example.com")
  assert(f and f.shoe == 3)
end)

scenario("edge kii: a disabled user's change_password does not revive tokens on re-enable", function()
  local app, u = kalice()
  assert(app.users.set_disabled(u.userID, true))
  assert(app.users.set_disabled(u.userID, false))
  local s = assert(app.users.login("alice", "secret1"))
  assert(app.users.me(s.token), "fresh token works")
  local m, err = app.users.me(u.token)
  assert(m == nil and err.status == 403 and err.code == "WRONG_TOKEN")
end)

scenario("edge kii: request_password_reset default method is EMAIL even when a phone exists", function()
  local app, u = kalice()
  local s0 = #app.outbox.sms()
  assert(app.users.request_password_reset(u.userID))
  assert(#app.outbox.sms() == s0, "no SMS for the default method")
  assert(last(app.outbox.emails()).kind == "password_reset")
end)
