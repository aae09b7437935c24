-- A first Kii scenario file. Run it with:   understudy run scenarios/
-- Kii errors are err = { status, code, message, field?, value? }.

scenario("a user registers with a username and logs in", { tags = { "smoke" } }, function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
  expect.equal(user.loginName, "bond007")
  expect.ok(app.users.login("bond007", "123ABC"))
  -- usernames are unique without regard to case
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName" },
               app.users.register{ username = "BOND007", password = "123ABC" })
end)

scenario("an SMS code verifies the phone; time is virtual", function()
  local app = understudy.kii{ phone_verification = true }
  local user = expect.ok(app.users.register{ username = "moneypenny", phone = "+819012345678", password = "123ABC" })
  local sms = expect.not_nil(app.outbox.last_sms("+819012345678"), "the verification SMS")
  app.clock.advance(60)                             -- a minute later, on the backend's own clock
  expect.ok(app.users.verify_phone(user.userID, sms.code))
  expect.ok(app.users.login("+819012345678", "123ABC"))
end)

scenario("a backend outage, injected on purpose", function()
  local app = understudy.kii()
  app.faults.inject{ op = "users.register", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE", times = 1 }
  expect.error({ status = 503 }, app.users.register{ username = "blofeld", password = "whiteCat" })
  expect.ok(app.users.register{ username = "blofeld", password = "whiteCat" })   -- the fault fired once
end)
