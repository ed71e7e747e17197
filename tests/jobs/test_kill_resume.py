#!/usr/bin/python3
"""A sweep killed with SIGKILL at 10 random moments and resumed each time ends with exactly the
results of an uninterrupted run, and no checkpointed case is ever computed twice.

usage: test_kill_resume.py VIBRO_BINARY REPO_ROOT [SEED]

Also: a checkpoint of a different sweep is refused with a clear message, `--resume OUT.h5` alone
continues a sweep, a sweep without stroboscopic points (whose log keeps no final states) resumes to
the uninterrupted results, and a continuation line killed in its middle resumes from its last saved case. Exits 1 on any failure.
"""
import os
import random
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time

import h5py

FAILURES = []


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail))


def cases(path):
    with h5py.File(path, "r") as h5:
        out = {}
        h5["cases"].visititems(lambda name, obj: out.__setitem__(name, obj[...]) if isinstance(obj, h5py.Dataset) else None)
    out.pop("wall_seconds", None)
    return out


def same(a, b):
    if a.keys() != b.keys():
        return False
    for key in a:
        x, y = a[key], b[key]
        if x.dtype.kind == "O":
            if list(x) != list(y):
                return False
        elif x.shape != y.shape or x.tobytes() != y.tobytes():
            return False
    return True


MAGIC_SIZE = len(b"VIBRO-CHECKPOINT-10\n")
FRAME_SIZE = 8 + 3 * 8  # marker, then run id, payload size and checksum (uint64 each)


def whole_records(log):
    """How many whole records (the header first, then batches) the log holds now.

    A record is whole once its frame and all of its payload are on disk: a reader polling the file's
    size can see a record half written (the header of a long sweep file is over 4 KiB and reaches the
    disk in several writes), so counting on sizes alone once killed a run before its first batch.
    """
    records, offset = 0, MAGIC_SIZE
    with open(log, "rb") as f:
        data = f.read()
    while offset + FRAME_SIZE <= len(data):
        payload = struct.unpack_from("<Q", data, offset + 16)[0]
        if offset + FRAME_SIZE + payload > len(data):
            break
        records += 1
        offset += FRAME_SIZE + payload
    return records


