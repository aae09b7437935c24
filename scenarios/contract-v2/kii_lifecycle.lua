-- Written from the contract (version 2) alone, without reading the code, by a blind audit; kept as an acceptance suite.

local function fails(status, code, what, r, err)
  what = what or ""
  assert(r == nil, what .. ": expected nil result, got " .. tostring(r))
  assert(type(err) == "table", what .. ": expected an error table, got " .. tostring(err))
  assert(err.status == status and err.code == code, what .. ": expected " .. status .. " " .. code .. ", got "
    .. tostring(err.status) .. " " .. tostring(err.code) .. " (" .. tostring(err.message) .. ")")
  assert(type(err.message) == "string", what .. ": message must be a string")
end

local function raises(fn, fname, argname)
  local ok, e = pcall(fn)
  assert(not ok, "expected a Lua error for misuse of " .. fname)
  local s = tostring(e)
  assert(s:find(fname, 1, true), "error should name the function '" .. fname .. "': " .. s)
  if argname then
    assert(s:find(argname, 1, true), "error should name the argument '" .. argname .. "': " .. s)
  end
end

local function reg(app, props)
  local u, err = app.users.register(props)
  assert(u, "register failed: " .. tostring(err and err.code) .. " " .. tostring(err and err.message))
  return u
end

local function dead(app, token, what)
  local u, err = app.users.me(token)
  fails(403, "WRONG_TOKEN", what or "token should be dead", u, err)
end

local function alive(app, token, what)
  local u, err = app.users.me(token)
  assert(u, (what or "token should be alive") .. ": " .. tostring(err and err.code))
  return u
end

