--[[
  Backendless contract v4: the Data service on the Users table (app.data.users).

  A record is the user as users.get returns it (never the password, never a token) with ___class = "Users".
  Guests are rows too. A query is a table, every field optional:
      { where = "...", page_size = 1..100 (10), offset = >= 0 (0), sort_by = "col [asc|desc]" or a list,
        properties = { "col", ... } ("*": all), exclude_properties = { ... }, distinct = true }
  Order without sort_by: created ascending, ties by objectId (choice). Sorting compares strings without case,
  numbers as numbers, false before true; a missing value sorts first ascending and last descending (choice);
  equal keys keep created order.

      save(record, token?)   create (as users.register) or, with objectId, update (as users.update)
      find(query?)           the page of matching records          find_first / find_last (query?) → record or nil
      find_by_id(id, query?) the record (only the projection applies)     count(where?) → integer (guests included)
      remove(objectId)       { deletionTime }

  Errors in order: a fault; 19000 the where clause (or sort entry); 1006 a column users.describe does not list.
  save: create → users.register's; update → 3064 (token not a live session), 1000 unknown objectId (choice:
  not 3030), then users.update's from 3029 on. find_by_id, remove: 1000 "Entity with ID %s not found".
]]

local function app_with(n)
  local app = understudy.backendless()
  local users = {}
  for i = 1, n do
    users[i] = expect.ok(app.users.register{ email = "u" .. i .. "@example.com", password = "p", rank = (i % 3), name = "n" .. i })
    app.clock.advance(1)
  end
  return app, users
end

