-- Kii: phone numbers
--
-- A phone number can be given in two forms that name the same number:
--   * international: "+" then the country code and number, 10 to 15 digits, nothing else
--     (no spaces, hyphens or periods): phone = "+819012345678"
--   * local: the domestic digits plus a 2-capital-letter country: phone = "09012345678", country = "JP".
--     At login the REST form joins them: "JP-09012345678".
-- Kii always stores the international form (user.phoneNumber = "+819012345678"), so a user registered
-- with one form logs in with the other, and the number is taken in both forms.
-- Only mobile numbers are accepted (decided with libphonenumber: MOBILE, or FIXED_LINE_OR_MOBILE as US
-- and Canadian numbers are). A landline, or a number that does not exist, gives 400 INVALID_INPUT_DATA
-- with field = "phoneNumber". The seed's own example "+11234567890" is NOT a valid number (no US area
-- code starts with 1); "+12015550123" / "US-2015550123" is a valid US example.
-- A taken number gives 409 USER_ALREADY_EXISTS with field = "phoneNumber".

local PASSWORD = "123ABC"

local INVALID = { status = 400, code = "INVALID_INPUT_DATA", field = "phoneNumber" }

local function register(app, phone, country)
  return app.users.register{ phone = phone, country = country, password = PASSWORD }
end

-- the international form --------------------------------------------------------------------------

scenario("a Japanese mobile number in international form is accepted and stored as given", function()
  local app = understudy.kii()
  expect.equal(expect.ok(register(app, "+819012345678")).phoneNumber, "+819012345678")
end)

scenario("a US number in international form is accepted", function()
  local app = understudy.kii()
  expect.equal(expect.ok(register(app, "+12015550123")).phoneNumber, "+12015550123")
end)

scenario("a Tokyo landline is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "+81312345678"))
  expect.equal(app.users.count(), 0, "users")
end)

scenario("the seed's example +11234567890 is not a valid number and is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "+11234567890"))
end)

scenario("an international number with 10 digits is long enough", function()
  local app = understudy.kii()
  expect.ok(register(app, "+6581234567")) -- a Singapore mobile
end)

scenario("an international number with 9 digits is too short, even a real mobile number", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "+376312345")) -- an Andorran mobile: valid there, but only 9 digits
end)

scenario("an international number with 15 digits is not too long", function()
  local app = understudy.kii()
  expect.ok(register(app, "+436641234567890")) -- an Austrian mobile
end)

scenario("an international number with 16 digits is too long", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "+4366412345678901"))
end)

scenario("spaces, hyphens and periods are not allowed in the international form", function()
  local app = understudy.kii()
  for _, phone in ipairs{ "+81 90 1234 5678", "+81-90-1234-5678", "+81.90.1234.5678", "+81(90)12345678" } do
    print("phone: " .. phone)
    expect.error(INVALID, register(app, phone))
  end
end)

-- the local form ----------------------------------------------------------------------------------

scenario("a local number with its country is stored in international form", function()
  local app = understudy.kii()
  local user = expect.ok(register(app, "09012345678", "JP"))
  expect.equal(user.phoneNumber, "+819012345678")
  expect.equal(user.country, "JP")
end)

scenario("a US local number with country US is stored in international form", function()
  local app = understudy.kii()
  expect.equal(expect.ok(register(app, "2015550123", "US")).phoneNumber, "+12015550123")
end)

scenario("a Tokyo landline in local form is refused", function()
  local app = understudy.kii()
  expect.error(INVALID, register(app, "0312345678", "JP"))
end)

scenario("a local number without a country is refused", function()
  local app = understudy.kii()
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, register(app, "09012345678"))
  expect.equal(app.users.count(), 0, "users")
end)

scenario("the country must be two capital letters", function()
  local app = understudy.kii()
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, register(app, "09012345678", "jp"))
  expect.error({ status = 400, code = "INVALID_INPUT_DATA" }, register(app, "09012345678", "JPN"))
  expect.equal(app.users.count(), 0, "users")
end)

-- both forms name the same user -------------------------------------------------------------------

scenario("a user registered with +819012345678 logs in with JP-09012345678", function()
  local app = understudy.kii()
  local user = expect.ok(register(app, "+819012345678"))
  expect.equal(expect.ok(app.users.login("JP-09012345678", PASSWORD)).user.userID, user.userID)
end)

scenario("a user registered with 09012345678 in JP logs in with +819012345678", function()
  local app = understudy.kii()
  local user = expect.ok(register(app, "09012345678", "JP"))
  expect.equal(expect.ok(app.users.login("+819012345678", PASSWORD)).user.userID, user.userID)
  expect.equal(expect.ok(app.users.login("JP-09012345678", PASSWORD)).user.userID, user.userID)
end)

scenario("a user registered with +12015550123 logs in with US-2015550123", function()
  local app = understudy.kii()
  local user = expect.ok(register(app, "+12015550123"))
  expect.equal(expect.ok(app.users.login("US-2015550123", PASSWORD)).user.userID, user.userID)
end)

scenario("a taken number is refused with 409 naming phoneNumber and the value", function()
  local app = understudy.kii()
  expect.ok(register(app, "+819012345678"))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "phoneNumber", value = "+819012345678" },
               app.users.register{ username = "bond007", phone = "+819012345678", password = PASSWORD })
end)

scenario("a number taken in international form is taken in local form too", function()
  local app = understudy.kii()
  expect.ok(register(app, "+819012345678"))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "phoneNumber" },
               register(app, "09012345678", "JP"))
end)

scenario("a number taken in local form is taken in international form too", function()
  local app = understudy.kii()
  expect.ok(register(app, "09012345678", "JP"))
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "phoneNumber", value = "+819012345678" },
               register(app, "+819012345678"))
  expect.equal(app.users.count(), 1, "users")
end)

scenario("different mobile numbers belong to different users", function()
  local app = understudy.kii()
  local a = expect.ok(register(app, "+819012345678"))
  local b = expect.ok(register(app, "+819087654321"))
  expect.not_equal(a.userID, b.userID, "userIDs")
  expect.equal(expect.ok(app.users.login("+819087654321", PASSWORD)).user.userID, b.userID)
end)
