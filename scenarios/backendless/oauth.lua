--[[
  Backendless: sign-up and login through an OAuth provider (contract version 3)

  The scenario stands in for the provider (Facebook, Google, Twitter, any provider the app's SDK names):
      app.oauth.account{ provider = "facebook", token = "fb-token-1", secret = nil,
                         profile = { id = "10001", email = "bond@example.com", name = "James" } }
  says that the provider accepts that access token and returns that profile. Provider codes are compared
  without case; the same provider and token again replaces the account. A provider account is the pair
  (provider, profile.id): two tokens with the same id are the same person.

  app.users.login_oauth(provider, token, { fields_mapping = { email = "email" }, guest = objectId, secret = s })
  returns a session { token, user } like users.login. The first login of a provider account REGISTERS a user
  (the seed's "external registration"): its properties are the mapped profile fields and nothing else,
  socialAccount = the provider code in lower case, userStatus = "ENABLED" (no email confirmation). With
  `guest`, that guest becomes the social user and keeps its objectId. Later logins log the same user in;
  the mapped fields are not refreshed.

  Errors, checked in this order:
    a fault; 3034 logins off; 3052 no account of that provider has the token (or the secret differs);
    on a first login only: 3009 registration off, 3039 `guest` is not a guest's objectId, 3014 the mapped
    properties break a registration rule (3012 required property missing, 8000 too long, 3033 identity
    taken; the message wraps that error's own); on later logins: 3090 disabled, 3036 locked out.

  A social user (socialAccount other than "BACKENDLESS") has no password: users.update with a password is
  3072, changing its identity 3096, users.restore_password 3075, users.login 3003 whatever the password.
]]

local BOND, M = "james.bond@mi6.co.uk", "m@mi6.co.uk"
local MAP = { fields_mapping = { email = "email", name = "name" } }

local function app_with_bond_on_facebook(settings)
  local app = understudy.backendless(settings)
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "10001", email = BOND, name = "James" } }
  return app
end

-- oauth.account ------------------------------------------------------------------------------------------

scenario("oauth.account answers true and a bad account raises, naming the field", function()
  local app = understudy.backendless()
  expect.equal(app.oauth.account{ provider = "facebook", token = "t", profile = { id = "1" } }, true)
  expect.fails(function() app.oauth.account{ token = "t", profile = { id = "1" } } end, "account.provider is required")
  expect.fails(function() app.oauth.account{ provider = "facebook", profile = { id = "1" } } end, "account.token is required")
  expect.fails(function() app.oauth.account{ provider = "facebook", token = "t" } end, "account.profile must be a table")
  expect.fails(function() app.oauth.account{ provider = "facebook", token = "t", profile = { name = "x" } } end, "profile.id is required")
  expect.fails(function() app.oauth.account{ provider = "facebook", token = "t", profile = { id = 7 } } end, "account.profile.id must be a string, got number")
  expect.fails(function() app.oauth.account{ provider = "", token = "t", profile = { id = "1" } } end, "provider must be a non%-empty string")
  expect.fails(function() app.oauth.account{ provider = "facebook", token = "t", profile = { id = "1" }, scope = "x" } end, "unknown field 'scope'")
  expect.fails(function() app.oauth.account("facebook") end, "account %(argument 1%) must be a table")
end)

scenario("the same provider and token again replaces the account", function()
  local app = understudy.backendless()
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", name = "First" } }
  app.oauth.account{ provider = "FACEBOOK", token = "fb-1", profile = { id = "2", name = "Second" } }
  local session = expect.ok(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { name = "name" } }))
  expect.equal(session.user.name, "Second")
end)

-- first login: registration -------------------------------------------------------------------------------

scenario("the first OAuth login registers a social user with the mapped fields and logs it in", { tags = { "smoke" } }, function()
  local app = app_with_bond_on_facebook()
  local session = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP))
  expect.equal(type(session.token), "string", "token type")
  local user = session.user
  expect.equal(user.email, BOND)
  expect.equal(user.name, "James")
  expect.equal(user.socialAccount, "facebook")
  expect.equal(user.userStatus, "ENABLED")
  expect.equal(user.created, app.clock.now() * 1000)
  expect.is_nil(user.password)
  expect.is_nil(user.id, "the profile id is not a user property unless mapped")
  expect.equal(app.users.count(), 1)
  expect.equal(app.users.find(BOND).objectId, user.objectId)
  expect.ok(app.users.logout(session.token))
