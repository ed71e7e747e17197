"""Every Catch2 test case runs under ctest, each exactly once, and a ctest test that names no test case fails.

catch_discover_tests makes one ctest test per test case, run as `vibro_tests "NAME" --warn NoTests`.
CMake splits a name at ';' (each half then matches nothing, and Catch2 alone would print "No tests ran"
and exit 0), so this compares the two lists: the test cases the binary holds and the names ctest runs.

usage: check_ctest_carries_catch_tests.py CTEST BUILD_DIR VIBRO_TESTS"""
import json
import os
import re
import subprocess
import sys

from check_log import FAILURES, check

ctest, build_dir, binary = sys.argv[1], sys.argv[2], os.path.realpath(sys.argv[3])

listed = subprocess.run([binary, "--list-test-names-only"], capture_output=True, text=True)
cases = [line for line in listed.stdout.splitlines() if line.strip()]
check(len(cases) > 0, "the test binary lists its test cases", listed.stderr)
for name in cases:
    check(";" not in name, f"test case name without ';' (CMake would split it): {name!r}")

shown = subprocess.run([ctest, "--test-dir", build_dir, "-N", "--show-only=json-v1"], capture_output=True, text=True)
check(shown.returncode == 0, "ctest lists its tests", shown.stderr)
runs = {}  # ctest test -> the test-case name it passes to the binary
for test in json.loads(shown.stdout)["tests"] if shown.returncode == 0 else []:
    command = test.get("command", [])
    if len(command) >= 2 and os.path.realpath(command[0]) == binary:
        runs[test["name"]] = re.sub(r"\\(.)", r"\1", command[1])  # catch_discover_tests escapes , [ ]
        check("--warn" in command and "NoTests" in command[command.index("--warn") + 1:][:1],
              f"ctest test {test['name']!r} runs with --warn NoTests", " ".join(command))

carried = {}
for test, name in runs.items():
    if name not in cases:
        check(False, f"ctest test {test!r} names a test case the binary holds", f"runs {name!r}")
    carried[name] = carried.get(name, 0) + 1
for name in cases:
    check(carried.get(name, 0) == 1, f"test case {name!r} is run by exactly one ctest test",
          f"run by {carried.get(name, 0)}")

# The guard this relies on: a name that matches no test case fails under --warn NoTests.
missing = subprocess.run([binary, "no test case has this name", "--warn", "NoTests"], capture_output=True, text=True)
check(missing.returncode != 0, "a name that matches no test case exits non-zero under --warn NoTests",
      f"rc {missing.returncode}: {missing.stdout.strip()}")

print(f"{len(cases)} test cases, {len(runs)} ctest tests run them; {len(FAILURES)} failure(s)")
sys.exit(1 if FAILURES else 0)
