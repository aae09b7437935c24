"""The dashboard at /_understudy/ui/, driven in Chromium the way a person (or a screen reader) finds things: by
role and accessible name. Apps act through the REST routes; everything else happens in the page."""

import json
import re
import socket
import urllib.request
import time

from playwright.sync_api import expect

from conftest import BACKENDLESS, KII, KII_AUTH, call, open_page, shot

VIEWS = ["Apps", "Users", "Outbox", "Devices", "OAuth", "Roles", "Kii", "Faults", "Journal", "Coverage", "Lua", "Record"]


def app_card(page, app_id):
    return page.get_by_role("article", name=re.compile(f"^{re.escape(app_id)}"))


def users_of(page, app_id):
    return page.get_by_role("region", name=f"Users of {app_id}")


def test_every_view_is_a_section_with_its_heading_and_the_page_forbids_inline_script(dashboard):
    for view in VIEWS:
        expect(dashboard.get_by_role("heading", name=view, exact=True, level=2)).to_be_visible()
    expect(dashboard.get_by_role("status").first).to_contain_text("Connected")
    status, _ = call("GET", "/_understudy/ui/nope.js")
    assert status == 404
    response = dashboard.request.get(dashboard.url)
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy and "unsafe-inline" not in policy
    for view in VIEWS:
        shot(dashboard.locator(f"section#{view.lower()}"), view.lower())


def test_users_registered_over_rest_appear_and_can_be_confirmed(dashboard):
    card = app_card(dashboard, "UNDERSTUDY-APP")
    card.get_by_role("switch", name="email_confirmation").check()
    expect(card.get_by_role("switch", name="email_confirmation")).to_be_checked()
    status, user = call("POST", BACKENDLESS + "/users/register", {"email": "alice@example.com", "password": "pw"})
    assert status == 200 and user["userStatus"] == "EMAIL_CONFIRMATION_PENDING"

    table = users_of(dashboard, "UNDERSTUDY-APP").get_by_role("table", name="Users")
    row = table.get_by_role("row").filter(has_text="alice@example.com")
    expect(row).to_contain_text("EMAIL_CONFIRMATION_PENDING")
    row.get_by_role("button", name="Confirm email alice@example.com").click()
    expect(row).to_contain_text("ENABLED")
    expect(row.get_by_role("button", name="Confirm email alice@example.com")).to_have_count(0)
    row.get_by_role("button", name="Disable alice@example.com").click()
    expect(row).to_contain_text("DISABLED")

    # The confirmation email is in the outbox, its link clickable.
    emails = dashboard.get_by_role("table", name="Emails")
    expect(emails.get_by_role("link", name=re.compile("confirmemail"))).to_be_visible()


def test_search_pages_in_the_server(dashboard):
    for number in range(30):
        call("POST", BACKENDLESS + "/users/register", {"email": f"u{number}@example.com", "password": "pw"})
    block = users_of(dashboard, "UNDERSTUDY-APP")
    expect(block.get_by_role("status")).to_have_text("1–25 of 30")
    block.get_by_role("button", name="Next page").click()
    expect(block.get_by_role("status")).to_have_text("26–30 of 30")
    block.get_by_role("searchbox", name="Search users").fill("u17@")
    expect(block.get_by_role("table", name="Users").get_by_role("row")).to_have_count(2)
    expect(block.get_by_role("table", name="Users")).to_contain_text("u17@example.com")


def test_an_sms_code_is_read_from_the_outbox_and_verifies_the_phone(dashboard):
    card = app_card(dashboard, "understudy-kii-app")
    card.get_by_role("switch", name="phone_verification").check()
    expect(card.get_by_role("switch", name="phone_verification")).to_be_checked()
    status, _ = call("POST", KII + "/users", {"loginName": "kim", "phoneNumber": "+819012345678", "password": "secret1"},
                     {"Authorization": KII_AUTH})
    assert status == 201

    texts = dashboard.get_by_role("table", name="Text messages")
    row = texts.get_by_role("row").filter(has_text="+819012345678")
    code = row.locator(".sms-code")
    expect(code).to_have_text(re.compile(r"^\d{6}$"))
    shot(dashboard.locator("section#outbox"), "outbox")
    status, reply = call("POST", KII + "/users/LOGIN_NAME:kim/phone-number/verify", {"verificationCode": code.inner_text()},
                         {"Authorization": KII_AUTH})
    assert status == 200, reply
    kii_users = users_of(dashboard, "understudy-kii-app").get_by_role("table", name="Users")
    expect(kii_users.get_by_role("row").filter(has_text="kim")).to_contain_text("+819012345678 verified")