end)

scenario("only the mapped profile fields are stored, under the mapped names", function()
  local app = app_with_bond_on_facebook()
  local user = expect.ok(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { name = "nickname", id = "fbId" } })).user
  expect.equal(user.nickname, "James")
  expect.equal(user.fbId, "10001")
  expect.is_nil(user.name)
  expect.is_nil(user.email)
end)

scenario("without a mapping the social user has no properties and no identity, and can still log in again", function()
  local app = app_with_bond_on_facebook()
  local first = expect.ok(app.users.login_oauth("facebook", "fb-1")).user
  expect.is_nil(first.email)
  expect.equal(first.socialAccount, "facebook")
  expect.equal(app.users.count(), 1)
  expect.is_nil(app.users.find(BOND))
  expect.equal(expect.ok(app.users.login_oauth("facebook", "fb-1")).user.objectId, first.objectId)
end)

scenario("provider codes are compared without case; socialAccount is the code in lower case", function()
  local app = understudy.backendless()
  app.oauth.account{ provider = "GooglePlus", token = "g-1", profile = { id = "g1" } }
  local user = expect.ok(app.users.login_oauth("GOOGLEPLUS", "g-1")).user
  expect.equal(user.socialAccount, "googleplus")
  expect.equal(expect.ok(app.users.login_oauth("googleplus", "g-1")).user.objectId, user.objectId)
end)

scenario("a social user needs no email confirmation: ENABLED at once and no email sent", function()
  local app = app_with_bond_on_facebook{ email_confirmation = true }
  local user = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP)).user
  expect.equal(user.userStatus, "ENABLED")
  expect.length(app.outbox.emails(), 0)
end)

scenario("users registered with a password, and guests, show socialAccount BACKENDLESS", function()
  local app = understudy.backendless()
  expect.equal(expect.ok(app.users.register{ email = BOND, password = "pw" }).socialAccount, "BACKENDLESS")
  expect.equal(expect.ok(app.users.guest_login()).user.socialAccount, "BACKENDLESS")
  local sneaky = expect.ok(app.users.register{ email = M, password = "pw", socialAccount = "facebook" })
  expect.equal(sneaky.socialAccount, "BACKENDLESS", "socialAccount is the backend's own property")
end)

-- later logins ---------------------------------------------------------------------------------------------

scenario("a later login logs the same user in with a new token; mapped fields are not refreshed", function()
  local app = app_with_bond_on_facebook()
  local first = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP))
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "10001", email = BOND, name = "Jim" } }
  local again = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP))
  expect.equal(again.user.objectId, first.user.objectId)
  expect.not_equal(again.token, first.token)
  expect.equal(again.user.name, "James")
  expect.equal(app.users.count(), 1)
end)

scenario("two tokens with the same profile id are one provider account: one user", function()
  local app = app_with_bond_on_facebook()
  app.oauth.account{ provider = "facebook", token = "fb-2", profile = { id = "10001" } }
  local first = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP)).user
  expect.equal(expect.ok(app.users.login_oauth("facebook", "fb-2")).user.objectId, first.objectId)
  expect.equal(app.users.count(), 1)
end)

scenario("the same profile id under two providers is two users", function()
  local app = understudy.backendless()
  app.oauth.account{ provider = "facebook", token = "fb", profile = { id = "42" } }
  app.oauth.account{ provider = "twitter", token = "tw", secret = "s", profile = { id = "42" } }
  local facebook = expect.ok(app.users.login_oauth("facebook", "fb")).user
  local twitter = expect.ok(app.users.login_oauth("twitter", "tw", { secret = "s" })).user
  expect.not_equal(facebook.objectId, twitter.objectId)
  expect.equal(twitter.socialAccount, "twitter")
  expect.equal(app.users.count(), 2)
end)