local function last(list) return list[#list], #list end

-- a user with username, email and phone; verification off (addresses count as verified)
local function alice(settings)
  local app = understudy.kii(settings)
  local u = reg(app, { username = "alice", email = "alice@example.com", phone = "+12015550123", password = "secret1" })
  return app, u
end

local function pin_for(app, id)
  assert(app.users.request_password_reset(id or "LOGIN_NAME:alice", "SMS_PIN"))
  local sms = last(app.outbox.sms())
  assert(sms and type(sms.code) == "string", "SMS_PIN reset should text a code (string)")
  return sms.code
end

------------------------------------------------------------------------------------------------
-- settings
------------------------------------------------------------------------------------------------

scenario("kii: sms_reset_pin_ttl defaults to 3600", function()
  local app = understudy.kii()
  assert(app.settings.sms_reset_pin_ttl == 3600, "got " .. tostring(app.settings.sms_reset_pin_ttl))
end)

scenario("kii: sms_reset_pin_ttl can be set in the constructor", function()
  local app = understudy.kii{ sms_reset_pin_ttl = 60 }
  assert(app.settings.sms_reset_pin_ttl == 60)
end)

scenario("kii: sms_reset_pin_ttl with a wrong type raises", function()
  local app = understudy.kii()
  local ok = pcall(function() app.settings.sms_reset_pin_ttl = "an hour" end)
  assert(not ok, "a string ttl should raise")
end)

------------------------------------------------------------------------------------------------
-- me
------------------------------------------------------------------------------------------------

scenario("kii: me returns the user for a live token", function()
  local app, u = alice()
  local m = alive(app, u.token)
  assert(m.userID == u.userID and m.loginName == "alice")
end)

scenario("kii: me with an unknown token answers 403 WRONG_TOKEN", function()
  local app = alice()
  dead(app, "no-such-token")
end)

scenario("kii: me with a wrong argument type raises", function()
  local app = alice()
  raises(function() app.users.me(42) end, "me", "token")
end)

------------------------------------------------------------------------------------------------
-- request_password_reset
------------------------------------------------------------------------------------------------

scenario("kii: request_password_reset defaults to EMAIL with a link", function()
  local app, u = alice()
  local r, err = app.users.request_password_reset(u.userID)
  assert(r == true, "expected true: " .. tostring(err and err.code))
  local e = last(app.outbox.emails())
  assert(e, "an email expected")
  assert(e.to == "alice@example.com", "to " .. tostring(e.to))
  assert(e.kind == "password_reset", "kind " .. tostring(e.kind))
  assert(type(e.subject) == "string" and #e.subject > 0, "subject")
  assert(type(e.link) == "string" and #e.link > 0, "link")
end)

scenario("kii: request_password_reset with method EMAIL explicitly", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID, "EMAIL") == true)
  assert(last(app.outbox.emails()).kind == "password_reset")
end)

scenario("kii: request_password_reset by EMAIL: identifier", function()
  local app = alice()
  assert(app.users.request_password_reset("EMAIL:alice@example.com") == true)
  assert(last(app.outbox.emails()).to == "alice@example.com")
end)

scenario("kii: request_password_reset by LOGIN_NAME: identifier", function()
  local app = alice()
  assert(app.users.request_password_reset("LOGIN_NAME:alice") == true)
end)

scenario("kii: request_password_reset by PHONE: identifier", function()
  local app = alice()
  assert(app.users.request_password_reset("PHONE:+12015550123", "SMS") == true)
end)

scenario("kii: request_password_reset SMS texts a link", function()
  local app = alice()
  local before = #app.outbox.sms()
  assert(app.users.request_password_reset("LOGIN_NAME:alice", "SMS") == true)
  local s, n = last(app.outbox.sms())
  assert(n == before + 1, "one SMS")
  assert(s.to == "+12015550123", "to " .. tostring(s.to))
  assert(type(s.body) == "string", "body")
  assert(type(s.link) == "string" and #s.link > 0, "SMS method should carry a link")
end)

scenario("kii: request_password_reset SMS_PIN texts a digit-string code", function()
  local app = alice()
  assert(app.users.request_password_reset("LOGIN_NAME:alice", "SMS_PIN") == true)
  local s = last(app.outbox.sms())
  assert(s.to == "+12015550123")
  assert(type(s.code) == "string" and s.code:match("^%d+$"), "PIN should be a string of digits: " .. tostring(s.code))
  assert(type(s.body) == "string")
end)

scenario("kii: request_password_reset of an unknown user answers 404 USER_NOT_FOUND", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown email", app.users.request_password_reset("EMAIL:nobody@example.com"))
  fails(404, "USER_NOT_FOUND", "unknown login", app.users.request_password_reset("LOGIN_NAME:nobody"))
  fails(404, "USER_NOT_FOUND", "unknown id", app.users.request_password_reset("00000000-0000-0000-0000-000000000000"))
end)

scenario("kii: request_password_reset of a disabled user answers 401 USER_DISABLED", function()
  local app, u = alice()
  assert(app.users.set_disabled(u.userID, true))
  fails(401, "USER_DISABLED", "disabled", app.users.request_password_reset(u.userID))
end)

scenario("kii: USER_DISABLED is checked before INVALID_STATUS", function()
  local app = understudy.kii()
  local u = reg(app, { username = "bob", password = "secret1" })
  assert(app.users.set_disabled(u.userID, true))
  fails(401, "USER_DISABLED", "disabled + no email", app.users.request_password_reset(u.userID, "EMAIL"))
end)

scenario("kii: EMAIL reset without an email answers 409 INVALID_STATUS", function()
  local app = understudy.kii()
  local u = reg(app, { username = "bob", phone = "+12015550124", password = "secret1" })
  fails(409, "INVALID_STATUS", "no email", app.users.request_password_reset(u.userID, "EMAIL"))
end)

scenario("kii: SMS reset without a phone answers 409 INVALID_STATUS", function()
  local app = understudy.kii()
  local u = reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  fails(409, "INVALID_STATUS", "no phone", app.users.request_password_reset(u.userID, "SMS"))
  fails(409, "INVALID_STATUS", "no phone, PIN", app.users.request_password_reset(u.userID, "SMS_PIN"))
end)

scenario("kii: EMAIL: names a user whose email is not verified; reset answers INVALID_STATUS", function()
  local app = understudy.kii{ email_verification = true }
  reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  fails(409, "INVALID_STATUS", "unverified email", app.users.request_password_reset("EMAIL:bob@example.com", "EMAIL"))
end)

scenario("kii: EMAIL: of an unverified address names the user for an SMS reset too", function()
  local app = understudy.kii{ email_verification = true }
  reg(app, { username = "bob", email = "bob@example.com", phone = "+12015550124", password = "secret1" })
  assert(app.users.request_password_reset("EMAIL:bob@example.com", "SMS_PIN") == true,
    "unverified email still names the user; phone verification is off")
end)

scenario("kii: EMAIL reset works after the email is verified", function()
  local app = understudy.kii{ email_verification = true }
  local u = reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  local v = last(app.outbox.emails())
  assert(v.kind == "verification" and v.code, "verification email")
  assert(app.users.verify_email(u.userID, v.code))
  assert(app.users.request_password_reset("EMAIL:bob@example.com") == true)
end)

scenario("kii: PHONE: of an unverified phone; SMS reset answers INVALID_STATUS", function()
  local app = understudy.kii{ phone_verification = true }
  reg(app, { username = "bob", phone = "+12015550124", password = "secret1" })
  fails(409, "INVALID_STATUS", "unverified phone", app.users.request_password_reset("PHONE:+12015550124", "SMS"))
  fails(409, "INVALID_STATUS", "unverified phone PIN", app.users.request_password_reset("PHONE:+12015550124", "SMS_PIN"))
end)

scenario("kii: SMS_PIN reset works after the phone is verified", function()
  local app = understudy.kii{ phone_verification = true }
  local u = reg(app, { username = "bob", phone = "+12015550124", password = "secret1" })
  local v = last(app.outbox.sms())
  assert(app.users.verify_phone(u.userID, v.code))
  assert(app.users.request_password_reset("PHONE:+12015550124", "SMS_PIN") == true)
end)

scenario("kii: request_password_reset with a wrong identifier type raises", function()
  local app = alice()
  raises(function() app.users.request_password_reset(nil) end, "request_password_reset", "identifier")
end)

scenario("kii: request_password_reset with a wrong method type raises", function()
  local app = alice()
  raises(function() app.users.request_password_reset("LOGIN_NAME:alice", 3) end, "request_password_reset", "method")
end)

scenario("kii: a failed request sends nothing", function()
  local app = understudy.kii()
  local u = reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  local e0, s0 = #app.outbox.emails(), #app.outbox.sms()
  assert(not understudy.ignore(app.users.request_password_reset(u.userID, "SMS")))
  assert(not understudy.ignore(app.users.request_password_reset("LOGIN_NAME:nobody")))
  assert(#app.outbox.emails() == e0 and #app.outbox.sms() == s0, "nothing sent")
end)

------------------------------------------------------------------------------------------------
-- complete_password_reset
------------------------------------------------------------------------------------------------

scenario("kii: complete_password_reset with the PIN sets the new password", function()
  local app, u = alice()
  local pin = pin_for(app)
  local r, err = app.users.complete_password_reset("LOGIN_NAME:alice", pin, "newpass1")
  assert(r == true, "expected true: " .. tostring(err and err.code))
  assert(app.users.login("alice", "newpass1"), "new password works")
  fails(400, "invalid_grant", "old password", app.users.login("alice", "secret1"))
end)

scenario("kii: complete_password_reset kills every token of the user", function()
  local app, u = alice()
  local s2 = assert(app.users.login("alice", "secret1"))
  local pin = pin_for(app)
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1"))
  dead(app, u.token, "registration token")
  dead(app, s2.token, "login token")
end)

scenario("kii: complete_password_reset leaves another user's token alive", function()
  local app, u = alice()
  local b = reg(app, { username = "bob", password = "secret1" })
  assert(app.users.complete_password_reset(u.userID, pin_for(app), "newpass1"))
  alive(app, b.token)
end)

scenario("kii: complete_password_reset by PHONE: and EMAIL: identifiers", function()
  local app = alice()
  local pin = pin_for(app, "PHONE:+12015550123")
  assert(app.users.complete_password_reset("PHONE:+12015550123", pin, "newpass1") == true)
  pin = pin_for(app, "EMAIL:alice@example.com")
  assert(app.users.complete_password_reset("EMAIL:alice@example.com", pin, "newpass2") == true)
  assert(app.users.login("alice", "newpass2"))
end)

scenario("kii: a used PIN answers INVALID_VERIFICATION_CODE", function()
  local app, u = alice()
  local pin = pin_for(app)
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1"))
  fails(403, "INVALID_VERIFICATION_CODE", "used PIN", app.users.complete_password_reset(u.userID, pin, "newpass2"))
end)

scenario("kii: a wrong PIN answers 403 INVALID_VERIFICATION_CODE", function()
  local app, u = alice()
  local pin = pin_for(app)
  local wrong = (pin == "000000") and "111111" or "000000"
  fails(403, "INVALID_VERIFICATION_CODE", "wrong PIN", app.users.complete_password_reset(u.userID, wrong, "newpass1"))
  assert(app.users.login("alice", "secret1"), "password unchanged")
  alive(app, u.token, "token unchanged after a wrong PIN")
end)

scenario("kii: a wrong PIN does not use the PIN up", function()
  local app, u = alice()
  local pin = pin_for(app)
  local wrong = (pin == "000000") and "111111" or "000000"
  for _ = 1, 3 do
    assert(not understudy.ignore(app.users.complete_password_reset(u.userID, wrong, "newpass1")))
  end
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1") == true, "the right PIN still works")
end)

scenario("kii: completing without a request answers INVALID_VERIFICATION_CODE", function()
  local app, u = alice()
  fails(403, "INVALID_VERIFICATION_CODE", "no request", app.users.complete_password_reset(u.userID, "123456", "newpass1"))
end)

scenario("kii: completing after an EMAIL request (no PIN) answers INVALID_VERIFICATION_CODE", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID, "EMAIL"))
  fails(403, "INVALID_VERIFICATION_CODE", "EMAIL request", app.users.complete_password_reset(u.userID, "123456", "newpass1"))
end)

scenario("kii: an empty PIN answers 400 INVALID_INPUT_DATA", function()
  local app, u = alice()
  pin_for(app)
  fails(400, "INVALID_INPUT_DATA", "empty PIN", app.users.complete_password_reset(u.userID, "", "newpass1"))
end)

scenario("kii: a new password equal to the old answers 400 INVALID_INPUT_DATA", function()
  local app, u = alice()
  local pin = pin_for(app)
  fails(400, "INVALID_INPUT_DATA", "same password", app.users.complete_password_reset(u.userID, pin, "secret1"))
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1"), "the refused call did not use the PIN")
end)

scenario("kii: a short new password answers 400 PASSWORD_TOO_SHORT", function()
  local app, u = alice()
  local pin = pin_for(app)
  fails(400, "PASSWORD_TOO_SHORT", "3 chars", app.users.complete_password_reset(u.userID, pin, "abc"))
end)

scenario("kii: a 4-character new password is long enough", function()
  local app, u = alice()
  local pin = pin_for(app)
  assert(app.users.complete_password_reset(u.userID, pin, "abcd") == true)
end)

scenario("kii: INVALID_INPUT_DATA is checked before PASSWORD_TOO_SHORT", function()
  local app, u = alice()
  pin_for(app)
  fails(400, "INVALID_INPUT_DATA", "empty PIN + short", app.users.complete_password_reset(u.userID, "", "ab"))
end)

scenario("kii: PASSWORD_TOO_SHORT is checked before INVALID_VERIFICATION_CODE", function()
  local app, u = alice()
  local pin = pin_for(app)
  local wrong = (pin == "000000") and "111111" or "000000"
  fails(400, "PASSWORD_TOO_SHORT", "wrong PIN + short", app.users.complete_password_reset(u.userID, wrong, "ab"))
end)

scenario("kii: PASSWORD_TOO_SHORT without any request", function()
  local app, u = alice()
  fails(400, "PASSWORD_TOO_SHORT", "no request + short", app.users.complete_password_reset(u.userID, "123456", "ab"))
end)

scenario("kii: complete_password_reset of an unknown user answers 404", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown", app.users.complete_password_reset("LOGIN_NAME:nobody", "123456", "newpass1"))
end)

scenario("kii: USER_NOT_FOUND is checked before INVALID_INPUT_DATA", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown + empty", app.users.complete_password_reset("LOGIN_NAME:nobody", "", "ab"))
end)

scenario("kii: complete_password_reset of a disabled user answers 401 USER_DISABLED", function()
  local app, u = alice()
  local pin = pin_for(app)
  assert(app.users.set_disabled(u.userID, true))
  fails(401, "USER_DISABLED", "disabled", app.users.complete_password_reset(u.userID, pin, "newpass1"))
end)

scenario("kii: USER_DISABLED is checked before INVALID_INPUT_DATA", function()
  local app, u = alice()
  assert(app.users.set_disabled(u.userID, true))
  fails(401, "USER_DISABLED", "disabled + empty", app.users.complete_password_reset(u.userID, "", "ab"))
end)

scenario("kii: a PIN exactly sms_reset_pin_ttl seconds old still works", function()
  local app, u = alice()
  local pin = pin_for(app)
  app.clock.advance(3600)
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1") == true, "3600 s old PIN should work")
end)

scenario("kii: a PIN one second past the ttl answers 410 PIN_CODE_EXPIRED", function()
  local app, u = alice()
  local pin = pin_for(app)
  app.clock.advance(3601)
  fails(410, "PIN_CODE_EXPIRED", "expired", app.users.complete_password_reset(u.userID, pin, "newpass1"))
  assert(app.users.login("alice", "secret1"), "password unchanged")
end)

scenario("kii: a custom sms_reset_pin_ttl is honoured at its boundary", function()
  local app, u = alice{ sms_reset_pin_ttl = 60 }
  local pin = pin_for(app)
  app.clock.advance(60)
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1") == true, "60 s old")
  pin = pin_for(app)
  app.clock.advance(61)
  fails(410, "PIN_CODE_EXPIRED", "61 s old", app.users.complete_password_reset(u.userID, pin, "newpass2"))
end)

scenario("kii: sms_reset_pin_ttl changed via app.settings", function()
  local app, u = alice()
  app.settings.sms_reset_pin_ttl = 10
  local pin = pin_for(app)
  app.clock.advance(11)
  fails(410, "PIN_CODE_EXPIRED", "11 s old, ttl 10", app.users.complete_password_reset(u.userID, pin, "newpass1"))
end)

scenario("kii: INVALID_VERIFICATION_CODE is checked before PIN_CODE_EXPIRED", function()
  local app, u = alice()
  local pin = pin_for(app)
  local wrong = (pin == "000000") and "111111" or "000000"
  app.clock.advance(7200)
  fails(403, "INVALID_VERIFICATION_CODE", "wrong + expired", app.users.complete_password_reset(u.userID, wrong, "newpass1"))
end)

scenario("kii: a new request after expiry gives a working PIN", function()
  local app, u = alice()
  pin_for(app)
  app.clock.advance(4000)
  local pin = pin_for(app)
  assert(app.users.complete_password_reset(u.userID, pin, "newpass1") == true)
end)

scenario("kii: a new request replaces the earlier PIN", function()
  local app, u = alice()
  local p1 = pin_for(app)
  local p2 = pin_for(app)
  if p1 ~= p2 then
    fails(403, "INVALID_VERIFICATION_CODE", "old PIN", app.users.complete_password_reset(u.userID, p1, "newpass1"))
  end
  assert(app.users.complete_password_reset(u.userID, p2, "newpass1") == true, "new PIN works")
end)

scenario("kii: a new request restarts the PIN's lifetime", function()
  local app, u = alice()
  pin_for(app)
  app.clock.advance(3000)
  local p2 = pin_for(app)
  app.clock.advance(3000)
  assert(app.users.complete_password_reset(u.userID, p2, "newpass1") == true, "second PIN is 3000 s old")
end)

scenario("kii: an EMAIL request replaces an earlier PIN", function()
  local app, u = alice()
  local pin = pin_for(app)
  assert(app.users.request_password_reset(u.userID, "EMAIL"))
  fails(403, "INVALID_VERIFICATION_CODE", "replaced PIN", app.users.complete_password_reset(u.userID, pin, "newpass1"))
end)

scenario("kii: complete_password_reset with a non-string new_password raises", function()
  local app, u = alice()
  raises(function() app.users.complete_password_reset(u.userID, "1234", {}) end, "complete_password_reset", "new_password")
end)

scenario("kii: complete_password_reset with a non-string pin raises", function()
  local app, u = alice()
  raises(function() app.users.complete_password_reset(u.userID, {}, "newpass1") end, "complete_password_reset", "pin")
end)

------------------------------------------------------------------------------------------------
-- open_reset_link
------------------------------------------------------------------------------------------------

scenario("kii: opening the emailed link sets and emails a new password", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID, "EMAIL"))
  local link = last(app.outbox.emails()).link
  local r, err = app.users.open_reset_link(link)
  assert(r == true, "expected true: " .. tostring(err and err.code))
  local e = last(app.outbox.emails())
  assert(e.kind == "password_reset_done", "kind " .. tostring(e.kind))
  assert(e.to == "alice@example.com")
  assert(type(e.password) == "string" and #e.password >= 4, "password in the email")
  assert(app.users.login("alice", e.password), "emailed password works")
  fails(400, "invalid_grant", "old password", app.users.login("alice", "secret1"))
end)

