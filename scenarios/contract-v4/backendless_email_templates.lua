--[[
  Backendless contract v4: email templates.

      app.email.templates.define{ name, subject, body?, html? }   the console; defines or replaces
      app.email.templates.list()                                   name → template
      app.email.send_template(name, { to?, cc?, bcc?, query?, unique_emails? }, values?)
          → { messageId, status = "published", delivered = { address, ... } } (byte order)

  One outbox email per recipient { to, subject, kind = "template", template, body, html?, cc?, bcc?, messageId }.
  Recipients: with `query` (a where clause) the email of every matching user, `to` ignored; else `to`. cc and bcc
  are copied onto each email, never emailed on their own. {Users.column} is the recipient's value, {var} is
  values[var]; a placeholder with nothing to fill stays as written.
  Errors in order: a fault; 24002 no such template; 19000 / 1006 a bad query; 5048 no recipient; 5047 an
  address that is not an email. The template named "Confirmation" builds every confirmation email.
]]

local function app_with_people()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = "ann@example.com", password = "p", name = "Ann", age = 41, vip = true })
  app.clock.advance(1)
  expect.ok(app.users.register{ email = "bob@example.com", password = "p", name = "Bob", age = 25 })
  app.clock.advance(1)
  app.email.templates.define{ name = "Offer", subject = "Hi {Users.name}", body = "Age {Users.age}, {discount}% off, {missing}",
                              html = "<b>{discount}</b>" }
  return app
end

scenario("define and list: a template by name, body defaulting to empty; define again replaces", function()
  local app = understudy.backendless()
  expect.equal(app.email.templates.define{ name = "Welcome", subject = "Hello" }, true)
  expect.equal(app.email.templates.list().Welcome, { name = "Welcome", subject = "Hello", body = "" })
  app.email.templates.define{ name = "Welcome", subject = "Hi", body = "b", html = "<p>b</p>" }
  expect.equal(app.email.templates.list().Welcome, { name = "Welcome", subject = "Hi", body = "b", html = "<p>b</p>" })
  expect.fails(function() app.email.templates.define{ name = "x" } end, "subject")
  expect.fails(function() app.email.templates.define{ name = "x", subject = "s", colour = "red" } end, "colour")
end)

scenario("send_template to addresses: one email per recipient, placeholders filled, cc and bcc copied", function()
  local app = app_with_people()
  local result = expect.ok(app.email.send_template("Offer", { to = { "bob@example.com", "ann@example.com" }, cc = { "boss@example.com" },
                                                             bcc = { "audit@example.com" } }, { discount = 15 }))
  expect.equal(result.status, "published")
  expect.equal(result.delivered, { "ann@example.com", "bob@example.com" })
  local emails = app.outbox.emails()
  expect.length(emails, 2)
  expect.equal(emails[1].to, "bob@example.com")
  expect.equal(emails[1].kind, "template")
  expect.equal(emails[1].template, "Offer")
  expect.equal(emails[1].subject, "Hi Bob")
  expect.equal(emails[1].body, "Age 25, 15% off, {missing}")
  expect.equal(emails[1].html, "<b>15</b>")
  expect.equal(emails[1].cc, { "boss@example.com" })
  expect.equal(emails[1].bcc, { "audit@example.com" })
  expect.equal(emails[1].messageId, result.messageId)
  expect.length(app.outbox.emails("boss@example.com"), 0)
end)

scenario("an address with no user leaves {Users.*} as written; values become text", function()
  local app = app_with_people()
  expect.ok(app.email.send_template("Offer", { to = { "stranger@example.com" } }, { discount = 2.5 }))
  local email = app.outbox.last_email()
  expect.equal(email.subject, "Hi {Users.name}")
  expect.equal(email.body, "Age {Users.age}, 2.5% off, {missing}")
  app.email.templates.define{ name = "Flags", subject = "{a} {b} {c}" }
  expect.ok(app.email.send_template("Flags", { to = { "ann@example.com" } }, { a = true, b = 3, c = "x" }))
  expect.equal(app.outbox.last_email().subject, "true 3 x")
end)

scenario("query picks the matching users' emails and ignores to; unique_emails sends one per address", function()
  local app = app_with_people()
  local result = expect.ok(app.email.send_template("Offer", { query = "age > 30", to = { "bob@example.com" } }, { discount = 5 }))
  expect.equal(result.delivered, { "ann@example.com" })
  expect.equal(app.outbox.last_email().subject, "Hi Ann")
  app.outbox.clear()
  local unique = expect.ok(app.email.send_template("Offer", { to = { "ann@example.com", "ANN@example.com" }, unique_emails = true }))
  expect.equal(unique.delivered, { "ann@example.com" })
  expect.length(app.outbox.emails(), 1)
end)

scenario("errors in order: 24002, 19000 / 1006, 5048, 5047; a faulted call sends nothing", function()
  local app = app_with_people()
  expect.error({ code = 24002, message = "Email Template with name 'Nope' doesn't exist." }, app.email.send_template("Nope", { to = { "x" } }))
  expect.error(19000, app.email.send_template("Offer", { query = "age >", to = { "x" } }))
  expect.error(1006, app.email.send_template("Offer", { query = "salary > 1" }))
  expect.error({ code = 5048, message = "You must specify at least one recipient's email address" },
    app.email.send_template("Offer", { cc = { "boss@example.com" } }))
  expect.error(5048, app.email.send_template("Offer", { query = "age > 100" }))
  expect.error({ code = 5047, message = "Invalid recipient: not-an-address" }, app.email.send_template("Offer", { to = { "not-an-address" } }))
  expect.error(5047, app.email.send_template("Offer", { to = { "ann@example.com" }, bcc = { "bad" } }))
  app.faults.inject{ op = "email.send_template", code = 3000, times = 1 }
  expect.error(3000, app.email.send_template("Nope", { to = { "x" } }))
  expect.length(app.outbox.emails(), 0)
end)

scenario("the Confirmation template builds the confirmation email, which keeps its kind and link", function()
  local app = understudy.backendless{ email_confirmation = true, app_id = "MY-APP" }
  app.email.templates.define{ name = "Confirmation", subject = "Welcome to {app_name}, {Users.name}",
                              body = "{identity_name}={identity_value}: {confirmation_url}" }
  local user = expect.ok(app.users.register{ email = "ann@example.com", password = "p", name = "Ann" })
  local email = app.outbox.last_email("ann@example.com")
  expect.equal(email.kind, "confirmation")
  expect.equal(email.subject, "Welcome to MY-APP, Ann")
  expect.equal(email.body, "email=ann@example.com: " .. email.link)
  expect.ok(app.users.confirm_email(email.link))
  expect.equal(app.users.get(user.objectId).userStatus, "ENABLED")
end)

scenario("a Confirmation template without {confirmation_url} still sends the email with its link", function()
  local app = understudy.backendless{ email_confirmation = true }
  app.email.templates.define{ name = "Confirmation", subject = "Please confirm", body = "Click the button" }
  expect.ok(app.users.register{ email = "ann@example.com", password = "p" })
  local email = app.outbox.last_email()
  expect.equal(email.body, "Click the button")
  expect.not_nil(email.link)
  expect.ok(app.users.resend_confirmation("ann@example.com"))
  expect.equal(app.outbox.last_email().subject, "Please confirm")
end)
