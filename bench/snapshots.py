#!/usr/bin/env python3
"""Snapshot benchmark (issue 30): restoring a world of 10,000 users, as an app's suite would before each test.

    python3 bench/snapshots.py                       # builds release as scripts/package does
    python3 bench/snapshots.py --binary .build/debug/understudy
    python3 bench/snapshots.py --users 100000 --rounds 200

Starts `understudy serve` with a setup script that seeds the users (Backendless, with email confirmation, and a
Kii app with a tenth as many), takes a snapshot, then times `POST /_understudy/snapshots/NAME/restore` round trips
on one keep-alive connection (Python's http.client: the figure includes the client's and HTTP's overhead, so it is
an upper bound on the restore itself):
  - "restore, a test between": each restore followed by what a short test does (a sign-up, a login, a wrong
    password, a Kii login, a state read, a few ms): a restore resets what the test changed. Under it, what the
    restore itself took on the server (its reply's `Server-Timing: restore;dur=MS`), without HTTP's share;
  - "restore, back to back": restores with nothing between (nothing changed: the floor, HTTP included);
  - "restore, N users changed": each restore after a control chunk logged N users in (each user changed), so
    the figure shows what a restore costs per changed user;
  - "restore, two snapshots in turn": restoring a snapshot other than the one last restored resets every user;
  - "snapshot taken": the POST that takes the image (each user's fields kept apart);
  - memory: the bytes the snapshot counts against --max-memory (GET /_understudy/snapshots), and the server's
    resident memory (VmRSS) before the snapshot and after it.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys

# bench/http.py would shadow the standard library's http package.
sys.path = [entry for entry in sys.path if os.path.abspath(entry or ".") != os.path.dirname(os.path.abspath(__file__))]
import http.client  # noqa: E402
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="the understudy binary (default: build release as scripts/package does)")
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--changed", type=int, default=1_000, help="users a bigger test changes between restores")
    arguments = parser.parse_args()

    binary = arguments.binary
    if binary is None:
        build = ["swift", "build", "-c", "release", "--product", "understudy", "--static-swift-stdlib", "--scratch-path", ".build-static"]
        subprocess.run(build, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        binary = os.path.join(subprocess.run(build[:4] + build[6:] + ["--show-bin-path"], cwd=ROOT, check=True,
                                             stdout=subprocess.PIPE, text=True).stdout.strip(), "understudy")
    setup = f"""
