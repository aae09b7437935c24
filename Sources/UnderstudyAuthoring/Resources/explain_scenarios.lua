-- The scenarios `understudy explain CODE` prints: one minimal scenario body per catalogued code that a real
-- trigger produces in Lua (codes only injection reaches get a generated body). Each entry starts with a line
-- `--- flavour:code`, followed by the settings the backend is made with, if any. In a body, `¤` stands for
-- `expect.error(CODE, ` (closed by the line's `)`). A test runs every one and checks it produces its code.

--- backendless:999 { rate_limit = 1 }
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
¤app.users.login("q@mi6.co.uk", "gadgets4U"))

--- backendless:1000
¤app.users.confirm_email("no-such-id"))

--- backendless:3002 { multiple_logins = "deny" }
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
¤app.users.login("q@mi6.co.uk", "gadgets4U"))

--- backendless:3003
¤app.users.login("nobody@mi6.co.uk", "secret"))

--- backendless:3006
¤app.users.login("", "secret"))

--- backendless:3009 { registration = false }
¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })

--- backendless:3010 { dynamic_properties = false }
¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U", rank = "Q" })

--- backendless:3011
¤app.users.register{ email = "q@mi6.co.uk" })

--- backendless:3012 { properties = { codename = { required = true } } }
¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })

--- backendless:3013
¤app.users.register{ password = "gadgets4U" })

--- backendless:3033
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
¤app.users.register{ email = "Q@MI6.CO.UK", password = "other" })

--- backendless:3034 { logins = false }
¤app.users.login("q@mi6.co.uk", "gadgets4U"))

--- backendless:3036 { lockout_after = 1 }
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
expect.error(3003, app.users.login("q@mi6.co.uk", "wrong"))
¤app.users.login("q@mi6.co.uk", "gadgets4U"))

--- backendless:3038
¤app.users.register{})

--- backendless:3039
¤app.users.register{ objectId = "not-a-guest", email = "q@mi6.co.uk", password = "gadgets4U" })

--- backendless:3040
¤app.users.register{ email = "not-an-email", password = "gadgets4U" })

--- backendless:3041 { properties = { codename = { required = true } } }
¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U", codename = "" })

--- backendless:3043
¤app.users.register{ email = "q@mi6.co.uk", Email = "q@mi6.co.uk", password = "gadgets4U" })

--- backendless:3044 { multiple_logins = 1 }
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
¤app.users.login("q@mi6.co.uk", "gadgets4U"))

--- backendless:3064
¤app.users.logout("no-such-token"))

--- backendless:3078 { email_confirmation = true, identity = "name" }
¤app.users.register{ name = "Q", password = "gadgets4U" })

--- backendless:3087 { email_confirmation = true }
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
¤app.users.login("q@mi6.co.uk", "gadgets4U"))

--- backendless:3090
local user = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
expect.ok(app.users.set_status(user.objectId, "DISABLED"))
¤app.users.login("q@mi6.co.uk", "gadgets4U"))

--- backendless:5001
¤app.devices.unregister("no-such-device"))

--- backendless:5003
¤app.push.publish{ message = "hi", repeat_every = 60 })

--- backendless:5030
¤app.push.publish{ message = "hi", publish_at = app.clock.now() })

--- backendless:5040
¤app.push.cancel("message:no-such-message"))

--- backendless:24002
¤app.push.with_template("no-such-template"))

--- backendless:5004
¤app.devices.register{ token = "a1b2", device_id = "phone-1", os = "IOS", expiration = app.clock.now() })

--- backendless:5011
¤app.devices.register{ token = "a1b2", os = "IOS" })

--- backendless:5044
¤app.devices.register{ token = "a1b2", device_id = "phone-1", os = "IOS", channels = { "no spaces" } })

--- backendless:8000
¤app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U", name = string.rep("n", 501) })

--- backendless:3101 { password_recovery = false }
¤app.users.restore_password("q@mi6.co.uk"))

--- backendless:3020
¤app.users.restore_password("nobody@mi6.co.uk"))

--- backendless:3025
app.settings.identity = "name"
expect.ok(app.users.register{ name = "Q", password = "gadgets4U" })
¤app.users.restore_password("Q"))

--- backendless:3092
¤app.users.reset_password("no-such-link", "newPassw0rd"))

--- backendless:3103
¤app.users.resend_confirmation("q@mi6.co.uk"))

--- backendless:3104 { email_confirmation = true }
¤app.users.resend_confirmation("nobody@mi6.co.uk"))

--- backendless:3102 { email_confirmation = true }
local user = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
expect.ok(app.users.confirm_email(user.objectId))
¤app.users.resend_confirmation("q@mi6.co.uk"))

--- backendless:3030
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
¤app.users.update("no-such-id", { name = "Q" }, session.token))

--- backendless:3029
local m = expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "gadgets4U" })
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
¤app.users.update(m.objectId, { name = "M" }, session.token))

