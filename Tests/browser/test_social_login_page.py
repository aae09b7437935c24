"""Backendless social login in the browser (contract v4): an app page on its own origin does what the JS SDK's
loginWithFacebook does (opens a popup, asks for the authorization URL, sends the popup there, waits for the popup's
message from the server's origin); a person signs in on Understudy's stand-in provider page, found by role and
accessible name. Also the redirect ending (redirectAfterLoginUrl) and a failed sign-in."""

import json
import os
import re
import urllib.request
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from conftest import BACKENDLESS, BASE, call, shot

APP_ORIGIN = "http://127.0.0.1:9"  # another origin on the loopback (routed by the test): Chromium lets it reach the server

# What the JS SDK v8 does in users/social (loginWithContainer): window.open first (a click may open a popup), then
# POST users/social/oauth/{provider}/request_url, then the popup goes to the URL; the promise settles on the first
# message whose origin is the server URL. The page shows what it got in a status line.
APP_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>An app</title></head>
<body>
<button id="facebook">Sign in with Facebook</button>
<p role="status" id="result">Not signed in</p>
<script>
const server = %(server)s;
document.getElementById("facebook").addEventListener("click", async () => {
  const popup = window.open("", "facebook authorization", "resizable=yes");
  window.addEventListener("message", (event) => {
    if (event.origin !== server) return;
    const result = JSON.parse(event.data);
    document.getElementById("result").textContent = result.fault
      ? "Sign-in failed: " + result.fault
      : "Signed in as " + result.email + " (" + result.socialAccount + ", token " + (result["user-token"] ? "received" : "missing") + ")";
  });
  const reply = await fetch(server + %(path)s, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ fieldsMapping: { email: "email", name: "name" }, permissions: ["email"] }),
  });
  popup.location.href = await reply.json();
});
</script>
</body></html>
"""


@pytest.fixture(scope="module")
def app_browser(browser):
    """Chromium for an app page the test serves itself (a routed origin counts as a public address, and Chromium's
    local-network-access check would refuse its requests to the server on the loopback, which a real app on a
    developer's machine is not subject to)."""
    chromium = browser.browser_type.launch(
        executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
        args=["--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests"])
    yield chromium
    chromium.close()


def lua(chunk):
    request = urllib.request.Request(BASE + "/_understudy/lua?name=browser", data=chunk.encode(), method="POST",
                                     headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200


def accounts():
    lua("""
        local app = understudy.app("UNDERSTUDY-APP")
        app.oauth.account{ provider = "facebook", token = "fb-1", profile = { id = "10001", email = "bond@mi6.co.uk", name = "James" } }
        app.oauth.account{ provider = "facebook", token = "fb-2", profile = { id = "10002", email = "m@mi6.co.uk" } }
        return true
    """)


def app_page(browser):
    context = browser.new_context(viewport={"width": 900, "height": 700})
    problems = []
    context.on("page", lambda page: page.on("pageerror", lambda error: problems.append(f"script error: {error}")))
    app = APP_PAGE % {"server": json.dumps(BASE), "path": json.dumps(BACKENDLESS + "/users/social/oauth/facebook/request_url")}
    context.route(APP_ORIGIN + "/**", lambda route: route.fulfill(status=200, content_type="text/html", body=app))
    page = context.new_page()
    page.goto(APP_ORIGIN + "/")
    return context, page, problems


def test_a_popup_sign_in_posts_the_session_to_the_app(app_browser, fresh):
    browser = app_browser
    accounts()
    context, page, problems = app_page(browser)
    with page.expect_popup() as opened:
        page.get_by_role("button", name="Sign in with Facebook").click()
    popup = opened.value
    expect(popup.get_by_role("heading", name="Sign in with Facebook", level=1)).to_be_visible()
    expect(popup.get_by_role("button", name="Continue as James (bond@mi6.co.uk)")).to_be_visible()
    expect(popup.get_by_role("button", name="Continue as m@mi6.co.uk")).to_be_visible()
    expect(popup.get_by_role("textbox", name="Access token", exact=True)).to_be_visible()
    expect(popup).to_have_title(re.compile("^Sign in with Facebook"))
    assert "/users/oauth/facebook/authorize?state=" in popup.url
    shot(popup, "social-login-provider-page")

    popup.get_by_role("button", name="Continue as James (bond@mi6.co.uk)").click()
    expect(page.get_by_role("status")).to_have_text("Signed in as bond@mi6.co.uk (facebook, token received)")
    expect(popup.get_by_role("heading", name="Signed in")).to_be_visible()
    shot(popup, "social-login-popup-ending")
    shot(page, "social-login-app-signed-in")

    # The URL was used up: opening it again answers 3080.
    status, reply = call("GET", urlparse(popup.url).path + "?" + urlparse(popup.url).query)
    assert status == 400 and reply["code"] == 3080
    context.close()
    assert problems == [], problems


def test_a_failed_sign_in_posts_the_fault_and_the_same_page_works_after(app_browser, fresh):
    browser = app_browser
    accounts()
    context, page, problems = app_page(browser)
    with page.expect_popup() as opened:
        page.get_by_role("button", name="Sign in with Facebook").click()
    popup = opened.value
    expect(popup.get_by_role("heading", name="Sign in with Facebook", level=1)).to_be_visible()
    url = popup.url
    popup.get_by_role("textbox", name="Access token", exact=True).fill("stolen")
    popup.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Sign-in failed: External authentication failed with message 'Invalid access token'")
    expect(popup.get_by_role("heading", name="Sign-in failed")).to_be_visible()
    expect(popup.get_by_role("status")).to_contain_text("Backendless error 3052")
    shot(popup, "social-login-failed")

    # A failed sign-in leaves the URL usable (fine point 7).
    popup.goto(url)
    popup.get_by_role("textbox", name="Access token", exact=True).fill("fb-2")
    popup.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Signed in as m@mi6.co.uk (facebook, token received)")
    context.close()
    assert problems == [], problems


def test_redirect_after_login_url_brings_the_browser_back_with_user_id_and_token(browser, fresh):
    accounts()
    status, url = call("POST", BACKENDLESS + "/users/oauth/facebook/request_url",
                       {"fieldsMapping": {"email": "email"}, "redirect": False, "redirectAfterLoginUrl": APP_ORIGIN + "/signed-in?from=fb"})
    assert status == 200 and url.startswith(BASE)
    context = browser.new_context(viewport={"width": 900, "height": 700})
    context.route(APP_ORIGIN + "/**", lambda route: route.fulfill(status=200, content_type="text/html",
                                                                 body="<!DOCTYPE html><title>Back in the app</title><h1>Back in the app</h1>"))
    page = context.new_page()
    page.goto(url)
    expect(page.get_by_role("main")).to_contain_text(APP_ORIGIN + "/signed-in?from=fb")
    page.get_by_role("button", name="Continue as James (bond@mi6.co.uk)").click()
    expect(page.get_by_role("heading", name="Back in the app")).to_be_visible()
    query = parse_qs(urlparse(page.url).query)
    assert query["from"] == ["fb"] and len(query["userId"][0]) == 36 and query["userToken"][0]
    status, valid = call("GET", BACKENDLESS + "/users/isvalidusertoken/" + query["userToken"][0])
    assert status == 200 and valid is True
    context.close()