scenario("(choice) a deleted social user's provider account registers a new user at its next login", function()
  local app = app_with_bond_on_facebook()
  local first = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP)).user
  expect.ok(app.users.delete(first.objectId))
  local second = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP)).user
  expect.not_equal(second.objectId, first.objectId)
  expect.equal(second.email, BOND)
end)

scenario("(choice) logins through a provider are not limited by multiple_logins", function()
  local app = app_with_bond_on_facebook{ multiple_logins = "deny" }
  expect.ok(app.users.login_oauth("facebook", "fb-1"))
  expect.ok(app.users.login_oauth("facebook", "fb-1"))
end)

-- guests ---------------------------------------------------------------------------------------------------

scenario("a first login with a guest converts the guest: same objectId, ENABLED, counted", function()
  local app = app_with_bond_on_facebook()
  local guest = expect.ok(app.users.guest_login())
  local user = expect.ok(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email" }, guest = guest.user.objectId })).user
  expect.equal(user.objectId, guest.user.objectId)
  expect.equal(user.userStatus, "ENABLED")
  expect.equal(user.socialAccount, "facebook")
  expect.equal(user.email, BOND)
  expect.equal(app.users.count(), 1)
  expect.length(app.users.all(), 1)
  expect.equal(app.users.find(BOND).objectId, guest.user.objectId)
end)

scenario("guest: an objectId that is not a guest's answers 3039 on a first login and registers nobody", function()
  local app = app_with_bond_on_facebook()
  local registered = expect.ok(app.users.register{ email = M, password = "pw" })
  expect.error(3039, app.users.login_oauth("facebook", "fb-1", { guest = registered.objectId }))
  expect.error(3039, app.users.login_oauth("facebook", "fb-1", { guest = "6EAFFE12-B424-8C51-FFB0-FE99548CAA00" }))
  expect.error(3039, app.users.login_oauth("facebook", "fb-1", { guest = "not an id" }))
  expect.equal(app.users.count(), 1)
end)

scenario("guest: ignored on later logins, whatever it names; the guest stays a guest", function()
  local app = app_with_bond_on_facebook()
  local first = expect.ok(app.users.login_oauth("facebook", "fb-1")).user
  local guest = expect.ok(app.users.guest_login()).user
  expect.equal(expect.ok(app.users.login_oauth("facebook", "fb-1", { guest = guest.objectId })).user.objectId, first.objectId)
  expect.equal(expect.ok(app.users.login_oauth("facebook", "fb-1", { guest = "nonsense" })).user.objectId, first.objectId)
  expect.equal(app.users.get(guest.objectId).userStatus, "GUEST")
end)

-- errors in their order --------------------------------------------------------------------------------------

scenario("a fault comes first and a faulted login changes nothing", function()
  local app = app_with_bond_on_facebook{ logins = false }
  local fault = app.faults.inject{ op = "users.login_oauth", code = 3052, message = "provider down", times = 1 }
  expect.error({ code = 3052, message = "provider down" }, app.users.login_oauth("facebook", "fb-1"))
  expect.equal(fault.hits, 1)
  expect.equal(app.users.count(), 0)
end)

scenario("a fault's when(args) sees provider, token and options by name", function()
  local app = app_with_bond_on_facebook()
  local seen
  app.faults.inject{ op = "users.login_oauth", code = 3014, when = function(args)
    seen = { args.provider, args.token, args.options and args.options.fields_mapping and args.options.fields_mapping.email }
    return args.options ~= nil and args.options.guest == "g"
  end }
  expect.ok(app.users.login_oauth("facebook", "fb-1", MAP))
  expect.equal(seen, { "facebook", "fb-1", "email" })
  expect.error(3014, app.users.login_oauth("facebook", "fb-1", { guest = "g" }))
end)

scenario("3034 logins off comes before 3052", function()
  local app = app_with_bond_on_facebook{ logins = false }
  expect.error({ code = 3034, message = "Unable to login. User login is disabled." }, app.users.login_oauth("facebook", "nope"))
  expect.error(3034, app.users.login_oauth("facebook", "fb-1"))
end)

scenario("3052 when no account of that provider has the token", function()
  local app = app_with_bond_on_facebook()
  local message = "External authentication failed with message 'Invalid access token'"
  expect.error({ code = 3052, message = message }, app.users.login_oauth("facebook", "unknown"))
  expect.error({ code = 3052, message = message }, app.users.login_oauth("twitter", "fb-1"))
  expect.error(3052, app.users.login_oauth("facebook", ""))
  expect.equal(app.users.count(), 0)
end)

scenario("3052 when an account's secret is absent or differs; a secret sent for an account without one is ignored", function()
  local app = app_with_bond_on_facebook()
  app.oauth.account{ provider = "twitter", token = "tw", secret = "s3cret", profile = { id = "t1" } }
  expect.error(3052, app.users.login_oauth("twitter", "tw"))
  expect.error(3052, app.users.login_oauth("twitter", "tw", { secret = "other" }))
  expect.ok(app.users.login_oauth("twitter", "tw", { secret = "s3cret" }))
  expect.ok(app.users.login_oauth("facebook", "fb-1", { secret = "anything" }))
end)

scenario("3052 comes before 3009", function()
  local app = app_with_bond_on_facebook{ registration = false }
  expect.error(3052, app.users.login_oauth("facebook", "nope"))
end)

scenario("3009: registration off refuses a first login, not a later one", function()
  local app = app_with_bond_on_facebook()
  app.oauth.account{ provider = "facebook", token = "fb-2", profile = { id = "20002" } }
  expect.ok(app.users.login_oauth("facebook", "fb-1"))
  app.settings.registration = false
  expect.error({ code = 3009, message = "User registration is disabled." }, app.users.login_oauth("facebook", "fb-2"))
  expect.ok(app.users.login_oauth("facebook", "fb-1"))
  expect.equal(app.users.count(), 1)
end)

scenario("3009 comes before 3039, and 3039 before 3014", function()
  local app = app_with_bond_on_facebook{ registration = false }
  expect.error(3009, app.users.login_oauth("facebook", "fb-1", { guest = "nope" }))
  app.settings.registration = true
  expect.ok(app.users.register{ email = BOND, password = "pw" })
  expect.error(3039, app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email" }, guest = "nope" }))
end)

scenario("3014 wraps 3033 when the mapped identity value is taken; nobody is registered", function()
  local app = app_with_bond_on_facebook()
  expect.ok(app.users.register{ email = BOND:upper(), password = "pw" })
  expect.error({
    code = 3014,
    message = "Unable to register user. External registration failed with message: Unable to register user. User already exists.",
  }, app.users.login_oauth("facebook", "fb-1", MAP))
  expect.equal(app.users.count(), 1)
  -- Unmapped, the identity cannot clash: the social user registers without one.
  expect.ok(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { name = "name" } }))
end)

