#!/usr/bin/python3
"""A sweep stopped by SIGTERM (what Slurm and mpirun send before they kill a job) at a random moment
keeps every case it showed done (also when it writes its file's cases while they run): it exits 143 with "interrupted: N of M cases saved", N is at least
the last progress count it printed, a rerun of the same command loads exactly those N cases, counts
its progress from them (the whole sweep, not the remainder), and ends with the results of an
uninterrupted run; a continuation line stops between two of its cases. SIGINT and SIGUSR1 stop it
the same way (exit 130 and 138). With MPIEXEC given,
the same under mpirun on 3 ranks (every rank flushes; none hangs waiting for another); with cases
longer than mpirun's grace before its SIGKILL, every case shown done is still saved; SIGUSR1 to mpirun
is forwarded and mpirun exits 138.

usage: test_signal_resume.py VIBRO_BINARY REPO_ROOT [MPIEXEC] [--seed N]

The checkpoints flush only every 100 s here, so a case survives the signal only through the flush
the signal itself triggers. Exits 1 on any failure.
"""
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_kill_resume import cases, same  # noqa: E402  (the /cases datasets of a file, compared bytewise)

FAILURES = []
PROGRESS = re.compile(r"(\d+) / (\d+) cases")
SAVED = re.compile(r"interrupted: (\d+) of (\d+) cases saved in (\S+)\.ckpt\.\*; rerun the same command to resume")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")  # containers run as root
LOADED = re.compile(r"resuming \S+: (\d+) of (\d+) cases loaded")


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail[-1500:]), flush=True)
    return condition


