-- Written from the contract (version 2) alone, without reading the code, by a blind audit; kept as an acceptance suite.

local function fails(status, code, what, r, err)
  what = what or ""
  assert(r == nil, what .. ": expected nil result, got " .. tostring(r))
  assert(type(err) == "table", what .. ": expected an error table, got " .. tostring(err))
  assert(err.status == status and err.code == code, what .. ": expected " .. status .. " " .. code .. ", got "
    .. tostring(err.status) .. " " .. tostring(err.code) .. " (" .. tostring(err.message) .. ")")
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

local function setup()
  local app = understudy.kii()
  local a = assert(app.users.register{ username = "alice", password = "secret1" })
  local b = assert(app.users.register{ username = "bob", password = "secret1" })
  return app, a, b
end

local function inst(app, t)
  local i, err = app.installations.register(t)
  assert(i, "register installation: " .. tostring(err and err.code) .. " " .. tostring(err and err.message))
  return i
end

local function set(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end

------------------------------------------------------------------------------------------------
-- register
------------------------------------------------------------------------------------------------

for _, t in ipairs{ "ANDROID", "IOS", "JPUSH" } do
  scenario("inst: register " .. t .. " returns the documented shape", function()
    local app, a = setup()
    local i = inst(app, { user = a.userID, type = t, token = "reg-" .. t })
    assert(type(i.installationID) == "string" and #i.installationID > 0, "installationID")
    assert(i.installationRegistrationID == "reg-" .. t, "installationRegistrationID " .. tostring(i.installationRegistrationID))
    assert(i.deviceType == t, "deviceType " .. tostring(i.deviceType))
    assert(i.userID == a.userID, "userID")
    assert(i.development == false, "development defaults to false, got " .. tostring(i.development))
  end)

  scenario("inst: register " .. t .. " without a token answers INVALID_INPUT_DATA", function()
    local app, a = setup()
    fails(400, "INVALID_INPUT_DATA", "missing token", app.installations.register{ user = a.userID, type = t })
    assert(#app.installations.list(a.userID) == 0, "nothing registered")
  end)
end

scenario("inst: register MQTT without a token", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "MQTT" })
  assert(type(i.installationID) == "string")
  assert(i.deviceType == "MQTT" and i.userID == a.userID)
  assert(type(i.development) == "boolean")
end)

scenario("inst: a user has at most one MQTT installation; a repeat returns it", function()
  local app, a = setup()
  local i1 = inst(app, { user = a.userID, type = "MQTT" })
  local i2 = inst(app, { user = a.userID, type = "MQTT" })
  assert(i1.installationID == i2.installationID, "repeat should return the same installation")
  assert(#app.installations.list(a.userID) == 1)
end)

scenario("inst: two users get two MQTT installations", function()
  local app, a, b = setup()
  local i1 = inst(app, { user = a.userID, type = "MQTT" })
  local i2 = inst(app, { user = b.userID, type = "MQTT" })
  assert(i1.installationID ~= i2.installationID)
end)

scenario("inst: development = true is kept", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "IOS", token = "apns-1", development = true })
  assert(i.development == true)
  assert(app.installations.get(i.installationID).development == true)
end)

scenario("inst: an unknown type answers INVALID_INPUT_DATA", function()
  local app, a = setup()
  fails(400, "INVALID_INPUT_DATA", "unknown type", app.installations.register{ user = a.userID, type = "WINDOWS", token = "x" })
end)

scenario("inst: a lower-case type is unknown", function()
  local app, a = setup()
  fails(400, "INVALID_INPUT_DATA", "lower case", app.installations.register{ user = a.userID, type = "android", token = "x" })
end)

scenario("inst: register for an unknown user answers 404 USER_NOT_FOUND", function()
  local app = setup()
  fails(404, "USER_NOT_FOUND", "unknown user", app.installations.register{ user = "00000000-0000-0000-0000-000000000000", type = "ANDROID", token = "x" })
end)

scenario("inst: USER_NOT_FOUND is checked before INVALID_INPUT_DATA", function()
  local app = setup()
  fails(404, "USER_NOT_FOUND", "unknown + no token", app.installations.register{ user = "00000000-0000-0000-0000-000000000000", type = "ANDROID" })
  fails(404, "USER_NOT_FOUND", "unknown + bad type", app.installations.register{ user = "00000000-0000-0000-0000-000000000000", type = "FAX", token = "x" })
end)

