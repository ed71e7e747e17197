#!/usr/bin/python3
"""What vibro writes, and what it refuses to touch (one tiny sweep, each run well under a second).

usage: test_file_safety.py VIBRO_BINARY REPO_ROOT

- The output target is checked before the first case: the sweep file itself, a directory, "", "/",
  ".", "..", a missing folder, a FIFO, a device, a symlink and a name with a newline are refused with
  exit 2 and nothing is written; an existing output is replaced only with --output.overwrite=true.
- A symlink (to a file outside the work folder) and a FIFO planted at each path vibro writes (OUT,
  OUT.partial, OUT.ckpt.0, and the batch script OUT.sbatch of `vibro submit`): the run is refused
  (exit 2) or finishes correctly, the link's target is untouched, and nothing hangs (every run has a
  timeout).
- A file that vibro did not write at OUT.ckpt.7 is left alone after success; one at OUT.ckpt.0 is
  refused, not truncated; a folder at OUT.ckpt.0 is an input error (exit 2).
- Resume: a complete checkpoint resumed with any result-changing run.*/output.* key changed (and a
  parameter and an axis) is refused with exit 2 naming that key; with a key that does not change
  results it is accepted. Every run.*/output.*/analysis.* key that `vibro --help` lists must be listed here.
Exits 1 on any failure.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
import time

FAILURES = []

SWEEP = """model = conveyor
[parameters]
f = 50
c_r = 0.6
[axes]
a_hat = linspace(30, 80, 4)
z0 = 0, 0.001
[run]
max_periods = 40
window_periods = 10
"""

# Alternative value of every run.*/output.*/analysis.* key and whether changing it must refuse the resume.
RESUME_KEYS = {
    "run.max_periods": ("60", True), "run.window_periods": ("12", True), "run.steady_state": ("fixed", True),
    "run.quasi_tol": ("1", True), "run.quasi_min_window": ("50", True), "run.means_window": ("30", True),
    "run.means_checks": ("2", True), "run.means_to_budget": ("true", True), "run.tol": ("1e-3", True),
    "run.adaptive_tol": ("1e-5", True), "run.max_period": ("8", True), "run.min_window": ("6", True),
    "run.min_periods": ("7", True), "run.continuation": ("a_hat", True), "run.direction": ("down", True),
    "output.strobe_points": ("none", True), "output.floquet": ("true", True), "output.shooting": ("true", True),
    "output.lyapunov_periods": ("3", True), "run.case_wall_limit": ("300", True), "run.max_steps_per_period": ("50000", True),
    "run.max_events_per_period": ("900", True), "run.max_steps": ("7000000", True), "run.max_events": ("800000", True),
    "parameters.c_r": ("0.7", True), "axes.z0": ("0, 0.002", True), "run.backend": ("batched", True),
    "run.threads": ("1", False), "run.progress": ("never", False), "run.progress_seconds": ("5", False), "run.batch_cases": ("7", False), "run.batch_periods": ("3", False), "output.block_cases": ("3", False),
    "output.checkpoint_seconds": ("2", False), "output.keep_checkpoints": ("true", False), "output.stream_cases": ("false", False),
    "output.overwrite": ("true", False), "output.file": (None, False),
    # a pass over the cases when the file is written: the checkpoint's cases are the same
    "analysis.global_continuation": ("a_hat", False), "analysis.match_distance": ("0.2", False),
    "analysis.match_across_classes": ("true", False), "analysis.match_by": ("basin_overlap", False),
    "analysis.match_period_doublings": ("false", False), "analysis.match_vanished": ("false", False),
    "analysis.match_period_changes": ("false", False), "analysis.match_extent_changes": ("false", False),
    "analysis.match_windows": ("false", False),
    "analysis.seed_directions": ("forward", False),
    # alone it can only be false (true needs global_continuation); a resume that turns seeding on is
    # tests/jobs/test_gap_oscillator_global_continuation.py's second run
    "analysis.seed_from_previous": ("false", False),
    # runs unsettled cases on when the file is written: the checkpoint's cases are the same
    "run.extend_unsettled": ("500", False),
    # a key of run.backend = null alone (a benchmark tool whose results are not the cases'): no resume to test
    "run.null_group_seconds": (None, False),
}


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail[-600:] if detail else ""))
    return condition


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as outside, tempfile.TemporaryDirectory() as tmp:
        ini = os.path.join(tmp, "s.ini")
        with open(ini, "w") as f:
            f.write(SWEEP)

        def run(*args, timeout=60):
            started = time.time()
            try:
                done = subprocess.run([vibro, "run", ini, *args], cwd=tmp, capture_output=True, text=True,
                                      timeout=timeout)
                if time.time() - started > 5:
                    print("slow (%.1f s): %s" % (time.time() - started, args))
                return done.returncode, done.stderr
            except subprocess.TimeoutExpired:
                return None, "timed out (hang)"

        rc, err = run("--output.file=ref.h5", "--output.keep_checkpoints=true")
        check(rc == 0, "the reference run completes", err)
        with open(os.path.join(tmp, "ref.h5"), "rb") as f:
            reference_size = len(f.read())
        logs = {}  # the complete checkpoint, for the resume checks
        for name in os.listdir(tmp):
            if name.startswith("ref.h5.ckpt."):
                with open(os.path.join(tmp, name), "rb") as f:
                    logs[name[len("ref.h5"):]] = f.read()
                os.remove(os.path.join(tmp, name))

        # The output target.
        os.mkdir(os.path.join(tmp, "folder"))
        os.mkfifo(os.path.join(tmp, "fifo.h5"))
        secret = os.path.join(outside, "secret.txt")
        with open(secret, "w") as f:
            f.write("keep me\n")
        os.symlink(secret, os.path.join(tmp, "link.h5"))
        for target in [ini, "s.ini", "./s.ini", "folder", "", "/", ".", "..", "folder/", "missing/x.h5",
                       "fifo.h5", "/dev/null", "link.h5", "a\nb.h5", "ref.h5"]:
            rc, err = run("--output.file=" + target)
            check(rc == 2 and "output" in err, "output.file=%r is refused with exit 2" % target, err)
        check(open(ini).read() == SWEEP, "the sweep file is unchanged")
        check(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is still a device")
        check(open(secret).read() == "keep me\n", "the symlink's target is untouched")
        check(not [n for n in os.listdir(tmp) if n.endswith((".partial",)) or ".ckpt." in n and not n.startswith("ref")],
              "refused runs leave no .partial or checkpoint", str(os.listdir(tmp)))
        rc, err = run("--output.file=ref.h5", "--output.overwrite=true")
        check(rc == 0, "--output.overwrite=true replaces an existing output", err)

        # A symlink and a FIFO at each path vibro writes.
        for suffix in ["", ".partial", ".ckpt.0"]:
            for kind in ["symlink", "fifo"]:
                out = "planted_%s%s.h5" % (kind, suffix.replace(".", "_"))
                path = os.path.join(tmp, out + suffix)
                if kind == "symlink":
                    os.symlink(secret, path)
                else:
                    os.mkfifo(path)
                rc, err = run("--output.file=" + out, timeout=30)
                finished = rc == 0 and os.path.getsize(os.path.join(tmp, out)) == reference_size
                check(rc == 2 or finished, "a %s at OUT%s: refused (exit 2) or finished correctly" % (kind, suffix),
                      "rc=%s %s" % (rc, err))
                check(rc is not None, "a %s at OUT%s does not hang" % (kind, suffix))
                check(open(secret).read() == "keep me\n", "a symlink at OUT%s: its target is untouched" % suffix)

        # The batch script `vibro submit` writes (OUT.sbatch): a link or FIFO there is refused, not followed.
        for kind in ["symlink", "fifo"]:
            out = "submit_%s.h5" % kind
            script = os.path.join(tmp, out + ".sbatch")
            if kind == "symlink":
                os.symlink(secret, script)
            else:
                os.mkfifo(script)
            try:
                done = subprocess.run([vibro, "submit", ini, "--output.file=" + out, "--nodes", "1", "--ntasks-per-node",
                                       "1", "--cpus-per-task", "1", "--time", "10", "--dry-run"], cwd=tmp,
                                      capture_output=True, text=True, timeout=30)
                rc, err = done.returncode, done.stderr
            except subprocess.TimeoutExpired:
                rc, err = None, "timed out (hang)"
            check(rc == 2 and "--script" in err, "a %s at OUT.sbatch: submit refuses it naming --script" % kind,
                  "rc=%s %s" % (rc, err))
            check(open(secret).read() == "keep me\n", "a symlink at OUT.sbatch: its target is untouched")

        # Checkpoint names holding files vibro did not write.
        foreign = b"not vibro's\n" * 10
        check(bool(logs), "the reference run kept its checkpoint")
        for rank, expect in [("7", 0), ("0", 2)]:
            out = "foreign%s.h5" % rank
            with open(os.path.join(tmp, out + ".ckpt." + rank), "wb") as f:
                f.write(foreign)
            rc, err = run("--output.file=" + out)
            check(rc == expect, "a foreign OUT.ckpt.%s: exit %d" % (rank, expect), err)
            with open(os.path.join(tmp, out + ".ckpt." + rank), "rb") as f:
                check(f.read() == foreign, "a foreign OUT.ckpt.%s is left as it was" % rank)
        os.mkdir(os.path.join(tmp, "dir.h5.ckpt.0"))
        rc, err = run("--output.file=dir.h5")
        check(rc == 2 and "dir.h5.ckpt.0" in err, "a folder at OUT.ckpt.0 is an input error naming it", err)

        # Resume with one key changed: a complete checkpoint (the reference's logs, output removed).
        listed = set(re.findall(r"^\s+((?:run|output|analysis)\.\w+)", subprocess.run([vibro, "--help"], capture_output=True,
                                                                               text=True).stdout, re.M))
        check(listed and listed <= set(RESUME_KEYS), "every run.*/output.*/analysis.* key is classified in this test",
              str(sorted(listed - set(RESUME_KEYS))))
        for key, (value, refused) in sorted(RESUME_KEYS.items()):
            if value is None:
                continue
            out = "resume.h5"
            if os.path.exists(os.path.join(tmp, out)):
                os.remove(os.path.join(tmp, out))
            for suffix, data in logs.items():
                with open(os.path.join(tmp, out + suffix), "wb") as g:
                    g.write(data)
            rc, err = run("--output.file=" + out, "--%s=%s" % (key, value))
            # output.shooting implies output.floquet: the first line that differs may be floquet's.
            named = key in err or (key == "output.shooting" and "output.floquet" in err)
            if refused:
                check(rc == 2 and "different sweep" in err and named,
                      "resuming with %s changed is refused naming it" % key, err)
            else:
                check(rc == 0 and "resuming" in err, "resuming with %s changed is accepted" % key, err)
    print("ok" if not FAILURES else "%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
