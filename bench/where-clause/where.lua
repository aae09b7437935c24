-- The Data service's where clause over 100,000 users (contract v4): each query's wall time in milliseconds,
-- the median of 5 runs (os.clock: CPU time of the process, which runs one scenario at a time).
scenario("where clauses over 100,000 users", function()
  local app = understudy.backendless()
  app.users.seed{ count = 100000, email = "user%d@example.com", password = "secret", name = "User %d", city = "Oslo" }
  local function time(label, f)
    local runs = {}
    local result
    for i = 1, 5 do
      local start = os.clock()
      result = f()
      runs[i] = (os.clock() - start) * 1000
    end
    table.sort(runs)
    print(string.format("WHERE %-62s %8.2f ms  (%s)", label, runs[3], tostring(result)))
  end
  local function find(query) return function() return #assert(app.data.users.find(query)) end end
  time("find email = 'user50000@example.com'", find{ where = "email = 'user50000@example.com'" })
  time("find name LIKE 'user 9999%'", find{ where = "name LIKE 'user 9999%'" })
  time("find name > 'User 5' AND city = 'oslo' (page of 10)", find{ where = "name > 'User 5' AND city = 'oslo'" })
  time("find NOT (city IS NULL) sorted by name desc (page of 10)", find{ where = "NOT (city IS NULL)", sort_by = "name desc" })
  time("find userStatus IN ('ENABLED') offset 99990", find{ where = "userStatus IN ('ENABLED')", offset = 99990 })
  time("find created AT OR AFTER '2030-01-01' page 100 projected", find{ where = "created AT OR AFTER '2030-01-01'", page_size = 100, properties = { "email" } })
  time("count name LIKE '%7%'", function() return assert(app.data.users.count("name LIKE '%7%'")) end)
  time("count (no clause)", function() return assert(app.data.users.count()) end)
  time("find_last sort_by email", function() return assert(app.data.users.find_last{ sort_by = "email" }).email end)
end)
