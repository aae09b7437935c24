"""The dashboard's controls a newcomer missed: multiple_logins as a number of sessions, an edit a redraw lands on,
a fault aimed at one identity, and when an SMS code expires. Driven by role and accessible name, as a person (or a
screen reader) finds them."""

import re
import time

from playwright.sync_api import expect

from conftest import BACKENDLESS, KII, KII_AUTH, call, shot


def app_card(page, app_id):
    return page.get_by_role("article", name=re.compile(f"^{re.escape(app_id)}"))


def setting_on_server(app, name, wanted):
    """Waits until the server has the setting (the page's PATCH may still be on its way)."""
    for _ in range(50):
        status, reply = call("GET", f"/_understudy/settings?app={app}")
        if status == 200 and reply["apps"][0]["settings"][name] == wanted:
            return True
        time.sleep(0.1)
    return False


def test_multiple_logins_can_be_a_number_of_sessions(dashboard):
    card = app_card(dashboard, "UNDERSTUDY-APP")
    policy = card.get_by_role("combobox", name="multiple_logins")
    expect(policy).to_have_value("allow")
    sessions = card.get_by_role("spinbutton", name="Sessions per user")
    expect(sessions).to_be_disabled()
    policy.select_option(label="a number of sessions")
    assert setting_on_server("UNDERSTUDY-APP", "multiple_logins", 2)
    sessions = app_card(dashboard, "UNDERSTUDY-APP").get_by_role("spinbutton", name="Sessions per user")
    expect(sessions).to_be_enabled()
    sessions.fill("3")
    sessions.press("Tab")  # a number is committed when the field is left, as the other number settings are
    assert setting_on_server("UNDERSTUDY-APP", "multiple_logins", 3)
    # Drawn again from the server's answer: the number is shown as the setting's value.
    card = app_card(dashboard, "UNDERSTUDY-APP")
    expect(card.get_by_role("combobox", name="multiple_logins")).to_have_value("number")
    expect(card.get_by_role("spinbutton", name="Sessions per user")).to_have_value("3")
    shot(card, "multiple-logins-number")
    card.get_by_role("combobox", name="multiple_logins").select_option(label="deny")
    assert setting_on_server("UNDERSTUDY-APP", "multiple_logins", "deny")
    expect(app_card(dashboard, "UNDERSTUDY-APP").get_by_role("spinbutton", name="Sessions per user")).to_be_disabled()


def test_an_edit_a_redraw_lands_on_is_kept_and_committed(dashboard):
    # A number typed into a setting, not yet committed, when the card is drawn again (here: another setting changed
    # over HTTP, which the next refresh shows): the edit is not lost. The browser commits it as the old field leaves
    # the page (its change event), and the field drawn again has the focus and the number.
    card = app_card(dashboard, "UNDERSTUDY-APP")
    lockout = card.get_by_role("spinbutton", name="lockout_after")
    lockout.fill("7")
    status, reply = call("PATCH", "/_understudy/settings?app=UNDERSTUDY-APP", {"registration": False})
    assert status == 200, reply
    expect(app_card(dashboard, "UNDERSTUDY-APP").get_by_role("switch", name="registration")).not_to_be_checked(timeout=15000)
    lockout = app_card(dashboard, "UNDERSTUDY-APP").get_by_role("spinbutton", name="lockout_after")
    expect(lockout).to_have_value("7")
    expect(lockout).to_be_focused()
    assert setting_on_server("UNDERSTUDY-APP", "lockout_after", 7)


def test_a_fault_aimed_at_one_identity_fails_only_its_calls(dashboard):
    for email in ("bond@mi6.co.uk", "moneypenny@mi6.co.uk"):
        status, reply = call("POST", BACKENDLESS + "/users/register", {"email": email, "password": "pw"})
        assert status == 200, reply
    form = dashboard.get_by_role("form", name="Inject fault")
    form.get_by_role("combobox", name="App").select_option("UNDERSTUDY-APP")
    form.get_by_role("combobox", name="Operation").select_option("users.login")
    argument = form.get_by_role("combobox", name="Only when argument")
    expect(argument.get_by_role("option")).to_have_text(["every call", "identity_value", "password"])
    argument.select_option("identity_value")
    form.get_by_role("textbox", name="Argument value").fill("bond@mi6.co.uk")
    form.get_by_role("combobox", name="Code").select_option("3036")
    form.get_by_role("button", name="Inject fault").click()
    faults = dashboard.get_by_role("table", name="Active faults")
    row = faults.get_by_role("row").filter(has_text="users.login")
    expect(row).to_contain_text("identity_value is bond@mi6.co.uk")
    expect(row).to_contain_text("3036")
    shot(dashboard.locator("section#faults"), "fault-aimed-at-one-identity")

    status, reply = call("POST", BACKENDLESS + "/users/login", {"login": "bond@mi6.co.uk", "password": "pw"})
    assert status == 400 and reply["code"] == 3036, reply
    status, reply = call("POST", BACKENDLESS + "/users/login", {"login": "moneypenny@mi6.co.uk", "password": "pw"})
    assert status == 200, reply
    # One hit: the other identity's login went through.
    expect(row.get_by_role("cell").nth(6)).to_have_text("1")


def test_an_sms_code_shows_when_it_expires(dashboard):
    card = app_card(dashboard, "understudy-kii-app")
    card.get_by_role("switch", name="phone_verification").check()
    assert setting_on_server("understudy-kii-app", "phone_verification", True)
    status, _ = call("POST", KII + "/users", {"loginName": "kim", "phoneNumber": "+819012345678", "password": "secret1"},
                     {"Authorization": KII_AUTH})
    assert status == 201
    texts = dashboard.get_by_role("table", name="Text messages")
    expect(texts.get_by_role("columnheader", name="Code expires")).to_be_visible()
    row = texts.get_by_role("row").filter(has_text="+819012345678")
    # sms_code_ttl is a day: sent at the clock's start, good until the same time the next day.
    expect(row).to_contain_text("2030-01-02 00:00:00Z")
    expect(row).not_to_contain_text("expired")
    shot(dashboard.locator("section#outbox"), "sms-code-expiry")
    # A day and a minute later the code is refused, and the page says so.
    card = app_card(dashboard, "understudy-kii-app")
    card.get_by_role("button", name="Advance 1 day: the clock of understudy-kii-app").click()
    card.get_by_role("button", name="Advance 1 minute: the clock of understudy-kii-app").click()
    expect(row).to_contain_text("2030-01-02 00:00:00Z (expired)")
    code = row.locator(".sms-code").inner_text()
    status, reply = call("POST", KII + "/users/LOGIN_NAME:kim/phone-number/verify", {"verificationCode": code},
                         {"Authorization": KII_AUTH})
    assert status == 410, reply
    shot(dashboard.locator("section#outbox"), "sms-code-expired")