scenario("kii: opening the link kills every token", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID))
  assert(app.users.open_reset_link(last(app.outbox.emails()).link))
  dead(app, u.token)
end)

scenario("kii: opening the texted link texts a new password", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID, "SMS"))
  local link = last(app.outbox.sms()).link
  local before = #app.outbox.sms()
  assert(app.users.open_reset_link(link) == true)
  local s, n = last(app.outbox.sms())
  assert(n == before + 1, "a new SMS with the password")
  assert(s.to == "+12015550123")
  dead(app, u.token)
  fails(400, "invalid_grant", "old password", app.users.login("alice", "secret1"))
end)

scenario("kii: a used link answers 404 USER_NOT_FOUND", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID))
  local link = last(app.outbox.emails()).link
  assert(app.users.open_reset_link(link))
  fails(404, "USER_NOT_FOUND", "used link", app.users.open_reset_link(link))
end)

scenario("kii: an unknown link answers 404 USER_NOT_FOUND", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown link", app.users.open_reset_link("https://example.com/reset/nothing"))
end)

scenario("kii: a new request replaces the earlier link", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID))
  local l1 = last(app.outbox.emails()).link
  assert(app.users.request_password_reset(u.userID))
  local l2 = last(app.outbox.emails()).link
  assert(l1 ~= l2, "a new link expected")
  fails(404, "USER_NOT_FOUND", "replaced link", app.users.open_reset_link(l1))
  assert(app.users.open_reset_link(l2) == true)
