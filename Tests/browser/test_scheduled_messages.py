"""The dashboard's view of contract version 3's pushes: scheduled messages with their next firing, fired as the
page moves the clock and cancelled from the page; push templates. Apps act through the REST routes."""

import re
import urllib.request

from playwright.sync_api import expect

from conftest import BACKENDLESS, BASE, call, shot

START_MS = 1893456000 * 1000  # 2030-01-01T00:00:00Z, where scripts/test-dashboard starts the clock


def lua(chunk):
    """Runs a control Lua chunk, as the dashboard's Lua view does."""
    request = urllib.request.Request(BASE + "/_understudy/lua", data=chunk.encode(), method="POST",
                                     headers={"Content-Type": "text/plain; charset=utf-8"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200


def test_a_scheduled_message_shows_its_next_firing_fires_as_the_clock_moves_and_can_be_cancelled(dashboard):
    call("POST", BACKENDLESS + "/messaging/registrations",
         {"deviceToken": "t1", "deviceId": "phone-1", "os": "IOS", "channels": ["news"]})
    status, reply = call("POST", BACKENDLESS + "/messaging/news",
                         {"message": "Tick", "publishAt": START_MS + 60_000, "repeatEvery": 60,
                          "repeatExpiresAt": START_MS + 300_000})
    assert status == 200 and reply["status"] == "scheduled"
    message_id = reply["messageId"]

    table = dashboard.get_by_role("table", name="Scheduled messages")
    row = table.get_by_role("row").filter(has_text=message_id)
    expect(row).to_contain_text("2030-01-01 00:01:00Z")
    expect(row).to_contain_text("every 60 s")
    shot(dashboard.locator("section#devices"), "scheduled-messages")

    # The app card's clock button moves the clock: the first firing is delivered, the next one is shown.
    dashboard.get_by_role("button", name="Advance 1 minute").first.click()
    expect(row).to_contain_text("2030-01-01 00:02:00Z")
    expect(dashboard.get_by_role("table", name="Pushes")).to_contain_text("Tick")

    row.get_by_role("button", name=f"Cancel {message_id}").click()
    expect(table.get_by_role("row").filter(has_text=message_id)).to_have_count(0)
    status, reply = call("GET", BACKENDLESS + f"/messaging/{message_id}")
    assert status == 200 and reply["status"] == "cancelled"


def test_push_templates_are_listed(dashboard):
    lua('understudy.app("UNDERSTUDY-APP").push.templates.define{ name = "welcome", message = "Hi {name}", '
        'title = "Hello", os = "IOS", channel = "news", headers = { ["ios-sound"] = "ding" } }')
    table = dashboard.get_by_role("table", name="Push templates")
    row = table.get_by_role("row").filter(has_text="welcome")
    # A template changes no count the live summary carries, so the view shows it at the next full refresh, which
    # comes every 5 s: wait past that, not just the default 5 s.
    expect(row).to_contain_text("Hi {name}", timeout=15000)
    expect(row).to_contain_text("IOS")
    expect(row).to_contain_text(re.compile("ios-sound: ding"))