def test_an_injected_fault_makes_the_next_call_fail_in_the_journal(dashboard):
    form = dashboard.get_by_role("form", name="Inject fault")
    form.get_by_role("combobox", name="App").select_option("UNDERSTUDY-APP")
    form.get_by_role("combobox", name="Operation").select_option("users.register")
    form.get_by_role("combobox", name="Code").select_option("3033")
    form.get_by_role("spinbutton", name="Times").fill("1")
    form.get_by_role("button", name="Inject fault").click()
    faults = dashboard.get_by_role("table", name="Active faults")
    expect(faults.get_by_role("row").filter(has_text="users.register")).to_contain_text("3033")
    shot(dashboard.locator("section#faults"), "faults")

    status, reply = call("POST", BACKENDLESS + "/users/register", {"email": "bob@example.com", "password": "pw"})
    assert status == 400 and reply["code"] == 3033

    journal = dashboard.get_by_role("table", name="Journal")
    failed = journal.get_by_role("row").filter(has_text="users.register").filter(has_text="3033")
    expect(failed).to_contain_text("400")
    dashboard.get_by_role("searchbox", name="Filter by code").fill("3033")
    expect(journal.get_by_role("row")).to_have_count(2)
    failed.get_by_role("button", name=re.compile("^Details of request")).click()
    expect(journal).to_contain_text("bob@example.com")
    expect(journal).to_contain_text("User already exists")
    journal.get_by_role("button", name="Copy as curl").click()
    curl = journal.get_by_label(re.compile("^curl for request"))
    expect(curl).to_contain_text("curl -s -X POST")
    expect(curl).to_contain_text("/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY/users/register")
    shot(dashboard.locator("section#journal"), "journal")

    # Used up after one hit: the list is empty again.
    expect(faults.get_by_role("row").filter(has_text="users.register")).to_have_count(0)


def test_a_fault_can_be_removed(dashboard):
    form = dashboard.get_by_role("form", name="Inject fault")
    form.get_by_role("combobox", name="App").select_option("understudy-kii-app")
    form.get_by_role("combobox", name="Operation").select_option("users.login")
    form.get_by_role("combobox", name="Code").select_option("UNAUTHORIZED")
    form.get_by_role("button", name="Inject fault").click()
    faults = dashboard.get_by_role("table", name="Active faults")
    expect(faults.get_by_role("row").filter(has_text="users.login")).to_have_count(1)
    faults.get_by_role("button", name=re.compile("^Remove fault")).click()
    expect(faults.get_by_role("row").filter(has_text="users.login")).to_have_count(0)


def test_the_clock_advances_and_reset_brings_fresh_apps(dashboard):
    card = app_card(dashboard, "UNDERSTUDY-APP")
    clock = card.get_by_role("group", name="Clock of UNDERSTUDY-APP").locator("time")
    expect(clock).to_have_text("2030-01-01 00:00:00Z")
    card.get_by_role("button", name="Advance 1 minute").click()
    expect(clock).to_have_text("2030-01-01 00:01:00Z")
    card.get_by_role("button", name="Advance 1 hour").click()
    expect(clock).to_have_text("2030-01-01 01:01:00Z")
    card.get_by_role("button", name="Advance 1 day").click()
    expect(clock).to_have_text("2030-01-02 01:01:00Z")
    card.get_by_role("spinbutton", name="Seconds to advance").fill("59")
    card.get_by_role("spinbutton", name="Seconds to advance").press("Enter")
    expect(clock).to_have_text("2030-01-02 01:01:59Z")

    call("POST", BACKENDLESS + "/users/register", {"email": "carol@example.com", "password": "pw"})
    table = users_of(dashboard, "UNDERSTUDY-APP").get_by_role("table", name="Users")
    expect(table).to_contain_text("carol@example.com")
    expect(table).to_contain_text("2030-01-02 01:01:59Z")
    dashboard.get_by_role("button", name="Reset", exact=True).click()
    expect(table).not_to_contain_text("carol@example.com")
    expect(clock).to_have_text("2030-01-01 00:00:00Z")


