-- Kii: injected faults
--
-- A scenario can make the next calls of an operation fail on purpose, to see how an app copes:
--   app.faults.inject{ op = "users.register", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
-- The call then answers `nil, err` with err.status and err.code as injected (plus err.message), exactly as
-- a real Kii error would, and does nothing else: no user is created, no address changes, nothing is verified.
-- Options: message, times = N (default unlimited), probability (default 1), when = function(args) ... end.
-- fault.hits counts the calls the fault failed; fault:remove() and app.faults.clear() switch faults off.
-- Kii operations: users.register, users.login, users.verify_email, users.verify_phone,
-- users.change_email, users.change_phone.

local PASSWORD = "123ABC"
local UNAVAILABLE = { status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }

local function inject(app, op, extra)
  local spec = { op = op, status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
  for k, v in pairs(extra or {}) do spec[k] = v end
  return app.faults.inject(spec)
end

-- true when any value in args (looked at recursively) equals `needle`; works whatever the shape of args
local function mentions(args, needle)
  if args == needle then return true end
  if type(args) ~= "table" then return false end
  for _, v in pairs(args) do
    if mentions(v, needle) then return true end
  end
  return false
end

local function register(app, username)
  return app.users.register{ username = username or "bond007", email = "james@mi6.co.uk", password = PASSWORD }
end

scenario("a fault on users.register answers with the injected status and code", function()
  local app = understudy.kii()
  inject(app, "users.register")
  local err = expect.error(UNAVAILABLE, register(app))
  expect.equal(type(err.message), "string", "type of err.message")
end)

scenario("an injected message is passed through", function()
  local app = understudy.kii()
  inject(app, "users.register", { message = "Kii is down for maintenance" })
  expect.error({ status = 503, message = "Kii is down for maintenance" }, register(app))
end)

scenario("a failed registration creates no user and leaves its identifiers free", function()
  local app = understudy.kii()
  local fault = inject(app, "users.register")
  expect.error(UNAVAILABLE, register(app))
  expect.equal(app.users.count(), 0, "users")
  expect.is_nil(app.users.find("bond007"), "find('bond007')")
  fault:remove()
  expect.ok(register(app))
end)

scenario("any Kii error can be imitated, for example a 409 conflict", function()
  local app = understudy.kii()
  app.faults.inject{ op = "users.register", status = 409, code = "USER_ALREADY_EXISTS" }
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS" }, register(app))
end)

scenario("a fault with times = 1 fails only the next call", function()
  local app = understudy.kii()
  local fault = inject(app, "users.register", { times = 1 })
  expect.error(UNAVAILABLE, register(app))
  expect.ok(register(app))
  expect.equal(fault.hits, 1, "fault.hits")
end)

scenario("fault.hits counts the calls the fault failed", function()
  local app = understudy.kii()
  local fault = inject(app, "users.register")
  expect.equal(fault.hits, 0, "hits before any call")
  -- the calls fail on purpose; only the count matters here
  understudy.ignore(register(app, "alice"))
  understudy.ignore(register(app, "bob"))
  understudy.ignore(register(app, "carol"))
  expect.equal(fault.hits, 3, "hits after three calls")
end)

scenario("a fault on users.login refuses even the right password until removed", function()
  local app = understudy.kii()
  expect.ok(register(app))
  local fault = inject(app, "users.login")
  expect.error(UNAVAILABLE, app.users.login("bond007", PASSWORD))
  fault:remove()
  expect.ok(app.users.login("bond007", PASSWORD))
end)

scenario("a when predicate fails only the matching calls", function()
  local app = understudy.kii()
  expect.ok(register(app, "alice"))
  expect.ok(app.users.register{ username = "bob", password = PASSWORD })
  local fault = inject(app, "users.login", { when = function(args) return mentions(args, "bob") end })
  expect.ok(app.users.login("alice", PASSWORD))
  expect.error(UNAVAILABLE, app.users.login("bob", PASSWORD))
  expect.equal(fault.hits, 1, "fault.hits")
end)

scenario("a fault with probability 0 never fires", function()
  local app = understudy.kii()
  local fault = inject(app, "users.register", { probability = 0 })
  for i = 1, 20 do
    expect.ok(app.users.register{ username = "user" .. i, password = PASSWORD })
  end
  expect.equal(fault.hits, 0, "fault.hits")
end)

scenario("a fault on verify_email leaves the email unverified, and the code still works afterwards", function()
  local app = understudy.kii{ email_verification = true }
  local user = expect.ok(register(app))
  local code = app.outbox.emails()[1].code
  local fault = inject(app, "users.verify_email")
  expect.error(UNAVAILABLE, app.users.verify_email(user.userID, code))
  expect.error("invalid_grant", app.users.login("james@mi6.co.uk", PASSWORD))
  fault:remove()
  expect.equal(expect.ok(app.users.verify_email(user.userID, code)).emailAddressVerified, true)
end)

scenario("a fault on verify_phone leaves the phone unverified", function()
  local app = understudy.kii{ phone_verification = true }
  local user = expect.ok(app.users.register{ username = "bond007", phone = "+819012345678", password = PASSWORD })
  inject(app, "users.verify_phone")
  expect.error(UNAVAILABLE, app.users.verify_phone(user.userID, app.outbox.sms()[1].code))
  expect.error("invalid_grant", app.users.login("+819012345678", PASSWORD))
end)

scenario("a fault on change_email keeps the old email", function()
  local app = understudy.kii()
  local user = expect.ok(register(app))
  inject(app, "users.change_email")
  expect.error(UNAVAILABLE, app.users.change_email(user.userID, "new@mi6.co.uk"))
  expect.ok(app.users.login("james@mi6.co.uk", PASSWORD))
  expect.error("invalid_grant", app.users.login("new@mi6.co.uk", PASSWORD))
end)

scenario("a fault on change_phone keeps the old phone and sends nothing", function()
  local app = understudy.kii{ phone_verification = true }
  local user = expect.ok(app.users.register{ username = "bond007", phone = "+819012345678", password = PASSWORD })
  expect.ok(app.users.verify_phone(user.userID, app.outbox.sms()[1].code))
  inject(app, "users.change_phone")
  expect.error(UNAVAILABLE, app.users.change_phone(user.userID, "+819087654321"))
  expect.length(app.outbox.sms(), 1)
  expect.ok(app.users.login("+819012345678", PASSWORD))
end)

scenario("a fault on one operation leaves the others working", function()
  local app = understudy.kii()
  inject(app, "users.change_email")
  expect.ok(register(app))
  expect.ok(app.users.login("bond007", PASSWORD))
end)

scenario("faults.clear removes every fault", function()
  local app = understudy.kii()
  inject(app, "users.register")
  inject(app, "users.login")
  expect.equal(app.faults.clear(), true)
  expect.ok(register(app))
  expect.ok(app.users.login("bond007", PASSWORD))
end)
