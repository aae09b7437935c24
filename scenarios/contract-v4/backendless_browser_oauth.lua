--[[
  Backendless contract v4: social login in the browser, without the provider's SDK.

  The app asks for the provider's authorization URL, the browser opens it, the user signs in at the provider
  (Understudy stands in for the provider's page), and the flow ends: in a popup that posts the session to the
  app, by a redirect to the app with userId and userToken, or with the user as JSON. The login is version 3's
  users.login_oauth, with the URL's fields_mapping; the provider accounts are version 3's app.oauth.account.

      oauth.authorization_url(provider, { fields_mapping?, permissions?, redirect_after_login_url?, popup? })
          → "{base}/{appId}/{apiKey}/users/oauth/{provider}/authorize?state={32 letters and digits}"     fault
      oauth.authorize(url, token, { secret? })
          → { user, token, redirect? }      fault, 3080, 3034, 3052, first login 3009 3014, later 3090 3036
  A URL works once; a sign-in that fails leaves it usable (fine point 7).
]]

local function app_with_accounts(settings)
  local app = understudy.backendless(settings)
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "10001", email = "bond@mi6.co.uk", name = "James" } }
  app.oauth.account{ provider = "twitter", token = "tw-1", secret = "s3cret", profile = { id = "t-7", name = "Q" } }
  app.oauth.account{ provider = "googleplus", token = "g-1", profile = { id = "g-9", email = "m@mi6.co.uk" } }
  return app
end

-- the URL -----------------------------------------------------------------------------------------------

scenario("authorization_url: the stand-in page's URL, provider lower-cased, a 32-character state", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("FaceBook"))
  local state = url:match("^http://127%.0%.0%.1:8080/UNDERSTUDY%-APP/UNDERSTUDY%-REST%-KEY/users/oauth/facebook/authorize%?state=(%w+)$")
  expect.not_nil(state, "the URL's shape: " .. url)
  expect.equal(#state, 32)
  local other = expect.ok(app.oauth.authorization_url("facebook"))
  expect.equal(other == url, false)
end)

scenario("authorization_url: every provider code gets a URL (choice), under the app's own id and key", function()
  local app = understudy.backendless{ app_id = "MY-APP", api_key = "MY-KEY" }
  for _, provider in ipairs({ "facebook", "googleplus", "twitter", "github", "linkedin", "apple", "someprovider" }) do
    local url = expect.ok(app.oauth.authorization_url(provider))
    expect.match(url, "/MY%-APP/MY%-KEY/users/oauth/" .. provider .. "/authorize%?state=")
  end
end)

scenario("authorization_url: misuse raises (an unknown option, a wrong type)", function()
  local app = app_with_accounts()
  expect.fails(function() app.oauth.authorization_url() end, "provider %(argument 1%) must be a string")
  expect.fails(function() app.oauth.authorization_url("facebook", { redirect = true }) end, "unknown field 'redirect'")
  expect.fails(function() app.oauth.authorization_url("facebook", { popup = "yes" }) end, "options.popup must be a boolean")
  expect.fails(function() app.oauth.authorization_url("facebook", { fields_mapping = { email = 1 } }) end, "options.fields_mapping.email must be a string")
  expect.fails(function() app.oauth.authorization_url("facebook", { permissions = "email" }) end, "options.permissions must be a list of strings")
  expect.fails(function() app.oauth.authorization_url("facebook", { redirect_after_login_url = 1 }) end, "options.redirect_after_login_url must be a string")
end)

scenario("authorization_url: a fault comes first and sees the arguments by name", function()
  local app = app_with_accounts()
  local seen
  app.faults.inject{ op = "users.oauth_url", code = 3000, when = function(args) seen = args; return args.provider == "twitter" end }
  expect.error(3000, app.oauth.authorization_url("twitter", { permissions = { "email" } }))
  expect.equal(seen.options.permissions[1], "email")
  expect.ok(app.oauth.authorization_url("facebook"))
  expect.is_nil(seen.options)
end)

-- signing in --------------------------------------------------------------------------------------------

