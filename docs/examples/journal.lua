-- Checks what an app under test sent to a running `understudy serve`, and the state that resulted.
--
-- The worked example of docs/http.md: the app (played by curl, see journal.sh) signs alice@example.com up on the
-- default Backendless app with email confirmation on, tries to log in before confirming, opens the confirmation
-- link, logs in, and registers the phone for push on the "news" channel. Then a tester posts this file:
--
--   curl -s -X POST 'http://127.0.0.1:8080/_understudy/scenarios?name=journal.lua' \
--     -H 'Content-Type: text/plain' --data-binary @docs/examples/journal.lua
--
-- The scenarios run one after another against the live apps (not fresh ones), so they see the server's journal,
-- users, devices and outbox. They only read: running the file twice gives the same outcome.

local EMAIL = "alice@example.com"
local app = understudy.app("UNDERSTUDY-APP")

-- The requests the Backendless app answered for one operation, oldest first.
local function sent(op)
  return understudy.journal.entries{ app_id = "UNDERSTUDY-APP", op = op }
end

scenario("the app registers the user once, sending only email and password", function()
  local registrations = sent("users.register")
  expect.equal(#registrations, 1, "registrations")
  expect.equal(registrations[1].method, "POST")
  expect.equal(registrations[1].json, { email = EMAIL, password = "[redacted]" })  -- never shown in clear
  expect.equal(registrations[1].status, 200)
end)

scenario("after 3087 the app waits for the confirmation before logging in again", function()
  local logins = sent("users.login")
  expect.equal(#logins, 2, "logins")
  expect.equal(logins[1].code, 3087)
  local confirmed = understudy.journal.last{ op = "users.confirm_email", status = 200 }
  expect.not_nil(confirmed, "an opened confirmation link")
  expect.truthy(logins[1].seq < confirmed.seq and confirmed.seq < logins[2].seq, "login, confirm, login in order")
  expect.equal(logins[2].status, 200)
end)

scenario("the phone is registered for news, once", function()
  local devices = sent("devices.register")
  expect.equal(#devices, 1, "device registrations")
  expect.equal(devices[1].json.os, "IOS")
  expect.equal(devices[1].json.channels, { "news" })
  expect.equal(app.channels.devices("news"), { devices[1].json.deviceId })
end)

scenario("nothing failed but the login before the confirmation", function()
  local failures = {}
  for _, request in ipairs(understudy.journal.entries{ app_id = "UNDERSTUDY-APP" }) do
    if request.status >= 400 then failures[#failures + 1] = request.op .. " " .. tostring(request.code) end
  end
  expect.equal(failures, { "users.login 3087" })
end)

scenario("alice ends up confirmed, with one confirmation email", function()
  expect.equal(app.users.find(EMAIL).userStatus, "ENABLED")
  expect.equal(#app.outbox.emails(EMAIL), 1, "emails to " .. EMAIL)
end)