scenario("inst: register for a deleted user answers 404", function()
  local app, a = setup()
  assert(app.users.delete(a.userID))
  fails(404, "USER_NOT_FOUND", "deleted user", app.installations.register{ user = a.userID, type = "ANDROID", token = "x" })
end)

scenario("inst: registering the same type+token moves the installation to the new user", function()
  local app, a, b = setup()
  local i1 = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  local i2 = inst(app, { user = b.userID, type = "ANDROID", token = "gcm-1" })
  assert(i2.installationID == i1.installationID, "installationID kept")
  assert(i2.userID == b.userID, "moved to bob")
  assert(app.installations.get(i1.installationID).userID == b.userID, "get shows the new owner")
  assert(#app.installations.list(a.userID) == 0, "alice has none left")
  assert(#app.installations.list(b.userID) == 1, "bob has it")
end)

scenario("inst: a moved installation's pushes go to the new user only", function()
  local app, a, b = setup()
  local i = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  inst(app, { user = b.userID, type = "ANDROID", token = "gcm-1" })
  local ra = assert(app.push.send_to_user{ user = a.userID, message = "hi" })
  assert(#ra.delivered == 0, "alice no longer receives")
  local rb = assert(app.push.send_to_user{ user = b.userID, message = "hi" })
  assert(#rb.delivered == 1 and rb.delivered[1] == i.installationID)
end)

scenario("inst: registering the same type+token for the same user keeps one installation", function()
  local app, a = setup()
  local i1 = inst(app, { user = a.userID, type = "IOS", token = "apns-1" })
  local i2 = inst(app, { user = a.userID, type = "IOS", token = "apns-1" })
  assert(i1.installationID == i2.installationID)
  assert(#app.installations.list(a.userID) == 1)
end)

scenario("inst: the same token under another type is another installation", function()
  local app, a = setup()
  local i1 = inst(app, { user = a.userID, type = "ANDROID", token = "tok" })
  local i2 = inst(app, { user = a.userID, type = "JPUSH", token = "tok" })
  assert(i1.installationID ~= i2.installationID)
  assert(#app.installations.list(a.userID) == 2)
end)

scenario("inst: MQTT of one user is not moved by another user's MQTT", function()
  local app, a, b = setup()
  local i1 = inst(app, { user = a.userID, type = "MQTT" })
  inst(app, { user = b.userID, type = "MQTT" })
  assert(app.installations.get(i1.installationID).userID == a.userID)
end)

scenario("inst: register with a non-table argument raises", function()
  local app = setup()
  raises(function() app.installations.register("ANDROID") end, "register")
end)

scenario("inst: register with a non-boolean development raises", function()
  local app, a = setup()
  raises(function() app.installations.register{ user = a.userID, type = "IOS", token = "t", development = "yes" } end,
    "register", "development")
end)

scenario("inst: register with a non-string token raises", function()
  local app, a = setup()
  raises(function() app.installations.register{ user = a.userID, type = "IOS", token = 42 } end, "register", "token")
end)

------------------------------------------------------------------------------------------------
-- get / list / unregister
------------------------------------------------------------------------------------------------

scenario("inst: get returns the installation", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  local g = app.installations.get(i.installationID)
  assert(g and g.installationID == i.installationID and g.deviceType == "ANDROID"
    and g.installationRegistrationID == "gcm-1" and g.userID == a.userID)
end)

scenario("inst: get of an unknown installation returns nil without error", function()
  local app = setup()
  local g, err = app.installations.get("no-such-installation")
  assert(g == nil and err == nil)
end)

scenario("inst: list is sorted by installationID", function()
  local app, a = setup()
  for n = 1, 6 do inst(app, { user = a.userID, type = "ANDROID", token = "gcm-" .. n }) end
  inst(app, { user = a.userID, type = "MQTT" })
  local l = app.installations.list(a.userID)
  assert(#l == 7, "seven installations, got " .. #l)
  for k = 2, #l do
    assert(l[k - 1].installationID < l[k].installationID, "not sorted at " .. k)
  end
  for _, i in ipairs(l) do assert(i.userID == a.userID) end
end)

scenario("inst: list of a user with none is an empty list", function()
  local app, a = setup()
  local l = app.installations.list(a.userID)
  assert(type(l) == "table" and #l == 0)
end)

scenario("inst: list only shows the user's own installations", function()
  local app, a, b = setup()
  inst(app, { user = a.userID, type = "ANDROID", token = "a1" })
  inst(app, { user = b.userID, type = "ANDROID", token = "b1" })
  inst(app, { user = b.userID, type = "IOS", token = "b2" })
  assert(#app.installations.list(a.userID) == 1 and #app.installations.list(b.userID) == 2)
end)

scenario("inst: unregister returns true and the installation is gone", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.installations.unregister(i.installationID) == true)
  assert(app.installations.get(i.installationID) == nil)
  assert(#app.installations.list(a.userID) == 0)
end)

scenario("inst: unregister of an unknown installation answers 404 INSTALLATION_NOT_FOUND", function()
  local app = setup()
  fails(404, "INSTALLATION_NOT_FOUND", "unknown", app.installations.unregister("no-such-installation"))
end)

scenario("inst: unregister twice answers 404 the second time", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.installations.unregister(i.installationID))
  fails(404, "INSTALLATION_NOT_FOUND", "twice", app.installations.unregister(i.installationID))
end)

scenario("inst: after unregister the same token registers afresh", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.installations.unregister(i.installationID))
  local j = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.installations.get(j.installationID), "new registration readable")
end)

scenario("inst: MQTT after unregister gives a new installation", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "MQTT" })
  assert(app.installations.unregister(i.installationID))
  local j = inst(app, { user = a.userID, type = "MQTT" })
  assert(app.installations.get(j.installationID))
  assert(#app.installations.list(a.userID) == 1)
end)

scenario("inst: unregister with a wrong argument type raises", function()
  local app = setup()
  raises(function() app.installations.unregister(nil) end, "unregister", "installationID")
end)

scenario("inst: get with a wrong argument type raises", function()
  local app = setup()
  raises(function() app.installations.get({}) end, "get", "installationID")
end)

------------------------------------------------------------------------------------------------
-- push.send_to_user
------------------------------------------------------------------------------------------------

scenario("inst: send_to_user delivers one push per installation", function()
  local app, a = setup()
  local i1 = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  local i2 = inst(app, { user = a.userID, type = "IOS", token = "apns-1" })
  local i3 = inst(app, { user = a.userID, type = "MQTT" })
  local r, err = app.push.send_to_user{ user = a.userID, message = "hello" }
  assert(r, "send: " .. tostring(err and err.code))
  assert(#r.delivered == 3, "three deliveries")
  local d = set(r.delivered)
  assert(d[i1.installationID] and d[i2.installationID] and d[i3.installationID], "every installation delivered")
  local ps = app.outbox.pushes()
  assert(#ps == 3, "three outbox pushes, got " .. #ps)
  local seen = {}
  for _, p in ipairs(ps) do
    assert(p.user == a.userID, "push.user")
    assert(p.message == "hello", "push.message")
    seen[p.installation_id] = true
  end
  assert(seen[i1.installationID] and seen[i2.installationID] and seen[i3.installationID], "push.installation_id")
end)

scenario("inst: send_to_user of a user with no installations delivers nothing", function()
  local app, a = setup()
  local r = assert(app.push.send_to_user{ user = a.userID, message = "hello" })
  assert(type(r.delivered) == "table" and #r.delivered == 0)
  assert(#app.outbox.pushes() == 0)
end)

scenario("inst: send_to_user of an unknown user answers 404 USER_NOT_FOUND", function()
  local app = setup()
  fails(404, "USER_NOT_FOUND", "unknown", app.push.send_to_user{ user = "00000000-0000-0000-0000-000000000000", message = "x" })
end)

scenario("inst: a disabled user receives nothing", function()
  local app, a = setup()
  inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.users.set_disabled(a.userID, true))
  local r, err = app.push.send_to_user{ user = a.userID, message = "hello" }
  assert(r, "send to a disabled user should not fail: " .. tostring(err and err.code))
  assert(#r.delivered == 0, "no delivery to a disabled user")
  assert(#app.outbox.pushes() == 0, "no outbox push for a disabled user")
end)

scenario("inst: a re-enabled user receives pushes again", function()
  local app, a = setup()
  inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.users.set_disabled(a.userID, true))
  assert(app.users.set_disabled(a.userID, false))
  local r = assert(app.push.send_to_user{ user = a.userID, message = "hello" })
  assert(#r.delivered == 1)
end)

scenario("inst: a disabled user's installations are kept", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.users.set_disabled(a.userID, true))
  assert(app.installations.get(i.installationID), "installation kept")
end)

scenario("inst: send_to_user after delete answers 404", function()
  local app, a = setup()
  inst(app, { user = a.userID, type = "ANDROID", token = "gcm-1" })
  assert(app.users.delete(a.userID))
  fails(404, "USER_NOT_FOUND", "deleted user", app.push.send_to_user{ user = a.userID, message = "x" })
end)

scenario("inst: send_to_user only reaches that user's installations", function()
  local app, a, b = setup()
  inst(app, { user = a.userID, type = "ANDROID", token = "a1" })
  local ib = inst(app, { user = b.userID, type = "ANDROID", token = "b1" })
  local r = assert(app.push.send_to_user{ user = b.userID, message = "m" })
  assert(#r.delivered == 1 and r.delivered[1] == ib.installationID)
  local ps = app.outbox.pushes()
  assert(#ps == 1 and ps[1].user == b.userID and ps[1].installation_id == ib.installationID)
end)

scenario("inst: send_to_user without a message raises", function()
  local app, a = setup()
  raises(function() app.push.send_to_user{ user = a.userID } end, "send_to_user", "message")
end)

scenario("inst: send_to_user with a non-table argument raises", function()
  local app = setup()
  raises(function() app.push.send_to_user("alice") end, "send_to_user")
end)

------------------------------------------------------------------------------------------------
-- faults
------------------------------------------------------------------------------------------------

scenario("inst: fault installations.register fires and registers nothing", function()
  local app, a = setup()
  local f = app.faults.inject{ op = "installations.register", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
  fails(503, "RESOURCE_TEMPORARILY_UNAVAILABLE", "injected", app.installations.register{ user = a.userID, type = "ANDROID", token = "x" })
  assert(f.hits == 1)
  assert(#app.installations.list(a.userID) == 0)
end)

scenario("inst: fault installations.register when(args) sees user and type", function()
  local app, a = setup()
  local got = {}
  app.faults.inject{ op = "installations.register", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE",
    when = function(args) got = { args.user, args.type, args.token }; return true end }
  assert(not understudy.ignore(app.installations.register{ user = a.userID, type = "ANDROID", token = "x" }))
  assert(got[1] == a.userID and got[2] == "ANDROID" and got[3] == "x",
    "args: " .. tostring(got[1]) .. " " .. tostring(got[2]) .. " " .. tostring(got[3]))
end)

scenario("inst: fault installations.unregister sees installationID", function()
  local app, a = setup()
  local i = inst(app, { user = a.userID, type = "ANDROID", token = "x" })
  local got
  app.faults.inject{ op = "installations.unregister", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE",
    when = function(args) got = args.installationID; return true end }
  fails(503, "RESOURCE_TEMPORARILY_UNAVAILABLE", "injected", app.installations.unregister(i.installationID))
  assert(got == i.installationID, "args.installationID " .. tostring(got))
  assert(app.installations.get(i.installationID), "still registered")
end)

scenario("inst: fault push.send_to_user sends nothing", function()
  local app, a = setup()
  inst(app, { user = a.userID, type = "ANDROID", token = "x" })
  local got = {}
  local f = app.faults.inject{ op = "push.send_to_user", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE", times = 1,
    when = function(args) got = { args.user, args.message }; return true end }
  fails(503, "RESOURCE_TEMPORARILY_UNAVAILABLE", "injected", app.push.send_to_user{ user = a.userID, message = "m" })
  assert(got[1] == a.userID and got[2] == "m", "args user/message")
  assert(#app.outbox.pushes() == 0)
  assert(app.push.send_to_user{ user = a.userID, message = "m" }, "times = 1")
  assert(f.hits == 1)
end)