scenario("3014 wraps 8000 for a mapped value over its max_length", function()
  local app = understudy.backendless{ properties = { name = { max_length = 5 } } }
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", name = "Jonathan" } }
  expect.error({
    code = 3014,
    message = "Unable to register user. External registration failed with message: Invalid value range: the value of 'name' is longer than 5 characters",
  }, app.users.login_oauth("facebook", "fb-1", { fields_mapping = { name = "name" } }))
end)

scenario("3014 wraps 3012 for a required property the mapping leaves out (or empty)", function()
  local app = understudy.backendless{ properties = { rank = { required = true } } }
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", name = "James", rank = "" } }
  local wrapped = "Unable to register user. External registration failed with message: Unable to register user. Property 'rank' is required"
  expect.error({ code = 3014, message = wrapped }, app.users.login_oauth("facebook", "fb-1", { fields_mapping = { name = "name" } }))
  expect.error({ code = 3014, message = wrapped }, app.users.login_oauth("facebook", "fb-1", { fields_mapping = { rank = "rank" } }))
  expect.equal(app.users.count(), 0)
end)

scenario("(choice) 3014 wraps the first rule in registration's order: 3012, then 8000, then 3033", function()
  local app = understudy.backendless{ properties = { rank = { required = true }, name = { max_length = 3 } } }
  expect.ok(app.users.register{ email = BOND, password = "pw", rank = "Commander", name = "Bo" })
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", email = BOND, name = "James", rank = "Cmdr" } }
  local prefix = "Unable to register user. External registration failed with message: "
  expect.error({ code = 3014, message = prefix .. "Unable to register user. Property 'rank' is required" },
    app.users.login_oauth("facebook", "fb-1", MAP))
  expect.error({ code = 3014, message = prefix .. "Invalid value range: the value of 'name' is longer than 3 characters" },
    app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email", name = "name", rank = "rank" } }))
  expect.error({ code = 3014, message = prefix .. "Unable to register user. User already exists." },
    app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email", rank = "rank" } }))
end)

scenario("(choice) a mapped email is not checked for its format; the password rules never apply", function()
  local app = understudy.backendless()
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", email = "not-an-address" } }
  expect.equal(expect.ok(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email" } })).user.email, "not-an-address")
end)

scenario("3090 for a disabled social user on a later login, before 3036", function()
  local app = app_with_bond_on_facebook{ lockout_after = 1 }
  local user = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP)).user
  expect.error(3003, app.users.login(BOND, "guess"))
  expect.ok(app.users.set_status(user.objectId, "DISABLED"))
  expect.error({ code = 3090, message = "User account is disabled" }, app.users.login_oauth("facebook", "fb-1"))
  expect.ok(app.users.set_status(user.objectId, "ENABLED"))
  expect.error(3036, app.users.login_oauth("facebook", "fb-1"))
end)

scenario("failed password logins of a social user count towards the lockout; a locked one gets 3036 until it ends", function()
  local app = app_with_bond_on_facebook{ lockout_after = 3, lockout_minutes = 10 }
  expect.ok(app.users.login_oauth("facebook", "fb-1", MAP))
  for _ = 1, 3 do expect.error(3003, app.users.login(BOND, "guess")) end
  expect.error(3036, app.users.login(BOND, "guess"))
  expect.error({ code = 3036, message = "Unable to login. User account is locked out due to too many failed logins." },
    app.users.login_oauth("facebook", "fb-1"))
  app.clock.advance(10 * 60)
  expect.ok(app.users.login_oauth("facebook", "fb-1"))
end)

scenario("(choice) an OAuth login clears the count of failed password logins", function()
  local app = app_with_bond_on_facebook{ lockout_after = 3 }
  expect.ok(app.users.login_oauth("facebook", "fb-1", MAP))
  for _ = 1, 2 do expect.error(3003, app.users.login(BOND, "guess")) end
  expect.ok(app.users.login_oauth("facebook", "fb-1"))
  for _ = 1, 2 do expect.error(3003, app.users.login(BOND, "guess")) end
  expect.ok(app.users.login_oauth("facebook", "fb-1"))
end)

-- (choice) what a mapping cannot set ------------------------------------------------------------------------------

scenario("(choice) a mapping onto a system property or the password is ignored", function()
  local app = understudy.backendless()
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", a = "x", b = "y", c = "z", d = "w" } }
  local user = expect.ok(app.users.login_oauth("facebook", "fb-1",
    { fields_mapping = { a = "password", b = "objectId", c = "socialAccount", d = "userStatus" } })).user
  expect.equal(user.socialAccount, "facebook")
  expect.equal(user.userStatus, "ENABLED")
  expect.not_equal(user.objectId, "y")
  expect.is_nil(user.password)
end)

scenario("(choice) with dynamic_properties off, a mapped property outside the schema is dropped", function()
  local app = understudy.backendless{ dynamic_properties = false }
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", email = BOND, hometown = "Wimbledon" } }
  local user = expect.ok(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = "email", hometown = "hometown" } })).user
  expect.equal(user.email, BOND)
  expect.is_nil(user.hometown)
