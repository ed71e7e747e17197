#!/usr/bin/env python3
"""vibro continue BRANCH.h5 --switch: switching from a branch file that vibro continue wrote, with the
orbit and the sweep the file records, from another folder too; the doubled branch's file switches
again (a cascade one step at a time), and --cascade K follows K doublings in one command, stopping with
its reason at a branch without one. Foreign, damaged and too old files and options the file fixes are
refused before any work, naming the file or option. --switch G1 at the impact-free orbit's grazing
gives the (1,1) branch born there.

usage: test_branch_switch.py VIBRO_BINARY REPO_ROOT

The impact oscillator (zeta = 0.05, sigma = 0.25, r = 0.8): (1,1) period doubling at omega =
2.169495463, the (2,2) branch's at 2.175410635, the (4,4) branch's at 2.176417063 (about 10 s).
"""
import os
import re
import shutil
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli  # noqa: E402
from test_cli import as_str, check, new_dir, show, write  # noqa: E402

DOUBLINGS = [2.169495463, 2.175410635, 2.176417063]  # periods 1, 2, 4 (docs/validation.md)


def events(path):
    with h5py.File(path, "r") as f:
        return [as_str(k) for k in f["events/kind"][...]], f["events/parameter"][...], int(f.attrs["periods"]), \
            f["branch/impacts"][...]


def test_switch_from_branch_file(vibro, tmp):
    d = new_dir(tmp, "switch")
    example = os.path.join(test_cli.REPO_ROOT, "examples", "impact_oscillator_continuation.ini")
    rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.3", "--output.file=io.h5", cwd=d)
    check(rc == 0 and "period_doubling at omega = 2.169495463" in out, "the (1,1) branch and its period doubling",
          show(rc, out, err))
    branch = os.path.join(d, "io.branch.h5")
    # From another folder: the file records where its sweep lay.
    elsewhere = new_dir(tmp, "elsewhere")
    rc, out, err = vibro("continue", branch, "--switch", "PD1", "--to", "2.18", cwd=elsewhere)
    check(rc == 0 and "orbits of period 2 from the period doubling at omega = 2.169495463" in out,
          "vibro continue BRANCH.h5 --switch PD1 continues the doubled branch", show(rc, out, err))
    doubled = os.path.join(d, "io.pd1.branch.h5")
    if check(os.path.exists(doubled), "it writes BRANCH.pd1.branch.h5 beside the branch file", str(os.listdir(d))):
        kinds, where, periods, impacts = events(doubled)
        check(periods == 2 and np.all(impacts == 2), "the doubled branch's orbits have period 2 and two impacts")
        check(kinds == ["period_doubling"] and abs(where[0] - DOUBLINGS[1]) < 1e-8,
              f"its own period doubling at omega = {DOUBLINGS[1]} (1e-8)", f"{kinds} {where}")
        with h5py.File(doubled, "r") as f:
            check(as_str(f.attrs["sweep_path"]) == example and abs(f.attrs["to"] - 2.18) < 1e-15,
                  "it records its sweep's path and --to", str(dict(f.attrs)))
        # The switched branch's file switches again: one step of the cascade.
        rc, out, err = vibro("continue", doubled, "--switch", "PD1", cwd=elsewhere)
        check(rc == 0 and "orbits of period 4 from the period doubling at omega = 2.175410635" in out,
              "the doubled branch's file switches at its own period doubling", show(rc, out, err))
        four = os.path.join(d, "io.pd1.pd1.branch.h5")
        if check(os.path.exists(four), "it writes BRANCH.pd1.pd1.branch.h5", str(os.listdir(d))):
            kinds, where, periods, impacts = events(four)
            check(periods == 4 and np.all(impacts == 4) and kinds[:1] == ["period_doubling"] and
                  abs(where[0] - DOUBLINGS[2]) < 1e-8, f"period 4, four impacts, its doubling at {DOUBLINGS[2]} (1e-8)",
                  f"{periods} {impacts} {kinds} {where}")
    # --method arclength: the (2,2) branch round its fold at 2.4561164 down to its grazing with the (2,1)
    # orbit at 2.353732769 (the closed form of the (2,1) orbit puts it at 2.3537327686).
    rc, out, err = vibro("continue", branch, "--switch", "PD1", "--to", "3.5", "--method", "arclength", cwd=elsewhere)
    m = re.search(r"grazing at omega = ([0-9.]+) \(impacts per period 2 -> 1", out)
    check(rc == 0 and "fold at omega = 2.45611642" in out and m is not None and abs(float(m.group(1)) - 2.3537327686) < 1e-8,
          "--method arclength follows the doubled branch round its fold to its (2,1) grazing", show(rc, out, err))
    # --cascade: the same two doublings in one command (from the sweep file), and a stop with its reason
    # where the period-4 branch ends before its doubling.
    c = new_dir(tmp, "cascade")
    rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.1763", "--switch", "PD1",
                         "--cascade", "3", "--output.file=c.h5", cwd=c)
    found = [float(x) for x in re.findall(r"orbits of period \d+ from the period doubling at omega = ([0-9.]+)", out)]
    check(rc == 0 and np.allclose(found, DOUBLINGS[:2], atol=1e-8), "--cascade 3 switches at the (1,1) and (2,2) "
          "doublings", show(rc, out, err))
    check("cascade stopped after period 4: its branch has no period doubling between omega = " in out,
          "and stops after period 4, saying its branch has no period doubling up to --to", out)
    check(sorted(os.listdir(c)) == ["c.branch.h5", "c.pd1.branch.h5", "c.pd1.pd1.branch.h5"],
          "each branch of the cascade is its own file", str(os.listdir(c)))


