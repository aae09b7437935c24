-- Backendless push templates (contract version 3)
--
-- app.push.templates.define{ name, message, title?, subtitle?, headers?, os = "ALL"|"IOS"|"ANDROID"?, channel? }
--   defines or replaces a template (the console's Push Composer); misuse raises.
-- app.push.templates.list(os?) → name → { name, message, title?, subtitle?, headers?, os, channel }
-- app.push.with_template(name, values?) publishes it now to its channel, limited to its os, with each {var}
--   replaced by values[var]; 24002 for an unknown name.

local function device(app, id, os, channels)
  return expect.ok(app.devices.register{ token = "token-" .. id, device_id = id, os = os, channels = channels })
end

scenario("a template is defined and listed with its defaults (os ALL, channel default)", function()
  local app = understudy.backendless()
  expect.equal(app.push.templates.define{ name = "welcome", message = "Hi {name}" }, true)
  expect.equal(expect.ok(app.push.templates.list()), {
    welcome = { name = "welcome", message = "Hi {name}", os = "ALL", channel = "default" },
  })
end)

scenario("a template keeps its title, subtitle, headers, os and channel", function()
  local app = understudy.backendless()
  app.push.templates.define{ name = "sale", message = "m", title = "t", subtitle = "s",
                             headers = { ["ios-sound"] = "ding" }, os = "IOS", channel = "promo" }
  expect.equal(expect.ok(app.push.templates.list()).sale, {
    name = "sale", message = "m", title = "t", subtitle = "s", headers = { ["ios-sound"] = "ding" },
    os = "IOS", channel = "promo",
  })
end)

scenario("defining a template again replaces it", function()
  local app = understudy.backendless()
  app.push.templates.define{ name = "t", message = "old", os = "IOS" }
  app.push.templates.define{ name = "t", message = "new" }
  expect.equal(expect.ok(app.push.templates.list()).t, { name = "t", message = "new", os = "ALL", channel = "default" })
end)

scenario("list(os) gives that os's templates and the ALL ones, comparing os without case (fine point 2)", function()
  local app = understudy.backendless()
  app.push.templates.define{ name = "all", message = "a" }
  app.push.templates.define{ name = "ios", message = "i", os = "IOS" }
  app.push.templates.define{ name = "droid", message = "d", os = "android" }
  local function names(list)
    local found = {}
    for name in pairs(list) do found[#found + 1] = name end
    table.sort(found)
    return found
  end
  expect.equal(names(expect.ok(app.push.templates.list("ios"))), { "all", "ios" })
  expect.equal(names(expect.ok(app.push.templates.list("ANDROID"))), { "all", "droid" })
  expect.equal(names(expect.ok(app.push.templates.list("All"))), { "all", "droid", "ios" })
  expect.equal(names(expect.ok(app.push.templates.list())), { "all", "droid", "ios" })
  expect.equal(expect.ok(app.push.templates.list()).droid.os, "ANDROID")
end)

scenario("templates.define misuse raises: empty name, missing message, unknown os", function()
  local app = understudy.backendless()
  expect.fails(function() app.push.templates.define{ name = "", message = "m" } end, "name")
  expect.fails(function() app.push.templates.define{ message = "m" } end, "name")
  expect.fails(function() app.push.templates.define{ name = "t" } end, "message")
  expect.fails(function() app.push.templates.define{ name = "t", message = "m", os = "WP" } end, "os")
end)

scenario("with_template fills every {var} in message, title, subtitle and header values", function()
  local app = understudy.backendless()
  device(app, "phone-1", "IOS")
  app.push.templates.define{ name = "greet", message = "Hi {name}, {count} new", title = "For {name}",
                             subtitle = "{count} items", headers = { ["ios-badge"] = "{count}" } }
  local result = expect.ok(app.push.with_template("greet", { name = "Ann", count = 3 }))
  expect.equal(result.status, "published")
  expect.equal(result.delivered, { "phone-1" })
  expect.equal(app.outbox.pushes(), { {
    device_id = "phone-1", channel = "default", message = "Hi Ann, 3 new", headers = { ["ios-badge"] = "3" },
    messageId = result.messageId, template = "greet", title = "For Ann", subtitle = "3 items",
  } })
end)

scenario("a placeholder with no value stays as written (choice)", function()
  local app = understudy.backendless()
  device(app, "phone-1", "IOS")
  app.push.templates.define{ name = "t", message = "Hi {name} {unknown}" }
  expect.ok(app.push.with_template("t", { name = "Ann" }))
  expect.equal(app.outbox.pushes()[1].message, "Hi Ann {unknown}")
  expect.ok(app.push.with_template("t"))
  expect.equal(app.outbox.pushes()[2].message, "Hi {name} {unknown}")
end)

scenario("with_template reaches only the template's channel and os", function()
  local app = understudy.backendless()
  device(app, "ios-1", "IOS", { "promo" })
  device(app, "droid-1", "ANDROID", { "promo" })
  device(app, "ios-default", "IOS")
  app.push.templates.define{ name = "t", message = "m", os = "IOS", channel = "promo" }
  expect.equal(expect.ok(app.push.with_template("t")).delivered, { "ios-1" })
  expect.equal(app.outbox.pushes()[1].channel, "promo")
end)

scenario("with_template of an unknown name answers 24002 (choice: the email template service's code)", function()
  local app = understudy.backendless()
  local err = expect.error(24002, app.push.with_template("nope"))
  expect.equal(err.message, "Push Template with name 'nope' doesn't exist.")
end)

scenario("a template push's message id has a status, and it cannot be cancelled", function()
  local app = understudy.backendless()
  app.push.templates.define{ name = "t", message = "m" }
  local result = expect.ok(app.push.with_template("t"))
  expect.equal(expect.ok(app.push.status(result.messageId)).status, "published")
  expect.error(5040, app.push.cancel(result.messageId))
end)

scenario("push.templates and push.with_template take faults; when(args) sees name, values and os (fine point 13)", function()
  local app = understudy.backendless()
  app.push.templates.define{ name = "t", message = "Hi {name}" }
  app.faults.inject{ op = "push.with_template", code = 5050, times = 1,
                     when = function(args) return args.name == "t" and args.values.name == "Ann" end }
  expect.error(5050, app.push.with_template("t", { name = "Ann" }))
  expect.equal(app.outbox.pushes(), {}, "a faulted call changes nothing")
  app.faults.inject{ op = "push.templates", code = 5050, times = 1,
                     when = function(args) return args.os == "IOS" end }
  expect.error(5050, app.push.templates.list("IOS"))
  expect.ok(app.push.templates.list("IOS"))
end)