end)

scenario("(choice) two profile fields mapped onto one property: the field whose name sorts first wins", function()
  local app = understudy.backendless()
  app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "1", first_name = "James", name = "James Bond" } }
  local user = expect.ok(app.users.login_oauth("facebook", "fb-1", { fields_mapping = { name = "name", first_name = "name" } })).user
  expect.equal(user.name, "James")
end)

scenario("login_oauth misuse raises, naming the argument", function()
  local app = app_with_bond_on_facebook()
  expect.fails(function() app.users.login_oauth(nil, "fb-1") end, "provider %(argument 1%) must be a string")
  expect.fails(function() app.users.login_oauth("facebook") end, "token %(argument 2%) must be a string")
  expect.fails(function() app.users.login_oauth("facebook", "fb-1", "email") end, "options %(argument 3%) must be a table")
  expect.fails(function() app.users.login_oauth("facebook", "fb-1", { fieldsMapping = {} }) end, "unknown field 'fieldsMapping'")
  expect.fails(function() app.users.login_oauth("facebook", "fb-1", { fields_mapping = { email = 1 } }) end, "options.fields_mapping.email must be a string")
  expect.fails(function() app.users.login_oauth("facebook", "fb-1", { guest = 1 }) end, "options.guest must be a string")
end)

-- a social user has no password ------------------------------------------------------------------------------