scenario("authorize: the first sign-in registers the social user with the URL's fields_mapping", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("facebook", { fields_mapping = { email = "email", name = "name" }, permissions = { "email" } }))
  local signin = expect.ok(app.oauth.authorize(url, "fb-1"))
  expect.equal(signin.user.email, "bond@mi6.co.uk")
  expect.equal(signin.user.name, "James")
  expect.equal(signin.user.socialAccount, "facebook")
  expect.equal(signin.user.userStatus, "ENABLED")
  expect.is_nil(signin.redirect)
  expect.equal(app.users.count(), 1)
  expect.equal(table.concat(expect.ok(app.roles.of(signin.user.objectId, "cloudcode")), ","), "AuthenticatedUser,SocialUser,FacebookUser")
  expect.ok(app.users.logout(signin.token))                      -- a live session
end)

scenario("authorize: a later sign-in logs the same user in (as login_oauth would), mapped fields not refreshed", function()
  local app = app_with_accounts()
  local first = expect.ok(app.oauth.authorize(expect.ok(app.oauth.authorization_url("facebook", { fields_mapping = { name = "name" } })), "fb-1"))
  local direct = expect.ok(app.users.login_oauth("facebook", "fb-1"))
  expect.equal(direct.user.objectId, first.user.objectId)
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "10001", name = "Jim" } }
  local again = expect.ok(app.oauth.authorize(expect.ok(app.oauth.authorization_url("facebook", { fields_mapping = { name = "name" } })), "fb-1"))
  expect.equal(again.user.objectId, first.user.objectId)
  expect.equal(again.user.name, "James")
  expect.equal(again.token == first.token, false)
end)

scenario("authorize: redirect_after_login_url comes back with userId and userToken, after ? or &", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("facebook", { redirect_after_login_url = "https://app.example/done" }))
  local signin = expect.ok(app.oauth.authorize(url, "fb-1"))
  expect.equal(signin.redirect, "https://app.example/done?userId=" .. signin.user.objectId .. "&userToken=" .. signin.token)
  local with_query = expect.ok(app.oauth.authorization_url("facebook", { redirect_after_login_url = "https://app.example/done?from=fb" }))
  local second = expect.ok(app.oauth.authorize(with_query, "fb-1"))
  expect.equal(second.redirect, "https://app.example/done?from=fb&userId=" .. second.user.objectId .. "&userToken=" .. second.token)
end)

scenario("authorize: popup wins over redirect_after_login_url (fine point 27)", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("facebook", { popup = true, redirect_after_login_url = "https://app.example/done" }))
  local signin = expect.ok(app.oauth.authorize(url, "fb-1"))
  expect.is_nil(signin.redirect)
end)

scenario("authorize: OAuth1 takes the secret; a missing or other secret is 3052 and leaves the URL usable", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("twitter", { fields_mapping = { name = "name" } }))
  expect.error(3052, app.oauth.authorize(url, "tw-1"))
  expect.error(3052, app.oauth.authorize(url, "tw-1", { secret = "wrong" }))
  local signin = expect.ok(app.oauth.authorize(url, "tw-1", { secret = "s3cret" }))
  expect.equal(signin.user.name, "Q")
  expect.equal(signin.user.socialAccount, "twitter")
end)

scenario("authorize: misuse raises", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("facebook"))
  expect.fails(function() app.oauth.authorize(url) end, "token %(argument 2%) must be a string")
  expect.fails(function() app.oauth.authorize(url, "fb-1", { secret = 1 }) end, "options.secret must be a string")
  expect.fails(function() app.oauth.authorize(url, "fb-1", { guest = "x" }) end, "unknown field 'guest'")
end)

-- errors, in order --------------------------------------------------------------------------------------

scenario("3080: a URL no authorization_url made, one already used, one naming another provider (choice)", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("facebook"))
  expect.error({ code = 3080, message = "Wrong or unsupported authorized user redirect URL" },
    app.oauth.authorize("http://127.0.0.1:8080/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY/users/oauth/facebook/authorize?state=nope", "fb-1"))
  expect.error(3080, app.oauth.authorize("https://example.com/", "fb-1"))
  expect.error(3080, app.oauth.authorize(url:gsub("/facebook/", "/twitter/"), "fb-1"))
  expect.ok(app.oauth.authorize(url, "fb-1"))
  expect.error(3080, app.oauth.authorize(url, "fb-1"))
  local other = understudy.backendless()
  expect.error(3080, other.oauth.authorize(expect.ok(app.oauth.authorization_url("facebook")), "fb-1"))
end)

