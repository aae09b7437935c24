"""Fixtures of the dashboard's browser tests: the server scripts/test-dashboard started, the REST routes an app
would call, and a Chromium page (Debian's, never a downloaded one) opened on the dashboard."""

import json
import os
import pathlib
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

BASE = os.environ.get("DASHBOARD_URL", "http://127.0.0.1:8080")
SCREENSHOTS = pathlib.Path(__file__).resolve().parents[2] / ".build" / "screenshots"
BACKENDLESS = "/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY"
KII = "/api/apps/understudy-kii-app"
KII_AUTH = "Basic dW5kZXJzdHVkeS1raWktYXBwOnVuZGVyc3R1ZHkta2lpLWtleQ=="  # understudy-kii-app:understudy-kii-key


def call(method, path, body=None, headers=None, base=BASE):
    """Sends a request as an app would; answers (status, parsed JSON or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text) if text else None
    except json.JSONDecodeError:
        return status, text


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
        yield chromium
        chromium.close()


@pytest.fixture
def fresh():
    """A reset server with an empty journal."""
    status, _ = call("POST", "/_understudy/reset?journal=clear")
    assert status == 200


@pytest.fixture
def dashboard(browser, fresh):
    """The dashboard in a 1280-wide light page; fails the test on any dialog or script error."""
    yield from open_page(browser, BASE)


def open_page(browser, base, **options):
    context = browser.new_context(viewport=options.pop("viewport", {"width": 1280, "height": 900}), **options)
    page = context.new_page()
    problems = []
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on("console", lambda message: message.type == "error" and problems.append(f"console: {message.text}"))
    page.problems = problems
    page.requests = []
    page.on("request", lambda request: page.requests.append(request))
    page.goto(base + "/_understudy/ui/")
    yield page
    context.close()
    assert problems == [], problems


def shot(target, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def start_server():
    """Starts another `understudy serve` with extra arguments; stops it after the test."""
    started = []

    def start(*arguments):
        port = free_port()
        binary = os.environ.get("UNDERSTUDY", ".build/debug/understudy")
        errors = tempfile.TemporaryFile()
        process = subprocess.Popen([binary, "serve", "--port", str(port), *arguments],
                                   stdout=subprocess.DEVNULL, stderr=errors)
        started.append(process)
        base = f"http://127.0.0.1:{port}"
        for _ in range(1200):
            if process.poll() is not None:  # it stopped: say why, at once
                errors.seek(0)
                raise RuntimeError(f"the server on {base} exited with {process.returncode}: "
                                   + errors.read().decode("utf-8", "replace"))
            try:
                urllib.request.urlopen(base + "/_understudy/ui/", timeout=1)
                return base
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        raise RuntimeError(f"the server on {base} did not start")

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=30)
