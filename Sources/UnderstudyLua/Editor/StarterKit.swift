/// The files `understudy init` creates: one commented example per flavour, the editor files and a CI job.
public enum StarterKit {
    /// Each file's path (relative to the project folder) and text, in the order they are written.
    public static var files: [(path: String, text: String)] {
        [
            ("scenarios/backendless/first.lua", backendlessExample),
            ("scenarios/kii/first.lua", kiiExample),
            (EditorTypes.annotationPath, EditorTypes.annotations),
            (".luarc.json", EditorTypes.luarc),
            (".github/workflows/scenarios.yml", ciWorkflow),
        ]
    }

    public static let backendlessExample = #"""
-- A first Backendless scenario file. Run it with:   understudy run scenarios/
-- Each scenario gets a fresh backend; nothing is shared between scenarios.
-- Every call returns `result` on success and `nil, err` on failure (err = { code, message }).

scenario("a new user registers and logs in", { tags = { "smoke" } }, function()
  local app = understudy.backendless()            -- settings are optional: understudy.backendless{ registration = false }
  local user = expect.ok(app.users.register{ email = "james.bond@mi6.co.uk", password = "iAmWatchingU" })
  expect.equal(user.userStatus, "ENABLED")
  local session = expect.ok(app.users.login("james.bond@mi6.co.uk", "iAmWatchingU"))
  expect.match(session.token, "%w")
end)

scenario("the same email cannot register twice (3033)", function()
  local app = understudy.backendless()
  expect.ok(app.users.register{ email = "q@mi6.co.uk", password = "gadgets4U" })
  -- expect.error checks the code and returns err for more checks
  local err = expect.error(3033, app.users.register{ email = "Q@MI6.CO.UK", password = "gadgets4U" })
  expect.equal(err.message, "Unable to register user. User already exists.")
end)

scenario("a confirmation email waits in the outbox", function()
  local app = understudy.backendless{ email_confirmation = true }
  local user = expect.ok(app.users.register{ email = "m@mi6.co.uk", password = "secret" })
  expect.error(3087, app.users.login("m@mi6.co.uk", "secret"))    -- not confirmed yet
  expect.match(app.outbox.last_email("m@mi6.co.uk").link, "/users/confirmemail/")
  expect.ok(app.users.confirm_email(user.objectId))
  expect.ok(app.users.login("m@mi6.co.uk", "secret"))
end)
"""#

    public static let kiiExample = #"""
-- A first Kii scenario file. Run it with:   understudy run scenarios/
-- Kii errors are err = { status, code, message, field?, value? }.

scenario("a user registers with a username and logs in", { tags = { "smoke" } }, function()
  local app = understudy.kii()
  local user = expect.ok(app.users.register{ username = "bond007", password = "123ABC" })
  expect.equal(user.loginName, "bond007")
  expect.ok(app.users.login("bond007", "123ABC"))
  -- usernames are unique without regard to case
  expect.error({ status = 409, code = "USER_ALREADY_EXISTS", field = "loginName" },
               app.users.register{ username = "BOND007", password = "123ABC" })
end)

scenario("an SMS code verifies the phone; time is virtual", function()
  local app = understudy.kii{ phone_verification = true }
  local user = expect.ok(app.users.register{ username = "moneypenny", phone = "+819012345678", password = "123ABC" })
  local sms = expect.not_nil(app.outbox.last_sms("+819012345678"), "the verification SMS")
  app.clock.advance(60)                             -- a minute later, on the backend's own clock
  expect.ok(app.users.verify_phone(user.userID, sms.code))
  expect.ok(app.users.login("+819012345678", "123ABC"))
end)

scenario("a backend outage, injected on purpose", function()
  local app = understudy.kii()
  app.faults.inject{ op = "users.register", status = 503, code = "RESOURCE_TEMPORARILY_UNAVAILABLE", times = 1 }
  expect.error({ status = 503 }, app.users.register{ username = "blofeld", password = "whiteCat" })
  expect.ok(app.users.register{ username = "blofeld", password = "whiteCat" })   -- the fault fired once
end)
"""#

    public static let ciWorkflow = #"""
# Runs the scenarios in 4 shards with JUnit reports. Adjust the install step to how you get `understudy`.
name: scenarios
on: [push, pull_request]
jobs:
  scenarios:
    strategy:
      fail-fast: false
      matrix:
        shard: [1, 2, 3, 4]
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install understudy
        run: ./scripts/install-understudy   # replace with your install step
      - name: Run shard ${{ matrix.shard }} of 4
        run: understudy run scenarios/ --shard ${{ matrix.shard }}/4 --format junit --output scenarios-${{ matrix.shard }}.junit.xml
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: scenarios-junit-${{ matrix.shard }}
          path: scenarios-${{ matrix.shard }}.junit.xml
"""#
}
