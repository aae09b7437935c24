--[[
  Backendless contract v4: the where clause of the Data service on the Users table.

  app.data.users.find{ where = "..." } keeps the records for which the clause is TRUE, in SQL's three-valued
  logic: a comparison with a missing value is unknown, NOT unknown is unknown. The grammar:
      or := and { OR and }    and := not { AND not }    not := NOT not | ( or ) | predicate
      predicate := column op literal | column [NOT] LIKE 'pattern' | column [NOT] IN (literal, ...)
                 | column [NOT] BETWEEN a AND b | column IS [NOT] NULL
                 | column AFTER | BEFORE | AT OR AFTER | AT OR BEFORE literal
  Strings compare without case; LIKE takes % and _ (\% \_ \\ literal); numbers numerically; booleans with
  TRUE / FALSE; `= NULL` means IS NULL. DATETIME columns (created, updated, lastLogin) compare with
  milliseconds or a date string ('2030-01-01', '01/15/2030', '15-Jan-2030', ...), read as UTC.

  Errors: 19000 "Invalid where clause: %s" with %s naming the first token the parser could not read and its
  position ("'2' at position 9: expected ..."), or exactly "end of clause"; constructs Backendless has and the
  emulator does not (relation paths, functions, arithmetic, SELECT / GROUP / HAVING) say
  "unsupported by Understudy: ..." and are found before any column is looked up. A column users.describe does
  not list answers 1006 "Column '%s' does not exist in table 'Users'", quoting the name as written.
]]

local function people()
  local app = understudy.backendless()
  -- a second apart, so that find's default order (created, then objectId) is registration order
  expect.ok(app.users.register{ email = "ann@example.com", password = "p", name = "Ann", age = 41, vip = true, city = "Oslo" })
  app.clock.advance(1)
  expect.ok(app.users.register{ email = "bob@example.com", password = "p", name = "bob", age = 25, vip = false })
  app.clock.advance(1)
  expect.ok(app.users.register{ email = "cy@example.com", password = "p", name = "Cy O'Neil", age = 33.5, city = "oslo" })
  app.clock.advance(1)
  expect.ok(app.users.register{ email = "dee@example.com", password = "p", name = "Dee_50%", city = "Bergen" })
  app.clock.advance(1)
  return app
end