def test_strings_from_the_app_are_shown_as_text(dashboard):
    evil = "<img src=x onerror=alert(1)>"
    call("POST", BACKENDLESS + "/users/register", {"email": "eve@example.com", "password": "pw", "name": evil})
    call("POST", BACKENDLESS + "/messaging/registrations",
         {"deviceToken": evil, "deviceId": "eve-phone", "os": "IOS", "channels": ["news"]})
    call("POST", BACKENDLESS + "/messaging/news", {"message": "<script>alert(2)</script>"})
    table = users_of(dashboard, "UNDERSTUDY-APP").get_by_role("table", name="Users")
    expect(table.get_by_role("cell", name=evil, exact=True)).to_be_visible()
    expect(dashboard.get_by_role("table", name="Pushes")).to_contain_text("<script>alert(2)</script>")
    expect(dashboard.get_by_role("table", name="Devices")).to_contain_text(evil)
    assert dashboard.locator("main img").count() == 0
    dashboard.wait_for_timeout(500)
    assert dashboard.problems == []
    shot(dashboard.locator("section#users"), "users")
    shot(dashboard.locator("section#devices"), "devices")


def test_oauth_accounts_show_with_the_user_their_first_login_registered(dashboard):
    box = dashboard.get_by_role("textbox", name="Lua chunk")
    box.fill('local app = understudy.app("UNDERSTUDY-APP")\n'
             'app.oauth.account{ provider = "Facebook", token = "fb-1", profile = { id = "10001", email = "bond@mi6.co.uk" } }\n'
             'app.oauth.account{ provider = "twitter", token = "tw-1", secret = "s3cret", profile = { id = "t-7" } }')
    dashboard.get_by_role("form", name="Run Lua").get_by_role("button", name="Run").click()
    table = dashboard.get_by_role("table", name="OAuth provider accounts")
    twitter = table.get_by_role("row").filter(has_text="tw-1")
    expect(twitter).to_contain_text("s3cret")
    expect(twitter).to_contain_text("not signed up yet")
    status, user = call("POST", BACKENDLESS + "/users/social/facebook/login",
                        {"accessToken": "fb-1", "fieldsMapping": {"email": "email"}, "guestUser": None})
    assert status == 200 and user["socialAccount"] == "facebook"
    facebook = table.get_by_role("row").filter(has_text="fb-1")
    expect(facebook).to_contain_text("facebook")
    expect(facebook).to_contain_text("email: bond@mi6.co.uk")
    expect(facebook).to_contain_text(user["objectId"])
    shot(dashboard.locator("section#oauth"), "oauth")


