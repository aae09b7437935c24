-- Kii: social login with scripted providers (KiiSocialConnect, contract v4)
--
-- app.social.account{ provider, token, secret?, open_id?, profile = { id, ... } } (console) -> true
-- app.users.login_social(provider, token, options?) -> { user, token, new_user_created }
--   errors in order: fault; 400 invalid_grant (no account of the provider has the token, or its secret/open_id
--   differs); 400 invalid_grant (a disabled user)
-- app.users.link_social(token, provider, provider_token, options?) -> user
--   errors in order: fault; 401 UNAUTHORIZED; 403 WRONG_TOKEN; 400 INVALID_INPUT_DATA (field accessToken);
--   409 FACEBOOK_/GOOGLE_/QQ_USER_ALREADY_LINKED (USER_ALREADY_LINKED for twitter, renren); 409 USER_ALREADY_LINKED
--   (the account belongs to another user)
-- app.users.unlink_social(token, provider) -> user; errors: fault; 401; 403; 409 USER_NOT_LINKED
-- (choice) a first login registers a user with no identifier and hasPassword = false; no profile field is copied.

local PASSWORD = "123ABC"

scenario("a first login registers a linked user; later logins log the same user in", function()
  local app = understudy.kii()
  expect.equal(app.social.account{ provider = "facebook", token = "fb-token", profile = { id = "fb-1", name = "Jim" } }, true)
  local first = expect.ok(app.users.login_social("facebook", "fb-token"))
  expect.equal(first.new_user_created, true)
  expect.is_nil(first.user.loginName)
  expect.equal(first.user.hasPassword, false)
  expect.is_nil(first.user.name)
  expect.equal(first.user.thirdPartyAccounts.facebook.id, "fb-1")
  expect.equal(first.user.thirdPartyAccounts.facebook.type, "facebook")
  expect.equal(first.user.thirdPartyAccounts.facebook.createdAt, 1893456000)
  expect.equal(expect.ok(app.users.me(first.token)).userID, first.user.userID)
  local again = expect.ok(app.users.login_social("FaceBook", "fb-token"))
  expect.equal(again.new_user_created, false)
  expect.equal(again.user.userID, first.user.userID)
  expect.not_equal(again.token, first.token)
end)

scenario("every user carries thirdPartyAccounts, empty when none", function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  expect.equal(user.thirdPartyAccounts, {})
end)

scenario("an unknown token, or a missing or different twitter secret / qq open_id, is invalid_grant", function()
  local app = understudy.kii()
  app.social.account{ provider = "twitter", token = "tw", secret = "s3cret", profile = { id = "tw-1" } }
  app.social.account{ provider = "qq", token = "qq", open_id = "oid", profile = { id = "qq-1" } }
  app.social.account{ provider = "renren", token = "rr", profile = { id = "rr-1" } }
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login_social("google", "nope"))
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login_social("facebook", "tw"))
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login_social("twitter", "tw"))
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login_social("twitter", "tw", { secret = "other" }))
  expect.ok(app.users.login_social("twitter", "tw", { secret = "s3cret" }))
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login_social("qq", "qq"))
  expect.ok(app.users.login_social("qq", "qq", { open_id = "oid" }))
  -- a secret sent for an account defined without one is ignored; only twitter takes secret, only qq open_id
  app.social.account{ provider = "twitter", token = "tw2", profile = { id = "tw-2" } }
  expect.ok(app.users.login_social("twitter", "tw2", { secret = "anything" }))
  expect.fails(function() app.users.login_social("facebook", "x", { secret = "s" }) end, "secret")
  expect.fails(function() app.users.login_social("twitter", "x", { open_id = "o" }) end, "open_id")
  expect.fails(function() app.users.login_social("myspace", "x") end, "provider")
  expect.fails(function() app.social.account{ provider = "google", token = "t", profile = {} } end, "id")
end)

scenario("a disabled social user is invalid_grant; a fault comes first and changes nothing", function()
  local app = understudy.kii()
  app.social.account{ provider = "google", token = "g", profile = { id = "g-1" } }
  local fault = app.faults.inject{ op = "users.login_social", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE",
                                   when = function(args) return args.provider == "google" end }
  expect.error({ status = 503 }, app.users.login_social("google", "g"))
  expect.equal(app.users.count(), 0)
  fault:remove()
  local login = expect.ok(app.users.login_social("google", "g"))
  expect.ok(app.users.set_disabled(login.user.userID, true))
  expect.error({ status = 400, code = "invalid_grant" }, app.users.login_social("google", "g"))
end)

scenario("link_social links a password user's account; its login then logs that user in; unlink frees it", function()
  local app = understudy.kii()
  app.social.account{ provider = "facebook", token = "fb", profile = { id = "fb-1" } }
  local alice = expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  local linked = expect.ok(app.users.link_social(alice.token, "facebook", "fb"))
  expect.equal(linked.thirdPartyAccounts.facebook.id, "fb-1")
  local login = expect.ok(app.users.login_social("facebook", "fb"))
  expect.equal(login.user.userID, alice.userID)
  expect.equal(login.new_user_created, false)
  local unlinked = expect.ok(app.users.unlink_social(alice.token, "facebook"))
  expect.equal(unlinked.thirdPartyAccounts, {})
  local fresh = expect.ok(app.users.login_social("facebook", "fb"))
  expect.equal(fresh.new_user_created, true)
  expect.not_equal(fresh.user.userID, alice.userID)
end)

