--[[
  Backendless: reading and editing a profile (users.get, users.update)

  app.users.get(objectId) returns the user, or nil when there is none (no error).
  app.users.update(objectId, props, token) changes the properties as the logged-in user of `token` and
  returns the whole user. `password` may be changed (never returned). objectId, created, userStatus,
  ___class and lastLogin in props are ignored (SDKs send the whole user back). With dynamic_properties off,
  unknown properties are silently dropped, as the live server does.
  Errors, checked in this order:
    3064 unknown or ended token
    3030 no user with that objectId
    3029 the token belongs to another user (Understudy always enforces the Owner Policy)
    3040 a new email that is not an email (when email is the identity or confirmation is on)
    3018 the new identity value is taken
    3050 a password that is not a string (a number or a boolean)
    3045 the identity, the password or a required property set empty
    8000 a value over its max_length (500 by default)
  A failed update changes nothing.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"
local M = "m@mi6.co.uk"

local function logged_in_bond(settings)
  local app = understudy.backendless(settings)
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD, name = "James" })
  local session = expect.ok(app.users.login(BOND, PASSWORD))
  return app, user, session.token
end

scenario("get returns the user by objectId, and nil for an unknown one", function()
  local app, user = logged_in_bond()
  local found = expect.ok(app.users.get(user.objectId))
  expect.equal(found.email, BOND)
  expect.is_nil(found.password)
  expect.is_nil(app.users.get("00000000-0000-0000-0000-000000000000"))
  expect.is_nil(app.users.get("not an id"))
end)

scenario("a user edits their profile and gets the whole user back", { tags = { "smoke" } }, function()
  local app, user, token = logged_in_bond()
  local updated = expect.ok(app.users.update(user.objectId, { name = "Jim", rank = "Commander" }, token))
  expect.equal(updated.name, "Jim")
  expect.equal(updated.rank, "Commander")
  expect.equal(updated.email, BOND)
  expect.equal(updated.objectId, user.objectId)
  expect.is_nil(updated.password)
  expect.equal(expect.ok(app.users.get(user.objectId)).name, "Jim")
end)

scenario("a new password replaces the old one and is never returned; the session stays", function()
  local app, user, token = logged_in_bond()
  local updated = expect.ok(app.users.update(user.objectId, { password = "shakenNotStirred" }, token))
  expect.is_nil(updated.password)
  expect.error(3003, app.users.login(BOND, PASSWORD))
  expect.ok(app.users.login(BOND, "shakenNotStirred"))
  expect.ok(app.users.logout(token))
end)

scenario("a new email identity is what login and find use from then on; the old one is free", function()
  local app, user, token = logged_in_bond()
  expect.ok(app.users.update(user.objectId, { email = M }, token))
  expect.ok(app.users.login(M, PASSWORD))
  expect.error(3003, app.users.login(BOND, PASSWORD))
  expect.is_nil(app.users.find(BOND))
  expect.equal(expect.ok(app.users.find(M)).objectId, user.objectId)
  expect.ok(app.users.register{ email = BOND, password = "another" })
end)

scenario("system properties in props are ignored", function()
  local app, user, token = logged_in_bond()
  local updated = expect.ok(app.users.update(user.objectId, {
    objectId = "00000000-0000-0000-0000-000000000000", created = 1, userStatus = "DISABLED",
    ___class = "Admins", lastLogin = 2, name = "Jim" }, token))
  expect.equal(updated.objectId, user.objectId)
  expect.equal(updated.created, user.created)
  expect.equal(updated.userStatus, "ENABLED")
  expect.equal(updated.___class, "Users")
  expect.equal(updated.name, "Jim")
end)

scenario("with dynamic properties off, unknown properties are dropped and the rest is saved", function()
  local app, user, token = logged_in_bond()
  app.settings.dynamic_properties = false
  local updated = expect.ok(app.users.update(user.objectId, { name = "Jim", shoeSize = 44 }, token))
  expect.equal(updated.name, "Jim")
  expect.is_nil(updated.shoeSize)
end)

scenario("an unknown or ended token: 3064, before anything else", function()
  local app, user, token = logged_in_bond()
  expect.error(3064, app.users.update(user.objectId, { name = "Jim" }, "no-such-token"))
  expect.ok(app.users.logout(token))
  expect.error(3064, app.users.update("no-such-user", { name = "Jim" }, token))
  expect.equal(expect.ok(app.users.get(user.objectId)).name, "James")
end)

scenario("no user with that objectId: 3030", function()
  local app, _, token = logged_in_bond()
  expect.error(3030, app.users.update("00000000-0000-0000-0000-000000000000", { name = "Jim" }, token))
end)

scenario("another user's token: 3029, and nothing changes", function()
  local app, user = logged_in_bond()
  expect.ok(app.users.register{ email = M, password = "secret" })
  local other = expect.ok(app.users.login(M, "secret"))
  expect.error(3029, app.users.update(user.objectId, { name = "Blofeld" }, other.token))
  expect.equal(expect.ok(app.users.get(user.objectId)).name, "James")
end)

