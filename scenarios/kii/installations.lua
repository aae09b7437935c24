-- Kii: push installations (app.installations.*) and app.push.send_to_user
--
-- register{ user, type = "ANDROID"|"IOS"|"JPUSH"|"MQTT", token?, development? } returns
-- { installationID, installationRegistrationID, deviceType, userID, development }.
--   * ANDROID, IOS and JPUSH need `token` (the push service's registration id); MQTT takes none.
--   * The same type + token registered again MOVES to the new user and keeps its installationID.
--   * A user has at most one MQTT installation; a repeat returns it.
--   * Errors: 404 USER_NOT_FOUND, then 400 INVALID_INPUT_DATA (missing token, unknown type, a token
--     over 1024 characters).
-- unregister: 404 INSTALLATION_NOT_FOUND for an unknown id.
-- send_to_user{ user, message } -> { delivered = { installationID... } }, one outbox push each;
-- a disabled user receives nothing.

local function two_users(app)
  local a = expect.ok(app.users.register{ username = "alice", password = "secret" })
  local b = expect.ok(app.users.register{ username = "bob", password = "secret" })
  return a, b
end

scenario("an Android installation is registered and read back", function()
  local app = understudy.kii()
  local alice = two_users(app)
  local inst = expect.ok(app.installations.register{ user = alice.userID, type = "ANDROID", token = "fcm-1",
                                                     development = true })
  expect.equal(inst, { installationID = inst.installationID, installationRegistrationID = "fcm-1",
                       deviceType = "ANDROID", userID = alice.userID, development = true })
  expect.equal(app.installations.get(inst.installationID), inst)
  expect.is_nil(app.installations.get("nope"))
end)

scenario("registering the same device again moves it to the new user with the same id", function()
  local app = understudy.kii()
  local alice, bob = two_users(app)
  local first = expect.ok(app.installations.register{ user = alice.userID, type = "IOS", token = "apns-1" })
  local moved = expect.ok(app.installations.register{ user = bob.userID, type = "IOS", token = "apns-1" })
  expect.equal(moved.installationID, first.installationID)
  expect.equal(moved.userID, bob.userID)
  expect.length(app.installations.list(alice.userID), 0)
  expect.length(app.installations.list(bob.userID), 1)
end)

scenario("one MQTT installation per user; a repeat returns it", function()
  local app = understudy.kii()
  local alice = two_users(app)
  local first = expect.ok(app.installations.register{ user = alice.userID, type = "MQTT" })
  local again = expect.ok(app.installations.register{ user = alice.userID, type = "MQTT" })
  expect.equal(again.installationID, first.installationID)
  expect.not_nil(first.installationRegistrationID)
end)

scenario("list is sorted by installationID", function()
  local app = understudy.kii()
  local alice = two_users(app)
  for i = 1, 5 do expect.ok(app.installations.register{ user = alice.userID, type = "JPUSH", token = "j" .. i }) end
  local list = app.installations.list(alice.userID)
  expect.length(list, 5)
  for i = 2, 5 do expect.truthy(list[i - 1].installationID < list[i].installationID) end
end)

scenario("register checks the user first, then the token and the type", function()
  local app = understudy.kii()
  local alice = two_users(app)
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.installations.register{ user = "nobody", type = "FAX" })
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.installations.register{ user = alice.userID, type = "FAX", token = "x" })
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.installations.register{ user = alice.userID, type = "ANDROID" })
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "installationRegistrationID" },
    app.installations.register{ user = alice.userID, type = "ANDROID", token = string.rep("x", 10240) })
  expect.length(app.installations.list(alice.userID), 0)
end)

scenario("unregister removes it; an unknown id is 404 INSTALLATION_NOT_FOUND", function()
  local app = understudy.kii()
  local alice = two_users(app)
  local inst = expect.ok(app.installations.register{ user = alice.userID, type = "ANDROID", token = "fcm-1" })
  expect.equal(app.installations.unregister(inst.installationID), true)
  expect.error({ status = 404, code = "INSTALLATION_NOT_FOUND" }, app.installations.unregister(inst.installationID))
end)

scenario("send_to_user pushes once per installation; a disabled user gets nothing", function()
  local app = understudy.kii()
  local alice = two_users(app)
  local a = expect.ok(app.installations.register{ user = alice.userID, type = "ANDROID", token = "fcm-1" })
  local b = expect.ok(app.installations.register{ user = alice.userID, type = "MQTT" })
  local result = expect.ok(app.push.send_to_user{ user = alice.userID, message = "hello" })
  local ids = { a.installationID, b.installationID }
  table.sort(ids)
  expect.equal(result.delivered, ids)
  local pushes = app.outbox.pushes()
  expect.length(pushes, 2)
  -- contract v4: the MQTT installation's push also carries the payload its MQTT client receives
  for _, push in ipairs(pushes) do
    local expected = { installation_id = push.installation_id, user = alice.userID, message = "hello" }
    if push.installation_id == b.installationID then
      expected.payload = '{"message":"hello","senderURI":"kiicloud://admins/APP_ADMIN","sourceURI":"kiicloud://users/'
        .. alice.userID .. '"}'
    end
    expect.equal(push, expected)
  end
  expect.ok(app.users.set_disabled(alice.userID, true))
  expect.equal(expect.ok(app.push.send_to_user{ user = alice.userID, message = "again" }).delivered, {})
  expect.length(app.outbox.pushes(), 2)
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.push.send_to_user{ user = "nobody", message = "x" })
end)