local function emails(app, where)
  local records = expect.ok(app.data.users.find{ where = where, page_size = 100 })
  local list = {}
  for _, record in ipairs(records) do list[#list + 1] = record.email end
  return table.concat(list, " ")
end

scenario("comparisons: numbers numerically, strings without case, booleans with TRUE/FALSE", function()
  local app = people()
  expect.equal(emails(app, "age >= 33"), "ann@example.com cy@example.com")
  expect.equal(emails(app, "age < 33.5"), "bob@example.com")
  expect.equal(emails(app, "age = 41"), "ann@example.com")
  expect.equal(emails(app, "age <> 41"), "bob@example.com cy@example.com")
  expect.equal(emails(app, "age != 41"), "bob@example.com cy@example.com")
  expect.equal(emails(app, "age <= 25"), "bob@example.com")
  expect.equal(emails(app, "age > 1e1"), "ann@example.com bob@example.com cy@example.com")
  expect.equal(emails(app, "age > -5"), "ann@example.com bob@example.com cy@example.com")
  expect.equal(emails(app, "city = 'OSLO'"), "ann@example.com cy@example.com")
  expect.equal(emails(app, "name = 'BOB'"), "bob@example.com")
  expect.equal(emails(app, "name > 'b'"), "bob@example.com cy@example.com dee@example.com")
  expect.equal(emails(app, "vip = TRUE"), "ann@example.com")
  expect.equal(emails(app, "vip = false"), "bob@example.com")
end)

scenario("a string literal holds any character, '' being one quote", function()
  local app = people()
  expect.equal(emails(app, "name = 'Cy O''Neil'"), "cy@example.com")
  expect.equal(emails(app, "name = 'a AND b OR (c'"), "")
end)

scenario("a string literal against a number column compares as that number, else matches nothing (choice)", function()
  local app = people()
  expect.equal(emails(app, "age = '41'"), "ann@example.com")
  expect.equal(emails(app, "age = 'forty'"), "")
  expect.equal(emails(app, "name = 41"), "")
end)

scenario("missing values: IS NULL is true, any comparison unknown, NOT unknown stays unknown", function()
  local app = people()
  expect.equal(emails(app, "city IS NULL"), "bob@example.com")
  expect.equal(emails(app, "city is not null"), "ann@example.com cy@example.com dee@example.com")
  expect.equal(emails(app, "city = NULL"), "bob@example.com")
  expect.equal(emails(app, "city != NULL"), "ann@example.com cy@example.com dee@example.com")
  expect.equal(emails(app, "city != 'Oslo'"), "dee@example.com")
  expect.equal(emails(app, "NOT (city = 'Oslo')"), "dee@example.com")
  expect.equal(emails(app, "NOT (age > 30) OR city = 'Bergen'"), "bob@example.com dee@example.com")
  expect.equal(emails(app, "vip = NULL"), "cy@example.com dee@example.com")
end)

scenario("LIKE: % any run, _ one character, escapes, without case; NOT LIKE", function()
  local app = people()
  expect.equal(emails(app, "name LIKE 'a%'"), "ann@example.com")
  expect.equal(emails(app, "name LIKE '_o_'"), "bob@example.com")
  expect.equal(emails(app, "name LIKE '%\\%'"), "dee@example.com")
  expect.equal(emails(app, "name LIKE 'Dee\\_%'"), "dee@example.com")
  expect.equal(emails(app, "name LIKE 'Dee\\_'"), "")
  expect.equal(emails(app, "name NOT LIKE '%o%'"), "ann@example.com dee@example.com")
  expect.equal(emails(app, "city NOT LIKE 'o%'"), "dee@example.com")
end)

scenario("IN, NOT IN, BETWEEN, NOT BETWEEN", function()
  local app = people()
  expect.equal(emails(app, "name IN ('ann', 'BOB', 'zed')"), "ann@example.com bob@example.com")
  expect.equal(emails(app, "age IN (25, 41)"), "ann@example.com bob@example.com")
  expect.equal(emails(app, "age NOT IN (25)"), "ann@example.com cy@example.com")
  expect.equal(emails(app, "city IN ('Bergen', NULL)"), "bob@example.com dee@example.com")
  expect.equal(emails(app, "age BETWEEN 25 AND 33.5"), "bob@example.com cy@example.com")
  expect.equal(emails(app, "age NOT BETWEEN 25 AND 33.5"), "ann@example.com")
end)

scenario("AND binds tighter than OR; parentheses and NOT; keywords are whole words in any case", function()
  local app = people()
  expect.equal(emails(app, "age > 40 OR age < 30 AND vip = true"), "ann@example.com")
  expect.equal(emails(app, "(age > 40 OR age < 30) AND vip = false"), "bob@example.com")
  expect.equal(emails(app, "not not age = 25"), "bob@example.com")
  expect.equal(emails(app, "AgE >= 41 aNd NAME like 'A%'"), "ann@example.com")
  expect.ok(app.users.register{ email = "note@example.com", password = "p", NOTE = 1 })
  expect.equal(emails(app, "NOTE = 1"), "note@example.com")
end)

scenario("an empty or all-blank where means no condition", function()
  local app = people()
  expect.length(expect.ok(app.data.users.find{ where = "" }), 4)
  expect.length(expect.ok(app.data.users.find{ where = "  \t " }), 4)
  expect.equal(expect.ok(app.data.users.count("   ")), 4)
end)

scenario("DATETIME columns compare with milliseconds or date strings, read as UTC; AFTER / BEFORE", function()
  local app = understudy.backendless()
  -- `understudy run` starts the clock at 2030-01-01T00:00:00Z
  expect.ok(app.users.register{ email = "early@example.com", password = "p" })
  app.clock.advance(86400 * 31) -- 2030-02-01
  expect.ok(app.users.register{ email = "late@example.com", password = "p" })
  expect.equal(emails(app, "created > 1893456000000"), "late@example.com")
  expect.equal(emails(app, "created AFTER '2030-01-15'"), "late@example.com")
  expect.equal(emails(app, "created before '01/15/2030'"), "early@example.com")
  expect.equal(emails(app, "created AT OR AFTER '2030-01-01T00:00:00.000Z'"), "early@example.com late@example.com")
  expect.equal(emails(app, "created at or before '01-Jan-2030'"), "early@example.com")
  expect.equal(emails(app, "created = '02-01-2030'"), "late@example.com")
  expect.equal(emails(app, "created < '02/01/2030 00:00:01'"), "early@example.com late@example.com")
  expect.equal(emails(app, "created > 'yesterday'"), "")
  expect.equal(emails(app, "lastLogin IS NULL"), "early@example.com late@example.com")
end)

scenario("19000 names the first token it could not read and where it stands", function()
  local app = people()
  expect.error({ code = 19000, message = "Invalid where clause: end of clause" }, app.data.users.find{ where = "age >" })
  expect.error({ code = 19000, message = "Invalid where clause: end of clause" }, app.data.users.find{ where = "(age > 1" })
  expect.error({ code = 19000, message = "Invalid where clause: end of clause" }, app.data.users.find{ where = "age > 1 AND" })
  local _, err = app.data.users.find{ where = "age = 1 2" }
  expect.equal(err.code, 19000)
  expect.match(err.message, "^Invalid where clause: '2' at position 9: expected AND, OR or the end of the clause$")
  _, err = app.data.users.find{ where = "name = 'abc" }
  expect.match(err.message, "^Invalid where clause: ''abc' at position 8: the string is never closed")
  _, err = app.data.users.find{ where = "age > 1)" }
  expect.match(err.message, "'%)' at position 8")
  _, err = app.data.users.find{ where = "age IN ()" }
  expect.match(err.message, "'%)' at position 9: expected a value %(an IN list may not be empty%)")
  _, err = app.data.users.find{ where = "age = = 1" }
  expect.match(err.message, "'=' at position 7: expected a value")
  _, err = app.data.users.find{ where = "age => 1" }
  expect.match(err.message, "'>' at position 6: expected a value")
  _, err = app.data.users.find{ where = "age ~ 1" }
  expect.match(err.message, "'~' at position 5")
  _, err = app.data.users.find{ where = "TRUE = age" }
  expect.match(err.message, "'TRUE' at position 1: expected a column name")
  _, err = app.data.users.find{ where = "name LIKE 5" }
  expect.match(err.message, "'5' at position 11: expected a string")
end)

scenario("unsupported constructs are 19000 'unsupported by Understudy', found before columns are looked up", function()
  local app = people()
  local cases = {
    { "friends.name = 'x'", "relation path 'friends.name' at position 1" },
    { "nosuch.name = 'x'", "relation path" },
    { "count(age) > 1", "function count%(%) at position 1" },
    { "age + 1 > 2", "arithmetic" },
    { "age * 2 > 2", "arithmetic" },
    { "age -1 > 2", "arithmetic" },
    { "age > 1 GROUP BY name", "GROUP" },
    { "age IN (SELECT age)", "SELECT" },
    { "age > 1 HAVING x", "HAVING" },
  }
  for _, case in ipairs(cases) do
    local _, err = app.data.users.find{ where = case[1] }
    expect.equal(err.code, 19000)
    expect.match(err.message, "^Invalid where clause: unsupported by Understudy: ")
    expect.match(err.message, case[2])
  end
end)

scenario("1006 for a column users.describe does not list, quoted as written; names match without case", function()
  local app = people()
  expect.error({ code = 1006, message = "Column 'Salary' does not exist in table 'Users'" }, app.data.users.find{ where = "Salary > 1" })
  expect.error(1006, app.data.users.count("nosuch IS NULL"))
  expect.equal(emails(app, "EMAIL = 'ANN@example.com'"), "ann@example.com")
  -- a column some user ever held stays a column of the table
  expect.ok(app.users.register{ email = "tmp@example.com", password = "p", nickname = "t" })
  local tmp = app.users.find("tmp@example.com")
  expect.ok(app.users.delete(tmp.objectId))
  expect.equal(emails(app, "nickname IS NOT NULL"), "")
end)

scenario("a clause of thousands of characters is read; deep nesting is 19000, not a crash", function()
  local app = people()
  local parts = {}
  for i = 1, 400 do parts[#parts + 1] = "age = " .. i end
  expect.equal(emails(app, table.concat(parts, " OR ")), "ann@example.com bob@example.com")
  local _, err = app.data.users.find{ where = string.rep("(", 5000) .. "age = 1" .. string.rep(")", 5000) }
  expect.equal(err.code, 19000)
  expect.match(err.message, "nest deeper than")
end)
