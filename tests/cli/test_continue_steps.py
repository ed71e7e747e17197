#!/usr/bin/env python3
"""vibro continue's default steps are relative to the range: a branch that reaches --to has at least 21
points (largest step |to - from| / 20) whether the range is 0.0011 of a frequency or 27.7 of one, and a
smooth branch over a wide range costs about that many; the events are located as before. --step and
--max-step are kept as given, the other chosen around a given one. A branch switched from a branch
file without --to is stepped relative to its own range, from its event to the file's end.

usage: test_continue_steps.py VIBRO_BINARY REPO_ROOT

Den Hartog's dry-friction oscillator (mu = 0.3, F = 1) from omega = 0.4816 down to 0.4805: sticking
sets in at 0.4814782470153 (2 -> 6 mode changes a period) and the orbit sticks at each reversal below
0.48072351597 (6 -> 4), both from the closed form (tests/dry_friction_oscillator). With the former
absolute defaults (first step 0.02, at most 0.1) this branch had 3 points and the wide one below 281.
"""
import os
import re
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli  # noqa: E402
from test_cli import check, new_dir, show, write  # noqa: E402

FLOOR = 21  # points of a branch that reaches --to: 20 largest steps of |to - from| / 20
STICKING_ONSET, STICK_AT_REVERSAL = 0.4814782470153, 0.48072351597
DRY_FRICTION = ("model = dry_friction_oscillator\n[parameters]\nmu = 0.3\nF = 1\nomega = 0.4816\n[initial]\nx0 = 1.2\n"
                "[run]\nmax_periods = 400\n[output]\nfile = df.h5\n")


def parameters(path):
    with h5py.File(path, "r") as f:
        return f["branch/parameter"][...]


def first_step_is(p, step):
    """The first accepted step is `step`, or `step` halved where the first try was refused (the first
    prediction has no secant yet: the last orbit's state)."""
    ratio = step / (p[1] - p[0])
    return any(abs(ratio - 2 ** k) < 1e-9 * 2 ** k for k in range(6))


def impact_oscillator_at(omega):
    with open(os.path.join(test_cli.REPO_ROOT, "examples", "impact_oscillator_continuation.ini")) as f:
        return f.read().replace("omega = 1.6", f"omega = {omega}")


def test_narrow_range(vibro, tmp):
    """0.0011 in omega with the default steps: at least 21 points, each step at most 1/20 of the range, and
    both mode changes within 1e-8 of the closed form, by either method."""
    d = new_dir(tmp, "narrow")
    ini = write(d, "df.ini", DRY_FRICTION)
    for method in ("natural", "arclength"):
        rc, out, err = vibro("continue", ini, "--parameter", "omega", "--to", "0.4805", "--method", method, cwd=d)
        check(rc == 0 and "reached the end of the range" in out, f"{method}: the window is continued to 0.4805",
              show(rc, out, err))
        p = parameters(os.path.join(d, "df.branch.h5"))
        check(len(p) >= FLOOR and p[-1] == 0.4805, f"{method}: at least {FLOOR} points over a range of 0.0011, "
              "ending at --to", str(p))
        check(np.max(np.abs(np.diff(p))) <= 0.0011 / 20 * (1 + 1e-9), f"{method}: no step above 0.0011 / 20",
              str(np.diff(p)))
        found = [float(x) for x in re.findall(r"mode_change at omega = ([0-9.]+)", out)]
        check(len(found) == 2 and abs(found[0] - STICKING_ONSET) < 1e-8 and abs(found[1] - STICK_AT_REVERSAL) < 1e-8,
              f"{method}: sticking sets in at {STICKING_ONSET} and sticks at each reversal at {STICK_AT_REVERSAL} "
              "(1e-8)", out)


def test_wide_range(vibro, tmp):
    """27.7 in omega (the impact oscillator's impact-free orbit from 2.3 to 30): a smooth branch, at least 21
    points and at most 30, where a step of at most 0.1 took 281."""
    d = new_dir(tmp, "wide")
    ini = write(d, "io.ini", impact_oscillator_at(2.3))
    rc, out, err = vibro("continue", ini, "--parameter", "omega", "--to", "30", "--output.file=io.h5", cwd=d)
    check(rc == 0 and "reached the end of the range" in out, "the impact-free orbit is continued to 30",
          show(rc, out, err))
    p = parameters(os.path.join(d, "io.branch.h5"))
    check(FLOOR <= len(p) <= 30, f"{FLOOR} to 30 points over a range of 27.7", f"{len(p)} points: {p}")
    check(np.max(np.diff(p)) <= 27.7 / 20 * (1 + 1e-9) and first_step_is(p, 27.7 / 50),
          "the first step 27.7 / 50 (halved where refused), none above 27.7 / 20", str(np.diff(p)))


