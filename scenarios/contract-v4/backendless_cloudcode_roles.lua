--[[
  Backendless contract v4: the CloudCode key, users.describe, login_by_id, update_status and roles.

  An app has the client key (setting api_key) and the CloudCode key (setting cloudcode_key, default
  "UNDERSTUDY-CLOUDCODE-KEY"). The calls the vendor restricts to Code Runner take a last argument `key`:
  "rest" (the default) or "cloudcode"; another value raises.

      users.describe()                     the Users columns, sorted by name
      users.login_by_id(objectId, key?)    a session; 2014 3034 3057 3036 3090 3087 3002/3044
      users.update_status(id, status, key?) "ENABLED"/"DISABLED"; 3054 1000 3085 3086
      roles.define(name) / roles.list()    the console
      roles.assign / roles.unassign(identity, role, key?)   2011 2005 2007|2008 3057
      roles.of(objectId, key?)             3081 3057
      roles.users(role, { load_roles?, query? })            2005 2003, then the query's errors
  A user's roles: AuthenticatedUser, then for a social user SocialUser and the provider's role, then its
  custom roles in assignment order (choice).
]]

local CC = "cloudcode"

local function app_with_bond(settings)
  local app = understudy.backendless(settings)
  local bond = expect.ok(app.users.register{ email = "bond@example.com", password = "p", name = "James" })
  return app, bond
end

-- settings ----------------------------------------------------------------------------------------------

scenario("cloudcode_key is a setting with its default", function()
  local app = understudy.backendless()
  expect.equal(app.settings.cloudcode_key, "UNDERSTUDY-CLOUDCODE-KEY")
  app.settings.cloudcode_key = "MY-CC"
  expect.equal(app.settings.cloudcode_key, "MY-CC")
  expect.fails(function() app.settings.cloudcode_key = "" end, "cloudcode_key")
end)

scenario("key must be \"rest\" or \"cloudcode\": anything else raises", function()
  local app, bond = app_with_bond()
  expect.fails(function() app.users.login_by_id(bond.objectId, "CloudCode") end, "key %(argument 2%) must be \"rest\" or \"cloudcode\"")
  expect.fails(function() app.users.update_status(bond.objectId, "ENABLED", 1) end, "key")
  expect.fails(function() app.roles.assign("bond@example.com", "X", "server") end, "key")
  expect.fails(function() app.users.update_status(bond.objectId, "BANNED", CC) end, "status %(argument 2%) must be \"ENABLED\" or \"DISABLED\"")
end)

-- describe ----------------------------------------------------------------------------------------------