scenario("3080 comes before the login's checks: 3034 with logins off only for a usable URL", function()
  local app = app_with_accounts()
  app.settings.logins = false
  expect.error(3080, app.oauth.authorize("http://x/a/b/users/oauth/facebook/authorize?state=nope", "fb-1"))
  local url = expect.ok(app.oauth.authorization_url("facebook"))
  expect.error(3034, app.oauth.authorize(url, "unknown-token"))
  app.settings.logins = true
  expect.error({ code = 3052, message = "External authentication failed with message 'Invalid access token'" }, app.oauth.authorize(url, "unknown-token"))
  expect.ok(app.oauth.authorize(url, "fb-1"))
end)

scenario("first sign-in errors: 3009 registration off, then 3014 wrapping a registration rule; the URL stays usable", function()
  local app = app_with_accounts{ properties = { nickname = { required = true } } }
  local url = expect.ok(app.oauth.authorization_url("facebook", { fields_mapping = { email = "email" } }))
  app.settings.registration = false
  expect.error(3009, app.oauth.authorize(url, "fb-1"))
  app.settings.registration = true
  expect.error({ code = 3014, message = "Unable to register user. External registration failed with message: Unable to register user. Property 'nickname' is required" },
    app.oauth.authorize(url, "fb-1"))
  local mapped = expect.ok(app.oauth.authorization_url("facebook", { fields_mapping = { email = "email", name = "nickname" } }))
  local signin = expect.ok(app.oauth.authorize(mapped, "fb-1"))
  expect.equal(signin.user.nickname, "James")
  expect.ok(app.users.delete(signin.user.objectId))
  expect.error(3014, app.oauth.authorize(url, "fb-1"))
end)

scenario("first sign-in whose mapped email is taken: 3014 wrapping 3033", function()
  local app = app_with_accounts()
  expect.ok(app.users.register{ email = "bond@mi6.co.uk", password = "p" })
  local url = expect.ok(app.oauth.authorization_url("facebook", { fields_mapping = { email = "email" } }))
  expect.error({ code = 3014, message = "Unable to register user. External registration failed with message: Unable to register user. User already exists." },
    app.oauth.authorize(url, "fb-1"))
end)

scenario("later sign-in errors: 3090 disabled, then 3036 locked out", function()
  local app = app_with_accounts{ lockout_after = 1 }
  local first = expect.ok(app.oauth.authorize(expect.ok(app.oauth.authorization_url("facebook", { fields_mapping = { email = "email" } })), "fb-1"))
  expect.error(3003, app.users.login("bond@mi6.co.uk", "guess"))
  expect.ok(app.users.set_status(first.user.objectId, "DISABLED"))
  local url = expect.ok(app.oauth.authorization_url("facebook"))
  expect.error(3090, app.oauth.authorize(url, "fb-1"))
  expect.ok(app.users.set_status(first.user.objectId, "ENABLED"))
  expect.error(3036, app.oauth.authorize(url, "fb-1"))
  app.clock.advance(31 * 60)
  expect.ok(app.oauth.authorize(url, "fb-1"))
end)

scenario("authorize: a fault comes first, changes nothing and leaves the URL usable; when(args) sees url, token and options", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("twitter"))
  local seen
  app.faults.inject{ op = "users.oauth_authorize", code = 3000, times = 1, when = function(args) seen = args; return true end }
  expect.error(3000, app.oauth.authorize(url, "tw-1", { secret = "s3cret" }))
  expect.equal(seen.url, url)
  expect.equal(seen.token, "tw-1")
  expect.equal(seen.options.secret, "s3cret")
  expect.equal(app.users.count(), 0)
  expect.ok(app.oauth.authorize(url, "tw-1", { secret = "s3cret" }))
end)

scenario("authorize with after_commit: the user signs in and the URL is used up, yet the app meets the error", function()
  local app = app_with_accounts()
  local url = expect.ok(app.oauth.authorization_url("facebook"))
  app.faults.inject{ op = "users.oauth_authorize", code = 3000, after_commit = true, times = 1 }
  expect.error(3000, app.oauth.authorize(url, "fb-1"))
  expect.equal(app.users.count(), 1)
  expect.error(3080, app.oauth.authorize(url, "fb-1"))
end)

scenario("op = \"users.*\" reaches both operations", function()
  local app = app_with_accounts()
  expect.ok(app.oauth.authorize(expect.ok(app.oauth.authorization_url("facebook")), "fb-1"))
  app.faults.inject{ op = "users.*", code = 3000 }
  expect.error(3000, app.oauth.authorization_url("facebook"))
  expect.error(3000, app.oauth.authorize("http://x/y", "fb-1"))
end)