end)

scenario("kii: a PIN request replaces an earlier link", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID))
  local l1 = last(app.outbox.emails()).link
  pin_for(app)
  fails(404, "USER_NOT_FOUND", "replaced by PIN", app.users.open_reset_link(l1))
end)

scenario("kii: open_reset_link with a wrong argument type raises", function()
  local app = alice()
  raises(function() app.users.open_reset_link(nil) end, "open_reset_link", "link")
end)

------------------------------------------------------------------------------------------------
-- change_password
------------------------------------------------------------------------------------------------

scenario("kii: change_password sets the new password and kills tokens", function()
  local app, u = alice()
  local r, err = app.users.change_password(u.userID, "secret1", "newpass1")
  assert(r == true, "expected true: " .. tostring(err and err.code))
  dead(app, u.token)
  assert(app.users.login("alice", "newpass1"))
  fails(400, "invalid_grant", "old", app.users.login("alice", "secret1"))
end)

scenario("kii: a token obtained after change_password works", function()
  local app, u = alice()
  assert(app.users.change_password(u.userID, "secret1", "newpass1"))
  local s = assert(app.users.login("alice", "newpass1"))
  alive(app, s.token)
end)

scenario("kii: change_password of an unknown user answers 404", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown", app.users.change_password("00000000-0000-0000-0000-000000000000", "secret1", "newpass1"))
end)