--- backendless:3018
expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "gadgets4U" })
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
¤app.users.update(q.objectId, { email = "m@mi6.co.uk" }, session.token))

--- backendless:3045
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
¤app.users.update(q.objectId, { password = "" }, session.token))

--- backendless:3050
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
local session = expect.ok(app.users.login("q@mi6.co.uk", "gadgets4U"))
¤app.users.update(q.objectId, { password = 12345 }, session.token))

--- backendless:3014
expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
app.oauth.account{ provider = "facebook", token = "fb-q", profile = { id = "1007", email = "q@mi6.co.uk" } }
¤app.users.login_oauth("facebook", "fb-q", { fields_mapping = { email = "email" } }))

--- backendless:3052
¤app.users.login_oauth("facebook", "no-such-token"))

--- backendless:3072
app.oauth.account{ provider = "facebook", token = "fb-q", profile = { id = "1007", email = "q@mi6.co.uk" } }
local session = expect.ok(app.users.login_oauth("facebook", "fb-q", { fields_mapping = { email = "email" } }))
¤app.users.update(session.user.objectId, { password = "gadgets4U" }, session.token))

--- backendless:3075
app.oauth.account{ provider = "facebook", token = "fb-q", profile = { id = "1007", email = "q@mi6.co.uk" } }
local session = expect.ok(app.users.login_oauth("facebook", "fb-q", { fields_mapping = { email = "email" } }))
¤app.users.restore_password("q@mi6.co.uk"))

--- backendless:3096
app.oauth.account{ provider = "facebook", token = "fb-q", profile = { id = "1007", email = "q@mi6.co.uk" } }
local session = expect.ok(app.users.login_oauth("facebook", "fb-q", { fields_mapping = { email = "email" } }))
¤app.users.update(session.user.objectId, { email = "m@mi6.co.uk" }, session.token))

--- kii:INVALID_INPUT_DATA
¤app.users.register{ password = "123ABC" })

--- kii:PASSWORD_TOO_SHORT
¤app.users.register{ username = "bond007", password = "12" })

--- kii:USER_ALREADY_EXISTS
expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
¤app.users.register{ username = "BOND007", password = "123ABC" })

--- kii:invalid_grant
¤app.users.login("nobody", "123ABC"))

--- kii:USER_NOT_FOUND
¤app.users.verify_email("no-such-user", "123456"))

--- kii:INVALID_VERIFICATION_CODE { email_verification = true }
local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
¤app.users.verify_email(user.userID, "000000"))

--- kii:INVALID_ACCOUNT_STATUS
local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
¤app.users.verify_email(user.userID, "123456"))

--- kii:PHONE_NUMBER_VERIFICATION_CODE_EXPIRED { phone_verification = true }
local user = expect.ok(app.users.register{ username = "bond007", phone = "+819012345678", password = "123ABC" })
local code = app.outbox.last_sms().code
app.clock.advance(24 * 3600 + 1)
¤app.users.verify_phone(user.userID, code))

--- kii:USER_DISABLED
local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
expect.ok(app.users.set_disabled(user.userID, true))
¤app.users.request_password_reset(user.userID))

--- kii:INVALID_STATUS { email_verification = true }
local user = expect.ok(app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = "123ABC" })
¤app.users.request_password_reset(user.userID, "EMAIL"))

--- kii:TOO_MANY_REQUESTS { rate_limit = 1 }
expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
¤app.users.login("bond007", "123ABC"))

--- kii:PIN_CODE_EXPIRED
local user = expect.ok(app.users.register{ username = "bond007", phone = "+819012345678", password = "123ABC" })
expect.ok(app.users.request_password_reset(user.userID, "SMS_PIN"))
local pin = app.outbox.last_sms().code
app.clock.advance(3601)
¤app.users.complete_password_reset(user.userID, pin, "newPassw0rd"))

--- kii:WRONG_PASSWORD
local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
¤app.users.change_password(user.userID, "wrong", "newPassw0rd"))

--- kii:INSTALLATION_NOT_FOUND
¤app.installations.unregister("no-such-installation"))

--- kii:WRONG_TOKEN
¤app.users.me("no-such-token"))

--- kii:UNAUTHORIZED
local alice = expect.ok(app.users.register{ username = "alice", password = "123ABC" })
local bob = expect.ok(app.users.register{ username = "bob", password = "123ABC" })
expect.ok(app.topics.create("diary", alice.userID))
¤app.topics.subscribe("diary", bob.userID, alice.userID))

--- kii:TOPIC_ALREADY_EXISTS
expect.ok(app.topics.create("news"))
¤app.topics.create("news"))

--- kii:TOPIC_NOT_FOUND
¤app.topics.delete("no-such-topic"))

