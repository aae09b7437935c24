--[[
  Backendless: app settings (what the Backendless console would configure)

  Settings are given when the backend is created, understudy.backendless{ registration = false },
  and can be read or changed at any time through app.settings:
      app.settings.registration = false        print(app.settings.lockout_minutes)
  Defaults: identity "email", registration true, email_confirmation false, dynamic_properties true,
  properties {}, logins true, lockout_after 0, lockout_minutes 30, multiple_logins "allow".

  A misspelt setting name is a mistake in the scenario, not a backend error: it raises a Lua error
  naming the setting, so a typo can never silently leave a feature at its default.
]]

local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("a fresh backend has the documented default settings", { tags = { "smoke" } }, function()
  local s = understudy.backendless().settings
  expect.equal(s.identity, "email", "identity")
  expect.equal(s.registration, true, "registration")
  expect.equal(s.email_confirmation, false, "email_confirmation")
  expect.equal(s.dynamic_properties, true, "dynamic_properties")
  expect.equal(s.properties, {}, "properties")
  expect.equal(s.logins, true, "logins")
  expect.equal(s.lockout_after, 0, "lockout_after")
  expect.equal(s.lockout_minutes, 30, "lockout_minutes")
  expect.equal(s.multiple_logins, "allow", "multiple_logins")
end)

scenario("settings given at creation can be read back", function()
  local app = understudy.backendless{ identity = "name", registration = false, lockout_after = 5,
                                      multiple_logins = 3, properties = { rank = { required = true } } }
  expect.equal(app.settings.identity, "name")
  expect.equal(app.settings.registration, false)
  expect.equal(app.settings.lockout_after, 5)
  expect.equal(app.settings.multiple_logins, 3)
  expect.equal(app.settings.properties, { rank = { required = true } })
end)

scenario("settings not given at creation keep their defaults", function()
  local app = understudy.backendless{ lockout_after = 5 }
  expect.equal(app.settings.lockout_minutes, 30)
  expect.equal(app.settings.registration, true)
end)

scenario("a setting written through app.settings reads back the new value", function()
  local app = understudy.backendless()
  app.settings.logins = false
  app.settings.lockout_minutes = 45
  app.settings.multiple_logins = "deny"
  expect.equal(app.settings.logins, false)
  expect.equal(app.settings.lockout_minutes, 45)
  expect.equal(app.settings.multiple_logins, "deny")
end)

scenario("a setting changed at runtime takes effect on the next call", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  app.settings.registration = false
  expect.error(3009, app.users.register{ email = "m@mi6.co.uk", password = "olderThanYou" })
  expect.ok(app.users.login(BOND, PASSWORD))
end)

scenario("two backends have independent settings", function()
  local closed = understudy.backendless{ registration = false }
  local open = understudy.backendless()
  expect.equal(open.settings.registration, true)
  expect.error(3009, closed.users.register{ email = BOND, password = PASSWORD })
  expect.ok(open.users.register{ email = BOND, password = PASSWORD })
end)

scenario("writing an unknown setting name raises a Lua error naming it", function()
  local app = understudy.backendless()
  expect.fails(function() app.settings.registraton = false end, "registraton")
end)

scenario("reading an unknown setting name raises a Lua error naming it", function()
  local app = understudy.backendless()
  expect.fails(function() return app.settings.max_users end, "max_users")
end)

scenario("an unknown setting name at creation raises a Lua error naming it", function()
  local ok, message = pcall(understudy.backendless, { email_confirmations = true })
  expect.falsy(ok, "creation should have raised")
  expect.contains(tostring(message), "email_confirmations")
end)

scenario("a setting of the wrong type raises a Lua error naming it and keeps the old value", function()
  local app = understudy.backendless()
  expect.fails(function() app.settings.registration = "off" end, "registration")
  expect.equal(app.settings.registration, true)
end)
