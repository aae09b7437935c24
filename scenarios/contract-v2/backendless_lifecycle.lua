-- Written from the contract (version 2) alone, without reading the code, by a blind audit; kept as an acceptance suite.

local function fails(code, what, r, err)
  assert(r == nil, (what or "") .. ": expected nil result, got " .. tostring(r))
  assert(type(err) == "table", (what or "") .. ": expected an error table, got " .. tostring(err))
  assert(err.code == code, (what or "") .. ": expected code " .. tostring(code) .. ", got " .. tostring(err.code)
    .. " (" .. tostring(err.message) .. ")")
  assert(math.type(err.code) == "integer", (what or "") .. ": code must be an integer")
  assert(type(err.message) == "string", (what or "") .. ": message must be a string")
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

local function new(settings)
  local app = understudy.backendless(settings)
  return app
end

local function reg(app, props)
  local u, err = app.users.register(props)
  assert(u, "register failed: " .. tostring(err and err.code) .. " " .. tostring(err and err.message))
  return u
end

local function login(app, id, pw)
  local s, err = app.users.login(id, pw)
  assert(s, "login failed: " .. tostring(err and err.code) .. " " .. tostring(err and err.message))
  return s
end

local function last_email(app)
  local es = app.outbox.emails()
  return es[#es], #es
end

local function count_kind(app, kind)
  local n = 0
  for _, e in ipairs(app.outbox.emails()) do if e.kind == kind then n = n + 1 end end
  return n
end

local function token_alive(app, token)
  -- logout needs a live session: 3064 otherwise. Use it as the probe (it ends the session).
  local ok, err = app.users.logout(token)
  if ok == true then return true end
  assert(err and err.code == 3064, "logout probe: unexpected error " .. tostring(err and err.code))
  return false
end

------------------------------------------------------------------------------------------------
-- password_recovery setting
------------------------------------------------------------------------------------------------

scenario("bl: password_recovery defaults to link", function()
  local app = new()
  assert(app.settings.password_recovery == "link", "default should be \"link\", got " .. tostring(app.settings.password_recovery))
end)

scenario("bl: password_recovery can be set in the constructor", function()
  local app = new{ password_recovery = "temporary" }
  assert(app.settings.password_recovery == "temporary")
end)

scenario("bl: password_recovery can be set to false via app.settings", function()
  local app = new()
  app.settings.password_recovery = false
  assert(app.settings.password_recovery == false)
end)

scenario("bl: password_recovery with a wrong type raises", function()
  local app = new()
  local ok = pcall(function() app.settings.password_recovery = 42 end)
  assert(not ok, "a number for password_recovery should raise")
end)

------------------------------------------------------------------------------------------------
-- restore_password
------------------------------------------------------------------------------------------------

scenario("bl: restore_password link mode returns true and sends a recovery email with a link", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  local before = #app.outbox.emails()
  local r, err = app.users.restore_password("bob@example.com")
  assert(r == true, "expected true, got " .. tostring(r) .. " " .. tostring(err and err.code))
  local e, n = last_email(app)
  assert(n == before + 1, "exactly one email expected")
  assert(e.to == "bob@example.com", "to: " .. tostring(e.to))
  assert(e.kind == "password_recovery", "kind: " .. tostring(e.kind))
  assert(type(e.subject) == "string" and #e.subject > 0, "subject must be a non-empty string")
  assert(type(e.link) == "string" and #e.link > 0, "link mode email must carry a link")
  assert(e.password == nil, "link mode email must not carry a password")
end)

scenario("bl: restore_password link mode keeps the old password working", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob@example.com"))
  assert(app.users.login("bob@example.com", "old-pass"), "old password should still work until the link is used")
end)

scenario("bl: reset_password with the link sets the new password and kills the old one", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob@example.com"))
  local link = last_email(app).link
  local r, err = app.users.reset_password(link, "new-pass")
  assert(r == true, "reset_password: " .. tostring(err and err.code))
  fails(3003, "old password after reset", app.users.login("bob@example.com", "old-pass"))
  assert(app.users.login("bob@example.com", "new-pass"), "new password should work")
end)

scenario("bl: reset_password keeps the user's sessions", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  local s = login(app, "bob@example.com", "old-pass")
  assert(app.users.restore_password("bob@example.com"))
  assert(app.users.reset_password(last_email(app).link, "new-pass"))
  assert(token_alive(app, s.token), "session should survive a link reset")
end)

scenario("bl: reset_password with a used link answers 3092", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob@example.com"))
  local link = last_email(app).link
  assert(app.users.reset_password(link, "new-pass"))
  fails(3092, "used link", app.users.reset_password(link, "third-pass"))
  assert(app.users.login("bob@example.com", "new-pass"), "a refused reset must not change the password")
end)

scenario("bl: reset_password with an unknown link answers 3092", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  fails(3092, "unknown link", app.users.reset_password("https://nowhere.example/recover/abc", "new-pass"))
end)

scenario("bl: reset_password with an unknown bare token answers 3092", function()
  local app = new()
  fails(3092, "unknown token", app.users.reset_password("not-a-token", "new-pass"))
end)

scenario("bl: temporary mode emails a new password that replaces the old at once", function()
  local app = new{ password_recovery = "temporary" }
  reg(app, { email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob@example.com") == true)
  local e = last_email(app)
  assert(e.kind == "password_recovery", "kind: " .. tostring(e.kind))
  assert(e.to == "bob@example.com")
  assert(type(e.password) == "string" and #e.password > 0, "temporary mode must carry a password")
  fails(3003, "old password after temporary recovery", app.users.login("bob@example.com", "old-pass"))
  assert(app.users.login("bob@example.com", e.password), "emailed password should work")
end)

scenario("bl: temporary mode set after construction works", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  app.settings.password_recovery = "temporary"
  assert(app.users.restore_password("bob@example.com"))
  local e = last_email(app)
  assert(type(e.password) == "string", "temporary password expected")
  assert(app.users.login("bob@example.com", e.password))
end)

scenario("bl: recovery off answers 3101 and sends nothing", function()
  local app = new{ password_recovery = false }
  reg(app, { email = "bob@example.com", password = "old-pass" })
  local before = #app.outbox.emails()
  fails(3101, "recovery off", app.users.restore_password("bob@example.com"))
  assert(#app.outbox.emails() == before, "no email when recovery is off")
end)

scenario("bl: 3101 is checked before 3020", function()
  local app = new{ password_recovery = false }
  fails(3101, "off + unknown", app.users.restore_password("nobody@example.com"))
end)

scenario("bl: restore_password for an unknown identity answers 3020", function()
  local app = new()
  fails(3020, "unknown identity", app.users.restore_password("nobody@example.com"))
  assert(#app.outbox.emails() == 0, "no email for an unknown identity")
end)

scenario("bl: restore_password answers 3025 when the user has no email", function()
  local app = new{ identity = "name" }
  reg(app, { name = "bob", password = "old-pass" })
  fails(3025, "no email", app.users.restore_password("bob"))
end)

scenario("bl: restore_password with identity=name and an email works", function()
  local app = new{ identity = "name" }
  reg(app, { name = "bob", email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob") == true)
  assert(last_email(app).to == "bob@example.com")
end)

scenario("bl: 3020 is checked before 3025", function()
  local app = new{ identity = "name" }
  reg(app, { name = "bob", password = "old-pass" })
  fails(3020, "unknown name", app.users.restore_password("alice"))
end)

scenario("bl: restore_password with a non-string identity raises", function()
  local app = new()
  raises(function() app.users.restore_password({}) end, "restore_password", "identity")
end)

scenario("bl: reset_password with a missing new password raises", function()
  local app = new()
  raises(function() app.users.reset_password("x", nil) end, "reset_password", "new_password")
end)

scenario("bl: reset_password with a non-string link raises", function()
  local app = new()
  raises(function() app.users.reset_password(12, "pw") end, "reset_password")
end)

scenario("bl: a second recovery email in link mode gives a working link", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "old-pass" })
  assert(app.users.restore_password("bob@example.com"))
  assert(app.users.restore_password("bob@example.com"))
  assert(count_kind(app, "password_recovery") == 2, "two recovery emails expected")
  assert(app.users.reset_password(last_email(app).link, "new-pass"))
  assert(app.users.login("bob@example.com", "new-pass"))
end)

------------------------------------------------------------------------------------------------
-- resend_confirmation / confirmation_url
------------------------------------------------------------------------------------------------

scenario("bl: resend_confirmation sends a new confirmation email", function()
  local app = new{ email_confirmation = true }
  reg(app, { email = "bob@example.com", password = "pw1" })
  assert(count_kind(app, "confirmation") == 1, "registration sends one confirmation")
  local r, err = app.users.resend_confirmation("bob@example.com")
  assert(r == true, "expected true, got " .. tostring(err and err.code))
  assert(count_kind(app, "confirmation") == 2, "a second confirmation email expected")
  local e = last_email(app)
  assert(e.to == "bob@example.com" and e.kind == "confirmation")
end)

scenario("bl: resend_confirmation answers 3103 when confirmation is off", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "pw1" })
  fails(3103, "confirmation off", app.users.resend_confirmation("bob@example.com"))
end)

scenario("bl: 3103 is checked before 3104", function()
  local app = new()
  fails(3103, "off + unknown", app.users.resend_confirmation("nobody@example.com"))
end)

scenario("bl: resend_confirmation answers 3104 for an unknown identity", function()
  local app = new{ email_confirmation = true }
  fails(3104, "unknown", app.users.resend_confirmation("nobody@example.com"))
end)

scenario("bl: resend_confirmation answers 3102 when already confirmed", function()
  local app = new{ email_confirmation = true }
  local u = reg(app, { email = "bob@example.com", password = "pw1" })
  assert(app.users.confirm_email(u.objectId))
  local before = #app.outbox.emails()
  fails(3102, "already confirmed", app.users.resend_confirmation("bob@example.com"))
  assert(#app.outbox.emails() == before, "no email when refused")
end)

scenario("bl: confirmation_url returns a link string and sends no email", function()
  local app = new{ email_confirmation = true }
  reg(app, { email = "bob@example.com", password = "pw1" })
  local before = #app.outbox.emails()
  local url, err = app.users.confirmation_url("bob@example.com")
  assert(type(url) == "string" and #url > 0, "expected a string, got " .. tostring(url) .. " " .. tostring(err and err.code))
  assert(#app.outbox.emails() == before, "confirmation_url must not send an email")
end)

scenario("bl: confirmation_url answers 3103 when confirmation is off", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "pw1" })
  fails(3103, "off", app.users.confirmation_url("bob@example.com"))
end)

scenario("bl: confirmation_url answers 3104 for an unknown identity", function()
  local app = new{ email_confirmation = true }
  fails(3104, "unknown", app.users.confirmation_url("nobody@example.com"))
end)

scenario("bl: confirmation_url answers 3102 when already confirmed", function()
  local app = new{ email_confirmation = true }
  local u = reg(app, { email = "bob@example.com", password = "pw1" })
  assert(app.users.confirm_email(u.objectId))
  fails(3102, "confirmed", app.users.confirmation_url("bob@example.com"))
end)

scenario("bl: resend_confirmation with a wrong argument type raises", function()
  local app = new{ email_confirmation = true }
  raises(function() app.users.resend_confirmation(nil) end, "resend_confirmation", "identity")
end)

scenario("bl: confirmation_url with a wrong argument type raises", function()
  local app = new{ email_confirmation = true }
  raises(function() app.users.confirmation_url(true) end, "confirmation_url", "identity")
end)

------------------------------------------------------------------------------------------------
-- get
------------------------------------------------------------------------------------------------

scenario("bl: get returns the user without password", function()
  local app = new()
  local u = reg(app, { email = "bob@example.com", password = "pw1", name = "Bob" })
  local g = app.users.get(u.objectId)
  assert(g, "get should find the user")
  assert(g.objectId == u.objectId and g.email == "bob@example.com" and g.name == "Bob")
  assert(g.password == nil, "password must never be returned")
  assert(g.___class == "Users")
end)

scenario("bl: get of an unknown id returns nil without an error", function()
  local app = new()
  local g, err = app.users.get("AAAAAAAA-0000-0000-0000-000000000000")
  assert(g == nil and err == nil, "expected nil and no error")
end)

scenario("bl: get with a wrong argument type raises", function()
  local app = new()
  raises(function() app.users.get({}) end, "get", "objectId")
end)

------------------------------------------------------------------------------------------------
-- update
------------------------------------------------------------------------------------------------

local function setup_update(settings)
  local app = new(settings)
  local u = reg(app, { email = "bob@example.com", password = "pw1", name = "Bob" })
  local s = login(app, "bob@example.com", "pw1")
  return app, u, s
end

scenario("bl: update returns the user with the changes and get sees them", function()
  local app, u, s = setup_update()
  local r, err = app.users.update(u.objectId, { name = "Robert", age = 42 }, s.token)
  assert(r, "update failed: " .. tostring(err and err.code))
  assert(r.name == "Robert" and r.age == 42 and r.objectId == u.objectId and r.email == "bob@example.com")
  local g = app.users.get(u.objectId)
  assert(g.name == "Robert" and g.age == 42)
end)

scenario("bl: update can change the password and never returns it", function()
  local app, u, s = setup_update()
  local r = assert(app.users.update(u.objectId, { password = "pw2" }, s.token))
  assert(r.password == nil, "password must not be returned")
  fails(3003, "old password", app.users.login("bob@example.com", "pw1"))
  assert(app.users.login("bob@example.com", "pw2"), "new password should work")
end)

scenario("bl: update keeps the session alive", function()
  local app, u, s = setup_update()
  assert(app.users.update(u.objectId, { name = "Rob" }, s.token))
  assert(app.users.update(u.objectId, { name = "Robby" }, s.token), "token should still work after update")
end)

scenario("bl: update with an unknown token answers 3064", function()
  local app, u = setup_update()
  fails(3064, "unknown token", app.users.update(u.objectId, { name = "X" }, "no-such-token"))
  assert(app.users.get(u.objectId).name == "Bob", "refused update changes nothing")
end)

scenario("bl: update with a logged-out token answers 3064", function()
  local app, u, s = setup_update()
  assert(app.users.logout(s.token))
  fails(3064, "ended token", app.users.update(u.objectId, { name = "X" }, s.token))
end)

scenario("bl: 3064 is checked before 3030", function()
  local app = setup_update()
  fails(3064, "bad token + unknown id", app.users.update("AAAAAAAA-0000-0000-0000-000000000000", { name = "X" }, "bad"))
end)

scenario("bl: update of an unknown id with a live token answers 3030", function()
  local app, u, s = setup_update()
  fails(3030, "unknown id", app.users.update("AAAAAAAA-0000-0000-0000-000000000000", { name = "X" }, s.token))
end)

scenario("bl: update with another user's token answers 3029", function()
  local app, u = setup_update()
  reg(app, { email = "eve@example.com", password = "pw1" })
  local es = login(app, "eve@example.com", "pw1")
  fails(3029, "foreign token", app.users.update(u.objectId, { name = "Hacked" }, es.token))
  assert(app.users.get(u.objectId).name == "Bob")
end)

scenario("bl: 3029 is checked before 3040", function()
  local app, u = setup_update()
  reg(app, { email = "eve@example.com", password = "pw1" })
  local es = login(app, "eve@example.com", "pw1")
  fails(3029, "foreign token + bad email", app.users.update(u.objectId, { email = "not-an-email" }, es.token))
end)

scenario("bl: a guest's token cannot update a registered user (3029)", function()
  local app, u = setup_update()
  local g = assert(app.users.guest_login())
  fails(3029, "guest token", app.users.update(u.objectId, { name = "X" }, g.token))
end)

scenario("bl: update with a malformed email answers 3040 when email is the identity", function()
  local app, u, s = setup_update()
  fails(3040, "bad email", app.users.update(u.objectId, { email = "not-an-email" }, s.token))
  assert(app.users.get(u.objectId).email == "bob@example.com")
end)

scenario("bl: update with a malformed email answers 3040 when confirmation is on (identity name)", function()
  local app = new{ identity = "name", email_confirmation = true }
  local u = reg(app, { name = "bob", email = "bob@example.com", password = "pw1" })
  assert(app.users.confirm_email(u.objectId))
  local s = login(app, "bob", "pw1")
  fails(3040, "bad email, confirmation on", app.users.update(u.objectId, { email = "nope" }, s.token))
end)

scenario("bl: a malformed email is accepted when email is neither identity nor confirmed", function()
  local app = new{ identity = "name" }
  local u = reg(app, { name = "bob", password = "pw1" })
  local s = login(app, "bob", "pw1")
  local r, err = app.users.update(u.objectId, { email = "nope" }, s.token)
  assert(r and r.email == "nope", "expected the value to be stored, got " .. tostring(err and err.code))
end)

scenario("bl: update to a taken identity answers 3018", function()
  local app, u, s = setup_update()
  reg(app, { email = "eve@example.com", password = "pw1" })
  fails(3018, "taken email", app.users.update(u.objectId, { email = "eve@example.com" }, s.token))
end)

scenario("bl: update to a taken identity differing in case answers 3018", function()
  local app, u, s = setup_update()
  reg(app, { email = "eve@example.com", password = "pw1" })
  fails(3018, "taken email, case", app.users.update(u.objectId, { email = "EVE@example.com" }, s.token))
end)

scenario("bl: update to a taken name identity answers 3018", function()
  local app = new{ identity = "name" }
  local u = reg(app, { name = "bob", password = "pw1" })
  reg(app, { name = "eve", password = "pw1" })
  local s = login(app, "bob", "pw1")
  fails(3018, "taken name", app.users.update(u.objectId, { name = "eve" }, s.token))
end)

scenario("bl: update keeping one's own identity value is not 3018", function()
  local app, u, s = setup_update()
  local r, err = app.users.update(u.objectId, { email = "bob@example.com", name = "B" }, s.token)
  assert(r, "own identity should be accepted: " .. tostring(err and err.code))
end)

scenario("bl: update to a free identity lets the user log in with it and frees the old one", function()
  local app, u, s = setup_update()
  assert(app.users.update(u.objectId, { email = "robert@example.com" }, s.token))
  assert(app.users.login("robert@example.com", "pw1"), "login with the new identity")
  fails(3003, "old identity", app.users.login("bob@example.com", "pw1"))
  assert(app.users.find("robert@example.com"), "find by the new identity")
  assert(app.users.find("bob@example.com") == nil, "old identity not found")
end)

scenario("bl: 3018 is checked before 3045", function()
  local app, u, s = setup_update()
  reg(app, { email = "eve@example.com", password = "pw1" })
  fails(3018, "taken + empty pw", app.users.update(u.objectId, { email = "eve@example.com", password = "" }, s.token))
end)

scenario("bl: update setting the identity empty answers 3045", function()
  local app = new{ identity = "name" }
  local u = reg(app, { name = "bob", password = "pw1" })
  local s = login(app, "bob", "pw1")
  fails(3045, "empty identity", app.users.update(u.objectId, { name = "" }, s.token))
end)

scenario("bl: update setting the password empty answers 3045", function()
  local app, u, s = setup_update()
  fails(3045, "empty password", app.users.update(u.objectId, { password = "" }, s.token))
  assert(app.users.login("bob@example.com", "pw1"), "password unchanged")
end)

scenario("bl: update setting a required property empty answers 3045", function()
  local app = new{ properties = { nick = { required = true } } }
  local u = reg(app, { email = "bob@example.com", password = "pw1", nick = "bobby" })
  local s = login(app, "bob@example.com", "pw1")
  fails(3045, "empty required", app.users.update(u.objectId, { nick = "" }, s.token))
end)

scenario("bl: 3045 is checked before 8000", function()
  local app = new{ properties = { nick = { max_length = 5 } } }
  local u = reg(app, { email = "bob@example.com", password = "pw1" })
  local s = login(app, "bob@example.com", "pw1")
  fails(3045, "empty pw + long", app.users.update(u.objectId, { password = "", nick = "toolongvalue" }, s.token))
end)

scenario("bl: update with a value over max_length answers 8000", function()
  local app = new{ properties = { nick = { max_length = 5 } } }
  local u = reg(app, { email = "bob@example.com", password = "pw1" })
  local s = login(app, "bob@example.com", "pw1")
  fails(8000, "over max_length", app.users.update(u.objectId, { nick = "abcdef" }, s.token))
end)

scenario("bl: update with a value exactly max_length is accepted", function()
  local app = new{ properties = { nick = { max_length = 5 } } }
  local u = reg(app, { email = "bob@example.com", password = "pw1" })
  local s = login(app, "bob@example.com", "pw1")
  local r, err = app.users.update(u.objectId, { nick = "abcde" }, s.token)
  assert(r and r.nick == "abcde", "5 chars should fit: " .. tostring(err and err.code))
end)

scenario("bl: update with a string over the default max_length 500 answers 8000", function()
  local app, u, s = setup_update()
  fails(8000, "501 chars", app.users.update(u.objectId, { bio = string.rep("x", 501) }, s.token))
  local r = app.users.update(u.objectId, { bio = string.rep("x", 500) }, s.token)
  assert(r, "500 chars should fit")
end)

scenario("bl: update ignores objectId, created, userStatus, ___class and lastLogin", function()
  local app, u, s = setup_update()
  local r, err = app.users.update(u.objectId, {
    objectId = "OTHER-ID", created = 1, userStatus = "DISABLED", ___class = "Hackers", lastLogin = 5,
    name = "Rob" }, s.token)
  assert(r, "update with ignored props should succeed: " .. tostring(err and err.code))
  assert(r.objectId == u.objectId, "objectId ignored")
  assert(r.created == u.created, "created ignored")
  assert(r.userStatus == "ENABLED", "userStatus ignored, got " .. tostring(r.userStatus))
  assert(r.___class == "Users", "___class ignored")
  assert(r.lastLogin ~= 5, "lastLogin ignored")
  assert(r.name == "Rob")
  assert(app.users.login("bob@example.com", "pw1"), "user not disabled by an ignored userStatus")
  assert(app.users.get("OTHER-ID") == nil, "no user under the ignored id")
end)

scenario("bl: update with only ignored props in dynamic_properties=false mode is fine", function()
  local app, u, s = setup_update{ dynamic_properties = false, properties = { name = {} } }
  local r, err = app.users.update(u.objectId, { userStatus = "DISABLED" }, s.token)
  assert(r and r.userStatus == "ENABLED", "ignored: " .. tostring(err and err.code))
end)

scenario("bl: update drops unknown properties when dynamic_properties is off", function()
  local app = new{ dynamic_properties = false, properties = { name = {} } }
  local u = reg(app, { email = "bob@example.com", password = "pw1", name = "Bob" })
  local s = login(app, "bob@example.com", "pw1")
  local r, err = app.users.update(u.objectId, { name = "Rob", shoe = 44 }, s.token)
  assert(r, "unknown property should be dropped, not refused: " .. tostring(err and err.code))
  assert(r.name == "Rob", "known property updated")
  assert(r.shoe == nil, "unknown property dropped from the result")
  assert(app.users.get(u.objectId).shoe == nil, "unknown property not stored")
end)

scenario("bl: update adds new properties when dynamic_properties is on", function()
  local app, u, s = setup_update()
  local r = assert(app.users.update(u.objectId, { shoe = 44 }, s.token))
  assert(r.shoe == 44 and app.users.get(u.objectId).shoe == 44)
end)

scenario("bl: update leaves properties not sent as they are", function()
  local app, u, s = setup_update()
  assert(app.users.update(u.objectId, { age = 3 }, s.token))
  local g = app.users.get(u.objectId)
  assert(g.name == "Bob" and g.age == 3, "name should stay")
end)

scenario("bl: update with a non-table props raises", function()
  local app, u, s = setup_update()
  raises(function() app.users.update(u.objectId, "name=x", s.token) end, "update", "props")
end)

scenario("bl: update with a non-string token raises", function()
  local app, u = setup_update()
  raises(function() app.users.update(u.objectId, { name = "x" }, 5) end, "update", "token")
end)

scenario("bl: update with a non-string objectId raises", function()
  local app, u, s = setup_update()
  raises(function() app.users.update(nil, { name = "x" }, s.token) end, "update", "objectId")
end)

------------------------------------------------------------------------------------------------
-- delete
------------------------------------------------------------------------------------------------

scenario("bl: delete returns true and the user is gone", function()
  local app, u = setup_update()
  local n = app.users.count()
  assert(app.users.delete(u.objectId) == true)
  assert(app.users.get(u.objectId) == nil, "get after delete")
  assert(app.users.find("bob@example.com") == nil, "find after delete")
  assert(app.users.count() == n - 1, "count decrements")
end)

scenario("bl: delete makes the user's tokens answer 3064", function()
  local app, u, s = setup_update()
  assert(app.users.delete(u.objectId))
  fails(3064, "logout with a deleted user's token", app.users.logout(s.token))
end)

scenario("bl: update with a deleted user's token answers 3064", function()
  local app, u, s = setup_update()
  assert(app.users.delete(u.objectId))
  fails(3064, "update after delete", app.users.update(u.objectId, { name = "ghost" }, s.token))
end)

scenario("bl: delete frees the identity", function()
  local app, u = setup_update()
  assert(app.users.delete(u.objectId))
  local u2, err = app.users.register{ email = "bob@example.com", password = "pw9" }
  assert(u2, "identity should be free again: " .. tostring(err and err.code))
  assert(u2.objectId ~= u.objectId)
  assert(app.users.login("bob@example.com", "pw9"))
end)

scenario("bl: login after delete answers 3003", function()
  local app, u = setup_update()
  assert(app.users.delete(u.objectId))
  fails(3003, "login after delete", app.users.login("bob@example.com", "pw1"))
end)

scenario("bl: delete of an unknown id answers 1000", function()
  local app = new()
  fails(1000, "unknown id", app.users.delete("AAAAAAAA-0000-0000-0000-000000000000"))
end)

scenario("bl: deleting twice answers 1000 the second time", function()
  local app, u = setup_update()
  assert(app.users.delete(u.objectId))
  fails(1000, "second delete", app.users.delete(u.objectId))
end)

scenario("bl: delete with a wrong argument type raises", function()
  local app = new()
  raises(function() app.users.delete(123) end, "delete", "objectId")
end)

scenario("bl: delete kills every session of the user", function()
  local app, u, s = setup_update()
  local s2 = login(app, "bob@example.com", "pw1")
  assert(app.users.delete(u.objectId))
  fails(3064, "first session", app.users.logout(s.token))
  fails(3064, "second session", app.users.logout(s2.token))
end)

scenario("bl: delete of one user leaves another's session alive", function()
  local app, u = setup_update()
  reg(app, { email = "eve@example.com", password = "pw1" })
  local es = login(app, "eve@example.com", "pw1")
  assert(app.users.delete(u.objectId))
  assert(token_alive(app, es.token))
end)

------------------------------------------------------------------------------------------------
-- faults
------------------------------------------------------------------------------------------------

scenario("bl: fault on users.restore_password sees args.identity", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "pw1" })
  local seen
  local f = app.faults.inject{ op = "users.restore_password", code = 3020, message = "injected",
    when = function(args) seen = args.identity; return args.identity == "bob@example.com" end }
  fails(3020, "injected", app.users.restore_password("bob@example.com"))
  assert(seen == "bob@example.com", "args.identity: " .. tostring(seen))
  assert(f.hits == 1, "hits " .. tostring(f.hits))
  assert(#app.outbox.emails() == 0, "a failed call sends nothing")
end)

scenario("bl: fault on users.reset_password sees args.new_password", function()
  local app = new()
  reg(app, { email = "bob@example.com", password = "pw1" })
  assert(app.users.restore_password("bob@example.com"))
  local link = last_email(app).link
  local f = app.faults.inject{ op = "users.reset_password", code = 3092,
    when = function(args) return args.new_password == "boom" end }
  fails(3092, "injected", app.users.reset_password(link, "boom"))
  assert(f.hits == 1)
  assert(app.users.reset_password(link, "fine"), "the link is not used by a failed call")
end)

scenario("bl: fault on users.resend_confirmation sees args.identity", function()
  local app = new{ email_confirmation = true }
  reg(app, { email = "bob@example.com", password = "pw1" })
  local f = app.faults.inject{ op = "users.resend_confirmation", code = 3104, times = 1,
    when = function(args) return args.identity == "bob@example.com" end }
  fails(3104, "injected", app.users.resend_confirmation("bob@example.com"))
  assert(app.users.resend_confirmation("bob@example.com") == true, "times = 1")
  assert(f.hits == 1)
end)

scenario("bl: fault on users.confirmation_url", function()
  local app = new{ email_confirmation = true }
  reg(app, { email = "bob@example.com", password = "pw1" })
  local f = app.faults.inject{ op = "users.confirmation_url", code = 3104,
    when = function(args) return args.identity == "bob@example.com" end }
  fails(3104, "injected", app.users.confirmation_url("bob@example.com"))
  assert(f.hits == 1)
end)

scenario("bl: fault on users.get makes get return nil, err", function()
  local app = new()
  local u = reg(app, { email = "bob@example.com", password = "pw1" })
  local f = app.faults.inject{ op = "users.get", code = 1000, message = "boom",
    when = function(args) return args.objectId == u.objectId end }
  fails(1000, "injected get", app.users.get(u.objectId))
  assert(f.hits == 1)
  f:remove()
  assert(app.users.get(u.objectId), "after remove")
end)

scenario("bl: fault on users.update sees objectId, props and token", function()
  local app, u, s = setup_update()
  local got = {}
  local f = app.faults.inject{ op = "users.update", code = 3064,
    when = function(args) got = { args.objectId, args.props and args.props.name, args.token }; return true end }
  fails(3064, "injected update", app.users.update(u.objectId, { name = "Rob" }, s.token))
  assert(got[1] == u.objectId, "args.objectId " .. tostring(got[1]))
  assert(got[2] == "Rob", "args.props.name " .. tostring(got[2]))
  assert(got[3] == s.token, "args.token " .. tostring(got[3]))
  assert(app.users.get(u.objectId).name == "Bob", "a failed update changes nothing")
  assert(f.hits == 1)
end)

scenario("bl: fault on users.delete sees objectId and deletes nothing", function()
  local app, u = setup_update()
  local f = app.faults.inject{ op = "users.delete", code = 1000,
    when = function(args) return args.objectId == u.objectId end }
  fails(1000, "injected delete", app.users.delete(u.objectId))
  assert(app.users.get(u.objectId), "user still there")
  assert(f.hits == 1)
end)

scenario("bl: a fault whose when is false does not fire", function()
  local app, u = setup_update()
  local f = app.faults.inject{ op = "users.delete", code = 1000,
    when = function(args) return args.objectId == "someone-else" end }
  assert(app.users.delete(u.objectId) == true)
  assert(f.hits == 0)
end)