def kill_after_first_batch(process, output, limit_seconds):
    """SIGKILL the run once its checkpoint log holds its header and at least one whole batch of cases.

    Waiting on the log, not on a fraction of the reference duration, keeps the test deterministic on a
    loaded machine (a fixed sleep once fired before the first flush, leaving nothing to resume).
    """
    log = output + ".ckpt.0"
    deadline = time.time() + limit_seconds
    while time.time() < deadline and process.poll() is None:
        if os.path.exists(log) and whole_records(log) >= 2:
            break
        time.sleep(0.005)
    check(process.poll() is None, "the run was still going when its first batch was flushed", output)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    ini = os.path.join(root, "examples", "conveyor_fig6.ini")
    settings = ["--run.steady_state=fixed", "--run.max_periods=800", "--output.checkpoint_seconds=0.1"]
    with tempfile.TemporaryDirectory() as tmp:
        reference = os.path.join(tmp, "reference.h5")
        started = time.time()
        subprocess.run([vibro, "run", ini, "--output.file=" + reference] + settings, cwd=tmp, check=True,
                       capture_output=True)
        duration = time.time() - started
        out = os.path.join(tmp, "killed.h5")
        run = [vibro, "run", ini, "--output.file=" + out, "--output.keep_checkpoints=true"] + settings
        kills = 0
        completed = False
        for attempt in range(10):
            process = subprocess.Popen(run, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(rng.uniform(0.03, 0.15) * duration)  # kills land mid-sweep, at random moments
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                kills += 1
            process.wait()
            if not completed:  # the final file appears only when a run completes (written, then renamed)
                check(process.returncode == 0 or not os.path.exists(out), "a killed run leaves no final file", out)
            completed = completed or process.returncode == 0
        print("killed %d of 10 attempts (sweep takes %.2f s uninterrupted)" % (kills, duration))
        check(kills >= 5, "most attempts were killed mid-sweep", str(kills))
        final = subprocess.run(run, cwd=tmp, capture_output=True, text=True)
        check(final.returncode == 0, "the last resume completes", final.stderr)
        check(same(cases(reference), cases(out)), "the resumed file equals the uninterrupted run (all /cases datasets)")
        # Every flushed case was loaded on resume, never recomputed: the logs hold no duplicate.
        again = subprocess.run(run + ["--output.overwrite=true"], cwd=tmp, capture_output=True, text=True)
        m = re.search(r"(\d+) of (\d+) cases loaded.*?; (\d+) duplicates", again.stderr)
        check(m is not None, "the resume message reports loaded cases and duplicates", again.stderr)
        if m:
            print("after completion: %s of %s cases in the checkpoints, %s duplicates" % m.groups())
            check(m.group(1) == m.group(2), "every case is in the checkpoints")
            check(m.group(3) == "0", "no checkpointed case was computed twice")

        # --resume OUT.h5 alone: kill once more on a fresh output, then resume by file name.
        fresh = os.path.join(tmp, "fresh.h5")
        process = subprocess.Popen([vibro, "run", ini, "--output.file=" + fresh] + settings, cwd=tmp,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kill_after_first_batch(process, fresh, 20 * duration)
        resumed = subprocess.run([vibro, "run", "--resume", fresh], cwd=tmp, capture_output=True, text=True)
        check(resumed.returncode == 0 and "resuming" in resumed.stderr, "--resume OUT.h5 continues the sweep",
              resumed.stderr)
        check(same(cases(reference), cases(fresh)), "--resume gives the uninterrupted results")
        check(not [f for f in os.listdir(tmp) if f.startswith("fresh.h5.ckpt")], "checkpoints removed after success")

        # Without stroboscopic points nothing restarts from a case's final state: the log drops them
        # (a smaller record), and a resume from it still gives the uninterrupted results.
        bare = ["--output.strobe_points=none"]
        bare_reference = os.path.join(tmp, "bare_reference.h5")
        subprocess.run([vibro, "run", ini, "--output.file=" + bare_reference] + settings + bare, cwd=tmp, check=True,
                       capture_output=True)
        bare_out = os.path.join(tmp, "bare.h5")
        bare_run = [vibro, "run", ini, "--output.file=" + bare_out, "--output.keep_checkpoints=true"] + settings + bare
        process = subprocess.Popen(bare_run, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kill_after_first_batch(process, bare_out, 20 * duration)
        resumed = subprocess.run(bare_run, cwd=tmp, capture_output=True, text=True)
        m = re.search(r"(\d+) of (\d+) cases loaded", resumed.stderr)
        check(resumed.returncode == 0 and m is not None and 0 < int(m.group(1)) < int(m.group(2)),
              "a sweep without stroboscopic points killed mid-sweep resumes with part of it saved", resumed.stderr)
        check(same(cases(bare_reference), cases(bare_out)), "the resumed sweep without stroboscopic points equals the uninterrupted one")
        # Its log holds no final states: about 100 bytes a case (the conveyor's observables, counters
        # and class), where a final state alone adds some 80.
        per_case = os.path.getsize(bare_out + ".ckpt.0") / int(m.group(2)) if m else 0
        print("log bytes a case: %.0f without stroboscopic points" % per_case)
        check(0 < per_case < 150, "the log of a sweep without stroboscopic points keeps no final states", str(per_case))

        # A continuation line killed in its middle resumes from the last saved case's final state.
        line_ini = os.path.join(root, "examples", "gap_oscillator_fig4.ini")
        line_settings = ["--output.checkpoint_seconds=0.05"]
        line_reference = os.path.join(tmp, "line_reference.h5")
        subprocess.run([vibro, "run", line_ini, "--output.file=" + line_reference] + line_settings, cwd=tmp,
                       check=True, capture_output=True)
        line = os.path.join(tmp, "line.h5")
        process = subprocess.Popen([vibro, "run", line_ini, "--output.file=" + line] + line_settings, cwd=tmp,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kill_after_first_batch(process, line, 60)
        resumed = subprocess.run([vibro, "run", line_ini, "--output.file=" + line] + line_settings, cwd=tmp,
                                 capture_output=True, text=True)
        m = re.search(r"(\d+) of (\d+) cases loaded", resumed.stderr)
        check(resumed.returncode == 0 and m is not None and 0 < int(m.group(1)) < int(m.group(2)),
              "a continuation sweep killed mid-line resumes with part of its line saved", resumed.stderr)
        check(same(cases(line_reference), cases(line)), "the resumed continuation line equals the uninterrupted one")

        # A checkpoint of another sweep is refused before any work.
        other = os.path.join(tmp, "other.h5")
        process = subprocess.Popen([vibro, "run", ini, "--output.file=" + other] + settings, cwd=tmp,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kill_after_first_batch(process, other, 20 * duration)
        refused = subprocess.run([vibro, "run", ini, "--output.file=" + other, "--parameters.c_r=0.7"] + settings,
                                 cwd=tmp, capture_output=True, text=True)
        check(refused.returncode == 2 and "different sweep" in refused.stderr and "parameters.c_r" in refused.stderr,
              "a checkpoint of a different sweep is refused", refused.stderr)
        check(not os.path.exists(other), "nothing was written for the refused run")
    print("ok" if not FAILURES else "%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