scenario("link_social checks in order: token never issued, token ended, provider token, provider taken, account taken", function()
  local app = understudy.kii()
  app.social.account{ provider = "facebook", token = "fb-1", profile = { id = "fb-1" } }
  app.social.account{ provider = "facebook", token = "fb-2", profile = { id = "fb-2" } }
  app.social.account{ provider = "twitter", token = "tw-1", profile = { id = "tw-1" } }
  app.social.account{ provider = "twitter", token = "tw-2", profile = { id = "tw-2" } }
  local alice = expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  local bob = expect.ok(app.users.register{ username = "bob", password = PASSWORD })
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.users.link_social("never-issued", "facebook", "nope"))
  local old = expect.ok(app.users.login("bob", PASSWORD)).token
  expect.ok(app.users.change_password(bob.userID, PASSWORD, "NEWPASS"))
  expect.error({ status = 403, code = "WRONG_TOKEN" }, app.users.link_social(old, "facebook", "nope"))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "accessToken" },
    app.users.link_social(alice.token, "facebook", "nope"))
  expect.ok(app.users.link_social(alice.token, "facebook", "fb-1"))
  expect.error({ status = 409, code = "FACEBOOK_USER_ALREADY_LINKED" }, app.users.link_social(alice.token, "facebook", "fb-2"))
  -- the provider-specific 409 comes before the account-taken one
  expect.error({ status = 409, code = "FACEBOOK_USER_ALREADY_LINKED" }, app.users.link_social(alice.token, "facebook", "fb-1"))
  local bobToken = expect.ok(app.users.login("bob", "NEWPASS")).token
  expect.error({ status = 409, code = "USER_ALREADY_LINKED" }, app.users.link_social(bobToken, "facebook", "fb-1"))
  expect.ok(app.users.link_social(alice.token, "twitter", "tw-1"))
  expect.error({ status = 409, code = "USER_ALREADY_LINKED" }, app.users.link_social(alice.token, "twitter", "tw-2"))
  app.faults.inject{ op = "users.link_social", status = 500, code = "UNDEFINED_ERROR",
                     when = function(args) return args.provider_token == "fb-2" end }
  expect.error({ status = 500 }, app.users.link_social(bobToken, "facebook", "fb-2"))
  expect.equal(app.users.find("bob").thirdPartyAccounts, {})
end)

scenario("each provider's own 409: google and qq as facebook, renren as twitter (USER_ALREADY_LINKED)", function()
  local app = understudy.kii()
  for _, p in ipairs({ "google", "qq", "renren" }) do
    app.social.account{ provider = p, token = p .. "-1", profile = { id = p .. "-1" } }
    app.social.account{ provider = p, token = p .. "-2", profile = { id = p .. "-2" } }
  end
  local alice = expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  expect.ok(app.users.link_social(alice.token, "google", "google-1"))
  expect.error({ status = 409, code = "GOOGLE_USER_ALREADY_LINKED" }, app.users.link_social(alice.token, "google", "google-2"))
  expect.ok(app.users.link_social(alice.token, "qq", "qq-1"))
  expect.error({ status = 409, code = "QQ_USER_ALREADY_LINKED" }, app.users.link_social(alice.token, "QQ", "qq-2"))
  expect.ok(app.users.link_social(alice.token, "renren", "renren-1"))
  expect.error({ status = 409, code = "USER_ALREADY_LINKED" }, app.users.link_social(alice.token, "renren", "renren-2"))
  local linked = expect.ok(app.users.unlink_social(alice.token, "google"))
  expect.is_nil(linked.thirdPartyAccounts.google)
  expect.equal(linked.thirdPartyAccounts.qq.id, "qq-1")
end)

scenario("unlink_social checks the token, then that the user is linked", function()
  local app = understudy.kii()
  local alice = expect.ok(app.users.register{ username = "alice", password = PASSWORD })
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.users.unlink_social("never-issued", "qq"))
  expect.error({ status = 409, code = "USER_NOT_LINKED" }, app.users.unlink_social(alice.token, "qq"))
  app.faults.inject{ op = "users.unlink_social", status = 500, code = "UNDEFINED_ERROR" }
  expect.error({ status = 500 }, app.users.unlink_social(alice.token, "qq"))
end)

scenario("deleting a user frees its provider accounts; a social user may put_identity to gain a password", function()
  local app = understudy.kii()
  app.social.account{ provider = "renren", token = "rr", profile = { id = "rr-1" } }
  local first = expect.ok(app.users.login_social("renren", "rr"))
  local upgraded = expect.ok(app.users.put_identity(first.token, { username = "ren", password = PASSWORD }))
  expect.equal(upgraded.hasPassword, true)
  expect.equal(upgraded.thirdPartyAccounts.renren.id, "rr-1")
  expect.ok(app.users.login("ren", PASSWORD))
  expect.ok(app.users.delete(first.user.userID))
  expect.equal(expect.ok(app.users.login_social("renren", "rr")).new_user_created, true)
end)
