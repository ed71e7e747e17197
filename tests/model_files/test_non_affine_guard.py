#!/usr/bin/python3
"""A guard that is not affine in the state (examples/models/pendulum_wall.vibro: a forced pendulum whose
bob hits a wall where L sin(theta) = d): vibro follows it with an auxiliary state, `vibro describe`
says so for that guard (and "certified" for the affine ones of another file), and the impact times of
`vibro trace` agree with an independent event-driven solution (scipy's DOP853 at rtol 1e-13 with
its own event location on L sin(theta) - d, restarted after each impact) to 1e-8 over 10 periods,
and so do the Floquet multipliers of a period-1 orbit (finite differences of scipy's one-period map,
to 1e-6), the auxiliary state adding exp(-4 pi).
Also refused with FILE:LINE:COL: a rest on a non-affine stop (tests/model_files/test_curved_stop.py runs
one without), and a non-affine guard reading a state that a reset changes. And a file's checks of a case's start: the `require` line (a sweep whose every case
starts beyond the wall is refused naming it; in one where some do, those are recorded infeasible),
and a start beyond a stop (the impact oscillator's file), the same way.

usage: test_non_affine_guard.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import math
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from check_log import check, exit_code  # noqa: E402

VIBRO, REPO = (os.path.abspath(a) for a in sys.argv[1:3])
MODEL = os.path.join(REPO, "examples", "models", "pendulum_wall.vibro")


def vibro(*args, cwd=None):
    return subprocess.run([VIBRO, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def reference_run(zeta, a, w, length, d, r, periods, start=(0.0, 0.0)):
    """Impact times of the pendulum against the wall from `start` at t = 0, and the state at the end."""
    def field(t, y):
        return [y[1], a * math.cos(w * t) - 2 * zeta * y[1] - math.sin(y[0])]

    def wall(t, y):
        return length * math.sin(y[0]) - d
    wall.terminal, wall.direction = True, 1
    t, y, end, times = 0.0, list(start), periods * 2 * math.pi / w, []
    while t < end:
        s = solve_ivp(field, (t, end), y, method="DOP853", rtol=1e-13, atol=1e-14, events=wall)
        t, y = s.t[-1], list(s.y[:, -1])
        if s.status != 1:
            break
        t, y = s.t_events[0][0], list(s.y_events[0][0])
        y[1] = -r * y[1]
        times.append(t)
    return times, np.array(y)


def reference_impacts(*args):
    return reference_run(*args)[0]


def reference_multipliers(state, a, h=1e-6):
    """Eigenvalues of the one-period map's Jacobian at `state` (central differences)."""
    columns = []
    for k in range(2):
        step = np.zeros(2)
        step[k] = h
        plus = reference_run(0.05, a, 0.9, 1.0, 0.5, 0.8, 1, state + step)[1]
        minus = reference_run(0.05, a, 0.9, 1.0, 0.5, 0.8, 1, state - step)[1]
        columns.append((plus - minus) / (2 * h))
    return np.linalg.eigvals(np.array(columns).T)


def line_of(text, start):
    """The 1-based line of the file's first line that starts (indentation aside) with `start`."""
    return next(i + 1 for i, line in enumerate(text.splitlines()) if line.strip().startswith(start))