local function social_bond(settings)
  local app = app_with_bond_on_facebook(settings)
  local session = expect.ok(app.users.login_oauth("facebook", "fb-1", MAP))
  return app, session.user, session.token
end

scenario("users.login of a social user answers 3003 whatever the password", function()
  local app = social_bond()
  expect.error(3003, app.users.login(BOND, "anything"))
  expect.error(3006, app.users.login(BOND, ""))
end)

scenario("3072: a social user cannot set a password", function()
  local app, user, token = social_bond()
  expect.error({ code = 3072, message = "Social user cannot use password" }, app.users.update(user.objectId, { password = "pw" }, token))
  expect.error(3072, app.users.update(user.objectId, { password = "" }, token))
  expect.error(3003, app.users.login(BOND, "pw"))
end)

scenario("3096: a social user cannot change its identity; the same value and other properties are fine", function()
  local app, user, token = social_bond()
  expect.error({ code = 3096, message = "Identity for social user cannot be changed" }, app.users.update(user.objectId, { email = M }, token))
  expect.error(3096, app.users.update(user.objectId, { email = "" }, token))
  expect.equal(expect.ok(app.users.update(user.objectId, { email = BOND:upper(), name = "Jim" }, token)).name, "Jim")
  expect.equal(app.users.find(BOND).objectId, user.objectId)
end)

scenario("3096 also when a social user without an identity value would get one", function()
  local app = app_with_bond_on_facebook()
  local session = expect.ok(app.users.login_oauth("facebook", "fb-1"))
  expect.error(3096, app.users.update(session.user.objectId, { email = BOND }, session.token))
end)

scenario("update of a social user: 3064, 3030, 3029 come first, then 3072, then 3096", function()
  local app, user, token = social_bond()
  local other = expect.ok(app.users.register{ email = M, password = "pw" })
  local other_token = expect.ok(app.users.login(M, "pw")).token
  expect.error(3064, app.users.update(user.objectId, { password = "pw" }, "nope"))
  expect.error(3030, app.users.update("00000000-0000-0000-0000-000000000000", { password = "pw" }, token))
  expect.error(3029, app.users.update(user.objectId, { password = "pw" }, other_token))
  expect.error(3072, app.users.update(user.objectId, { password = "pw", email = M }, token))
  expect.error(3096, app.users.update(user.objectId, { email = "broken" }, token))
  -- A Backendless user is not a social user: both are fine for them.
  expect.ok(app.users.update(other.objectId, { password = "new", email = "q@mi6.co.uk" }, other_token))
end)

scenario("3075: no password restoration for a social user; 3101 and 3020 come first", function()
  local app = social_bond{ password_recovery = "link" }
  expect.error({ code = 3075, message = "Cannot request password restoration for a user, authorized using a social network" },
    app.users.restore_password(BOND))
  expect.error(3020, app.users.restore_password(M))
  expect.length(app.outbox.emails(), 0)
  app.settings.password_recovery = false
  expect.error(3101, app.users.restore_password(BOND))
end)
