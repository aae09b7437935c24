-- Kii: topic ACLs and the minimum groups (contract v4)
--
-- app.topics.acl(topicID, owner?) -> { SUBSCRIBE_TO_TOPIC = {...}, SEND_MESSAGE_TO_TOPIC = {...} } (byte order)
--   errors in order: fault; 404 USER_NOT_FOUND (owner); 404 TOPIC_NOT_FOUND
-- app.topics.grant(topicID, action, subject, owner?) -> true
--   errors in order: fault; USER_NOT_FOUND (owner); TOPIC_NOT_FOUND; 400 INVALID_INPUT_DATA (malformed subject);
--   404 USER_NOT_FOUND / GROUP_NOT_FOUND (subject naming nobody; ThingID not checked); 409 ACL_ALREADY_EXISTS
-- app.topics.revoke(...) -> true; ... INVALID_INPUT_DATA; 404 ACL_NOT_FOUND
-- topics.send with message.sender: after the owner and topic checks, 404 USER_NOT_FOUND (sender), then
--   401 UNAUTHORIZED when the ACL does not let the sender send, then the data checks.
-- (choice) a new user-scope topic lists its owner for both actions; revoking the owner's entry is enforced.
-- app.groups.create{ name, owner, members? } (console); groups.member_of / owned_by(userID) -> { { groupID, name, owner } }
-- (choice) the owner is a member; group ids are 25 of 0-9 a-z; deleting a user leaves the groups they own.

local PASSWORD = "123ABC"
local ANY = "UserID:ANY_AUTHENTICATED_USER"

local function user(app, name)
  return expect.ok(app.users.register{ username = name, password = PASSWORD })
end

scenario("a new topic's ACL: app scope lets every user subscribe and nobody send; user scope lists its owner", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.ok(app.topics.create("news"))
  expect.equal(expect.ok(app.topics.acl("news")), { SUBSCRIBE_TO_TOPIC = { ANY }, SEND_MESSAGE_TO_TOPIC = {} })
  expect.ok(app.topics.create("mine", alice.userID))
  expect.equal(expect.ok(app.topics.acl("mine", alice.userID)),
    { SUBSCRIBE_TO_TOPIC = { "UserID:" .. alice.userID }, SEND_MESSAGE_TO_TOPIC = { "UserID:" .. alice.userID } })
end)

scenario("grant lets a user send; entries are listed in byte order; revoke takes it back", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.send("news", { data = { m = "x" }, sender = bob.userID }))
  expect.ok(app.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. bob.userID))
  expect.ok(app.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "ThingID:th.1"))
  local acl = expect.ok(app.topics.acl("news"))
  local expected = { "ThingID:th.1", "UserID:" .. bob.userID }
  table.sort(expected)
  expect.equal(acl.SEND_MESSAGE_TO_TOPIC, expected)
  expect.ok(app.topics.send("news", { data = { m = "x" }, sender = bob.userID }))
  expect.ok(app.topics.revoke("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. bob.userID))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.send("news", { data = { m = "y" }, sender = bob.userID }))
  -- the administrator (no sender) may always send
  expect.ok(app.topics.send("news", { data = { m = "z" } }))
end)

scenario("(choice) revoking the owner's entry is allowed and enforced; the administrator's default stays", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.ok(app.topics.create("mine", alice.userID))
  expect.ok(app.topics.revoke("mine", "SUBSCRIBE_TO_TOPIC", "UserID:" .. alice.userID, alice.userID))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.subscribe("mine", alice.userID, alice.userID))
  expect.ok(app.topics.revoke("mine", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. alice.userID, alice.userID))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.send("mine", { data = { m = "x" } }, alice.userID))
end)

scenario("subscribing follows the ACL: ANY_AUTHENTICATED_USER, a user, a group; ANONYMOUS_USER lets nobody", function()
  local app = understudy.kii()
  local alice, bob, carol = user(app, "alice"), user(app, "bob"), user(app, "carol")
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.revoke("news", "SUBSCRIBE_TO_TOPIC", ANY))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.subscribe("news", alice.userID))
  expect.ok(app.topics.grant("news", "SUBSCRIBE_TO_TOPIC", "UserID:ANONYMOUS_USER"))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.subscribe("news", alice.userID))
  expect.ok(app.topics.grant("news", "SUBSCRIBE_TO_TOPIC", "UserID:" .. alice.userID))
  expect.ok(app.topics.subscribe("news", alice.userID))
  local group = app.groups.create{ name = "team", owner = bob.userID, members = { carol.userID } }
  expect.ok(app.topics.grant("news", "SUBSCRIBE_TO_TOPIC", "GroupID:" .. group.groupID))
  expect.ok(app.topics.subscribe("news", bob.userID))
  expect.ok(app.topics.subscribe("news", carol.userID))
  -- a pseudo user is an authenticated user
  local pseudo = expect.ok(app.users.register_pseudo())
  expect.ok(app.topics.grant("news", "SUBSCRIBE_TO_TOPIC", ANY))
  expect.ok(app.topics.subscribe("news", pseudo.userID))
end)

scenario("acl checks the fault, then the owner, then the topic", function()
  local app = understudy.kii()
  local fault = app.faults.inject{ op = "topics.acl", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE",
                                   when = function(args) return args.topicID == "x" end }
  expect.error({ status = 503 }, app.topics.acl("x", "nobody"))
  fault:remove()
  local err = expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.topics.acl("x", "nobody"))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.acl("x"))
end)

