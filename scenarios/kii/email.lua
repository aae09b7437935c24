-- Kii: email addresses
--
-- An email address can identify a user (and log in, once verified when email verification is on).
-- Rules (from the seed):
--   * the form local@domain
--   * the local part uses only A-Z a-z 0-9 . _ % + -
--   * the domain uses only A-Z a-z 0-9 .   (no hyphen, no underscore: stricter than real-world email)
--   * at most 200 characters in all
--   * unique: a taken address gives 409 USER_ALREADY_EXISTS, field = "emailAddress", value = the address
-- A broken rule gives 400 INVALID_INPUT_DATA with field = "emailAddress", and no user is created.

local PASSWORD = "123ABC"

local INVALID = { status = 400, code = "INVALID_INPUT_DATA", field = "emailAddress" }

local function register(app, email)
  return app.users.register{ email = email, password = PASSWORD }
end

-- an address of exactly n characters (n >= 200 - 3): 64-character local part, labels of at most 63
local function email_of_length(n)
  local address = string.rep("a", 64) .. "@" .. string.rep("b", 63) .. "." .. string.rep("c", 63) .. "."
                  .. string.rep("d", n - 197) .. ".com"
  assert(#address == n)
  return address
end

scenario("a plain address is accepted and stored as given", function()
  local app = understudy.kii()
  expect.equal(expect.ok(register(app, "user_123456@example.com")).emailAddress, "user_123456@example.com")
end)

scenario("the local part may use letters, digits and . _ % + -", function()
  local app = understudy.kii()
  expect.ok(register(app, "James.Bond_007%mi6+field-ops@example.com"))
end)

scenario("the domain may have several labels", function()
  local app = understudy.kii()
  expect.ok(register(app, "james@mail.mi6.co.uk"))
end)

scenario("an address without @ is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "james.bond.mi6.co.uk"))
end)

scenario("an address with two @ is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "james@bond@mi6.co.uk"))
end)

scenario("an address with an empty local part or an empty domain is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "@mi6.co.uk"))
  expect.error(INVALID, register(app, "james@"))
end)

scenario("a character outside the local part's set is refused", function()
  local app = understudy.kii()
  for _, email in ipairs{ "james bond@mi6.co.uk", "james!@mi6.co.uk", "james#bond@mi6.co.uk",
                          "jämes@mi6.co.uk", "james,bond@mi6.co.uk" } do
    print("email: " .. email)
    expect.error(INVALID, register(app, email))
  end
end)

scenario("the domain allows only letters, digits and periods", function()
  local app = understudy.kii()
  for _, email in ipairs{ "james@my-domain.com", "james@my_domain.com", "james@mi6+uk.com",
                          "james@mi 6.co.uk" } do
    print("email: " .. email)
    expect.error(INVALID, register(app, email))
  end
end)

scenario("a 200-character address is accepted", function()
  local app = understudy.kii()
  local email = email_of_length(200)
  expect.equal(expect.ok(register(app, email)).emailAddress, email)
end)

scenario("a 201-character address is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, email_of_length(201)))
end)

scenario("a refused address creates no user", function()
  local app = understudy.kii()
  expect.error(INVALID, app.users.register{ username = "bond007", email = "not-an-email", password = PASSWORD })
  expect.equal(app.users.count(), 0, "users")
  expect.ok(app.users.register{ username = "bond007", password = PASSWORD }) -- the username is still free
end)

scenario("a taken address is refused with 409 naming emailAddress and the value", function()
  local app = understudy.kii()
  expect.ok(register(app, "james@mi6.co.uk"))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "emailAddress", value = "james@mi6.co.uk" },
               app.users.register{ username = "bond007", email = "james@mi6.co.uk", password = PASSWORD })
end)

scenario("the 409 for a taken address names the field and the address", function()
  local app = understudy.kii()
  expect.ok(register(app, "james@mi6.co.uk"))
  local err = expect.error("USER_ALREADY_EXISTS", register(app, "james@mi6.co.uk"))
  expect.contains(err.message, "emailAddress")
  expect.contains(err.message, "james@mi6.co.uk")
end)

scenario("a refused duplicate address creates no second user", function()
  local app = understudy.kii()
  expect.ok(register(app, "james@mi6.co.uk"))
  expect.error("USER_ALREADY_EXISTS", register(app, "james@mi6.co.uk"))
  expect.equal(app.users.count(), 1, "users")
end)

scenario("a malformed address is reported before a taken username", function()
  local app = understudy.kii()
  expect.ok(app.users.register{ username = "bond007", password = PASSWORD })
  expect.error(INVALID, app.users.register{ username = "bond007", email = "not-an-email", password = PASSWORD })
end)