local function field_list(records, name)
  local list = {}
  for _, record in ipairs(records) do list[#list + 1] = tostring(record[name]) end
  return table.concat(list, ",")
end

scenario("find without a query: the first 10 rows by created, records without password, ___class Users", function()
  local app = app_with(12)
  local records = expect.ok(app.data.users.find())
  expect.length(records, 10)
  expect.equal(records[1].email, "u1@example.com")
  expect.equal(records[10].email, "u10@example.com")
  expect.equal(records[1].___class, "Users")
  expect.is_nil(records[1].password)
  expect.not_nil(records[1].objectId)
  expect.equal(records[1].ownerId, records[1].objectId)
  expect.equal(records[1].userStatus, "ENABLED")
end)

scenario("paging: page_size and offset; past the last record the page is empty", function()
  local app = app_with(12)
  expect.equal(field_list(expect.ok(app.data.users.find{ page_size = 5, offset = 10 }), "name"), "n11,n12")
  expect.equal(field_list(expect.ok(app.data.users.find{ page_size = 3, offset = 3 }), "name"), "n4,n5,n6")
  expect.length(expect.ok(app.data.users.find{ offset = 12 }), 0)
  expect.length(expect.ok(app.data.users.find{ page_size = 100 }), 12)
end)

scenario("a bad page_size, offset or sort_by entry raises (misuse), naming the field", function()
  local app = app_with(1)
  expect.fails(function() app.data.users.find{ page_size = 0 } end, "query.page_size must be a whole number from 1 to 100, got 0")
  expect.fails(function() app.data.users.find{ page_size = 101 } end, "query.page_size must be a whole number from 1 to 100")
  expect.fails(function() app.data.users.find{ page_size = 2.5 } end, "query.page_size must be an integer")
  expect.fails(function() app.data.users.find{ offset = -1 } end, "query.offset must be a whole number")
  expect.fails(function() app.data.users.find{ sort_by = "rank sideways" } end, "query.sort_by entry \"rank sideways\"")
  expect.fails(function() app.data.users.find{ sort_by = 3 } end, "query.sort_by must be a string or a list of strings")
  expect.fails(function() app.data.users.find{ wher = "x" } end, "unknown field 'wher'")
  expect.fails(function() app.data.users.find{ where = 5 } end, "query.where must be a string")
  expect.fails(function() app.data.users.find_by_id() end, "objectId")
end)

scenario("sort_by: one or several keys, asc/desc in any case, equal keys in created order", function()
  local app = app_with(6)
  expect.equal(field_list(expect.ok(app.data.users.find{ sort_by = "rank" }), "name"), "n3,n6,n1,n4,n2,n5")
  expect.equal(field_list(expect.ok(app.data.users.find{ sort_by = { "rank DESC", "name desc" } }), "name"), "n5,n2,n4,n1,n6,n3")
  expect.equal(field_list(expect.ok(app.data.users.find{ sort_by = "name Asc", page_size = 2 }), "name"), "n1,n2")
end)

scenario("sorting: strings without case, numbers as numbers, false before true, missing first asc and last desc", function()
  local app = understudy.backendless()
  for _, props in ipairs{
    { email = "a@example.com", word = "b", num = 10, flag = true },
    { email = "b@example.com", word = "A", num = 9, flag = false },
    { email = "c@example.com" },
    { email = "d@example.com", word = "C", num = 100 },
  } do
    props.password = "p"
    expect.ok(app.users.register(props))
    app.clock.advance(1)
  end
  local function order(sort) return field_list(expect.ok(app.data.users.find{ sort_by = sort }), "email") end
  expect.equal(order("word"), "c@example.com,b@example.com,a@example.com,d@example.com")
  expect.equal(order("word desc"), "d@example.com,a@example.com,b@example.com,c@example.com")
  expect.equal(order("num"), "c@example.com,b@example.com,a@example.com,d@example.com")
  expect.equal(order("flag"), "c@example.com,d@example.com,b@example.com,a@example.com")
end)

scenario("properties keeps only what it names plus ___class (not even objectId); '*' is every column", function()
  local app = app_with(2)
  local records = expect.ok(app.data.users.find{ properties = { "email", "RANK" } })
  expect.equal(records[1].email, "u1@example.com")
  expect.equal(records[1].rank, 1)
  expect.equal(records[1].___class, "Users")
  expect.is_nil(records[1].objectId)
  expect.is_nil(records[1].name)
  local only = expect.ok(app.data.users.find{ properties = { "password", "name" } })
  expect.is_nil(only[1].password)
  expect.equal(only[1].name, "n1")
  local all = expect.ok(app.data.users.find{ properties = { "*" } })
  expect.not_nil(all[1].objectId)
  expect.is_nil(all[1].password)
end)

scenario("exclude_properties applies after properties; distinct keeps the first of equal records", function()
  local app = app_with(6)
  local records = expect.ok(app.data.users.find{ exclude_properties = { "email", "objectId" } })
  expect.is_nil(records[1].email)
  expect.is_nil(records[1].objectId)
  expect.equal(records[1].name, "n1")
  local ranks = expect.ok(app.data.users.find{ properties = { "rank" }, distinct = true, sort_by = "rank" })
  expect.equal(field_list(ranks, "rank"), "0,1,2")
  local kept = expect.ok(app.data.users.find{ properties = { "rank", "name" }, exclude_properties = { "name" } })
  expect.is_nil(kept[1].name)
  expect.equal(kept[1].rank, 1)
end)

scenario("1006 for a column in sort_by, properties or exclude_properties, after 19000", function()
  local app = app_with(1)
  expect.error({ code = 1006, message = "Column 'nope' does not exist in table 'Users'" }, app.data.users.find{ sort_by = "nope" })
  expect.error({ code = 1006, message = "Column 'Nope' does not exist in table 'Users'" }, app.data.users.find{ properties = { "Nope" } })
  expect.error(1006, app.data.users.find{ exclude_properties = { "nope" } })
  expect.error(19000, app.data.users.find{ where = "age >", sort_by = "nope" })
  expect.error(1006, app.data.users.find_first{ properties = { "nope" } })
  expect.error(1006, app.data.users.find_last{ sort_by = "nope" })
end)

scenario("find_first and find_last: first and last in find's order, nil when none; paging ignored", function()
  local app = app_with(5)
  expect.equal(expect.ok(app.data.users.find_first()).name, "n1")
  expect.equal(expect.ok(app.data.users.find_last()).name, "n5")
  expect.equal(expect.ok(app.data.users.find_first{ sort_by = "name desc", offset = 3, page_size = 1 }).name, "n5")
  expect.equal(expect.ok(app.data.users.find_last{ where = "rank = 1" }).name, "n4")
  local none, err = app.data.users.find_first{ where = "rank = 7" }
  expect.is_nil(none)
  expect.is_nil(err)
  expect.is_nil((app.data.users.find_last{ where = "rank = 7" }))
end)

scenario("find_by_id: the record, with only properties / exclude_properties applied; 1000 for an unknown id", function()
  local app, users = app_with(2)
  local record = expect.ok(app.data.users.find_by_id(users[2].objectId))
  expect.equal(record.email, "u2@example.com")
  expect.equal(record.___class, "Users")
  local projected = expect.ok(app.data.users.find_by_id(users[2].objectId, { properties = { "name" }, where = "rank = 9", page_size = 1 }))
  expect.equal(projected.name, "n2")
  expect.is_nil(projected.email)
  expect.error({ code = 1000, message = "Entity with ID 6EAFFE12-B424-8C51-FFB0-FE99548CAA00 not found" },
    app.data.users.find_by_id("6EAFFE12-B424-8C51-FFB0-FE99548CAA00"))
  expect.error(1006, app.data.users.find_by_id(users[1].objectId, { properties = { "nope" } }))
end)

scenario("guests are rows (choice): find and data count include them, users.count does not", function()
  local app = app_with(2)
  local guest = expect.ok(app.users.guest_login())
  expect.equal(expect.ok(app.data.users.count()), 3)
  expect.equal(app.users.count(), 2)
  local found = expect.ok(app.data.users.find{ where = "userStatus = 'GUEST'" })
  expect.length(found, 1)
  expect.equal(found[1].objectId, guest.user.objectId)
  expect.equal(expect.ok(app.data.users.find_by_id(guest.user.objectId)).userStatus, "GUEST")
end)

scenario("count(where?): matching rows; 19000 then 1006", function()
  local app = app_with(6)
  expect.equal(expect.ok(app.data.users.count("rank = 0")), 2)
  expect.equal(expect.ok(app.data.users.count()), 6)
  expect.error(19000, app.data.users.count("rank ="))
  expect.error(1006, app.data.users.count("nope = 1"))
end)

scenario("save without objectId registers exactly as users.register does (choice), confirmation email included", function()
  local app = understudy.backendless{ email_confirmation = true }
  local record = expect.ok(app.data.users.save{ email = "new@example.com", password = "secret", city = "Oslo" })
  expect.equal(record.email, "new@example.com")
  expect.equal(record.userStatus, "EMAIL_CONFIRMATION_PENDING")
  expect.equal(record.___class, "Users")
  expect.is_nil(record.password)
  expect.equal(app.outbox.last_email("new@example.com").kind, "confirmation")
  expect.ok(app.users.confirm_email(record.objectId))
  expect.ok(app.users.login("new@example.com", "secret"))
  expect.error(3033, app.data.users.save{ email = "new@example.com", password = "x" })
  expect.error(3011, app.data.users.save{ email = "other@example.com" })
  expect.error(3038, app.data.users.save{})
end)

scenario("save with objectId updates as users.update does; without a token nobody's session is checked (choice)", function()
  local app, users = app_with(2)
  local record = expect.ok(app.data.users.save{ objectId = users[1].objectId, city = "Bergen", password = "new" })
  expect.equal(record.city, "Bergen")
  expect.equal(record.email, "u1@example.com")
  expect.ok(app.users.login("u1@example.com", "new"))
  expect.error(3018, app.data.users.save{ objectId = users[1].objectId, email = "u2@example.com" })
end)

scenario("save with a token: 3064 for a dead token, 1000 for an unknown objectId (choice), 3029 another user's", function()
  local app, users = app_with(2)
  local session = expect.ok(app.users.login("u1@example.com", "p"))
  expect.ok(app.data.users.save({ objectId = users[1].objectId, city = "x" }, session.token))
  expect.error(3064, app.data.users.save({ objectId = "6EAFFE12-B424-8C51-FFB0-FE99548CAA00", city = "x" }, "no-such-token"))
  expect.error({ code = 1000, message = "Entity with ID 6EAFFE12-B424-8C51-FFB0-FE99548CAA00 not found" },
    app.data.users.save({ objectId = "6EAFFE12-B424-8C51-FFB0-FE99548CAA00", city = "x" }, session.token))
  expect.error(1000, app.data.users.save{ objectId = "6EAFFE12-B424-8C51-FFB0-FE99548CAA00", city = "x" })
  expect.error(3029, app.data.users.save({ objectId = users[2].objectId, city = "x" }, session.token))
end)

scenario("save with a guest's objectId updates the guest, which stays GUEST (fine point 23)", function()
  local app = understudy.backendless()
  local guest = expect.ok(app.users.guest_login())
  local record = expect.ok(app.data.users.save{ objectId = guest.user.objectId, nickname = "g" })
  expect.equal(record.nickname, "g")
  expect.equal(record.userStatus, "GUEST")
end)

scenario("remove deletes the user as users.delete does; 1000 for an unknown id", function()
  local app, users = app_with(2)
  local session = expect.ok(app.users.login("u1@example.com", "p"))
  app.clock.advance(5)
  local removed = expect.ok(app.data.users.remove(users[1].objectId))
  expect.equal(removed.deletionTime, app.clock.now() * 1000)
  expect.is_nil(app.users.get(users[1].objectId))
  expect.error(3064, app.users.logout(session.token))
  expect.error(1000, app.data.users.remove(users[1].objectId))
  expect.equal(expect.ok(app.data.users.count()), 1)
end)

scenario("records are copies: changing one changes nothing stored", function()
  local app = app_with(1)
  local record = expect.ok(app.data.users.find())[1]
  record.email = "changed@example.com"
  expect.equal(expect.ok(app.data.users.find())[1].email, "u1@example.com")
end)

scenario("every data call is an operation faults.inject accepts; a faulted call changes nothing", function()
  local app, users = app_with(2)
  for _, op in ipairs{ "data.save", "data.find", "data.find_first", "data.find_last", "data.find_by_id", "data.count", "data.remove" } do
    app.faults.inject{ op = op, code = 3000, message = "down", times = 1 }
  end
  expect.error({ code = 3000, message = "down" }, app.data.users.save{ email = "x@example.com", password = "p" })
  expect.error(3000, app.data.users.find{ where = "this is not a clause" })
  expect.error(3000, app.data.users.find_first())
  expect.error(3000, app.data.users.find_last())
  expect.error(3000, app.data.users.find_by_id("nope"))
  expect.error(3000, app.data.users.count("nope = 1"))
  expect.error(3000, app.data.users.remove(users[1].objectId))
  expect.equal(expect.ok(app.data.users.count()), 2)
end)

scenario("a fault's when(args) sees the query by its field names", function()
  local app = app_with(3)
  app.faults.inject{ op = "data.find", code = 3000, when = function(args) return args.query.where == "rank = 1" end }
  expect.ok(app.data.users.find{ where = "rank = 2" })
  expect.error(3000, app.data.users.find{ where = "rank = 1" })
  app.faults.inject{ op = "data.count", code = 3001, when = function(args) return args.where == nil end }
  expect.ok(app.data.users.count("rank = 1"))
  expect.error(3001, app.data.users.count())
end)