def test_roles_show_who_holds_them_and_email_templates_show_their_text(dashboard):
    box = dashboard.get_by_role("textbox", name="Lua chunk")
    box.fill('local app = understudy.app("UNDERSTUDY-APP")\n'
             'app.roles.define("Editor")\napp.roles.define("Auditor")\n'
             'app.email.templates.define{ name = "Offer", subject = "Hi {Users.name}", body = "{discount}% off", html = "<b>{discount}</b>" }')
    dashboard.get_by_role("form", name="Run Lua").get_by_role("button", name="Run").click()
    roles = dashboard.get_by_role("table", name="Custom roles")
    expect(roles.get_by_role("row").filter(has_text="Auditor")).to_contain_text("nobody")
    status, _ = call("POST", BACKENDLESS + "/users/register", {"email": "alice@example.com", "password": "pw"})
    assert status == 200
    status, _ = call("POST", "/UNDERSTUDY-APP/UNDERSTUDY-CLOUDCODE-KEY/users/assignRole", {"user": "alice@example.com", "roleName": "Editor"})
    assert status == 200
    expect(dashboard.get_by_role("list", name="Holders of Editor")).to_have_text("alice@example.com")
    expect(dashboard.locator("section#roles")).to_contain_text("System roles, in every app: NotAuthenticatedUser, AuthenticatedUser")
    templates = dashboard.get_by_role("table", name="Email templates")
    offer = templates.get_by_role("row").filter(has_text="Offer")
    expect(offer).to_contain_text("Hi {Users.name}")
    expect(offer).to_contain_text("{discount}% off")
    offer.get_by_text("HTML").click()
    expect(offer.locator("pre")).to_have_text("<b>{discount}</b>")
    shot(dashboard.locator("section#roles"), "roles")


def test_lua_chunks_run_and_show_results_and_output(dashboard):
    box = dashboard.get_by_role("textbox", name="Lua chunk")
    box.fill('print("hello from lua")\nreturn 1 + 2, "three"')
    dashboard.get_by_role("form", name="Run Lua").get_by_role("button", name="Run").click()
    expect(dashboard.get_by_label("Results", exact=True)).to_have_text('3\n"three"')
    expect(dashboard.get_by_label("Printed output")).to_contain_text("hello from lua")
    box.fill("error('boom')")
    box.press("Control+Enter")
    expect(dashboard.locator("section#lua").get_by_role("alert")).to_contain_text("boom")
    dashboard.problems.clear()  # the browser logs the 400 LUA_ERROR the page just showed
    box.fill('return understudy.app("kii").users.count()')
    box.press("Control+Enter")
    expect(dashboard.get_by_label("Results", exact=True)).to_have_text("0")
    shot(dashboard.locator("section#lua"), "lua")


def test_the_keyboard_alone_reaches_an_action(dashboard):
    call("POST", BACKENDLESS + "/users/register", {"email": "kay@example.com", "password": "pw"})
    block = users_of(dashboard, "UNDERSTUDY-APP")
    expect(block).to_contain_text("kay@example.com")
    block.get_by_role("searchbox", name="Search users").focus()
    dashboard.keyboard.press("Tab")  # Search
    dashboard.keyboard.press("Tab")  # the first focusable control in the table: the row's action
    focused = dashboard.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "Disable kay@example.com"
    dashboard.keyboard.press("Enter")
    expect(block.get_by_role("table", name="Users")).to_contain_text("DISABLED")


def test_a_narrow_dark_window_has_no_sideways_scrolling(browser, fresh):
    call("POST", BACKENDLESS + "/users/register", {"email": "narrow@example.com", "password": "pw"})
    for page in open_page(browser, __import__("conftest").BASE, viewport={"width": 640, "height": 900}, color_scheme="dark"):
        expect(page.get_by_role("table", name="Users").first).to_contain_text("narrow@example.com")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 640, width
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(21, 23, 26)"
        shot(page, "narrow-dark")


def test_with_a_control_token_the_page_asks_for_it_and_never_puts_it_in_a_url(browser, start_server):
    base = start_server("--control-token", "s3cret")
    for page in open_page(browser, base):
        form = page.get_by_role("form", name="Control token")
        expect(form).to_be_visible()
        form.get_by_label("Control token").fill("wrong")
        form.get_by_role("button", name="Connect").click()
        expect(form.get_by_role("alert")).to_have_text("That token was refused.")
        form.get_by_label("Control token").fill("s3cret")
        form.get_by_role("button", name="Connect").click()
        expect(form).to_be_hidden()
        expect(page.get_by_role("article", name=re.compile("^UNDERSTUDY-APP"))).to_be_visible()
        assert all("s3cret" not in request.url for request in page.requests)
        sent = [r for r in page.requests if "/_understudy/summary" in r.url and r.headers.get("x-understudy-token") == "s3cret"]
        assert sent
        page.problems.clear()  # the 401s before the token was given are expected