def test_switch_at_grazing(vibro, tmp):
    """The impact-free orbit from omega = 2.3 down to 2.0 grazes at 2.234670654 (closed form: the harmonic
    amplitude reaches the stop); --switch G1 from its branch file gives the (1,1) branch born there, starting
    next to the grazing on the impacting side (below it)."""
    d = new_dir(tmp, "grazing")
    with open(os.path.join(test_cli.REPO_ROOT, "examples", "impact_oscillator_continuation.ini")) as f:
        text = f.read().replace("omega = 1.6", "omega = 2.3")
    ini = write(d, "g.ini", text)
    rc, out, err = vibro("continue", ini, "--parameter", "omega", "--to", "2.0", "--output.file=g.h5", cwd=d)
    check(rc == 0 and "grazing at omega = 2.234670654 (impacts per period 0 -> 1)" in out,
          "the impact-free branch grazes at 2.234670654", show(rc, out, err))
    rc, out, err = vibro("continue", "g.branch.h5", "--switch", "G1", cwd=d)
    check(rc == 0 and "orbits of period 1 from the grazing at omega = 2.234670654" in out,
          "vibro continue BRANCH.h5 --switch G1 continues the branch born at the grazing", show(rc, out, err))
    born = os.path.join(d, "g.g1.branch.h5")
    if check(os.path.exists(born), "it writes BRANCH.g1.branch.h5", str(os.listdir(d))):
        with h5py.File(born, "r") as f:
            p, impacts = f["branch/parameter"][...], f["branch/impacts"][...]
        check(np.all(impacts == 1) and 0 < 2.234670654 - p[0] < 1e-3 and np.all(np.diff(p) < 0) and p[-1] == 2.0,
              "one impact per period, from just below the grazing down to 2.0", f"{p} {impacts}")
    rc, out, err = vibro("continue", "g.branch.h5", "--switch", "G1", "--to", "2.3", cwd=d)
    check(rc == 1 and "is born on the other side of the grazing at omega = 2.234670654" in err,
          "towards the impact-free side it says the branch is born on the other side", show(rc, out, err))


def test_refusals(vibro, tmp):
    d = new_dir(tmp, "refusals")
    example = os.path.join(test_cli.REPO_ROOT, "examples", "impact_oscillator_continuation.ini")
    rc, out, err = vibro("continue", example, "--parameter", "omega", "--to", "2.2", "--output.file=io.h5", cwd=d)
    branch = os.path.join(d, "io.branch.h5")
    check(rc == 0 and os.path.exists(branch), "the (1,1) branch to 2.2", show(rc, out, err))
    cases = [
        (["--switch", "PD2"], 1, "--switch PD2: the branch has 1 period doubling(s)"),
        (["--switch", "G1"], 1, "--switch G1: the branch has 0 grazing(s)"),
        (["--switch", "pd1"], 2, "did you mean 'PD1'"),
        (["--switch", "PD1", "--cascade", "0"], 2, "--cascade = '0'"),
        (["--switch", "G1", "--cascade", "2"], 2, "--cascade K follows period doublings"),
        (["--switch", "PD1", "--parameter", "omega"], 2, "--parameter cannot be given with a branch file"),
        (["--switch", "PD1", "--parameters.sigma=0.3"], 2, "keeps its sweep's keys"),
        (["--to", "2.3"], 2, "usage: vibro continue BRANCH.h5 --switch"),
        (["--switch", "PD1", "--to", "-1"], 2, "omega"),
    ]
    for args, code, says in cases:
        rc, out, err = vibro("continue", branch, *args, cwd=d)
        check(rc == code and says in err and "orbits" not in out, f"{' '.join(args)} is refused: {says}",
              show(rc, out, err))
    check(sorted(os.listdir(d)) == ["io.branch.h5"], "no refused command wrote a file", str(os.listdir(d)))
    # Files that are not branch files, or not whole, or too old: named, with what is accepted.
    sweep = write(d, "s.ini", "model = impact_oscillator\n[parameters]\nomega = 1.6\n[run]\nmax_periods = 100\n"
                  "window_periods = 20\n")
    rc, out, err = vibro("run", sweep, cwd=d)
    check(rc == 0, "a one-case sweep file", show(rc, out, err))
    foreign = os.path.join(d, "foreign.h5")
    with h5py.File(foreign, "w") as f:
        f["x"] = np.arange(3)
    damaged = os.path.join(d, "damaged.branch.h5")
    with open(branch, "rb") as f:
        data = f.read()
    with open(damaged, "wb") as f:
        f.write(data[: len(data) // 2])
    old = os.path.join(d, "old.branch.h5")
    shutil.copy(branch, old)
    with h5py.File(old, "a") as f:
        del f["events/mode"]
    for path, says in ((os.path.join(d, "s.h5"), "is a vibro-sweep file; vibro continue reads a sweep file (INI) or a "
                        "branch file (format vibro-branch"),
                       (foreign, "no root attribute 'format'; vibro continue reads a sweep file (INI) or a branch file"),
                       (damaged, "damaged.branch.h5"),
                       (old, "lacks the mode of its event orbits (/events/mode; written by an older vibro)")):
        rc, out, err = vibro("continue", path, "--switch", "PD1", cwd=d)
        check(rc == 2 and says in err and os.path.basename(path) in err, f"{os.path.basename(path)} is refused: {says}",
              show(rc, out, err))
    check(not [n for n in os.listdir(d) if ".pd1." in n], "no refused file gave a switched branch", str(os.listdir(d)))


def main():
    return test_cli.main_of([test_switch_from_branch_file, test_switch_at_grazing, test_refusals], __doc__)


if __name__ == "__main__":
    sys.exit(main())