--- kii:PUSH_SUBSCRIPTION_ALREADY_EXISTS
local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
expect.ok(app.topics.create("news"))
expect.ok(app.topics.subscribe("news", user.userID))
¤app.topics.subscribe("news", user.userID))

--- kii:PUSH_SUBSCRIPTION_NOT_FOUND
local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
expect.ok(app.topics.create("news"))
¤app.topics.unsubscribe("news", user.userID))

--- kii:MQTT_ENDPOINT_NOT_FOUND
local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
local installation = expect.ok(app.installations.register{ user = user.userID, type = "ANDROID", token = "fcm-1" })
¤app.installations.mqtt_endpoint(installation.installationID))

--- kii:GROUP_NOT_FOUND
expect.ok(app.topics.create("news"))
¤app.topics.grant("news", "SUBSCRIBE_TO_TOPIC", "GroupID:no-such-group"))

--- kii:ACL_ALREADY_EXISTS
expect.ok(app.topics.create("news"))
¤app.topics.grant("news", "SUBSCRIBE_TO_TOPIC", "UserID:ANY_AUTHENTICATED_USER"))

--- kii:ACL_NOT_FOUND
expect.ok(app.topics.create("news"))
¤app.topics.revoke("news", "SEND_MESSAGE_TO_TOPIC", "UserID:ANY_AUTHENTICATED_USER"))

--- kii:FACEBOOK_USER_ALREADY_LINKED
app.social.account{ provider = "facebook", token = "fb-1", profile = { id = "fb-user-1" } }
app.social.account{ provider = "facebook", token = "fb-2", profile = { id = "fb-user-2" } }
local session = expect.ok(app.users.login_social("facebook", "fb-1"))
¤app.users.link_social(session.token, "facebook", "fb-2"))

--- kii:GOOGLE_USER_ALREADY_LINKED
app.social.account{ provider = "google", token = "g-1", profile = { id = "g-user-1" } }
app.social.account{ provider = "google", token = "g-2", profile = { id = "g-user-2" } }
local session = expect.ok(app.users.login_social("google", "g-1"))
¤app.users.link_social(session.token, "google", "g-2"))

--- kii:QQ_USER_ALREADY_LINKED
app.social.account{ provider = "qq", token = "qq-1", profile = { id = "qq-user-1" } }
app.social.account{ provider = "qq", token = "qq-2", profile = { id = "qq-user-2" } }
local session = expect.ok(app.users.login_social("qq", "qq-1"))
¤app.users.link_social(session.token, "qq", "qq-2"))

--- kii:USER_ALREADY_LINKED
app.social.account{ provider = "twitter", token = "tw-1", profile = { id = "tw-user-1" } }
expect.ok(app.users.login_social("twitter", "tw-1"))
local other = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
local session = expect.ok(app.users.login("bond007", "123ABC"))
¤app.users.link_social(session.token, "twitter", "tw-1"))

--- kii:USER_NOT_LINKED
local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
local session = expect.ok(app.users.login("bond007", "123ABC"))
¤app.users.unlink_social(session.token, "facebook"))

--- backendless:1006
¤app.data.users.find{ where = "salary > 1000" })

--- backendless:19000
¤app.data.users.find{ where = "age >" })

--- backendless:2003
¤app.roles.users("AuthenticatedUser"))

--- backendless:2005
¤app.roles.assign("q@mi6.co.uk", "Quartermaster", "cloudcode"))

--- backendless:2007
¤app.roles.assign("q@mi6.co.uk", "AuthenticatedUser", "cloudcode"))

--- backendless:2008
¤app.roles.unassign("q@mi6.co.uk", "AuthenticatedUser", "cloudcode"))

--- backendless:2011
app.roles.define("Quartermaster")
¤app.roles.assign("q@mi6.co.uk", "Quartermaster"))

--- backendless:2014
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
¤app.users.login_by_id(q.objectId))

--- backendless:3054
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
¤app.users.update_status(q.objectId, "DISABLED"))

--- backendless:3057
app.roles.define("Quartermaster")
¤app.roles.assign("nobody@mi6.co.uk", "Quartermaster", "cloudcode"))

--- backendless:3081
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
¤app.roles.of(q.objectId))

--- backendless:3085
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
expect.ok(app.users.update_status(q.objectId, "DISABLED", "cloudcode"))
¤app.users.update_status(q.objectId, "DISABLED", "cloudcode"))

--- backendless:3086
local q = expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
¤app.users.update_status(q.objectId, "ENABLED", "cloudcode"))

--- backendless:5047
app.email.templates.define{ name = "Welcome", subject = "Hi", body = "Hello {name}" }
¤app.email.send_template("Welcome", { to = { "not-an-address" } }))

--- backendless:5048
app.email.templates.define{ name = "Welcome", subject = "Hi", body = "Hello {name}" }
¤app.email.send_template("Welcome", { cc = { "m@mi6.co.uk" } }))