def test_the_first_page_of_a_million_users_is_quick(browser, start_server, tmp_path):
    setup = tmp_path / "million.lua"
    setup.write_text('local b = understudy.backendless()\n'
                     'b.users.seed{ count = 1000000, email = "user%d@example.com", password = "secret" }\n')
    # A million users hold about 300 MiB, more than serve's default --max-memory (256): the setup script would stop
    # at the cap, as it should.
    base = start_server("--script", str(setup), "--max-memory", "1024")
    status, page = call("GET", "/_understudy/users?app=backendless&limit=25", base=base)
    assert status == 200 and page["total"] == 1000000 and page["users"][0]["email"] == "user1000000@example.com"
    for dashboard in open_page(browser, base):
        block = dashboard.get_by_role("region", name="Users of UNDERSTUDY-APP")
        expect(block.get_by_role("status")).to_have_text("1–25 of 1,000,000", timeout=5000)
        block.get_by_role("searchbox", name="Search users").fill("user424242@")
        expect(block.get_by_role("table", name="Users")).to_contain_text("user424242@example.com", timeout=15000)


def test_settings_with_a_fixed_set_of_values_are_selects(dashboard):
    card = app_card(dashboard, "UNDERSTUDY-APP")
    recovery = card.get_by_role("combobox", name="password_recovery")
    expect(recovery).to_have_value('"link"')
    recovery.select_option(label="false (off)")
    expect(card.get_by_role("combobox", name="password_recovery")).to_have_value("false")
    # The select shows its new value before the page's PATCH has been answered: wait for the server to have it.
    for _ in range(50):
        status, reply = call("GET", "/_understudy/settings?app=UNDERSTUDY-APP")
        if status == 200 and reply["apps"][0]["settings"]["password_recovery"] is False:
            break
        time.sleep(0.1)
    assert status == 200 and reply["apps"][0]["settings"]["password_recovery"] is False, reply
    card.get_by_role("combobox", name="password_recovery").select_option(label="temporary")
    expect(card.get_by_role("combobox", name="password_recovery")).to_have_value('"temporary"')
    expect(card.get_by_role("combobox", name="multiple_logins")).to_have_value("allow")
    shot(dashboard.locator("section#apps"), "settings-selects")


def test_deleting_a_user_asks_first(dashboard):
    call("POST", BACKENDLESS + "/users/register", {"email": "gone@example.com", "password": "pw"})
    block = users_of(dashboard, "UNDERSTUDY-APP")
    users = block.get_by_role("table", name="Users")
    expect(users).to_contain_text("gone@example.com")
    block.get_by_role("button", name="Delete gone@example.com").click()
    question = block.get_by_role("group", name="Confirm: delete gone@example.com?")
    expect(question).to_contain_text("cannot be undone")
    shot(block, "delete-asks")
    question.get_by_role("button", name="Cancel: keep gone@example.com").click()
    expect(users).to_contain_text("gone@example.com")
    assert call("GET", "/_understudy/users?app=UNDERSTUDY-APP")[1]["total"] == 1
    block.get_by_role("button", name="Delete gone@example.com").click()
    block.get_by_role("button", name="Yes, delete gone@example.com").click()
    expect(users).not_to_contain_text("gone@example.com")


def fits(page, select):
    """Whether the selected option's text fits the select (nothing cut off)."""
    return page.evaluate("""(select) => {
        const probe = document.createElement("span");
        const style = getComputedStyle(select);
        probe.style.font = style.font;
        probe.style.whiteSpace = "pre";
        probe.style.position = "absolute";
        probe.textContent = select.options[select.selectedIndex].text;
        document.body.appendChild(probe);
        const needed = probe.getBoundingClientRect().width;
        probe.remove();
        return needed + 28 <= select.getBoundingClientRect().width;  // the padding and the arrow
    }""", select.element_handle())


