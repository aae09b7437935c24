--[[
  Scenario isolation

  Every scenario runs on its own: backends, global variables and clocks created in one scenario are
  never seen by another, even in the same file. The scenarios below come in pairs, run in declaration
  order: the first one leaves something behind on purpose, the second checks that it is gone.
  So a scenario can rely on a clean start, and the order of scenarios never changes a result.
]]

local EPOCH = 1893456000
local BOND, PASSWORD = "james.bond@mi6.co.uk", "iAmWatchingU"

scenario("a scenario can keep state in globals while it runs", function()
  leaked_agent = "006"
  leaked_app = understudy.backendless{ registration = false }
  leaked_app.clock.advance(86400)
  leaked_app.faults.inject{ op = "users.register", code = 3021 }
  string.leaked_helper = function() return "Janus" end
  expect.equal(leaked_agent, "006")
  expect.equal(leaked_app.clock.now(), EPOCH + 86400)
  expect.equal(string.leaked_helper(), "Janus")
end)

scenario("globals set by an earlier scenario are not visible in the next one", function()
  expect.is_nil(leaked_agent, "leaked_agent")
  expect.is_nil(leaked_app, "leaked_app")
  expect.is_nil(string.leaked_helper, "string.leaked_helper")
end)

scenario("a scenario registers a user on its backend", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(app.users.count(), 1)
  app.clock.advance(365 * 86400)
  expect.equal(app.clock.now(), EPOCH + 365 * 86400)
end)

scenario("the next scenario's backend has no users, a clock at the epoch and default settings", function()
  local app = understudy.backendless()
  expect.equal(app.clock.now(), EPOCH)
  expect.equal(app.users.count(), 0)
  expect.is_nil(app.users.find(BOND))
  expect.equal(app.settings.registration, true)
  local user = expect.ok(app.users.register{ email = BOND, password = PASSWORD })
  expect.equal(user.created, EPOCH * 1000)
end)

scenario("a scenario can overwrite the helpers it was given; its backends keep working", function()
  local app = understudy.backendless()
  understudy = nil
  expect = nil
  local user = app.users.register{ email = BOND, password = PASSWORD }
  assert(user and user.created == EPOCH * 1000, "the backend should work without the globals")
end)

scenario("the next scenario gets the helpers back", function()
  assert(type(understudy) == "table", "understudy should be a fresh global in every scenario")
  assert(type(expect) == "table", "expect should be a fresh global in every scenario")
  expect.equal(understudy.backendless().clock.now(), EPOCH)
end)

scenario("two backends in one scenario share nothing", function()
  local mi6 = understudy.backendless()
  local cia = understudy.backendless{ identity = "name" }
  expect.ok(mi6.users.register{ email = BOND, password = PASSWORD })
  mi6.clock.advance(3600)
  expect.equal(cia.users.count(), 0)
  expect.is_nil(cia.users.find(BOND))
  expect.equal(cia.clock.now(), EPOCH)
  expect.equal(mi6.settings.identity, "email")
  expect.ok(cia.users.register{ name = "Felix Leiter", password = "langleyVA" })
  expect.equal(mi6.users.count(), 1)
end)