scenario("kii: change_password with a wrong old password answers 401 WRONG_PASSWORD", function()
  local app, u = alice()
  fails(401, "WRONG_PASSWORD", "wrong old", app.users.change_password(u.userID, "wrong", "newpass1"))
  alive(app, u.token, "a refused change keeps the token")
end)

scenario("kii: WRONG_PASSWORD is checked before PASSWORD_TOO_SHORT", function()
  local app, u = alice()
  fails(401, "WRONG_PASSWORD", "wrong + short", app.users.change_password(u.userID, "wrong", "ab"))
end)

scenario("kii: USER_NOT_FOUND is checked before WRONG_PASSWORD", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown", app.users.change_password("00000000-0000-0000-0000-000000000000", "wrong", "ab"))
end)

scenario("kii: change_password to a short password answers 400 PASSWORD_TOO_SHORT", function()
  local app, u = alice()
  fails(400, "PASSWORD_TOO_SHORT", "short", app.users.change_password(u.userID, "secret1", "abc"))
  assert(app.users.login("alice", "secret1"))
end)

scenario("kii: change_password to a password with a non-ASCII character answers INVALID_INPUT_DATA", function()
  local app, u = alice()
  fails(400, "INVALID_INPUT_DATA", "non-ascii", app.users.change_password(u.userID, "secret1", "pässwort"))
end)

scenario("kii: change_password to a 51-character password answers INVALID_INPUT_DATA", function()
  local app, u = alice()
  fails(400, "INVALID_INPUT_DATA", "51 chars", app.users.change_password(u.userID, "secret1", string.rep("a", 51)))
  assert(app.users.change_password(u.userID, "secret1", string.rep("a", 50)) == true, "50 chars fit")
end)