def test_the_fault_form_cuts_nothing_off_and_the_checkbox_sits_by_its_label(browser, fresh):
    for width in (1280, 800):
        for page in open_page(browser, __import__("conftest").BASE, viewport={"width": width, "height": 900}):
            form = page.get_by_role("form", name="Inject fault")
            form.get_by_role("combobox", name="App").select_option("UNDERSTUDY-APP")
            operation = form.get_by_role("combobox", name="Operation")
            longest = max(operation.locator("option").all_text_contents(), key=len)
            operation.select_option(longest)
            code = form.get_by_role("combobox", name="Code")
            code.select_option("3033")
            for select in (form.get_by_role("combobox", name="App"), operation, code):
                assert fits(page, select), (width, select.input_value())
            expect(form.locator("#fault-code-meaning")).to_contain_text("User already exists")
            drop = form.get_by_role("checkbox", name="Drop the connection")
            label = form.locator("label[for=fault-drop]")
            gap = label.bounding_box()["x"] - (drop.bounding_box()["x"] + drop.bounding_box()["width"])
            assert 0 <= gap <= 16, (width, gap)
            shot(form, f"fault-form-{width}")


def test_the_actions_column_is_on_screen_at_1280_and_800(browser, fresh):
    call("POST", KII + "/users", {"loginName": "wide_user_name_for_layout", "password": "secret123",
                                 "emailAddress": "a.very.long.address.for.the.layout@example.com"},
         headers={"Authorization": KII_AUTH})
    call("POST", BACKENDLESS + "/users/register", {"email": "a.very.long.address.for.the.layout@example.com", "password": "pw"})
    for width in (1280, 800):
        for page in open_page(browser, __import__("conftest").BASE, viewport={"width": width, "height": 900}):
            for app in ("UNDERSTUDY-APP", "understudy-kii-app"):
                block = users_of(page, app)
                expect(block).to_contain_text("a.very.long.address.for.the.layout@example.com")
                for button in block.get_by_role("button", name=re.compile("^(Delete|Disable|Confirm)")).all():
                    box = button.bounding_box()
                    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, app, box)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            shot(page.locator("section#users"), f"users-{width}")


def test_a_lua_error_shows_its_traceback(dashboard):
    box = dashboard.get_by_role("textbox", name="Lua chunk")
    box.fill("local function inner() error('deep trouble') end\nlocal function outer() inner() end\nouter()")
    box.press("Control+Enter")
    expect(dashboard.locator("section#lua").get_by_role("alert")).to_contain_text("deep trouble")
    traceback = dashboard.get_by_label("Traceback")
    expect(traceback).to_be_visible()
    expect(traceback).to_contain_text("inner")
    expect(traceback).to_contain_text("outer")
    dashboard.problems.clear()  # the browser logs the 400 LUA_ERROR the page just showed
    shot(dashboard.locator("section#lua"), "lua-traceback")


def test_the_clock_says_which_mode_runs_and_its_buttons_name_their_app(dashboard):
    card = app_card(dashboard, "UNDERSTUDY-APP")
    group = card.get_by_role("group", name="Clock of UNDERSTUDY-APP")
    expect(group).to_contain_text("Virtual clock (moves only when told)")
    expect(card.get_by_role("button", name="Advance 1 minute: the clock of UNDERSTUDY-APP", exact=True)).to_have_count(1)
    expect(card.get_by_role("button", name="Advance the clock of UNDERSTUDY-APP", exact=True)).to_have_count(1)


def test_a_real_time_clock_is_shown_as_such_and_moves_by_itself(browser, start_server):
    base = start_server("--clock", "real", "--clock-start", "2030-01-01T00:00:00Z")
    for page in open_page(browser, base):
        card = app_card(page, "UNDERSTUDY-APP")
        group = card.get_by_role("group", name="Clock of UNDERSTUDY-APP")
        expect(group).to_contain_text("Real-time clock (serve --clock real)")
        clock = group.locator("time")
        expect(clock).to_have_text(re.compile(r"^2030-01-01 00:00:0\dZ$"))
        # Nobody advances it: a few seconds of real time later it shows a later time.
        expect(clock).not_to_have_text(re.compile(r"^2030-01-01 00:00:0[0-1]Z$"), timeout=15_000)
        card.get_by_role("button", name="Advance 1 hour: the clock of UNDERSTUDY-APP").click()
        expect(clock).to_have_text(re.compile(r"^2030-01-01 01:00:\d\dZ$"))
        shot(page, "real-time-clock")