class Watched:
    """A run whose stderr is read as it comes, so the test can act on its progress line."""

    def __init__(self, command, cwd):
        self.process = subprocess.Popen(command, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.text = ""
        self.reader = threading.Thread(target=self._read)
        self.reader.start()

    def _read(self):
        for chunk in iter(lambda: os.read(self.process.stderr.fileno(), 4096), b""):
            self.text += chunk.decode(errors="replace")

    def shown(self):
        """The cases done by the last progress line printed so far (0 before the first)."""
        counts = PROGRESS.findall(self.text)
        return int(counts[-1][0]) if counts else 0

    def wait(self, timeout=120):
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            check(False, "the run ended within %d s" % timeout, self.text)
        self.reader.join()
        return self.process.returncode


def interrupt(command, cwd, sig, after_cases, not_before=0.0, limit_seconds=60):
    """Starts `command`, sends `sig` once its progress line shows `after_cases` done (and `not_before`
    seconds have passed); returns (exit code, last progress count shown, stderr)."""
    run = Watched(command, cwd)
    started = time.time()
    while run.process.poll() is None and (run.shown() < after_cases or time.time() < started + not_before) \
            and time.time() < started + limit_seconds:
        time.sleep(0.01)
    running = check(run.process.poll() is None, "the run was still going at %d cases" % after_cases, run.text)
    if running:
        run.process.send_signal(sig)
    rc = run.wait()
    return rc, run.shown(), run.text


def stop_and_resume(label, command, cwd, reference, output, after_cases, expected_rc, exact_total=True, not_before=0.0):
    rc, shown, text = interrupt(command, cwd, signal.SIGTERM, after_cases, not_before)
    if expected_rc is not None:
        check(rc == expected_rc, "%s: SIGTERM exits %d" % (label, expected_rc), "rc=%s %s" % (rc, text))
    saved = SAVED.search(text)
    if not check(saved is not None, "%s: the interrupted message" % label, text):
        return
    n, m = int(saved.group(1)), int(saved.group(2))
    print("%s: SIGTERM after %d cases shown: %d of %d saved" % (label, shown, n, m), flush=True)
    check(0 < shown <= n < m, "%s: every case shown done is saved (shown %d <= saved %d < %d)" % (label, shown, n, m))
    check(not os.path.exists(output), "%s: no final file after an interrupt" % label)
    check(not os.path.exists(output + ".partial"), "%s: no partial file after an interrupt" % label)
    resumed = subprocess.run(command, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)
    check(resumed.returncode == 0, "%s: the rerun completes" % label, resumed.stderr)
    loaded = LOADED.search(resumed.stderr)
    if check(loaded is not None, "%s: the rerun resumes" % label, resumed.stderr):
        check(int(loaded.group(1)) == n, "%s: the rerun loads exactly the %d saved cases" % (label, n), loaded.group(0))
    counts = [int(c[0]) for c in PROGRESS.findall(resumed.stderr)]
    if check(bool(counts), "%s: the rerun shows progress" % label, resumed.stderr):
        # Under MPI rank 0 hears of the other ranks' last cases only after its own line is done.
        last_ok = counts[-1] == m if exact_total else n < counts[-1] <= m
        check(counts[0] > n and last_ok, "%s: the rerun's progress counts the whole sweep (first %d > %d loaded, last %d, "
              "of %d)" % (label, counts[0], n, counts[-1], m))
    check(same(cases(reference), cases(output)), "%s: the resumed file equals the uninterrupted run" % label)


def loaded_by_rerun(command, cwd):
    """How many cases a rerun of `command` loads from the checkpoints (the rerun is stopped there)."""
    rerun = subprocess.Popen(command, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in rerun.stderr:
        loaded = LOADED.search(line)
        if loaded:
            break
    rerun.kill()
    rerun.wait()
    rerun.stderr.close()
    return int(loaded.group(1)) if loaded else None


def mpirun_grace(vibro, ini, settings, mpiexec, tmp, rng):
    """mpirun (OpenMPI 4) answers its own SIGTERM with SIGCONT to every rank, SIGTERM 1 s later and
    SIGKILL 1 s after that, and exits 1 whatever the ranks do. With cases of about 2 s the ranks are
    killed mid-case: every case shown done must still be on disk (each rank writes every case as it
    finishes once a stop signal came). SIGUSR1 is forwarded at once, and mpirun reports the ranks'
    exit code, 138."""
    output = os.path.join(tmp, "grace.h5")
    long_cases = ["--run.max_periods=1000000" if a.startswith("--run.max_periods=") else a for a in settings]
    single = [vibro, "run", ini, "--output.file=" + output, "--run.threads=1"] + long_cases
    command = [mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none"] + single
    started = time.time()
    rc, shown, text = interrupt(command, tmp, signal.SIGTERM, rng.randint(1, 2), limit_seconds=90)
    n = loaded_by_rerun(single, tmp)
    print("2 ranks, cases of about 2 s: SIGTERM to mpirun after %d cases shown: mpirun exit %s after %.1f s, "
          "%s saved, interrupted message %s" % (shown, rc, time.time() - started, n, SAVED.search(text) is not None),
          flush=True)
    check(n is not None and shown <= n, "mpirun's SIGKILL: every case shown done is saved (shown %d, saved %s)"
          % (shown, n), text)
    for name in os.listdir(tmp):
        if name.startswith("grace.h5"):
            os.remove(os.path.join(tmp, name))
    # 800 periods a case, as the 3-rank run: with 200, two idle cores finish the sweep before the
    # signal's earliest moment (1 s).
    longer = ["--run.max_periods=800" if a.startswith("--run.max_periods=") else a for a in settings]
    command = [mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none", vibro, "run", ini,
               "--output.file=" + output, "--run.threads=1"] + longer
    rc, shown, text = interrupt(command, tmp, signal.SIGUSR1, rng.randint(50, 200), not_before=1.0)
    saved = SAVED.search(text)
    check(rc == 138 and saved is not None and int(saved.group(1)) >= shown,
          "SIGUSR1 to mpirun: forwarded, exit 138 with the interrupted message", "rc=%s %s" % (rc, text[-800:]))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else random.randrange(1 << 30)
    rng = random.Random(seed)
    vibro, root = os.path.abspath(args[0]), os.path.abspath(args[1])
    mpiexec = args[2] if len(args) > 2 and not args[2].isdigit() else None
    ini = os.path.join(root, "examples", "conveyor_fig6.ini")  # cut to 51 x 11 = 561 cases
    settings = ["--axes.z0", "linspace(0, 0.005, 11)", "--run.steady_state", "fixed", "--run.max_periods=200",
                "--run.window_periods=20",
                "--output.checkpoint_seconds=100", "--run.progress_seconds=0.05", "--run.progress=always"]
    print("seed %d" % seed, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        reference = os.path.join(tmp, "reference.h5")
        started = time.time()
        done = subprocess.run([vibro, "run", ini, "--output.file=" + reference, "--run.progress=never"] + settings[:-1],
                              cwd=tmp, capture_output=True, text=True, timeout=300)
        check(done.returncode == 0, "the uninterrupted run", done.stderr)
        print("uninterrupted: %.2f s" % (time.time() - started), flush=True)

        output = os.path.join(tmp, "stopped.h5")
        command = [vibro, "run", ini, "--output.file=" + output, "--run.threads=2"] + settings
        stop_and_resume("one rank", command, tmp, reference, output, rng.randint(50, 300), 143)

        # Without stored stroboscopic points the run writes its file's cases while they run
        # (output.stream_cases): stopped, it leaves no partial file, and its rerun (from the logs) ends
        # with the file of an uninterrupted, streamed run.
        no_points = ["--output.strobe_points=none"]
        streamed_reference = os.path.join(tmp, "streamed_reference.h5")
        done = subprocess.run([vibro, "run", ini, "--output.file=" + streamed_reference, "--run.progress=never"]
                              + settings[:-1] + no_points, cwd=tmp, capture_output=True, text=True, timeout=300)
        check(done.returncode == 0 and "its cases written while they ran" in done.stdout,
              "the uninterrupted run without points writes its cases while they run", done.stdout + done.stderr)
        streamed = os.path.join(tmp, "streamed.h5")
        stop_and_resume("one rank, cases written while they run", [vibro, "run", ini, "--output.file=" + streamed,
                        "--run.threads=2"] + settings + no_points, tmp, streamed_reference, streamed,
                        rng.randint(50, 300), 143)

        # A continuation sweep of one line (316 cases, each from the previous one's final state) stops
        # between two of its cases, not at the end of the line, and resumes from the last saved one.
        line_ini = os.path.join(root, "examples", "gap_oscillator_fig4.ini")
        line_settings = ["--output.checkpoint_seconds=100", "--run.progress=always", "--run.progress_seconds=0.05"]
        line_reference = os.path.join(tmp, "line_reference.h5")
        done = subprocess.run([vibro, "run", line_ini, "--output.file=" + line_reference] + line_settings, cwd=tmp,
                              capture_output=True, text=True, timeout=300)
        check(done.returncode == 0, "the uninterrupted continuation run", done.stderr)
        line = os.path.join(tmp, "line.h5")
        stop_and_resume("continuation line", [vibro, "run", line_ini, "--output.file=" + line] + line_settings, tmp,
                        line_reference, line, rng.randint(20, 200), 143)

        # SIGINT (Ctrl-C) and SIGUSR1 (Slurm's warning) stop it the same way, with their own exit codes.
        for sig, code in ((signal.SIGINT, 130), (signal.SIGUSR1, 138)):
            other = os.path.join(tmp, "other.h5")
            rc, shown, text = interrupt([vibro, "run", ini, "--output.file=" + other] + settings, tmp, sig,
                                        rng.randint(20, 200))
            saved = SAVED.search(text)
            check(rc == code and saved is not None and int(saved.group(1)) >= shown,
                  "%s exits %d with the interrupted message" % (sig.name, code), "rc=%s %s" % (rc, text[-600:]))
            for name in os.listdir(tmp):
                if name.startswith("other.h5"):
                    os.remove(os.path.join(tmp, name))

        if mpiexec:
            # mpirun forwards SIGTERM to every rank, 1 s late (its own exit code is 1: not checked), or
            # kills the job while it is still starting it: a longer sweep (its own reference) and a
            # signal no earlier than 1 s keep it landing mid-sweep. 8000 periods a case: with 2000 the
            # three ranks (2 cores) finished all 561 cases in about 1.4 s once mpirun started in 0.4 s
            # (PMIX_MCA_psec=native) and the event polish took Halley steps, before the signal landed.
            longer = ["--run.max_periods=8000" if s.startswith("--run.max_periods=") else s for s in settings]
            mpi_reference = os.path.join(tmp, "mpi_reference.h5")
            done = subprocess.run([vibro, "run", ini, "--output.file=" + mpi_reference] + longer, cwd=tmp,
                                  capture_output=True, text=True, timeout=300)
            check(done.returncode == 0, "the uninterrupted run of 8000 periods", done.stderr)
            output = os.path.join(tmp, "mpi.h5")
            command = [mpiexec, "-np", "3", "--oversubscribe", "--bind-to", "none", vibro, "run", ini,
                       "--output.file=" + output, "--run.threads=1"] + longer
            stop_and_resume("3 ranks", command, tmp, mpi_reference, output, rng.randint(100, 250), None,
                            exact_total=False, not_before=1.0)
            mpirun_grace(vibro, ini, settings, mpiexec, tmp, rng)
    print("ok" if not FAILURES else "%d failures (seed %d)" % (len(FAILURES), seed))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