scenario("kii: change_password with a wrong argument type raises", function()
  local app, u = alice()
  raises(function() app.users.change_password(u.userID, nil, "newpass1") end, "change_password", "old_password")
end)

------------------------------------------------------------------------------------------------
-- update
------------------------------------------------------------------------------------------------

scenario("kii: update sets predefined fields and returns the user", function()
  local app, u = alice()
  local r, err = app.users.update(u.userID, { displayName = "Alice A.", country = "US", locale = "en-US" })
  assert(r, "update: " .. tostring(err and err.code) .. " " .. tostring(err and err.message))
  assert(r.userID == u.userID and r.displayName == "Alice A." and r.country == "US" and r.locale == "en-US")
  local f = app.users.find("alice")
  assert(f.displayName == "Alice A." and f.locale == "en-US", "find sees the fields")
end)

scenario("kii: custom fields appear in find, me and update results", function()
  local app, u = alice()
  local r = assert(app.users.update(u.userID, { shoe = 38, team = "red" }))
  assert(r.shoe == 38 and r.team == "red", "update result")
  local f = app.users.find("alice")
  assert(f.shoe == 38 and f.team == "red", "find result")
  local m = alive(app, u.token)
  assert(m.shoe == 38 and m.team == "red", "me result")
end)

scenario("kii: custom fields not sent are deleted (merge rule)", function()
  local app, u = alice()
  assert(app.users.update(u.userID, { shoe = 38, team = "red" }))
  local r = assert(app.users.update(u.userID, { team = "blue" }))
  assert(r.team == "blue", "sent field updated")
  assert(r.shoe == nil, "custom field not sent should be deleted")
  assert(app.users.find("alice").shoe == nil, "deleted in the stored record")
end)

scenario("kii: predefined fields not sent stay", function()
  local app, u = alice()
  assert(app.users.update(u.userID, { displayName = "Al", locale = "fr" }))
  local r = assert(app.users.update(u.userID, { shoe = 1 }))
  assert(r.displayName == "Al" and r.locale == "fr", "predefined fields stay")
  assert(r.emailAddress == "alice@example.com" and r.phoneNumber == "+12015550123", "addresses stay")
end)

scenario("kii: an empty update deletes every custom field", function()
  local app, u = alice()
  assert(app.users.update(u.userID, { shoe = 38 }))
  local r = assert(app.users.update(u.userID, {}))
  assert(r.shoe == nil and r.loginName == "alice")
end)

for _, name in ipairs{ "userID", "password", "internalUserID", "_secret" } do
  scenario("kii: update refuses the field " .. name .. " with INVALID_INPUT_DATA", function()
    local app, u = alice()
    fails(400, "INVALID_INPUT_DATA", name, app.users.update(u.userID, { [name] = "x", displayName = "X" }))
    assert(app.users.find("alice").displayName == nil, "refused update changes nothing")
  end)
end

scenario("kii: loginName may be sent unchanged", function()
  local app, u = alice()
  local r, err = app.users.update(u.userID, { loginName = "alice", displayName = "A" })
  assert(r and r.loginName == "alice", "unchanged loginName accepted: " .. tostring(err and err.code))
end)

scenario("kii: a changed loginName is refused with INVALID_INPUT_DATA", function()
  local app, u = alice()
  fails(400, "INVALID_INPUT_DATA", "changed loginName", app.users.update(u.userID, { loginName = "alicia" }))
  assert(app.users.find("alice"), "still alice")
end)

scenario("kii: update of an unknown user answers 404", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown", app.users.update("00000000-0000-0000-0000-000000000000", { displayName = "x" }))
end)

scenario("kii: USER_NOT_FOUND is checked before INVALID_INPUT_DATA in update", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown + bad", app.users.update("00000000-0000-0000-0000-000000000000", { password = "x" }))
end)

scenario("kii: INVALID_INPUT_DATA is checked before USER_ALREADY_EXISTS in update", function()
  local app, u = alice()
  reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  fails(400, "INVALID_INPUT_DATA", "bad + taken", app.users.update(u.userID, { emailAddress = "bob@example.com", _x = 1 }))
end)

scenario("kii: update to a taken email answers 409 USER_ALREADY_EXISTS", function()
  local app, u = alice()
  reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  local r, err = app.users.update(u.userID, { emailAddress = "bob@example.com" })
  fails(409, "USER_ALREADY_EXISTS", "taken email", r, err)
  assert(err.field == "emailAddress", "field " .. tostring(err.field))
end)

scenario("kii: update to a taken phone answers 409 USER_ALREADY_EXISTS", function()
  local app, u = alice()
  reg(app, { username = "bob", phone = "+12015550124", password = "secret1" })
  local r, err = app.users.update(u.userID, { phoneNumber = "+12015550124" })
  fails(409, "USER_ALREADY_EXISTS", "taken phone", r, err)
  assert(err.field == "phoneNumber", "field " .. tostring(err.field))
end)

scenario("kii: update with a malformed email answers INVALID_INPUT_DATA", function()
  local app, u = alice()
  fails(400, "INVALID_INPUT_DATA", "bad email", app.users.update(u.userID, { emailAddress = "not an email" }))
end)

scenario("kii: update with a landline phone answers INVALID_INPUT_DATA", function()
  local app, u = alice()
  fails(400, "INVALID_INPUT_DATA", "landline", app.users.update(u.userID, { phoneNumber = "+442079460000" }))
end)