def test_the_coverage_matrix_shows_how_each_code_was_met_and_what_the_app_did_next(dashboard):
    call("DELETE", "/_understudy/coverage")
    call("POST", "/_understudy/faults", {"op": "users.login", "code": 3000, "times": 1, "app": "UNDERSTUDY-APP"})
    sign_up = {"X-Understudy-Test": "sign-up"}
    alice = {"email": "alice@example.com", "password": "pw"}
    call("POST", BACKENDLESS + "/users/register", alice, headers=sign_up)
    status, reply = call("POST", BACKENDLESS + "/users/register", alice, headers=sign_up)
    assert status == 400 and reply["code"] == 3033
    status, reply = call("POST", BACKENDLESS + "/users/login", {"login": "alice@example.com", "password": "pw"}, headers=sign_up)
    assert reply["code"] == 3000
    call("POST", BACKENDLESS + "/users/login", {"login": "alice@example.com", "password": "pw"}, headers=sign_up)
    call("POST", BACKENDLESS + "/users/logn", {}, headers={"X-Understudy-Test": "typo"})

    section = dashboard.locator("section#coverage")
    matrix = section.get_by_role("table", name="Coverage of UNDERSTUDY-APP (backendless): operations × codes")
    expect(matrix.get_by_role("cell", name="users.register 3033: real 1")).to_be_visible()
    expect(matrix.get_by_role("cell", name="users.login 3000: injected 1")).to_be_visible()
    expect(matrix.get_by_role("cell", name="users.register 3009: never")).to_be_visible()
    expect(matrix.get_by_role("cell", name="users.register 3033: real 1")).to_have_class("cov-real")
    expect(matrix.get_by_role("cell", name="users.login 3000: injected 1")).to_have_class("cov-injected")

    reactions = section.get_by_role("table", name="What the app did after each error")
    expect(reactions.get_by_role("row").filter(has_text="3033")).to_contain_text("users.login ×1")
    expect(reactions.get_by_role("row").filter(has_text="3000")).to_contain_text("users.login ×1")
    unmatched = section.get_by_role("table", name="Requests no route answered")
    expect(unmatched.get_by_role("row").filter(has_text="/users/logn")).to_contain_text("/{appId}/{apiKey}/users/login")
    shot(section, "coverage")

    # One test's part.
    section.get_by_role("combobox", name="Test").select_option("typo")
    expect(section.get_by_role("table", name=re.compile("^Coverage of"))).to_have_count(0)
    expect(unmatched.get_by_role("row").filter(has_text="/users/logn")).to_be_visible()
    section.get_by_role("combobox", name="Test").select_option("sign-up")
    expect(matrix.get_by_role("cell", name="users.register 3033: real 1")).to_be_visible()

    # What fired: the journal names the fault each request met.
    journal = dashboard.get_by_role("table", name="Journal")
    expect(journal.get_by_role("row").filter(has_text="3000")).to_contain_text("error (fault 1)")
    section.get_by_role("button", name="Clear coverage").click()
    expect(section.get_by_text("No request reached an app yet.")).to_be_visible()