def test_explicit_steps(vibro, tmp):
    """--step and --max-step are kept as given: together they step as before (3 points over the window);
    --max-step alone caps every step and the first is the range's; --step alone sets the first step."""
    d = new_dir(tmp, "explicit")
    ini = write(d, "df.ini", DRY_FRICTION)
    rc, out, err = vibro("continue", ini, "--parameter", "omega", "--to", "0.4805", "--step", "0.02", "--max-step", "0.1",
                         cwd=d)
    p = parameters(os.path.join(d, "df.branch.h5")) if rc == 0 else []
    check(rc == 0 and len(p) == 3 and abs(p[1] - 0.480975) < 1e-15 and "mode_change at omega = 0.4807235" in out,
          "--step 0.02 --max-step 0.1 over the window: 3 points as before (0.4816, 0.480975 after one halving, "
          "0.4805), the events still located", show(rc, out, err) + f" {p}")
    io = write(d, "io.ini", impact_oscillator_at(2.3))
    rc, out, err = vibro("continue", io, "--parameter", "omega", "--to", "30", "--step", "0.02", "--max-step", "0.1",
                         "--output.file=both.h5", cwd=d)
    p = parameters(os.path.join(d, "both.branch.h5")) if rc == 0 else np.array([2.3, 2.3])
    check(rc == 0 and first_step_is(p, 0.02) and np.max(np.diff(p)) <= 0.1 + 1e-12 and len(p) >= 278,
          "--step 0.02 --max-step 0.1 from 2.3 to 30: first step 0.02, none above 0.1, at least 278 points",
          f"{len(p)} points, steps {np.diff(p)[:5]} ... max {np.max(np.diff(p))}")
    rc, out, err = vibro("continue", io, "--parameter", "omega", "--to", "30", "--max-step", "2", "--output.file=max.h5",
                         cwd=d)
    p = parameters(os.path.join(d, "max.branch.h5")) if rc == 0 else np.array([2.3, 2.3])
    check(rc == 0 and first_step_is(p, 27.7 / 50) and np.max(np.diff(p)) <= 2 + 1e-12 and len(p) >= 15,
          "--max-step 2 alone: first step 27.7 / 50 (halved where refused), none above 2", f"{len(p)} points, steps {np.diff(p)}")
    rc, out, err = vibro("continue", io, "--parameter", "omega", "--to", "30", "--step", "0.1", "--output.file=first.h5",
                         cwd=d)
    p = parameters(os.path.join(d, "first.branch.h5")) if rc == 0 else np.array([2.3, 2.3])
    check(rc == 0 and first_step_is(p, 0.1) and np.max(np.diff(p)) <= 27.7 / 20 * (1 + 1e-9),
          "--step 0.1 alone: first step 0.1 (halved where refused), none above 27.7 / 20", f"{len(p)} points, steps {np.diff(p)}")
    for args, says in ((["--step", "0"], "--step must be > 0"), (["--max-step", "-1"], "--max-step must be > 0"),
                       (["--step", "0.2", "--max-step", "0.1"], "--max-step must be >= --step")):
        rc, out, err = vibro("continue", io, "--parameter", "omega", "--to", "30", *args, cwd=d)
        check(rc == 2 and says in err and "orbits" not in out, f"{' '.join(args)} is refused: {says}", show(rc, out, err))


def test_switched_branch(vibro, tmp):
    """From a branch file without --to the born branch runs to the file's end, stepped relative to its own
    range: the period-4 branch from its doubling at 2.175410635 to 2.18 (0.0046) has at least 21 points."""
    d = new_dir(tmp, "switch")
    ini = write(d, "io.ini", impact_oscillator_at(1.6))
    rc, out, err = vibro("continue", ini, "--parameter", "omega", "--to", "2.3", "--output.file=io.h5", cwd=d)
    check(rc == 0, "the (1,1) branch", show(rc, out, err))
    rc, out, err = vibro("continue", "io.branch.h5", "--switch", "PD1", "--to", "2.18", cwd=d)
    check(rc == 0 and "orbits of period 2 from the period doubling at omega = 2.169495463" in out,
          "the doubled branch to 2.18", show(rc, out, err))
    rc, out, err = vibro("continue", "io.pd1.branch.h5", "--switch", "PD1", cwd=d)
    check(rc == 0 and "orbits of period 4 from the period doubling at omega = 2.175410635" in out and
          "period_doubling at omega = 2.176417063" in out, "the period-4 branch and its own doubling at 2.176417063",
          show(rc, out, err))
    four = os.path.join(d, "io.pd1.pd1.branch.h5")
    p = parameters(four) if os.path.exists(four) else []
    check(len(p) >= FLOOR and abs(p[-1] - 2.18) < 1e-15, f"at least {FLOOR} points from the doubling to 2.18",
          f"{len(p)} points: {p}")


def main():
    return test_cli.main_of([test_narrow_range, test_wide_range, test_explicit_steps, test_switched_branch], __doc__)


if __name__ == "__main__":
    sys.exit(main())
