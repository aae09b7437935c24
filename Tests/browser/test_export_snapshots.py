"""The dashboard's Export and snapshots card: the export downloads the world as a Lua setup script that another
`understudy serve --setup FILE` serves the same way; snapshots are taken, restored and deleted from the page."""

import re

from playwright.sync_api import expect

from conftest import BACKENDLESS, call, shot


def world_card(page):
    return page.get_by_role("region", name="Export and snapshots")


def test_export_downloads_a_setup_script_another_server_serves_the_same(dashboard, start_server, tmp_path):
    status, _ = call("POST", BACKENDLESS + "/users/register", {"email": "kept@example.com", "password": "kept-pw-1"})
    assert status == 200
    card = world_card(dashboard)
    with dashboard.expect_download() as started:
        card.get_by_role("button", name="Export world").click()
    download = started.value
    assert download.suggested_filename == "understudy-world.lua"
    path = tmp_path / "world.lua"
    download.save_as(str(path))
    text = path.read_text()
    assert text.startswith("-- The world of `understudy serve`, exported")
    assert "understudy.import" in text and "kept@example.com" in text and "sha256:" in text
    assert "kept-pw-1" not in text, "the password is in the export"
    expect(dashboard.get_by_role("status").first).to_contain_text("Exported the world")
    shot(card, "export-and-snapshots")

    # Another server started from the file serves the same world: its export is the same file (before a login
    # hands out a token, which moves the generators on), and the user logs in with the same password.
    other = start_server("--setup", str(path), "--clock-start", "2030-01-01T00:00:00Z")
    status, again = call("GET", "/_understudy/export", base=other)
    assert status == 200 and again == text
    status, session = call("POST", BACKENDLESS + "/users/login", {"login": "kept@example.com", "password": "kept-pw-1"}, base=other)
    assert status == 200 and session["email"] == "kept@example.com", session


def test_snapshots_are_taken_restored_and_deleted_from_the_page(dashboard):
    call("POST", BACKENDLESS + "/users/register", {"email": "first@example.com", "password": "pw-first"})
    card = world_card(dashboard)
    card.get_by_role("textbox", name="Snapshot name").fill("one-user")
    card.get_by_role("button", name="Take snapshot").click()
    snapshots = card.get_by_role("table", name="Snapshots")
    row = snapshots.get_by_role("row").filter(has_text="one-user")
    expect(row).to_contain_text("1")
    expect(dashboard.get_by_role("status").first).to_contain_text("Snapshot one-user taken")

    call("POST", BACKENDLESS + "/users/register", {"email": "second@example.com", "password": "pw-second"})
    users = dashboard.get_by_role("region", name="Users of UNDERSTUDY-APP").get_by_role("table", name="Users")
    expect(users.get_by_role("row").filter(has_text="second@example.com")).to_have_count(1)
    row.get_by_role("button", name="Restore snapshot one-user").click()
    expect(dashboard.get_by_role("status").first).to_contain_text("Restored snapshot one-user")
    expect(users.get_by_role("row").filter(has_text="second@example.com")).to_have_count(0)
    expect(users.get_by_role("row").filter(has_text="first@example.com")).to_have_count(1)
    shot(card, "snapshots")

    # The same name again replaces the snapshot; Delete removes it.
    card.get_by_role("textbox", name="Snapshot name").fill("one-user")
    card.get_by_role("button", name="Take snapshot").click()
    expect(dashboard.get_by_role("status").first).to_contain_text(re.compile("Snapshot one-user replaced"))
    row.get_by_role("button", name="Delete snapshot one-user").click()
    expect(snapshots.get_by_role("row").filter(has_text="one-user")).to_have_count(0)
