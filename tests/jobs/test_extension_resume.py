#!/usr/bin/python3
"""The extension of unsettled cases (run.extend_unsettled) resumes like the grid: a run killed with
SIGKILL once the extension's log (OUT.h5.ckpt.extension) holds a batch of reruns, then rerun, loads
those reruns, runs on only what is left, and ends with the /cases and the extension tallies of an
uninterrupted run; SIGTERM during the extension stops it with exit 143 and a message naming the log,
and the rerun ends alike. A log of another extension budget is refused, naming run.extend_unsettled.

usage: test_extension_resume.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_kill_resume import FAILURES, cases, check, same, whole_records  # noqa: E402

# A corner of the conveyor's global continuation where most initial conditions end irregular after
# 100 periods: the extension runs them on 100 periods at a time, up to 1500 in all.
SETTINGS = ["--axes.a_hat=linspace(76,80,3)", "--axes.z0=linspace(0,0.005,6)", "--axes.v0=linspace(-0.3,0.3,6)",
            "--run.extend_unsettled=1500", "--run.threads=2", "--output.checkpoint_seconds=0.05"]
LOADED = re.compile(r"resuming the extension of unsettled cases: (\d+) rerun\(s\) loaded")


def tallies(path):
    with h5py.File(path, "r") as h5:
        return int(h5["basins"].attrs["extended_cases"]), int(h5["basins"].attrs["extension_runs"])


def stop_during_extension(command, cwd, output, sig, batches=1):
    """Starts `command`, sends `sig` once the extension's log holds its header and `batches` batches of
    reruns; returns (exit code, stderr)."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log = output + ".ckpt.extension"
    deadline = time.time() + 60
    while time.time() < deadline and process.poll() is None:
        if os.path.exists(log) and whole_records(log) >= 1 + batches:
            break
        time.sleep(0.005)
    alive = process.poll() is None
    check(alive, "the run was still extending when a batch of reruns was flushed", output)
    if alive:
        os.kill(process.pid, sig)
    _, err = process.communicate(timeout=60)
    return process.returncode, err.decode(errors="replace")


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    ini = os.path.join(root, "examples", "conveyor_global_continuation.ini")
    with tempfile.TemporaryDirectory() as tmp:
        reference = os.path.join(tmp, "reference.h5")
        started = time.time()
        subprocess.run([vibro, "run", ini, "--output.file=" + reference] + SETTINGS, cwd=tmp, check=True,
                       capture_output=True)
        print("uninterrupted: %.2f s, %d cases extended in %d runs" % ((time.time() - started,) + tallies(reference)))
        check(tallies(reference)[1] > 2 * tallies(reference)[0], "cases were extended over several rounds",
              str(tallies(reference)))
        # kill -9 some rounds in (the log is flushed at the end of every round and every 0.05 s), SIGTERM early
        for sig, name, batches in ((signal.SIGKILL, "kill -9", 5), (signal.SIGTERM, "SIGTERM", 1)):
            out = os.path.join(tmp, "stopped_%d.h5" % sig)
            run = [vibro, "run", ini, "--output.file=" + out] + SETTINGS
            code, err = stop_during_extension(run, tmp, out, sig, batches)
            if sig == signal.SIGTERM:
                check(code == 143 and "interrupted while running unsettled cases on" in err and ".ckpt.extension" in err,
                      "SIGTERM during the extension exits 143 naming its log", "%d %s" % (code, err))
            check(not os.path.exists(out), name + ": a run stopped while extending leaves no final file")
            resumed = subprocess.run(run, cwd=tmp, capture_output=True, text=True)
            m = LOADED.search(resumed.stderr)
            check(resumed.returncode == 0 and m is not None and int(m.group(1)) > 0,
                  name + ": the rerun loads the saved reruns", resumed.stderr)
            if m:
                print("%s: %s reruns loaded" % (name, m.group(1)))
            check(same(cases(reference), cases(out)), name + ": the resumed file's /cases equal the uninterrupted run's")
            check(tallies(reference) == tallies(out), name + ": the extension's tallies equal the uninterrupted run's",
                  "%s %s" % (tallies(reference), tallies(out)))
            check(not [f for f in os.listdir(tmp) if f.startswith(os.path.basename(out) + ".ckpt")],
                  name + ": the logs are removed once the file is written")
        # A log of another budget is refused before any work, naming the setting.
        out = os.path.join(tmp, "budget.h5")
        run = [vibro, "run", ini, "--output.file=" + out] + SETTINGS
        stop_during_extension(run, tmp, out, signal.SIGKILL)
        other_budget = [a.replace("=1500", "=1200") for a in run]
        refused = subprocess.run(other_budget, cwd=tmp, capture_output=True, text=True)
        check(refused.returncode == 2 and "run.extend_unsettled" in refused.stderr and "different sweep" in refused.stderr,
              "a log of another extension budget is refused", refused.stderr)
    print("ok" if not FAILURES else "%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
