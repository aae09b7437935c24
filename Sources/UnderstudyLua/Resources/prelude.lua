local bind, raw_getmetatable, raw_setmetatable = ...
local base = _G
local type, tostring, tonumber, pairs, next, rawget, rawset, rawlen, rawequal, setmetatable, getmetatable, error, select, pcall =
      type, tostring, tonumber, pairs, next, rawget, rawset, rawlen, rawequal, setmetatable, getmetatable, error, select, pcall
local math_type, math_randomseed, string_format, string_find, string_rep, table_sort, table_concat =
      math.type, math.randomseed, string.format, string.find, string.rep, table.sort, table.concat
local skip = skip

-- The scenario environment: reads fall through a fresh per-scenario table to the file's globals, then to the
-- standard library; writes land in the per-scenario table, so no scenario sees another's globals.
local file_globals = setmetatable({}, { __index = base })
local env = {}
local env_meta = { __index = file_globals, __newindex = file_globals, __metatable = false }
setmetatable(env, env_meta)
rawset(file_globals, "_G", env)

---------------------------------------------------------------------------------------------------------------
-- Errors calls return. `err` is an empty proxy whose fields live in error_fields; looking at it (a field, pairs,
-- tostring, `..`, any expect.*) takes it out of `unchecked`. Swift fills `unchecked` while a scenario runs and
-- fails the scenario for what is left in it when the scenario returns; understudy.ignore(err) discards on purpose.

local error_fields = setmetatable({}, { __mode = "k" })
local unchecked = {}

local function seen(a, b, c)
  if unchecked[a] then unchecked[a] = nil end
  if unchecked[b] then unchecked[b] = nil end
  if unchecked[c] then unchecked[c] = nil end
end

---------------------------------------------------------------------------------------------------------------
-- Rendering values for people

local function quote(s)
  if #s > 200 then s = s:sub(1, 200) .. "…" end
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == "\n" then return "\\n" elseif c == "\t" then return "\\t" elseif c == '"' then return '\\"'
    elseif c == "\\" then return "\\\\" else return string_format("\\%d", c:byte()) end
  end) .. '"'
end

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