local b = understudy.backendless{{ email_confirmation = true }}
assert(b.users.seed{{ count = {arguments.users}, email = "user%d@example.com", password = "secret1", name = "User %d" }})
local k = understudy.kii{{}}
assert(k.users.seed{{ count = {max(1, arguments.users // 10)}, username = "agent%d", password = "secret1" }})
"""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(setup)
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--script", script.name, "--max-memory", "4096",
                               "--max-instructions", "1000000000"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.time() > deadline or server.poll() is not None:
                sys.exit("the server did not start: " + (server.stdout.read().decode() if server.poll() is not None else "timeout"))
            time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port)

        server_side = []  # what each restore itself took, from its Server-Timing header

        def call(method, path, body=None, extra=None):
            headers = {"Content-Type": "application/json"} if body is not None else {}
            headers.update(extra or {})
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            reply = connection.getresponse()
            data = reply.read()
            timing = reply.getheader("Server-Timing") or ""
            if timing.startswith("restore;dur="):
                server_side.append(float(timing.split("=", 1)[1]) / 1000)
            return reply.status, data

        status, data = call("GET", "/_understudy")
        apps = json.loads(data)["apps"]
        backendless = next(app["base_url"] for app in apps if app["flavour"] == "backendless").split(str(port), 1)[1]
        kii = next(app for app in apps if app["flavour"] == "kii")
        kii_token = kii["base_url"].split(str(port), 1)[1] + "/oauth2/token"
        kii_headers = {"X-Kii-AppID": kii["app_id"], "X-Kii-AppKey": kii["keys"]["app_key"]}

        before = rss(server.pid)
        start = time.perf_counter()
        status, data = call("POST", "/_understudy/snapshots", {"name": "seeded"})
        taken = time.perf_counter() - start
        assert status == 201, data
        after = rss(server.pid)
        status, data = call("GET", "/_understudy/snapshots")
        counted = json.loads(data)["bytes"]

        def a_test(number):
            call("POST", backendless + "/users/register", {"email": f"t{number}@example.com", "password": "secret1"})
            call("POST", backendless + "/users/login", {"login": "user1@example.com", "password": "secret1"})
            call("POST", backendless + "/users/login", {"login": "user2@example.com", "password": "wrong"})
            call("POST", kii_token, {"username": "agent1", "password": "secret1"}, kii_headers)
            call("GET", "/_understudy/state?limit=1")

        between = []
        server_side.clear()
        for number in range(arguments.rounds):
            start = time.perf_counter()
            status, data = call("POST", "/_understudy/snapshots/seeded/restore")
            between.append(time.perf_counter() - start)
            assert status == 200, data
            a_test(number)
        between_server_side = list(server_side)
        # Time one test on its own (what an app's test costs here), for the table.
        start = time.perf_counter()
        a_test(-1)
        test_time = time.perf_counter() - start

        back_to_back = []
        for _ in range(max(10, arguments.rounds // 10)):
            start = time.perf_counter()
            status, data = call("POST", "/_understudy/snapshots/seeded/restore")
            back_to_back.append(time.perf_counter() - start)
        # The floor: a control request that does next to nothing (the client's, HTTP's and the stage's cost).
        floor = []
        for _ in range(max(10, arguments.rounds // 10)):
            start = time.perf_counter()
            status, data = call("GET", "/_understudy/snapshots")
            floor.append(time.perf_counter() - start)
        changed = min(arguments.changed, arguments.users)
        chunk = f"""local b = understudy.apps()[1]
for i = 1, {changed} do assert(b.users.login("user" .. i .. "@example.com", "secret1")) end"""
        many = []
        for _ in range(max(5, arguments.rounds // 30)):
            connection.request("POST", "/_understudy/lua", body=chunk, headers={"Content-Type": "text/x-lua"})
            reply = connection.getresponse()
            data = reply.read()
            assert reply.status == 200, data
            start = time.perf_counter()
            status, data = call("POST", "/_understudy/snapshots/seeded/restore")
            many.append(time.perf_counter() - start)
            assert status == 200, data
        # Two snapshots restored in turn: each restore finds the apps last equal to the other, and resets every user.
        status, data = call("POST", "/_understudy/snapshots", {"name": "other"})
        assert status == 201, data
        alternating = []
        for number in range(max(10, arguments.rounds // 10)):
            start = time.perf_counter()
            status, data = call("POST", f"/_understudy/snapshots/{'seeded' if number % 2 == 0 else 'other'}/restore")
            alternating.append(time.perf_counter() - start)
            assert status == 200, data
        status, data = call("GET", "/_understudy/state?limit=0")
        users = sum(app["user_count"] for app in json.loads(data)["apps"])

        def ms(values):
            return f"median {statistics.median(values) * 1000:.3f} ms, p90 {sorted(values)[int(len(values) * 0.9)] * 1000:.3f} ms"

        print(f"understudy snapshots: {arguments.users:,} Backendless users + {max(1, arguments.users // 10):,} Kii users ({users:,} after the last restore), {binary}")
        print(f"  restore, a test between ({test_time * 1000:.1f} ms)  {ms(between)} over HTTP   target: median ≤ 1 ms  {'PASS' if statistics.median(between) <= 0.001 else 'FAIL'}")
        if between_server_side:
            print(f"    the restore itself (Server-Timing) {ms(between_server_side)}")
        print(f"  restore, back to back            {ms(back_to_back)}")
        print(f"  HTTP floor (GET snapshots)       {ms(floor)}: a restore's own cost is about its figure less this")
        print(f"  restore, {changed:,} users changed     {ms(many)}")
        print(f"  restore, two snapshots in turn   {ms(alternating)} (every user reset)")
        print(f"  snapshot taken                   {taken * 1000:.3f} ms")
        print(f"  memory the snapshot counts       {counted / 2**20:.1f} MiB (what the apps held, against --max-memory)")
        print(f"  server RSS before / after        {before / 2**20:.1f} MiB / {after / 2**20:.1f} MiB (+{(after - before) / 2**20:.1f} MiB)")
    finally:
        server.terminate()
        server.wait()
        os.unlink(script.name)


if __name__ == "__main__":
    main()