def main():
    with open(MODEL) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        r = vibro("describe", MODEL)
        check(r.returncode == 0, "vibro describe of the pendulum file", r.stderr)
        wall = [line for line in r.stdout.splitlines() if line.strip().startswith("wall:")]
        check(len(wall) == 1 and "not affine" in wall[0] and "z_wall" in wall[0] and "integration error" in wall[0],
              "describe says the wall guard is followed by an auxiliary state", "\n".join(wall) or r.stdout[-1500:])
        r = vibro("describe", os.path.join(REPO, "examples", "models", "impact_oscillator.vibro"))
        check("certified event location" in r.stdout, "describe says an affine guard's location is certified", r.stdout[-1500:])

        periods = 10
        ini = os.path.join(tmp, "pendulum.ini")
        with open(ini, "w") as f:
            f.write("model = %s\n[run]\nmax_periods = 100\n" % MODEL)
        r = vibro("trace", ini, "--case", "0", "--periods", str(periods), "--csv", "--out", os.path.join(tmp, "trace.h5"))
        check(r.returncode == 0, "vibro trace of the pendulum file", r.stderr[-2000:])
        if r.returncode == 0:
            with open(os.path.join(tmp, "trace_events.csv")) as f:
                header = f.readline().strip().split(",")
                rows = [line.strip().split(",") for line in f]
            times = [float(row[0]) for row in rows if row[1] == "switch to swing"]
            expected = reference_impacts(0.05, 0.6, 0.9, 1.0, 0.5, 0.8, periods)
            print("  impacts: vibro %d, scipy %d; header %s" % (len(times), len(expected), header), flush=True)
            check(len(expected) >= 5 and len(times) == len(expected), "as many impacts as the independent solution",
                  "%d vs %d: %s" % (len(times), len(expected), rows[:5]))
            if times and len(times) == len(expected):
                worst = max(abs(a - b) for a, b in zip(times, expected))
                print("  largest impact-time difference from scipy: %.3g" % worst, flush=True)
                check(worst <= 1e-8, "impact times agree with the independent solution to 1e-8", "%g" % worst)

        # Floquet multipliers of the period-1 orbit at A = 0.6: the system's pair as an independent
        # finite-difference Jacobian of scipy's one-period map gives them, and the auxiliary state's
        # exp(-4 pi).
        ini = os.path.join(tmp, "floquet.ini")
        with open(ini, "w") as f:
            f.write("model = %s\n[parameters]\nA = 0.6\n[run]\nmax_periods = 200\n[output]\nfloquet = true\n" % MODEL)
        out = os.path.join(tmp, "floquet.h5")
        r = vibro("run", ini, "--output.file=" + out, "--run.progress=never")
        check(r.returncode == 0, "a sweep of the pendulum file with Floquet multipliers", r.stderr[-1500:])
        if r.returncode == 0:
            with h5py.File(out, "r") as h5:
                found = h5["cases/floquet/real"][0] + 1j * h5["cases/floquet/imag"][0]
                state = h5["cases/strobe/values"][-1][:2]
            auxiliary = found[np.argmin(np.abs(found))]
            own = sorted(found[np.abs(found) > 1e-3], key=lambda m: m.imag)
            expected = sorted(reference_multipliers(np.array(state, dtype=float), 0.6), key=lambda m: m.imag)
            worst = max(abs(x - y) for x, y in zip(own, expected)) if len(own) == len(expected) == 2 else np.inf
            print("  multipliers: vibro %s, scipy %s, largest difference %.3g; auxiliary %.6g" % (own, expected, worst, abs(auxiliary)))
            check(worst <= 1e-6, "the orbit's multipliers agree with the independent finite-difference ones to 1e-6", "%g" % worst)
            check(abs(auxiliary - math.exp(-4 * math.pi)) <= 1e-9, "the auxiliary state adds the multiplier exp(-4 pi)", str(auxiliary))

        # The requirement: every case beyond the wall refuses the sweep; some beyond it are infeasible.
        ini = os.path.join(tmp, "beyond.ini")
        with open(ini, "w") as f:
            f.write("model = %s\n[axes]\ntheta0 = 0.6, 0.7\n[run]\nmax_periods = 100\n" % MODEL)
        r = vibro("run", ini, "--output.file=" + os.path.join(tmp, "beyond.h5"))
        check(r.returncode == 2 and "pendulum_wall.vibro:%d:1: the bob starts beyond the wall" % line_of(text, "require") in r.stderr,
              "a sweep whose every case starts beyond the wall is refused naming the requirement", r.stderr[-1500:])
        ini = os.path.join(tmp, "some.ini")
        with open(ini, "w") as f:
            f.write("model = %s\n[axes]\ntheta0 = 0, 0.2, 0.7\n[run]\nmax_periods = 100\n" % MODEL)
        out = os.path.join(tmp, "some.h5")
        r = vibro("run", ini, "--output.file=" + out, "--run.progress=never")
        check(r.returncode == 0, "a sweep where some cases start beyond the wall runs", r.stderr[-1500:])
        if r.returncode == 0:
            with h5py.File(out, "r") as h5:
                status = h5["cases/status"][...]
                reasons = [x.decode() if isinstance(x, bytes) else x for x in h5["cases/reason"][...]]
            check(list(status) == [0, 0, 1] and "the bob starts beyond the wall" in reasons[2],
                  "the case beyond the wall is recorded infeasible with the requirement's message", "%s %s" % (status, reasons))

        # The stops: a sweep whose every case starts beyond the impact oscillator's stop is refused
        # naming the stop's line; where some do, those are infeasible.
        impact = os.path.join(REPO, "examples", "models", "impact_oscillator.vibro")
        with open(impact) as f:
            stop_line = line_of(f.read(), "stop stop")
        for label, values, expect in (("every", "0.6, 0.7", 2), ("some", "0.2, 0.7", 0)):
            ini = os.path.join(tmp, "stop_%s.ini" % label)
            with open(ini, "w") as f:
                f.write("model = %s\n[axes]\nx0 = %s\n[run]\nmax_periods = 100\n" % (impact, values))
            out = os.path.join(tmp, "stop_%s.h5" % label)
            r = vibro("run", ini, "--output.file=" + out, "--run.progress=never")
            if expect == 2:
                check(r.returncode == 2 and "impact_oscillator.vibro:%d:3: the initial state lies beyond stop 'stop'" % stop_line in r.stderr,
                      "a sweep whose every case starts beyond a stop is refused naming the stop", r.stderr[-1500:])
            else:
                check(r.returncode == 0, "a sweep where some cases start beyond a stop runs", r.stderr[-1500:])
                if r.returncode == 0:
                    with h5py.File(out, "r") as h5:
                        status = list(h5["cases/status"][...])
                    check(status == [0, 1], "the case beyond the stop is recorded infeasible", str(status))

        # Guards that cannot be followed by an auxiliary state, refused with FILE:LINE:COL.
        bad = {
            "stop that may rest": (text.replace("switch wall: L*sin(theta) rises above d -> swing  reset omega = -r*omega",
                                                "stop wall: L*sin(theta) <= d  restitution r"),
                                   "a rest on such a stop is not supported"),
            "reads a reset state": (text.replace("L*sin(theta) rises above d", "L*sin(theta) + omega*omega rises above d"),
                                    "reads omega, which the reset of switch 'wall' changes"),
        }
        for label, (body, message) in bad.items():
            path = os.path.join(tmp, "bad.vibro")
            with open(path, "w") as f:
                f.write(body)
            r = vibro("describe", path)
            check(r.returncode == 2 and "bad.vibro:%d:" % line_of(text, "switch wall") in r.stderr and message in r.stderr,
                  "a non-affine %s is refused with FILE:LINE:COL" % label, r.stderr[-800:])
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