scenario("kii: update to a new email without verification takes effect at once", function()
  local app, u = alice()
  local r = assert(app.users.update(u.userID, { emailAddress = "alicia@example.com" }))
  assert(r.emailAddress == "alicia@example.com")
  assert(app.users.login("alicia@example.com", "secret1"), "login with the new email")
  assert(app.users.find("alice@example.com") == nil, "old email freed")
end)

scenario("kii: update to a new email with verification on waits for verification", function()
  local app = understudy.kii{ email_verification = true }
  local u = reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  assert(app.users.verify_email(u.userID, last(app.outbox.emails()).code))
  local n = #app.outbox.emails()
  local r, err = app.users.update(u.userID, { emailAddress = "robert@example.com" })
  assert(r, "update: " .. tostring(err and err.code))
  assert(#app.outbox.emails() == n + 1, "a verification email for the new address")
  local v = last(app.outbox.emails())
  assert(v.kind == "verification" and v.to == "robert@example.com")
  assert(app.users.login("bob@example.com", "secret1"), "old email still in force")
  assert(app.users.verify_email(u.userID, v.code))
  assert(app.users.login("robert@example.com", "secret1"), "new email after verification")
end)

scenario("kii: update to a new phone without verification takes effect at once", function()
  local app, u = alice()
  local r = assert(app.users.update(u.userID, { phoneNumber = "+12015550125" }))
  assert(r.phoneNumber == "+12015550125")
  assert(app.users.login("+12015550125", "secret1"))
end)

scenario("kii: update does not kill the user's token", function()
  local app, u = alice()
  assert(app.users.update(u.userID, { displayName = "A" }))
  alive(app, u.token)
end)

scenario("kii: update with a non-table fields raises", function()
  local app, u = alice()
  raises(function() app.users.update(u.userID, "displayName") end, "update", "fields")
end)

scenario("kii: update with a non-string userID raises", function()
  local app = alice()
  raises(function() app.users.update(7, { displayName = "x" }) end, "update", "userID")
end)

------------------------------------------------------------------------------------------------
-- delete
------------------------------------------------------------------------------------------------

scenario("kii: delete returns true and the user is gone", function()
  local app, u = alice()
  local n = app.users.count()
  assert(app.users.delete(u.userID) == true)
  assert(app.users.find("alice") == nil and app.users.find(u.userID) == nil, "find after delete")
  assert(app.users.count() == n - 1)
end)

scenario("kii: delete kills the user's tokens", function()
  local app, u = alice()
  assert(app.users.delete(u.userID))
  dead(app, u.token)
end)

scenario("kii: delete frees username, email and phone", function()
  local app, u = alice()
  assert(app.users.delete(u.userID))
  local u2, err = app.users.register{ username = "alice", email = "alice@example.com", phone = "+12015550123", password = "other1" }
  assert(u2, "identifiers should be free: " .. tostring(err and err.code) .. " " .. tostring(err and err.field))
  assert(u2.userID ~= u.userID)
end)

scenario("kii: login after delete answers invalid_grant", function()
  local app, u = alice()
  assert(app.users.delete(u.userID))
  fails(400, "invalid_grant", "deleted", app.users.login("alice", "secret1"))
end)

scenario("kii: delete of an unknown user answers 404 and twice answers 404", function()
  local app, u = alice()
  fails(404, "USER_NOT_FOUND", "unknown", app.users.delete("00000000-0000-0000-0000-000000000000"))
  assert(app.users.delete(u.userID))
  fails(404, "USER_NOT_FOUND", "twice", app.users.delete(u.userID))
end)

scenario("kii: delete removes the user's installations", function()
  local app, u = alice()
  local i = assert(app.installations.register{ user = u.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.users.delete(u.userID))
  assert(app.installations.get(i.installationID) == nil, "installation removed")
  local l = app.installations.list(u.userID)
  assert(type(l) == "table" and #l == 0, "no installations listed")
end)

scenario("kii: delete with a wrong argument type raises", function()
  local app = alice()
  raises(function() app.users.delete(false) end, "delete", "userID")
end)

------------------------------------------------------------------------------------------------
-- set_disabled
------------------------------------------------------------------------------------------------

scenario("kii: set_disabled returns the user", function()
  local app, u = alice()
  local r, err = app.users.set_disabled(u.userID, true)
  assert(type(r) == "table" and r.userID == u.userID, "user expected: " .. tostring(err and err.code))
end)

scenario("kii: a disabled user cannot log in (400 invalid_grant)", function()
  local app, u = alice()
  assert(app.users.set_disabled(u.userID, true))
  fails(400, "invalid_grant", "disabled login", app.users.login("alice", "secret1"))
end)

scenario("kii: disabling kills tokens", function()
  local app, u = alice()
  assert(app.users.set_disabled(u.userID, true))
  dead(app, u.token)
end)

scenario("kii: re-enabling lets the user log in but does not bring old tokens back", function()
  local app, u = alice()
  assert(app.users.set_disabled(u.userID, true))
  assert(app.users.set_disabled(u.userID, false))
  dead(app, u.token, "old token after re-enable")
  local s = assert(app.users.login("alice", "secret1"))
  alive(app, s.token)
end)

scenario("kii: a disabled user cannot verify an email (401 USER_DISABLED)", function()
  local app = understudy.kii{ email_verification = true }
  local u = reg(app, { username = "bob", email = "bob@example.com", password = "secret1" })
  local code = last(app.outbox.emails()).code
  assert(app.users.set_disabled(u.userID, true))
  fails(401, "USER_DISABLED", "verify email", app.users.verify_email(u.userID, code))
end)

scenario("kii: a disabled user cannot verify a phone (401 USER_DISABLED)", function()
  local app = understudy.kii{ phone_verification = true }
  local u = reg(app, { username = "bob", phone = "+12015550124", password = "secret1" })
  local code = last(app.outbox.sms()).code
  assert(app.users.set_disabled(u.userID, true))
  fails(401, "USER_DISABLED", "verify phone", app.users.verify_phone(u.userID, code))
end)

scenario("kii: set_disabled of an unknown user answers 404", function()
  local app = alice()
  fails(404, "USER_NOT_FOUND", "unknown", app.users.set_disabled("00000000-0000-0000-0000-000000000000", true))
end)

scenario("kii: set_disabled with a non-boolean raises", function()
  local app, u = alice()
  raises(function() app.users.set_disabled(u.userID, "yes") end, "set_disabled", "disabled")
end)

scenario("kii: disabling one user leaves another's token alive", function()
  local app, u = alice()
  local b = reg(app, { username = "bob", password = "secret1" })
  assert(app.users.set_disabled(u.userID, true))
  alive(app, b.token)
end)

------------------------------------------------------------------------------------------------
-- faults
------------------------------------------------------------------------------------------------

local function kfault(app, op, when)
  return app.faults.inject{ op = op, status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE", when = when }
end

local function is503(what, r, err) fails(503, "RESOURCE_TEMPORARILY_UNAVAILABLE", what, r, err) end

scenario("kii: fault users.request_password_reset sees identifier and method", function()
  local app = alice()
  local got = {}
  local f = kfault(app, "users.request_password_reset", function(a) got = { a.identifier, a.method }; return true end)
  is503("injected", app.users.request_password_reset("LOGIN_NAME:alice", "SMS_PIN"))
  assert(got[1] == "LOGIN_NAME:alice" and got[2] == "SMS_PIN", "args " .. tostring(got[1]) .. " " .. tostring(got[2]))
  assert(#app.outbox.sms() == 0, "nothing sent")
  assert(f.hits == 1)
end)

scenario("kii: fault users.complete_password_reset sees identifier, pin and new_password", function()
  local app = alice()
  local pin = pin_for(app)
  local got = {}
  local f = kfault(app, "users.complete_password_reset", function(a) got = { a.identifier, a.pin, a.new_password }; return true end)
  is503("injected", app.users.complete_password_reset("LOGIN_NAME:alice", pin, "newpass1"))
  assert(got[1] == "LOGIN_NAME:alice" and got[2] == pin and got[3] == "newpass1", "args")
  f:remove()
  assert(app.users.complete_password_reset("LOGIN_NAME:alice", pin, "newpass1") == true, "PIN not used by the fault")
end)

scenario("kii: fault users.open_reset_link sees link", function()
  local app, u = alice()
  assert(app.users.request_password_reset(u.userID))
  local link = last(app.outbox.emails()).link
  local got
  local f = kfault(app, "users.open_reset_link", function(a) got = a.link; return true end)
  is503("injected", app.users.open_reset_link(link))
  assert(got == link, "args.link " .. tostring(got))
  alive(app, u.token, "a failed open changes nothing")
end)

scenario("kii: fault users.change_password sees userID and new_password", function()
  local app, u = alice()
  local got = {}
  kfault(app, "users.change_password", function(a) got = { a.userID, a.new_password }; return true end)
  is503("injected", app.users.change_password(u.userID, "secret1", "newpass1"))
  assert(got[1] == u.userID and got[2] == "newpass1", "args")
  alive(app, u.token)
end)

scenario("kii: fault users.update sees userID and fields", function()
  local app, u = alice()
  local got = {}
  kfault(app, "users.update", function(a) got = { a.userID, a.fields and a.fields.displayName }; return true end)
  is503("injected", app.users.update(u.userID, { displayName = "Z" }))
  assert(got[1] == u.userID and got[2] == "Z", "args")
end)

scenario("kii: fault users.delete sees userID and deletes nothing", function()
  local app, u = alice()
  local got
  kfault(app, "users.delete", function(a) got = a.userID; return true end)
  is503("injected", app.users.delete(u.userID))
  assert(got == u.userID)
  assert(app.users.find("alice"), "still there")
end)

scenario("kii: fault users.set_disabled sees userID", function()
  local app, u = alice()
  local got
  kfault(app, "users.set_disabled", function(a) got = a.userID; return true end)
  is503("injected", app.users.set_disabled(u.userID, true))
  assert(got == u.userID)
  alive(app, u.token, "not disabled")
end)

scenario("kii: fault users.me", function()
  local app, u = alice()
  local f = app.faults.inject{ op = "users.me", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE", times = 1 }
  is503("injected me", app.users.me(u.token))
  alive(app, u.token, "times = 1")
  assert(f.hits == 1)
end)