def test_the_record_view_shows_the_session_as_a_scenario_and_offers_it_for_download(dashboard):
    call("POST", BACKENDLESS + "/users/register", {"email": "rita@example.com", "password": "s3cret-pw"})
    status, reply = call("POST", BACKENDLESS + "/users/login", {"login": "rita@example.com", "password": "wrong-pw1"})
    assert reply["code"] == 3003
    call("PATCH", "/_understudy/settings?app=UNDERSTUDY-APP", {"lockout_after": 3})
    section = dashboard.locator("section#record")
    text = section.get_by_label("Recorded scenario", exact=True)
    expect(text).to_contain_text('scenario("recorded session"')
    expect(text).to_contain_text('expect.error(3003, backendless.users.login("rita@example.com", "password2')
    expect(text).to_contain_text("backendless.settings.lockout_after = 3")
    assert "s3cret-pw" not in text.inner_text() and "wrong-pw1" not in text.inner_text()

    # A name of one's own; Record now fetches it again at once.
    section.get_by_role("textbox", name="Scenario name").fill("rita signs up")
    section.get_by_role("button", name="Record now").click()
    expect(text).to_contain_text('scenario("rita signs up"')

    with dashboard.expect_download() as download_info:
        section.get_by_role("link", name="Download recorded.lua").click()
    download = download_info.value
    assert download.suggested_filename == "recorded.lua"
    saved = open(download.path(), encoding="utf-8").read()
    assert 'scenario("rita signs up"' in saved and "s3cret-pw" not in saved
    expect(section.get_by_role("button", name="Copy the recorded scenario")).to_be_visible()
    shot(section, "record")
def test_kii_acls_groups_social_accounts_and_mqtt_connections_show(dashboard):
    chunk = ('local app = understudy.app("understudy-kii-app")\n'
             'local alice = assert(app.users.register{ username = "alice", password = "123ABC" })\n'
             'assert(app.topics.create("news"))\n'
             'assert(app.topics.grant("news", "SEND_MESSAGE_TO_TOPIC", "UserID:" .. alice.userID))\n'
             'app.groups.create{ name = "crew", owner = alice.userID }\n'
             'app.social.account{ provider = "google", token = "g-1", profile = { id = "g-7" } }\n'
             'local id = app.installations.register{ user = alice.userID, type = "MQTT" }.installationID\n'
             'local e = app.installations.mqtt_endpoint(id)\n'
             'return alice.userID, e.username, e.password, e.mqttTopic, e.portTCP')
    request = urllib.request.Request(__import__("conftest").BASE + "/_understudy/lua", data=chunk.encode(), method="POST",
                                     headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(request) as reply:
        user_id, username, password, topic, port = json.loads(reply.read())["results"]

    acls = dashboard.get_by_role("table", name="Topic ACLs")
    news = acls.get_by_role("row").filter(has_text="news")
    expect(news).to_contain_text("UserID:ANY_AUTHENTICATED_USER")
    expect(news).to_contain_text(f"UserID:{user_id}")
    expect(dashboard.get_by_role("table", name="Groups").get_by_role("row").filter(has_text="crew")).to_contain_text(user_id)
    social = dashboard.get_by_role("table", name="Social accounts").get_by_role("row").filter(has_text="g-1")
    expect(social).to_contain_text("not linked")
    status, login = call("POST", KII + "/integration/google", {"accessToken": "g-1"}, headers={"Authorization": KII_AUTH})
    assert status == 200 and login["new_user_created"]
    expect(social).to_contain_text(login["id"])

    # An MQTT client connects with the endpoint's credentials (a hand-made CONNECT over TCP): it is listed.
    def field(text):
        return len(text).to_bytes(2, "big") + text.encode()
    body = field("MQTT") + bytes([4, 0xC2, 0, 60]) + field(topic) + field(username) + field(password)
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(bytes([0x10, len(body)]) + body)
        assert client.recv(4) == bytes([0x20, 2, 0, 0])
        # The view is read again: a connection alone does not change what the live refresh watches (see the note).
        dashboard.reload()
        mqtt = dashboard.get_by_role("table", name="MQTT connections")
        expect(mqtt.get_by_role("row").filter(has_text=topic)).to_contain_text("understudy-kii-app")
        shot(dashboard.locator("section#kii"), "kii")
    # Gone once the client has closed its connection (the view is read again).
    dashboard.reload()
    mqtt = dashboard.get_by_role("table", name="MQTT connections")
    expect(mqtt.get_by_role("row").filter(has_text=topic)).to_have_count(0)
