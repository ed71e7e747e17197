#!/usr/bin/env python3
"""No case without a bound, no memory before the checks: the real binary on tiny sweeps.

usage: test_case_bounds.py VIBRO_BINARY

Each sweep holds parameters that are in range but ask for endless work (a flight of 1e100 periods,
a frequency of 1e-300 rad/s, millions of impacts a period, a stiff damping of 2^31 N s/m). Each must
end within seconds, exit 0, and record the case as failed (status 2) with the budget bound it ran
into, while a normal case of the same sweep is computed. Grids too large for memory or disk, and
subnormal parameter values, are refused up front (exit 2, the key or axes named). A case of 3 x 10^5
fixed-mode periods keeps its resident memory small (the steady-state history is bounded).

Python standard library plus h5py. Prints every failed check and exits 1 if there was one.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from check_log import FAILURES, check  # noqa: E402


def run(binary, folder, name, text, *overrides, timeout=60):
    """Runs a sweep; returns (exit code, stderr, seconds, statuses, reasons, peak RSS in MB)."""
    ini = os.path.join(folder, name + ".ini")
    out = os.path.join(folder, name + ".h5")
    with open(ini, "w") as f:
        f.write(text + "\n[run]\nprogress = never\nthreads = 1\n")
    started = time.monotonic()
    with open(os.path.join(folder, name + ".err"), "w+") as err_file:
        proc = subprocess.Popen([binary, "run", ini, "--output.file=" + out, *overrides], cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=err_file)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak memory
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        err_file.seek(0)
        err = err_file.read()
    seconds = time.monotonic() - started
    if seconds >= timeout:
        return 124, f"timed out after {timeout} s", seconds, [], [], 0
    rss_mb = usage.ru_maxrss / 1024
    statuses, reasons = [], []
    if proc.returncode == 0:
        with h5py.File(out, "r") as f:
            statuses = [int(s) for s in f["cases/status"][()]]
            reasons = [r.decode() if isinstance(r, bytes) else str(r) for r in f["cases/reason"][()]]
    return proc.returncode, err, seconds, statuses, reasons, rss_mb


def test_budget_ends_cases(binary, folder):
    # (name, sweep text, overrides, the budget key the failed case must name)
    runaways = [
        ("conveyor_g_1e-100", "model = conveyor\n[axes]\ng = 1e-100, 9.81", [], "run.max_steps_per_period"),
        ("conveyor_g_1e-300", "model = conveyor\n[axes]\ng = 1e-300, 9.81", [], "run.max_steps_per_period"),
        # 1e6 steps take about 10 s here: a tighter per-period bound keeps the test short.
        ("gap_omega_1e-300", "model = gap_oscillator\n[axes]\nomega = 1e-300, 6", ["--run.max_steps_per_period=20000"],
         "run.max_steps_per_period"),
        ("platform_omega_1e-300", "model = vibro_platform\n[axes]\nomega = 1e-300, 157", ["--run.case_wall_limit=0.5"],
         "run.case_wall_limit"),
        ("gap_m1_1", "model = gap_oscillator\n[parameters]\nlaw = restitution\n[axes]\nm1 = 1, 1000", [],
         "run.max_events_per_period"),
        ("balancer_c_y_2e31", "model = ball_balancer\n[axes]\nc_y = 2147483648, 2.23287", ["--run.max_steps_per_period=20000"],
         "run.max_steps_per_period"),
        ("balancer_k_x_1e-300", "model = ball_balancer\n[axes]\nk_x = 1e-300, 218.9085", ["--run.max_steps_per_period=20000"],
         "run.max_steps_per_period"),
        ("conveyor_lyapunov_1e6", "model = conveyor\n[output]\nlyapunov_periods = 1000000\n[axes]\na_hat = 50",
         ["--run.max_events=100000"], "run.max_events"),
    ]
    for name, text, overrides, key in runaways:
        rc, err, seconds, statuses, reasons, _ = run(binary, folder, name, text, "--run.max_periods=4",
                                                     "--run.window_periods=2", *overrides)
        if not check(rc == 0, f"{name}: the sweep finishes (exit 0)", f"rc={rc} {err[-400:]}"):
            continue
        check(seconds < 20, f"{name}: ends within 20 s", f"{seconds:.1f} s")
        check(statuses[0] == 2 and "case budget" in reasons[0] and key in reasons[0],
              f"{name}: the runaway case is recorded as failed naming {key}", f"{statuses} {reasons}")
        if len(statuses) > 1:
            check(statuses[1] == 0, f"{name}: the normal case of the same sweep is computed", f"{statuses} {reasons}")


def test_refused_up_front(binary, folder):
    refusals = [
        # (name, text, what the message must contain)
        ("two_1e9_axes", "model = conveyor\n[axes]\na_hat = linspace(1, 3, 1e9)\nf = linspace(10, 60, 1e9)",
         ["axes.a_hat (1000000000 values) x axes.f (1000000000 values)", "GB limit"]),
        ("grid_1000_cubed", "model = conveyor\n[axes]\na_hat = linspace(1, 3, 1000)\nf = linspace(10, 60, 1000)\n"
         "z0 = linspace(0, 0.001, 1000)", ["1e+09 cases", "split the sweep"]),
        ("axis_5e8", "model = conveyor\n[axes]\na_hat = linspace(1, 3, 5e8)", ["axes.a_hat (500000000 values)"]),
        # 1e8 cases of 51 stored points each: petabytes of checkpoints, more than any disk here.
        ("disk", "model = conveyor\n[axes]\na_hat = linspace(1, 3, 10000)\nz0 = linspace(0, 0.001, 10000)",
         ["output.file", "GB free"]),
        ("subnormal_k_x", "model = ball_balancer\n[parameters]\nk_x = 1e-320", ["parameters.k_x", "subnormal"]),
    ]
    for name, text, needles in refusals:
        rc, err, seconds, _, _, _ = run(binary, folder, name, text)
        check(rc == 2 and all(n in err for n in needles), f"{name}: refused with exit 2 naming {needles}",
              f"rc={rc} {err[-400:]}")
        check(seconds < 5, f"{name}: refused within 5 s, before any memory is spent", f"{seconds:.1f} s")
        check(not os.path.exists(os.path.join(folder, name + ".h5.ckpt.0")), f"{name}: no case started")


def test_history_bounded(binary, folder):
    # 3 x 10^5 periods of a conveyor in coupled motion (one cheap arc a period), fixed mode: the
    # history used to hold every period (384 bytes each: 115 MB more here; 10^6 periods peaked at
    # 401 MB); now about two windows of 51 samples.
    rc, err, seconds, statuses, _, rss_mb = run(binary, folder, "long", "model = conveyor\n[axes]\na_hat = 5",
                                                "--run.steady_state=fixed", "--run.max_periods=300000", timeout=120)
    check(rc == 0 and statuses == [0], "a 3 x 10^5-period case runs", f"rc={rc} {statuses} {err[-300:]}")
    check(rss_mb < 60, "its peak resident memory stays under 60 MB", f"{rss_mb:.0f} MB in {seconds:.1f} s")
    print(f"3 x 10^5-period case: {seconds:.1f} s, peak RSS {rss_mb:.0f} MB", flush=True)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="vibro_bounds_") as folder:
        for test in (test_refused_up_front, test_budget_ends_cases, test_history_bounded):
            before = len(FAILURES)
            test(binary, folder)
            print(f"{test.__name__}: {'ok' if len(FAILURES) == before else 'FAILED'}", flush=True)
    print(f"{len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