local function sorted_keys(t)
  local keys = {}
  for k in next, t do keys[#keys + 1] = k end
  table_sort(keys, key_order)
  return keys
end

---------------------------------------------------------------------------------------------------------------
-- pairs in an order of the keys themselves: Lua's own order follows the string hashes, seeded anew in every
-- state, so `for k in pairs(user)` would visit fields in another order each run. The sequence 1..#t first, then
-- the other numbers ascending, strings in byte order, false, true, then other keys (tables, functions) as `next`
-- meets them.
-- A __pairs metamethod is honoured; one that hands back `next` over a table (app.settings, err) is ordered too.

local pairs_rank = { number = 1, string = 2, boolean = 3 }
local function pairs_order(a, b)
  local ra, rb = pairs_rank[type(a)], pairs_rank[type(b)]
  if ra ~= rb then return ra < rb end
  if ra == 3 then return b and not a end
  return a < b
end

local function ordered_keys(t)
  local keys, others, n = {}, nil, rawlen(t)
  for i = 1, n do
    if rawget(t, i) == nil then n = i - 1; break end
    keys[i] = i
  end
  local rest = {}
  for k in next, t do
    local kind = type(k)
    if kind == "string" or kind == "boolean" or (kind == "number" and not (math_type(k) == "integer" and k >= 1 and k <= n)) then
      rest[#rest + 1] = k
    elseif kind ~= "number" then
      others = others or {}
      others[#others + 1] = k
    end
  end
  table_sort(rest, pairs_order)
  for i = 1, #rest do keys[n + i] = rest[i] end
  if others then
    local count = #keys
    for i = 1, #others do keys[count + i] = others[i] end
  end
  return keys
end

local function ordered_iterator(t)
  local keys, i = ordered_keys(t), 0
  return function()
    while true do
      i = i + 1
      local k = keys[i]
      if k == nil then return nil end
      local v = rawget(t, k)
      if v ~= nil then return k, v end -- a field cleared during the traversal is skipped
    end
  end
end

local function ordered_pairs(t, ...)
  local mt = raw_getmetatable(t)
  local handler = type(mt) == "table" and rawget(mt, "__pairs") or nil
  if handler ~= nil then
    local f, s, c = handler(t)
    if rawequal(f, next) and type(s) == "table" and c == nil and raw_getmetatable(s) == nil then
      return ordered_iterator(s), s, nil
    end
    return f, s, c
  end
  if type(t) ~= "table" then return pairs(t, ...) end -- Lua's own message for a wrong argument
  return ordered_iterator(t), t, nil
end
base.pairs = ordered_pairs

-- next in the same order as pairs. next(t) (a traversal's start, or an emptiness check) finds the first key
-- without sorting: 1 when t has it, else the least key; a traversal's next call sorts the keys once and keeps
-- them (weakly, per table) for the calls after it. Starting again from nil forgets them, so keys added between
-- traversals are seen. A key not in the order (added during a traversal, which Lua leaves undefined) re-sorts;
-- one not in the table gets Lua's own error.
local next_orders = setmetatable({}, { __mode = "k" })
local function first_key(t)
  if rawget(t, 1) ~= nil then return 1 end
  local best, other
  for k in next, t do
    if pairs_rank[type(k)] then
      if best == nil or pairs_order(k, best) then best = k end
    elseif other == nil then
      other = k
    end
  end
  if best ~= nil then return best end
  return other
end
local function ordered_next(t, k)
  if type(t) ~= "table" then return next(t, k) end -- Lua's own message for a wrong argument
  if k == nil then
    next_orders[t] = nil
    if next(t) == nil then return nil end
    local first = first_key(t)
    return first, rawget(t, first)
  end
  local order = next_orders[t]
  local i = order and order.position[k]
  if i == nil then
    local keys, position = ordered_keys(t), {}
    for j = 1, #keys do position[keys[j]] = j end
    order = { keys = keys, position = position }
    next_orders[t] = order
    i = position[k]
    if i == nil then return next(t, k) end -- not in the table: Lua's error
  end
  local keys = order.keys
  while true do
    i = i + 1
    local key = keys[i]
    if key == nil then return nil end
    local v = rawget(t, key)
    if v ~= nil then return key, v end -- a field cleared during the traversal is skipped
  end
end
base.next = ordered_next

local render
local function render_key(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
  return "[" .. render(k, 3) .. "]"
end

function render(v, depth)
  local t = type(v)
  if t == "string" then return quote(v) end
  if t ~= "table" then
    if math_type(v) == "float" and v == v and v % 1 == 0 and v > -1e15 and v < 1e15 then return string_format("%.1f", v) end
    return tostring(v)
  end
  local fields = error_fields[v]
  if fields then v = fields end
  local mt = getmetatable(v)
  if type(mt) == "table" and rawget(mt, "__tostring") then
    local ok, text = pcall(tostring, v)
    if ok then return text end
  end
  depth = depth or 0
  if depth >= 3 then return "{…}" end
  local parts, n = {}, rawlen(v)
  for i = 1, n do parts[#parts + 1] = render(rawget(v, i), depth + 1) end
  for _, k in next, sorted_keys(v) do
    if not (math_type(k) == "integer" and k >= 1 and k <= n) then
      parts[#parts + 1] = render_key(k) .. " = " .. render(rawget(v, k), depth + 1)
    end
    if #parts > 24 then parts[#parts + 1] = "…"; break end
  end
  return "{" .. table_concat(parts, ", ") .. "}"
end

local function describe_error_object(v)
  if type(v) == "table" then return "error object: " .. render(v) end
  return tostring(v)
end

---------------------------------------------------------------------------------------------------------------
-- Deep comparison with the path of the first difference

local function path_of(path, k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return path .. "." .. k end
  return path .. "[" .. render(k, 3) .. "]"
end

-- `comparing` holds the pairs of tables being compared further up: meeting one again (a cycle) assumes it
-- equal, so two equal cyclic tables compare equal, and each pair is walked once.
local function difference(actual, expected, path, depth, comparing)
  if rawequal(actual, expected) then return nil end
  if type(actual) ~= "table" or type(expected) ~= "table" then
    if actual == expected then return nil end
    return path, actual, expected
  end
  actual = error_fields[actual] or actual
  expected = error_fields[expected] or expected
  if depth > 32 then return nil end
  comparing = comparing or {}
  local pairs_of_actual = rawget(comparing, actual)
  if pairs_of_actual == nil then
    pairs_of_actual = {}
    rawset(comparing, actual, pairs_of_actual)
  elseif rawget(pairs_of_actual, expected) then
    return nil
  end
  rawset(pairs_of_actual, expected, true)
  for _, k in next, sorted_keys(expected) do
    local p, a, e = difference(rawget(actual, k), rawget(expected, k), path_of(path, k), depth + 1, comparing)
    if p then return p, a, e end
  end
  for _, k in next, sorted_keys(actual) do
    if rawget(expected, k) == nil then return path_of(path, k), rawget(actual, k), nil end
  end
  return nil
end

local function deep_equal(a, b) return difference(a, b, "", 0) == nil end

---------------------------------------------------------------------------------------------------------------
-- The error proxies' metatable, and the explicit discard

local function error_text(e)
  unchecked[e] = nil
  return render(error_fields[e])
end

local error_meta = {
  __index = function(e, k) unchecked[e] = nil; return error_fields[e][k] end,
  __newindex = function(e, k, v) unchecked[e] = nil; error_fields[e][k] = v end,
  __pairs = function(e) unchecked[e] = nil; return next, error_fields[e], nil end,
  __len = function(e) unchecked[e] = nil; return rawlen(error_fields[e]) end,
  __tostring = error_text,
  __concat = function(a, b)
    if error_fields[a] then a = error_text(a) end
    if error_fields[b] then b = error_text(b) end
    return a .. b
  end,
  __metatable = "understudy error",
}

local understudy_module = rawget(base, "understudy")
local bind_errors, known_code = rawget(understudy_module, "_errors"), rawget(understudy_module, "_known_code")
rawset(understudy_module, "_errors", nil)
rawset(understudy_module, "_known_code", nil)
bind_errors(error_meta, error_fields, unchecked)

-- understudy.ignore(err) or understudy.ignore(app.users.register{...}): the error is discarded on purpose.
-- Returns what it was given.
local function ignore(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if unchecked[v] then unchecked[v] = nil end
  end
  return ...
end
rawset(understudy_module, "ignore", ignore)

---------------------------------------------------------------------------------------------------------------
-- expect: assertions whose failures read well

local expect = {}

local function fail_at(level, label, text)
  if label ~= nil then text = tostring(label) .. ": " .. text end
  error(text, level + 1)
end

local function describe_failure(err)
  if type(err) ~= "table" then return render(err) end
  local parts = {}
  if err.status ~= nil then parts[#parts + 1] = tostring(err.status) end
  if err.code ~= nil then parts[#parts + 1] = tostring(err.code) end
  local text = table_concat(parts, " ")
  if err.message ~= nil then text = text .. " (" .. tostring(err.message) .. ")" end
  if err.field ~= nil then text = text .. " field=" .. tostring(err.field) end
  if err.value ~= nil then text = text .. " value=" .. tostring(err.value) end
  if text == "" then text = render(err) end
  return text
end

local function describe_expected(expected)
  if type(expected) == "table" then return render(expected) end
  return tostring(expected)
end

function expect.ok(result, err, ...)
  seen(result, err)
  if type(result) == "function" then
    error("expect.ok: argument 1 is a function; expect.ok checks what a call returned: write the call inside it, " ..
      "as in expect.ok(app.users.register{...})", 2)
  end
  if result == nil then
    if err == nil then fail_at(2, nil, "expected the call to succeed, but it returned nothing") end
    fail_at(2, nil, "expected the call to succeed, but it failed with " .. describe_failure(err))
  end
  return result, err, ...
end

-- Whether err has the code `expected`: a Backendless number, a Kii errorCode or a Kii HTTP status (a number);
-- a number may be written as text ("3033").
local function has_code(err, expected)
  local code = err.code
  if code == expected then return true end
  if type(expected) == "string" then
    local number = math_type(tonumber(expected)) == "integer" and tonumber(expected)
    if not number then return type(code) == "string" and code:upper() == expected:upper() end
    expected = number
  end
  if type(expected) ~= "number" then return false end
  if type(code) == "number" then return code == expected end
  return err.status == expected
end

-- Refuses an expected code that no backend answers (unless the error at hand has it: an injected fault's).
local function check_known_code(expected, err, level)
  if type(expected) ~= "number" and type(expected) ~= "string" then return end
  if type(err) == "table" and has_code(err, expected) then return end
  local known, suggestion = known_code(expected)
  if known then return end
  error("expect.error: " .. describe_expected(expected) .. " is not an error code of Backendless or Kii" ..
    (suggestion and (" (did you mean " .. suggestion .. "?)") or "") ..
    "; Backendless codes are numbers (3033), Kii codes are errorCode names (\"USER_ALREADY_EXISTS\") or HTTP statuses (409)",
    level + 1)
end

function expect.error(expected, result, err)
  seen(result, err)
  local kind = type(expected)
  if kind ~= "number" and kind ~= "string" and kind ~= "table" then
    error("expect.error: argument 1 must be an error code (a number or a string) or a table of fields, got " .. kind, 2)
  end
  if type(result) == "function" then
    error("expect.error: argument 2 is a function; expect.error checks what a call returned: write the call " ..
      "inside it, as in expect.error(3033, app.users.register{...})", 2)
  end
  local code = expected
  if kind == "table" then code = rawget(expected, "code") end
  if result ~= nil then
    check_known_code(code, nil, 2)
    fail_at(2, nil, "expected the call to fail with " .. describe_expected(expected) ..
      ", but it succeeded and returned " .. render(result))
  end
  if type(err) ~= "table" then
    check_known_code(code, nil, 2)
    fail_at(2, nil, "expected the call to fail with " .. describe_expected(expected) ..
      ", but its error value is " .. render(err))
  end
  if kind == "table" then
    for _, k in next, sorted_keys(expected) do
      local matches
      if k == "code" then matches = has_code(err, expected.code) else matches = deep_equal(err[k], expected[k]) end
      if not matches then
        if k == "code" then check_known_code(code, err, 2) end
        fail_at(2, nil, "expected error " .. render(expected) .. ", got " .. describe_failure(err) ..
          " (" .. tostring(k) .. " is " .. render(err[k]) .. ", expected " .. render(expected[k]) .. ")")
      end
    end
  elseif not has_code(err, expected) then
    check_known_code(expected, err, 2)
    fail_at(2, nil, "expected error " .. describe_expected(expected) .. ", got " .. describe_failure(err))
  end
  return err
end

function expect.equal(actual, expected, label)
  seen(actual, expected)
  local path, a, e = difference(actual, expected, "", 0)
  if path ~= nil then
    local text
    if path == "" then
      text = "expected " .. render(expected) .. ", got " .. render(actual)
    else
      text = "values differ at " .. path:gsub("^%.", "") .. ": expected " .. render(e) .. ", got " .. render(a) ..
        "\n  expected: " .. render(expected) .. "\n    actual: " .. render(actual)
    end
    fail_at(2, label, text)
  end
  return actual
end

function expect.not_equal(actual, other, label)
  seen(actual, other)
  if deep_equal(actual, other) then fail_at(2, label, "expected a value different from " .. render(other)) end
  return actual
end

function expect.truthy(value, label)
  seen(value)
  if not value then fail_at(2, label, "expected a true value, got " .. render(value)) end
  return value
end

function expect.falsy(value, label)
  seen(value)
  if value then fail_at(2, label, "expected false or nil, got " .. render(value)) end
  return value
end

function expect.is_nil(value, label)
  seen(value)
  if value ~= nil then fail_at(2, label, "expected nil, got " .. render(value)) end
  return value
end

function expect.not_nil(value, label)
  seen(value)
  if value == nil then fail_at(2, label, "expected a value, got nil") end
  return value
end

function expect.match(text, pattern, label)
  seen(text)
  if type(text) ~= "string" then fail_at(2, label, "expected a string matching " .. quote(pattern) .. ", got " .. render(text)) end
  if not string_find(text, pattern) then fail_at(2, label, "expected " .. quote(text) .. " to match " .. quote(pattern)) end
  return text
end

function expect.contains(haystack, item, label)
  seen(haystack, item)
  if type(haystack) == "string" then
    if type(item) ~= "string" or not string_find(haystack, item, 1, true) then
      fail_at(2, label, "expected " .. quote(haystack) .. " to contain " .. render(item))
    end
    return haystack
  end
  if type(haystack) ~= "table" then fail_at(2, label, "expected a list or a string, got " .. render(haystack)) end
  for i = 1, rawlen(haystack) do
    if deep_equal(rawget(haystack, i), item) then return haystack end
  end
  fail_at(2, label, "expected " .. render(haystack) .. " to contain " .. render(item))
end

function expect.length(list, n, label)
  seen(list)
  if type(list) ~= "table" and type(list) ~= "string" then fail_at(2, label, "expected a list, got " .. render(list)) end
  if #list ~= n then fail_at(2, label, "expected length " .. tostring(n) .. ", got " .. tostring(#list) .. ": " .. render(list)) end
  return list
end

function expect.fails(fn, pattern, label)
  if type(fn) ~= "function" then error("expect.fails: argument 1 must be a function", 2) end
  local ok, message = pcall(fn)
  if ok then fail_at(2, label, "expected the function to raise an error, but it returned normally") end
  local text = type(message) == "string" and message or describe_error_object(message)
  if pattern ~= nil and not string_find(text, pattern) then
    fail_at(2, label, "expected an error matching " .. quote(pattern) .. ", got " .. quote(text))
  end
  return text
end

local function fail(message)
  error(message == nil and "scenario failed" or message, 2)
end

base.expect = expect
base.fail = fail
-- expect.equals and other misspellings name the helpers there are (the same __index as the API tables')
raw_setmetatable(expect, { __index = rawget(raw_getmetatable(understudy_module), "__index"), __name = "understudy api expect",
  __metatable = "understudy api expect" })

---------------------------------------------------------------------------------------------------------------
-- Running one scenario

local libraries = { "string", "table", "math", "utf8", "os", "coroutine", "expect", "understudy" }
local snapshots
local function snapshot()
  snapshots = {}
  local added = {}
  -- Deep: the tables a library holds (understudy.journal, ...) and their metatables are restored too.
  local function add(t)
    if type(t) ~= "table" or added[t] then return end
    added[t] = true
    local copy = {}
    for k, v in next, t do copy[k] = v end
    local mt = raw_getmetatable(t)
    snapshots[#snapshots + 1] = { t, copy, mt }
    for _, v in next, copy do add(v) end
    add(mt)
  end
  for _, name in next, libraries do add(rawget(base, name)) end
  local string_meta = raw_getmetatable("")
  add(string_meta)
end

local function restore()
  for i = 1, #snapshots do
    local t, copy = snapshots[i][1], snapshots[i][2]
    for k in next, t do
      if rawget(copy, k) == nil then rawset(t, k, nil) end
    end
    for k, v in next, copy do
      if not rawequal(rawget(t, k), v) then rawset(t, k, v) end
    end
  end
  -- Metatables once every table (metatables included) holds its pristine fields again: a metatable a scenario
  -- changed is never set as it left it (raw_setmetatable also drops a __gc, which arms no finalizer).
  for i = 1, #snapshots do
    local t, mt = snapshots[i][1], snapshots[i][3]
    if not rawequal(raw_getmetatable(t), mt) then raw_setmetatable(t, mt) end
  end
end

-- What a scenario left in the environment table itself (`rawset(_G, "expect", ...)`) goes.
local function clear_env()
  local k = next(env)
  while k ~= nil do
    rawset(env, k, nil)
    k = next(env)
  end
end

local function run(fn, options, seed)
  if fn == nil then
    -- A live session, before each posted file and control chunk (options == nil): pristine globals and
    -- libraries, as for a scenario. (options == true keeps the globals that hide no library or prelude name.)
    if snapshots == nil then snapshot() else restore() end
    clear_env()
    local k = next(file_globals)
    while k ~= nil do
      local following = next(file_globals, k)
      if options ~= true or rawget(base, k) ~= nil then rawset(file_globals, k, nil) end
      k = following
    end
    rawset(file_globals, "_G", env)
    env_meta.__index = file_globals
    env_meta.__newindex = file_globals
    return
  end
  if snapshots == nil then snapshot() else restore() end
  clear_env()
  math_randomseed(seed)
  local overlay = setmetatable({}, { __index = file_globals })
  env_meta.__index = overlay
  env_meta.__newindex = overlay
  if type(options) == "table" and options.skip ~= nil and options.skip ~= false then
    skip(type(options.skip) == "string" and options.skip or "skipped")
  end
  fn()
end

bind(env, describe_error_object, run)

-- The prelude: the Lua code every scenario state runs before the scenario file (Sources/UnderstudyLua/Prelude.swift
-- loads it, compiled once per process): the scenario environment (fresh globals per scenario), the runner, the error
-- describer and the `expect` assertion helpers. Swift calls it with (bind, raw_getmetatable, raw_setmetatable).
-- (This note stands at the end so that the prelude's line numbers in tracebacks stay those of its code.)