scenario("3029 comes before 3040: another user's token with a bad email is 3029", function()
  local app, user = logged_in_bond()
  expect.ok(app.users.register{ email = M, password = "secret" })
  local other = expect.ok(app.users.login(M, "secret"))
  expect.error(3029, app.users.update(user.objectId, { email = "not-an-email" }, other.token))
end)

scenario("a malformed new email: 3040", function()
  local app, user, token = logged_in_bond()
  expect.error(3040, app.users.update(user.objectId, { email = "not-an-email" }, token))
  expect.equal(expect.ok(app.users.get(user.objectId)).email, BOND)
end)

scenario("a malformed email is accepted when email is neither the identity nor confirmed", function()
  local app = understudy.backendless{ identity = "name" }
  local user = expect.ok(app.users.register{ name = "bond", password = PASSWORD })
  local token = expect.ok(app.users.login("bond", PASSWORD)).token
  expect.equal(expect.ok(app.users.update(user.objectId, { email = "not-an-email" }, token)).email, "not-an-email")
end)

scenario("a malformed email with confirmation on is 3040 even when the identity is the name", function()
  local app = understudy.backendless{ identity = "name" }
  local user = expect.ok(app.users.register{ name = "bond", password = PASSWORD })
  local token = expect.ok(app.users.login("bond", PASSWORD)).token
  app.settings.email_confirmation = true
  expect.error(3040, app.users.update(user.objectId, { email = "not-an-email" }, token))
end)

scenario("3040 comes before 3018 and 3045", function()
  local app, user, token = logged_in_bond()
  expect.error(3040, app.users.update(user.objectId, { email = "bad", password = "" }, token))
end)

scenario("a new identity value that another user holds: 3018 (email case-insensitively)", function()
  local app, user, token = logged_in_bond()
  expect.ok(app.users.register{ email = M, password = "secret" })
  local err = expect.error(3018, app.users.update(user.objectId, { email = "M@MI6.co.uk" }, token))
  expect.contains(err.message, "M@MI6.co.uk")
  expect.equal(expect.ok(app.users.get(user.objectId)).email, BOND)
end)

scenario("sending one's own identity again is not a conflict", function()
  local app, user, token = logged_in_bond()
  expect.ok(app.users.update(user.objectId, { email = BOND, name = "Jim" }, token))
end)

scenario("3018 comes before 3045", function()
  local app, user, token = logged_in_bond()
  expect.ok(app.users.register{ email = M, password = "secret" })
  expect.error(3018, app.users.update(user.objectId, { email = M, password = "" }, token))
end)

scenario("a password that is a number or a boolean: 3050, and the old password keeps working", function()
  local app, user, token = logged_in_bond()
  expect.error({ code = 3050, message = "Password should be string" }, app.users.update(user.objectId, { password = 12345 }, token))
  expect.error(3050, app.users.update(user.objectId, { password = true }, token))
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("the identity, the password or a required property set empty: 3045 naming it", function()
  local app, user, token = logged_in_bond{ properties = { name = { required = true } } }
  expect.error(3045, app.users.update(user.objectId, { email = "" }, token))
  local err = expect.error(3045, app.users.update(user.objectId, { password = "" }, token))
  expect.contains(err.message, "password")
  err = expect.error(3045, app.users.update(user.objectId, { name = "" }, token))
  expect.contains(err.message, "name")
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("an optional property may be set empty", function()
  local app, user, token = logged_in_bond()
  expect.equal(expect.ok(app.users.update(user.objectId, { name = "" }, token)).name, "")
end)

scenario("3045 comes before 8000", function()
  local app, user, token = logged_in_bond()
  expect.error(3045, app.users.update(user.objectId, { password = "", bio = string.rep("x", 501) }, token))
end)

scenario("a value over its max_length: 8000 naming the property, and nothing changes", function()
  local app, user, token = logged_in_bond{ properties = { name = { max_length = 10 } } }
  local err = expect.error(8000, app.users.update(user.objectId, { name = string.rep("x", 11), rank = "Cdr" }, token))
  expect.contains(err.message, "name")
  expect.error(8000, app.users.update(user.objectId, { bio = string.rep("x", 501) }, token))
  local unchanged = expect.ok(app.users.get(user.objectId))
  expect.equal(unchanged.name, "James")
  expect.is_nil(unchanged.rank)
  expect.ok(app.users.update(user.objectId, { name = string.rep("x", 10) }, token))
end)

scenario("faults apply to get and update by the contract's names", function()
  local app, user, token = logged_in_bond()
  app.faults.inject{ op = "users.get", code = 1013, times = 1 }
  expect.error(1013, app.users.get(user.objectId))
  app.faults.inject{ op = "users.update", code = 3024, times = 1,
                     when = function(args) return args.props ~= nil and args.props.name == "Jim" end }
  expect.error(3024, app.users.update(user.objectId, { name = "Jim" }, token))
  expect.equal(expect.ok(app.users.get(user.objectId)).name, "James")
end)

scenario("misuse raises and names the function and argument", function()
  local app, user, token = logged_in_bond()
  expect.fails(function() app.users.update(user.objectId, "name=Jim", token) end, "users.update: props")
  expect.fails(function() app.users.update(user.objectId, { name = "Jim" }) end, "users.update: token")
  expect.fails(function() app.users.update(user.objectId, { tags = { "a" } }, token) end, "tags")
end)
