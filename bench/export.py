#!/usr/bin/env python3
"""Export and import benchmark (issue 30): a world of 10,000 users written by GET /_understudy/export and served
again by `understudy serve --setup FILE`.

    python3 bench/export.py                       # builds release as scripts/package does
    python3 bench/export.py --binary .build/debug/understudy
    python3 bench/export.py --users 100000 --rounds 3

Starts `understudy serve` with a setup script that seeds the users (Backendless, with email confirmation, and a Kii
app with a tenth as many), then measures:
  - "export": GET /_understudy/export round trips (median of --rounds), and the file's size;
  - "import": `understudy serve --setup EXPORTED` from its start to its ready line (median of --rounds), beside the
    same start with the seeding script (what a fresh world of that size costs), and the server's resident memory
    after each;
  - that the imported world exports the same bytes, and a seeded user logs in with its password.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

# bench/http.py would shadow the standard library's http package.
sys.path = [entry for entry in sys.path if os.path.abspath(entry or ".") != os.path.dirname(os.path.abspath(__file__))]
import http.client  # noqa: E402

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


class Server:
    """`understudy serve` with a setup script; `started` is the seconds from launch to its ready line."""

    def __init__(self, binary, script):
        self.port = free_port()
        launched = time.perf_counter()
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--setup", script, "--clock-start", "2030-01-01T00:00:00Z",
             "--max-memory", "4096", "--max-instructions", "1000000000", "--timeout", "600"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            if line.startswith("understudy ready on"):
                break
        else:
            sys.exit("the server did not start: " + self.process.stdout.read())
        self.started = time.perf_counter() - launched
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)

    def call(self, method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        reply = self.connection.getresponse()
        return reply.status, reply.read()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="the understudy binary (default: build release as scripts/package does)")
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()

    binary = arguments.binary
    if binary is None:
        build = ["swift", "build", "-c", "release", "--product", "understudy", "--static-swift-stdlib", "--scratch-path", ".build-static"]
        subprocess.run(build, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        binary = os.path.join(subprocess.run(build[:4] + build[6:] + ["--show-bin-path"], cwd=ROOT, check=True,
                                             stdout=subprocess.PIPE, text=True).stdout.strip(), "understudy")
    folder = tempfile.mkdtemp(prefix="understudy-export-bench-")
    seeding = os.path.join(folder, "seed.lua")
    with open(seeding, "w") as script:
        script.write(f"""
local b = understudy.backendless{{ email_confirmation = true }}
assert(b.users.seed{{ count = {arguments.users}, email = "user%d@example.com", password = "secret1", name = "User %d" }})
local k = understudy.kii{{}}
assert(k.users.seed{{ count = {max(1, arguments.users // 10)}, username = "agent%d", password = "secret1" }})
""")
    exported = os.path.join(folder, "world.lua")

    seeded_starts, seeded_memory, export_times = [], 0, []
    text = b""
    for round_number in range(arguments.rounds):
        server = Server(binary, seeding)
        seeded_starts.append(server.started)
        seeded_memory = rss(server.process.pid)
        if round_number == 0:
            for _ in range(arguments.rounds):
                start = time.perf_counter()
                status, text = server.call("GET", "/_understudy/export")
                export_times.append(time.perf_counter() - start)
                assert status == 200, text[:300]
            with open(exported, "wb") as file:
                file.write(text)
        server.stop()

    import_starts, imported_memory = [], 0
    for round_number in range(arguments.rounds):
        server = Server(binary, exported)
        import_starts.append(server.started)
        imported_memory = rss(server.process.pid)
        if round_number == 0:
            status, again = server.call("GET", "/_understudy/export")
            assert status == 200 and again == text, "the imported world exports other bytes"
            status, body = server.call("POST", "/UNDERSTUDY-APP/UNDERSTUDY-REST-KEY/users/login",
                                       {"login": f"user{arguments.users}@example.com", "password": "secret1"})
            assert status == 200, body
        server.stop()

    users = arguments.users + max(1, arguments.users // 10)
    milliseconds = lambda values: f"{statistics.median(values) * 1000:.0f} ms"
    print(f"{users:,} users ({arguments.users:,} Backendless, {max(1, arguments.users // 10):,} Kii), median of {arguments.rounds}")
    print(f"| measure | value |")
    print(f"|---|---|")
    print(f"| GET /_understudy/export | {milliseconds(export_times)} |")
    print(f"| exported file | {len(text) / 1024 / 1024:.1f} MiB ({len(text) // users} bytes a user) |")
    print(f"| serve --setup EXPORTED, start to ready line | {milliseconds(import_starts)} |")
    print(f"| serve --setup SEEDING-SCRIPT, start to ready line | {milliseconds(seeded_starts)} |")
    print(f"| resident memory after import / after seeding | {imported_memory / 1024 / 1024:.0f} MiB / {seeded_memory / 1024 / 1024:.0f} MiB |")
    print("the imported world exports the same bytes; a seeded user logs in with its password")


if __name__ == "__main__":
    main()
