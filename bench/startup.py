#!/usr/bin/env python3
"""Start-up of `understudy run` on a one-scenario file: with worker processes (the default) and --in-process.

    python3 bench/startup.py                      # builds the release binary as scripts/package ships it (the
                                                  # Swift runtime linked in), prints both medians side by side
    python3 bench/startup.py --binary PATH        # measures that binary instead (no build)
    python3 bench/startup.py --instructions       # also counts instructions with valgrind (callgrind), which
                                                  # a loaded machine does not disturb

Wall time is the median of --runs whole processes; page faults and CPU time are those of the process and its
children (getrusage), medians too. The issue's targets: workers at most 1.3x --in-process, and at most 15 ms.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ONE = """scenario("one scenario", function()
  local app = understudy.backendless()
  assert(app.users.register{ email = "user@example.com", password = "secret" })
end)
"""


def once(command):
    """(wall seconds, cpu seconds, minor+major page faults) of one run of `command` and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    faults = (after.ru_minflt - before.ru_minflt) + (after.ru_majflt - before.ru_majflt)
    return wall, cpu, faults


def instructions(command):
    """Instructions of the process and its children, counted by callgrind (0 when valgrind is missing)."""
    with tempfile.TemporaryDirectory() as folder:
        try:
            subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                            f"--callgrind-out-file={folder}/out.%p", *command],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        except (FileNotFoundError, subprocess.CalledProcessError):
            return 0
        total = 0
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), errors="replace") as handle:
                for line in handle:
                    match = re.match(r"summary: (\d+)", line) or re.match(r"totals: (\d+)", line)
                    if match:
                        total += int(match.group(1))
                        break
        return total


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="the understudy binary to measure (default: build the release binary)")
    parser.add_argument("--runs", type=int, default=21, help="runs of each mode (default 21)")
    parser.add_argument("--instructions", action="store_true", help="also count instructions with callgrind")
    arguments = parser.parse_args()

    binary = arguments.binary
    if not binary:
        subprocess.run(["swift", "build", "-c", "release", "--product", "understudy", "--static-swift-stdlib", "--scratch-path", ".build-static"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        folder = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", ".build-static", "--show-bin-path"], cwd=ROOT, check=True,
                                stdout=subprocess.PIPE, text=True).stdout.strip()
        binary = os.path.join(folder, "understudy")
    with tempfile.TemporaryDirectory() as folder:
        one = os.path.join(folder, "one.lua")
        with open(one, "w") as handle:
            handle.write(ONE)
        modes = [("workers", [binary, "run", one]), ("--in-process", [binary, "run", one, "--in-process"])]
        results = {}
        for name, command in modes:
            once(command)  # warm the page cache
        for _ in range(arguments.runs):  # interleaved, so a burst of load spreads over both modes
            for name, command in modes:
                results.setdefault(name, []).append(once(command))
        counts = {name: instructions(command) for name, command in modes} if arguments.instructions else {}

    print(f"\nunderstudy run of a one-scenario file ({arguments.runs} runs each, medians; {binary})\n")
    print(f"{'mode':<14}  {'wall':>9}  {'cpu':>9}  {'page faults':>11}" + ("  instructions" if counts else ""))
    medians = {}
    for name, _ in modes:
        walls, cpus, faults = zip(*results[name])
        medians[name] = statistics.median(walls)
        line = (f"{name:<14}  {medians[name] * 1000:>6.1f} ms  {statistics.median(cpus) * 1000:>6.1f} ms"
                f"  {statistics.median(faults):>11,.0f}")
        if counts:
            line += f"  {counts[name]:>12,}"
        print(line)
    ratio = medians["workers"] / medians["--in-process"]
    print(f"\nworkers / --in-process: {ratio:.2f}x (target ≤ 1.3x); workers: {medians['workers'] * 1000:.1f} ms "
          f"(target ≤ 15 ms)")


if __name__ == "__main__":
    main()