scenario("grant checks in order: owner, topic, subject form, subject exists, entry new", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  local fault = app.faults.inject{ op = "topics.grant", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE",
                                   when = function(args) return args.subject == "bad" end }
  expect.error({ status = 503 }, app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", "bad", "nobody"))
  fault:remove()
  expect.error({ status = 404, code = "USER_NOT_FOUND", field = "userID" }, app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", "bad", "nobody"))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", "bad"))
  expect.ok(app.topics.create("x"))
  for _, subject in ipairs({ "bad", "UserID:", "GroupID:", "ThingID:", "userid:abc", "Group:1" }) do
    expect.error({ status = 400, code = "INVALID_INPUT_DATA", field = "subject" }, app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", subject))
  end
  local err = expect.error({ status = 404, code = "USER_NOT_FOUND", field = "subject" },
    app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", "UserID:any_authenticated_user"))
  expect.truthy(err.message:find("subject", 1, true))
  expect.error({ status = 404, code = "GROUP_NOT_FOUND" }, app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", "GroupID:nogroup"))
  expect.ok(app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", "ThingID:any-thing"))
  expect.error({ status = 409, code = "ACL_ALREADY_EXISTS" }, app.topics.grant("x", "SUBSCRIBE_TO_TOPIC", ANY))
  expect.fails(function() app.topics.grant("x", "READ", ANY) end, "action")
end)

scenario("revoke checks in order: owner, topic, subject form, entry present", function()
  local app = understudy.kii()
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.topics.revoke("x", "SUBSCRIBE_TO_TOPIC", "bad", "nobody"))
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.revoke("x", "SUBSCRIBE_TO_TOPIC", "bad"))
  expect.ok(app.topics.create("x"))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.topics.revoke("x", "SUBSCRIBE_TO_TOPIC", "bad"))
  expect.error({ status = 404, code = "ACL_NOT_FOUND" }, app.topics.revoke("x", "SEND_MESSAGE_TO_TOPIC", ANY))
  app.faults.inject{ op = "topics.revoke", status = 500, code = "UNDEFINED_ERROR" }
  expect.error({ status = 500 }, app.topics.revoke("x", "SUBSCRIBE_TO_TOPIC", ANY))
  expect.equal(expect.ok(app.topics.acl("x")).SUBSCRIBE_TO_TOPIC, { ANY })
end)

scenario("send with a sender: owner and topic first, then the sender exists, then the ACL, then the data", function()
  local app = understudy.kii()
  local alice = user(app, "alice")
  expect.error({ status = 404, code = "TOPIC_NOT_FOUND" }, app.topics.send("news", { data = {}, sender = "nobody" }))
  expect.ok(app.topics.create("news"))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.topics.send("news", { data = {}, sender = "nobody" }))
  expect.error({ status = 401, code = "UNAUTHORIZED" }, app.topics.send("news", { data = {}, sender = alice.userID }))
  expect.ok(app.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", ANY))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, app.topics.send("news", { data = {}, sender = alice.userID }))
  expect.fails(function() app.topics.send("news", { data = { m = "x" }, sender = 42 }) end, "sender")
end)

scenario("deleting a user removes the ACL entries naming them; a revoke leaves earlier subscriptions", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  expect.ok(app.topics.create("news"))
  expect.ok(app.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. bob.userID))
  expect.ok(app.topics.subscribe("news", alice.userID))
  expect.ok(app.topics.revoke("news", "SUBSCRIBE_TO_TOPIC", ANY))
  expect.equal(expect.ok(app.topics.is_subscribed("news", alice.userID)), true)
  expect.ok(app.users.delete(bob.userID))
  expect.equal(expect.ok(app.topics.acl("news")).SEND_MESSAGE_TO_TOPIC, {})
end)

scenario("groups: the owner is a member; member_of and owned_by list groups in creation order", function()
  local app = understudy.kii()
  local alice, bob, carol = user(app, "alice"), user(app, "bob"), user(app, "carol")
  local one = app.groups.create{ name = "one", owner = alice.userID, members = { bob.userID, alice.userID, bob.userID } }
  expect.match(one.groupID, "^[0-9a-z]+$")
  expect.equal(#one.groupID, 25)
  expect.equal(one.members, { alice.userID, bob.userID })
  local two = app.groups.create{ name = "two", owner = bob.userID }
  expect.equal(expect.ok(app.groups.member_of(bob.userID)), {
    { groupID = one.groupID, name = "one", owner = alice.userID },
    { groupID = two.groupID, name = "two", owner = bob.userID },
  })
  expect.equal(expect.ok(app.groups.owned_by(bob.userID)), { { groupID = two.groupID, name = "two", owner = bob.userID } })
  expect.equal(expect.ok(app.groups.member_of(carol.userID)), {})
  expect.fails(function() app.groups.create{ name = "x", owner = "nobody" } end, "owner")
  expect.fails(function() app.groups.create{ name = "x", owner = alice.userID, members = { "nobody" } } end, "nobody")
  expect.fails(function() app.groups.create{ name = 1, owner = alice.userID } end, "name")
  expect.fails(function() app.groups.create{ name = "x", owner = alice.userID, colour = "red" } end, "colour")
end)

scenario("(choice) deleting a user removes them from every group; the groups they own stay, owner kept", function()
  local app = understudy.kii()
  local alice, bob = user(app, "alice"), user(app, "bob")
  local group = app.groups.create{ name = "g", owner = alice.userID, members = { bob.userID } }
  expect.ok(app.users.delete(alice.userID))
  expect.equal(expect.ok(app.groups.member_of(bob.userID)), { { groupID = group.groupID, name = "g", owner = alice.userID } })
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.groups.member_of(alice.userID))
  expect.error({ status = 404, code = "USER_NOT_FOUND" }, app.groups.owned_by(alice.userID))
  app.faults.inject{ op = "groups.owned_by", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
  expect.error({ status = 503 }, app.groups.owned_by(bob.userID))
  app.faults.inject{ op = "groups.member_of", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE" }
  expect.error({ status = 503 }, app.groups.member_of(bob.userID))
end)