scenario("users.describe lists the fixed columns with password, declared and dynamic ones, sorted", function()
  local app = understudy.backendless{ properties = { nickname = { required = true } } }
  expect.ok(app.users.register{ email = "a@example.com", password = "p", nickname = "a", age = 3, score = 1.5, vip = true, motto = "x" })
  local columns = expect.ok(app.users.describe())
  local names, byName = {}, {}
  for _, column in ipairs(columns) do names[#names + 1] = column.name; byName[column.name] = column end
  expect.equal(table.concat(names, ","),
    "age,blUserLocale,created,email,lastLogin,motto,name,nickname,objectId,ownerId,password,score,socialAccount,updated,userStatus,vip")
  expect.equal(byName.objectId.type, "STRING_ID")
  expect.equal(byName.objectId.isPrimaryKey, true)
  expect.equal(byName.password.required, true)
  expect.equal(byName.password.identity, false)
  expect.equal(byName.email.identity, true)
  expect.equal(byName.email.required, false)
  expect.equal(byName.nickname.required, true)
  expect.equal(byName.nickname.type, "STRING")
  expect.equal(byName.created.type, "DATETIME")
  expect.equal(byName.lastLogin.type, "DATETIME")
  expect.equal(byName.age.type, "INT")
  expect.equal(byName.score.type, "DOUBLE")
  expect.equal(byName.vip.type, "BOOLEAN")
  expect.equal(byName.motto.type, "STRING")
  expect.equal(byName.blUserLocale.type, "STRING")
  expect.equal(byName.age.autoLoad, false)
  expect.is_nil(byName.age.defaultValue)
  expect.is_nil(byName.age.relatedTable)
  expect.is_nil(byName.age.customRegex)
end)

scenario("describe: a dynamic column's type comes from its first stored value (choice); the identity is always listed", function()
  local app = understudy.backendless{ identity = "username" }
  expect.ok(app.users.register{ username = "a", password = "p", level = 2 })
  expect.ok(app.users.register{ username = "b", password = "p", level = "high" })
  local byName = {}
  for _, column in ipairs(expect.ok(app.users.describe())) do byName[column.name] = column end
  expect.equal(byName.level.type, "INT")
  expect.equal(byName.username.identity, true)
  expect.equal(byName.email.identity, false)
  app.faults.inject{ op = "users.describe", code = 3000 }
  expect.error(3000, app.users.describe())
end)

-- login_by_id -------------------------------------------------------------------------------------------

scenario("login_by_id with the CloudCode key: a session as users.login gives", function()
  local app, bond = app_with_bond()
  app.clock.advance(10)
  local session = expect.ok(app.users.login_by_id(bond.objectId, CC))
  expect.equal(session.user.objectId, bond.objectId)
  expect.not_nil(session.token)
  expect.equal(expect.ok(app.data.users.find_by_id(bond.objectId)).lastLogin, app.clock.now() * 1000)
  expect.ok(app.users.logout(session.token))
end)

scenario("login_by_id errors in order: 2014, 3034, 3057, 3036, 3090, 3087, 3002/3044", function()
  local app, bond = app_with_bond()
  expect.error({ code = 2014, message = "Login by object id is allowed only for Code Runner API key" }, app.users.login_by_id(bond.objectId))
  expect.error(2014, app.users.login_by_id("nobody", "rest"))
  app.settings.logins = false
  expect.error(3034, app.users.login_by_id("nobody", CC))
  app.settings.logins = true
  expect.error({ code = 3057, message = "Could not find user by id or identity" }, app.users.login_by_id("nobody", CC))
  local guest = expect.ok(app.users.guest_login())
  expect.error(3057, app.users.login_by_id(guest.user.objectId, CC))
  app.settings.lockout_after = 1
  expect.error(3003, app.users.login("bond@example.com", "wrong"))
  expect.error(3036, app.users.login_by_id(bond.objectId, CC))
  app.clock.advance(31 * 60)
  expect.ok(app.users.set_status(bond.objectId, "DISABLED"))
  expect.error(3090, app.users.login_by_id(bond.objectId, CC))
  local pending_app = understudy.backendless{ email_confirmation = true }
  local pending = expect.ok(pending_app.users.register{ email = "p@example.com", password = "p" })
  expect.error(3087, pending_app.users.login_by_id(pending.objectId, CC))
  local deny = understudy.backendless{ multiple_logins = "deny" }
  local one = expect.ok(deny.users.register{ email = "o@example.com", password = "p" })
  expect.ok(deny.users.login_by_id(one.objectId, CC))
  expect.error(3002, deny.users.login_by_id(one.objectId, CC))
  local limit = understudy.backendless{ multiple_logins = 1 }
  local two = expect.ok(limit.users.register{ email = "t@example.com", password = "p" })
  expect.ok(limit.users.login_by_id(two.objectId, CC))
  expect.error(3044, limit.users.login_by_id(two.objectId, CC))
end)

scenario("login_by_id: a fault comes first and sees the key as passed (nil when left out)", function()
  local app, bond = app_with_bond()
  local seen = "unset"
  app.faults.inject{ op = "users.login_by_id", code = 3000, when = function(args) seen = args.key; return args.objectId == bond.objectId end }
  expect.error(3000, app.users.login_by_id(bond.objectId))
  expect.is_nil(seen)
  expect.error(3000, app.users.login_by_id(bond.objectId, CC))
  expect.equal(seen, CC)
end)

-- update_status -----------------------------------------------------------------------------------------

scenario("update_status with the CloudCode key disables (ending sessions) and enables", function()
  local app, bond = app_with_bond()
  local session = expect.ok(app.users.login("bond@example.com", "p"))
  local user = expect.ok(app.users.update_status(bond.objectId, "DISABLED", CC))
  expect.equal(user.userStatus, "DISABLED")
  expect.error(3064, app.users.logout(session.token))
  expect.error(3090, app.users.login("bond@example.com", "p"))
  expect.equal(expect.ok(app.users.update_status(bond.objectId, "ENABLED", CC)).userStatus, "ENABLED")
  expect.ok(app.users.login("bond@example.com", "p"))
end)

scenario("update_status errors in order: 3054, 1000, 3085/3086; a pending user may be enabled or disabled", function()
  local app, bond = app_with_bond()
  expect.error({ code = 3054, message = "Operation allowed only for BL logic." }, app.users.update_status(bond.objectId, "DISABLED"))
  expect.error(3054, app.users.update_status("nobody", "DISABLED", "rest"))
  expect.error({ code = 1000, message = "Entity with ID nobody not found" }, app.users.update_status("nobody", "DISABLED", CC))
  local guest = expect.ok(app.users.guest_login())
  expect.error(1000, app.users.update_status(guest.user.objectId, "DISABLED", CC))
  expect.error({ code = 3086, message = "Unable to enable user. User is already enabled." }, app.users.update_status(bond.objectId, "ENABLED", CC))
  expect.ok(app.users.update_status(bond.objectId, "DISABLED", CC))
  expect.error({ code = 3085, message = "Unable to disable user. User is already disabled." }, app.users.update_status(bond.objectId, "DISABLED", CC))
  local pending_app = understudy.backendless{ email_confirmation = true }
  local pending = expect.ok(pending_app.users.register{ email = "p@example.com", password = "p" })
  expect.equal(expect.ok(pending_app.users.update_status(pending.objectId, "ENABLED", CC)).userStatus, "ENABLED")
  expect.ok(pending_app.users.login("p@example.com", "p"))
  local other = expect.ok(pending_app.users.register{ email = "q@example.com", password = "p" })
  expect.equal(expect.ok(pending_app.users.update_status(other.objectId, "DISABLED", CC)).userStatus, "DISABLED")
  app.faults.inject{ op = "users.update_status", code = 3000 }
  expect.error(3000, app.users.update_status(bond.objectId, "ENABLED", CC))
  expect.equal(app.users.get(bond.objectId).userStatus, "DISABLED")
end)

-- roles -------------------------------------------------------------------------------------------------

scenario("roles.define and roles.list: system roles always exist, custom ones are made in the console", function()
  local app = understudy.backendless()
  expect.equal(app.roles.define("Editor"), true)
  expect.equal(app.roles.define("admin"), true)
  expect.equal(table.concat(app.roles.list(), ","),
    "ASUser,AndroidUser,AuthenticatedUser,DotNetUser,Editor,FacebookUser,GooglePlusUser,IOSUser,JSUser,NotAuthenticatedUser,RestUser,ServerCodeUser,SocialUser,TwitterUser,admin")
  expect.fails(function() app.roles.define("Editor") end, "defined already")
  expect.fails(function() app.roles.define("RestUser") end, "system role")
  expect.fails(function() app.roles.define("") end, "empty")
  expect.fails(function() app.roles.define(5) end, "name %(argument 1%) must be a string")
end)

scenario("assign by identity or objectId, in assignment order; again changes nothing (choice); of lists them", function()
  local app, bond = app_with_bond()
  app.roles.define("Editor")
  app.roles.define("Agent")
  expect.equal(expect.ok(app.roles.assign("BOND@example.com", "Agent", CC)), true)
  expect.ok(app.roles.assign(bond.objectId, "Editor", CC))
  expect.ok(app.roles.assign("bond@example.com", "Agent", CC))
  expect.equal(table.concat(expect.ok(app.roles.of(bond.objectId, CC)), ","), "AuthenticatedUser,Agent,Editor")
  expect.equal(expect.ok(app.roles.unassign("bond@example.com", "Agent", CC)), true)
  expect.ok(app.roles.unassign("bond@example.com", "Agent", CC))
  expect.equal(table.concat(expect.ok(app.roles.of(bond.objectId, CC)), ","), "AuthenticatedUser,Editor")
end)

scenario("assign / unassign errors in order: 2011, 2005, 2007 / 2008, 3057 (after the role checks, choice)", function()
  local app, bond = app_with_bond()
  app.roles.define("Editor")
  expect.error({ code = 2011, message = "Assigning/unassigning a role can be done only from server code" }, app.roles.assign("nobody", "Nope"))
  expect.error(2011, app.roles.unassign("nobody", "Nope", "rest"))
  expect.error({ code = 2005, message = "Could not find role" }, app.roles.assign("nobody", "Nope", CC))
  expect.error(2005, app.roles.unassign("nobody", "editor", CC))
  expect.error({ code = 2007, message = "Could not assign system role" }, app.roles.assign("nobody", "AuthenticatedUser", CC))
  expect.error({ code = 2008, message = "Could not unassign system role" }, app.roles.unassign("nobody", "RestUser", CC))
  expect.error({ code = 3057, message = "Could not find user by id or identity" }, app.roles.assign("nobody", "Editor", CC))
  local guest = expect.ok(app.users.guest_login())
  expect.error(3057, app.roles.assign(guest.user.objectId, "Editor", CC))
  expect.error(3057, app.roles.unassign("nobody", "Editor", CC))
  app.faults.inject{ op = "roles.assign", code = 3000 }
  expect.error(3000, app.roles.assign("bond@example.com", "Editor", CC))
  expect.equal(table.concat(expect.ok(app.roles.of(bond.objectId, CC)), ","), "AuthenticatedUser")
end)

scenario("roles.of: 3081 without the CloudCode key (choice), 3057 for an unknown or guest id; social roles", function()
  local app, bond = app_with_bond()
  expect.error({ code = 3081, message = "Could not get roles for the user." }, app.roles.of(bond.objectId))
  expect.error(3057, app.roles.of("nobody", CC))
  local guest = expect.ok(app.users.guest_login())
  expect.error(3057, app.roles.of(guest.user.objectId, CC))
  for provider, role in pairs{ facebook = "FacebookUser", googleplus = "GooglePlusUser", twitter = "TwitterUser" } do
    app.oauth.account{ provider = provider, token = provider .. "-t", profile = { id = provider } }
    local session = expect.ok(app.users.login_oauth(provider, provider .. "-t"))
    expect.equal(table.concat(expect.ok(app.roles.of(session.user.objectId, CC)), ","), "AuthenticatedUser,SocialUser," .. role)
  end
  app.oauth.account{ provider = "google", token = "g-t", profile = { id = "g" } }
  local google = expect.ok(app.users.login_oauth("google", "g-t"))
  app.roles.define("Fan")
  expect.ok(app.roles.assign(google.user.objectId, "Fan", CC))
  expect.equal(table.concat(expect.ok(app.roles.of(google.user.objectId, CC)), ","), "AuthenticatedUser,SocialUser,Fan")
end)

scenario("roles.users: the holders of a custom role as records, in query order; load_roles adds their custom roles", function()
  local app = understudy.backendless()
  app.roles.define("Editor")
  app.roles.define("Agent")
  for i = 1, 4 do
    local user = expect.ok(app.users.register{ email = "u" .. i .. "@example.com", password = "p", rank = i })
    app.clock.advance(1)
    if i ~= 2 then expect.ok(app.roles.assign(user.objectId, "Editor", CC)) end
    if i == 3 then expect.ok(app.roles.assign(user.objectId, "Agent", CC)) end
  end
  local records = expect.ok(app.roles.users("Editor"))
  expect.equal(#records, 3)
  expect.equal(records[1].email, "u1@example.com")
  expect.equal(records[1].___class, "Users")
  expect.is_nil(records[1].roles)
  local sorted = expect.ok(app.roles.users("Editor", { load_roles = true, query = { sort_by = "rank desc", where = "rank > 1" } }))
  expect.equal(#sorted, 2)
  expect.equal(sorted[1].email, "u4@example.com")
  expect.equal(table.concat(sorted[2].roles, ","), "Editor,Agent")
  expect.equal(#sorted[1].roles, 1)
  expect.length(expect.ok(app.roles.users("Agent", { query = { page_size = 1, offset = 1 } })), 0)
end)

scenario("roles.users errors in order: 2005, 2003 for a system role (choice), then the query's 19000 and 1006", function()
  local app = understudy.backendless()
  app.roles.define("Editor")
  expect.error({ code = 2005, message = "Could not find role" }, app.roles.users("Nope", { query = { where = "x >" } }))
  expect.error({ code = 2003, message = "Role does not support for this operation" }, app.roles.users("AuthenticatedUser"))
  expect.error(19000, app.roles.users("Editor", { query = { where = "x >" } }))
  expect.error(1006, app.roles.users("Editor", { query = { where = "x > 1" } }))
  expect.fails(function() app.roles.users("Editor", { loadroles = true }) end, "unknown field 'loadroles'")
  expect.fails(function() app.roles.users("Editor", { query = { page_size = 0 } }) end, "options.query.page_size")
end)

scenario("deleting a user removes its role assignments", function()
  local app, bond = app_with_bond()
  app.roles.define("Editor")
  expect.ok(app.roles.assign(bond.objectId, "Editor", CC))
  expect.ok(app.users.delete(bond.objectId))
  expect.length(expect.ok(app.roles.users("Editor")), 0)
  local again = expect.ok(app.users.register{ email = "bond@example.com", password = "p" })
  expect.equal(table.concat(expect.ok(app.roles.of(again.objectId, CC)), ","), "AuthenticatedUser")
end)
