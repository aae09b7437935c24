#!/usr/bin/env python3
"""HTTP benchmark for `understudy serve` (issue 7): Backendless users/register with a new identity per request,
driven by wrk on loopback with 2 threads and 16 connections. Prints requests per second and latency, and the
floor measured in the same sitting: the same requests to a trivial Hummingbird POST handler on the same server
set-up (`understudy serve --bench-trivial`, a hidden option). Issue 22's target: at least 90 % of the floor.

    python3 bench/http.py                 # builds release as scripts/package does, 10 s run after a 2 s warm-up
    python3 bench/http.py --duration 30   # longer runs
    python3 bench/http.py --rounds 5      # more alternating rounds (default 3; medians are shown)

Needs wrk (apt-get install -y wrk). The server and wrk share this machine's cores, as the issue's figure does.
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "bench", "wrk-register.lua")


def wait_for(port, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    sys.exit(f"the server did not listen on port {port}")


def wrk(port, seconds, prefix, threads=2, connections=16):
    url = f"http://127.0.0.1:{port}"
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", SCRIPT, url, "--", prefix],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True).stdout
    match = re.search(r"RESULT (.*)", output)
    if not match:
        sys.exit("wrk printed no result:\n" + output)
    return {key: float(value) for key, value in (pair.split("=") for pair in match.group(1).split())}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of each server (medians are shown)")
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--binary", help="an understudy binary (default: build release)")
    arguments = parser.parse_args()

    binary = arguments.binary
    if binary is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "understudy", "--static-swift-stdlib", "--scratch-path", ".build-static"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        path = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", ".build-static", "--show-bin-path"], cwd=ROOT, check=True,
                              stdout=subprocess.PIPE, text=True).stdout.strip()
        binary = os.path.join(path, "understudy")

    def measure(extra):
        # A run registers some 60,000 users a second; the default --max-memory (256 MiB) would refuse them with 507
        # after about 350,000, so the server gets room for the whole run.
        server = subprocess.Popen([binary, "serve", "--port", str(arguments.port), "--max-memory", "4096"] + extra,
                                  stdout=subprocess.DEVNULL)
        try:
            wait_for(arguments.port)
            wrk(arguments.port, 2, "warm")  # warm-up (also fills the user table a little, as a real run would)
            return wrk(arguments.port, arguments.duration, "run")
        finally:
            server.terminate()
            server.wait(timeout=10)

    # Rounds alternate the two servers, so a slow minute of a shared machine hits both; each figure is the median
    # round, and the share is the median of each round's register/floor ratio.
    rounds = []
    for _ in range(arguments.rounds):
        rounds.append((measure([]), measure(["--bench-trivial"])))
    def rate(run):
        return run["requests"] / run["seconds"]
    def median_run(runs):
        return sorted(runs, key=rate)[len(runs) // 2]
    result = median_run([pair[0] for pair in rounds])
    floor = median_run([pair[1] for pair in rounds])
    rps = rate(result)
    floor_rps = rate(floor)
    share = sorted(rate(a) / rate(b) for a, b in rounds)[len(rounds) // 2]
    rows = [
        ("Backendless users/register over HTTP, new identity each (wrk -t2 -c16)", f"{rps:,.0f} req/s", "", None),
        ("  latency p50", f"{result['p50_ms']:.2f} ms", "", None),
        ("  latency p99", f"{result['p99_ms']:.2f} ms", "< 10 ms", result["p99_ms"] < 10),
        ("  latency max (the longest stall, a growing index say)", f"{result['max_ms']:.2f} ms", "", None),
        ("  non-2xx replies / socket errors", f"{int(result['non2xx'])} / {int(result['socket_errors'])}", "0 / 0",
         result["non2xx"] == 0 and result["socket_errors"] == 0),
        ("trivial Hummingbird POST handler, same requests (the floor)", f"{floor_rps:,.0f} req/s", "", None),
        ("  latency p50 / p99", f"{floor['p50_ms']:.2f} / {floor['p99_ms']:.2f} ms", "", None),
        ("users/register as a share of the floor", f"{share * 100:.0f} %", "≥ 90 %", share >= 0.9),
        ("moto server, Cognito sign-up (issue 7's figure, same settings)", "≈ 330 req/s", "", None),
    ]
    width = max(len(row[0]) for row in rows)
    print(f"\nUnderstudy HTTP benchmark ({os.cpu_count()} cores, {arguments.duration} s)\n")
    print(f"{'figure'.ljust(width)}  {'measured':>14}  {'target':>10}  met")
    print(f"{'-' * width}  {'-' * 14}  {'-' * 10}  ---")
    for name, measured, target, met in rows:
        mark = "" if met is None else ("yes" if met else "NO")
        print(f"{name.ljust(width)}  {measured:>14}  {target:>10}  {mark}")


if __name__ == "__main__":
    main()
