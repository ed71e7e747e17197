#!/usr/bin/python3
"""/basins of real sweep files (docs/hdf5_schema.md), through the vibro binary.

usage: test_basins_file.py VIBRO_BINARY REPO_ROOT

- The conveyor basin example (examples/conveyor_basin_a50.ini, 61 x 61 initial conditions): the basin
  entropy and boundary basin entropy in the file equal the values scripts/plot_basins.py computed
  before the entropy moved into analysis/ (pinned below), and the script still prints them.
- examples/conveyor_global_continuation.ini on a small grid (4 amplitudes, 5 x 5 initial conditions): per
  point the fractions plus the share without a steady state sum to 1; /cases/global_attractor is
  /cases/attractor mapped through the point's rows; every stretch of points where an id is found
  begins with a birth, split or return (or the first point) and ends with a death, merger or vanished
  (or the last point), and an id is found again only with a return; `vibro plot --kind fractions`
  draws it. Labelled on 1 and 3 threads (one
  point a thread, and each point's cases decoded in parallel), its labels and /basins are the same.
- analysis.global_continuation naming an initial-condition axis or a missing axis is refused (exit 2), as
  is analysis.seed_from_previous without global continuation or with a value other than false / true,
  and a bad value of analysis.match_by, match_vanished, match_period_doublings, match_period_changes,
  match_extent_changes, match_windows or seed_directions
  (the message names the key and the values it accepts).
- Unsettled cases: every ok case without a label is counted in /basins/cases_unsettled (and no
  unsettled case has a label); on a grid with unsettled cases (c_r = 0.6, a_hat = 62.5 and 70), with
  run.extend_unsettled = 400 exactly those cases, the irregular (X) ones and the slowly converging ones
  (class with "~") run on (their periods_run grows, within 400; every settled periodic case keeps its
  result) and no more are left unsettled;
  a budget at or below run.max_periods is refused naming both keys.
Exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

# scripts/plot_basins.py (basin_entropy, 5 x 5 boxes) on the example's file, before this change.
PINNED_SB = 0.5088756726609992
PINNED_SBB = 0.5909523940579346

FAILURES = []

# The global continuation example on a small grid: 4 amplitudes x 5 x 5 initial conditions.
SMALL_GRID = ["--axes.a_hat=30, 45, 60, 75", "--axes.z0=linspace(0, 0.005, 5)", "--axes.v0=linspace(-0.3, 0.3, 5)"]


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail))


def labelling_differences(path_a, path_b):
    """Names of the labelling datasets (/cases/attractor, /cases/global_attractor, /basins) that differ."""
    def labelling(path):
        found = {}
        with h5py.File(path, "r") as h5:
            h5.visititems(lambda name, obj: found.__setitem__(name, obj[()])
                          if isinstance(obj, h5py.Dataset) and name.startswith("basins/") else None)
            for name in ("cases/attractor", "cases/global_attractor"):
                found[name] = h5[name][()]
        return found
    a, b = labelling(path_a), labelling(path_b)
    return sorted(name for name in set(a) | set(b)
                  if name not in a or name not in b or a[name].shape != b[name].shape
                  or not np.array_equal(a[name], b[name], equal_nan=a[name].dtype.kind == "f"))


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        def run(*args):
            done = subprocess.run([vibro, *args], cwd=tmp, capture_output=True, text=True, timeout=300)
            return done.returncode, done.stderr + done.stdout

        out = os.path.join(tmp, "basin.h5")
        rc, err = run("run", os.path.join(root, "examples", "conveyor_basin_a50.ini"), "--output.file=" + out,
                      "--run.progress=never")
        check(rc == 0, "the conveyor basin example runs", err)
        if rc == 0:
            with h5py.File(out, "r") as h5:
                sb = float(h5["basins/basin_entropy"][0])
                sbb = float(h5["basins/boundary_basin_entropy"][0])
                boxes = (int(h5["basins/entropy_boxes"][0]), int(h5["basins/boundary_boxes"][0]))
            check(abs(sb - PINNED_SB) < 1e-12, "S_b of the example equals the script's", "%r vs %r" % (sb, PINNED_SB))
            check(abs(sbb - PINNED_SBB) < 1e-12, "S_bb of the example equals the script's", "%r vs %r" % (sbb, PINNED_SBB))
            check(boxes == (144, 124), "144 boxes, 124 on a boundary", str(boxes))
            printed = subprocess.run(["/usr/bin/python3", os.path.join(root, "scripts", "plot_basins.py"), out,
                                      os.path.join(tmp, "basin.png")], capture_output=True, text=True, timeout=120).stdout
            check("S_b = %.4f" % PINNED_SB in printed and "S_bb = %.4f" % PINNED_SBB in printed,
                  "plot_basins.py prints the same entropies", printed[-400:])
            print("conveyor basin example: S_b = %.16g, S_bb = %.16g" % (sb, sbb))

        ini = os.path.join(root, "examples", "conveyor_global_continuation.ini")
        out = os.path.join(tmp, "continuation.h5")
        rc, err = run("run", ini, "--output.file=" + out, "--run.progress=never", *SMALL_GRID)
        check(rc == 0, "the continuation sweep runs", err)
        if rc == 0:
            with h5py.File(out, "r") as h5:
                b = h5["basins"]
                offsets = b["attractors/offsets"][()]
                gid = b["attractors/global_id"][()]
                label = b["attractors/label"][()]
                fraction = b["attractors/fraction"][()]
                run_, settled = b["cases_run"][()], b["cases_settled"][()]
                unsettled = b["cases_unsettled"][()]
                unsettled_share = b["unsettled_fraction"][()]
                status = h5["cases/status"][()].reshape(4, 25)
                kinds = list(b["events/kind"].asstr()[()])
                ev_id, ev_point = b["events/global_id"][()], b["events/point"][()]
                cases_label = h5["cases/attractor"][()].reshape(4, 25)
                cases_global = h5["cases/global_attractor"][()].reshape(4, 25)
            check(len(offsets) == 5 and (run_ == 25).all(), "4 points of 25 cases", str(run_))
            for p in range(4):
                rows = slice(offsets[p], offsets[p + 1])
                total = fraction[rows].sum() + (1 - settled[p] / run_[p])
                check(abs(total - 1) < 1e-12, "fractions and the unsettled share sum to 1 at point %d" % p, str(total))
                # every ok case without a label is an unsettled one, and no unsettled case has a label
                without = int(np.sum((status[p] == 0) & (cases_label[p] < 0)))
                check(unsettled[p] == without and abs(unsettled_share[p] - without / 25) < 1e-15,
                      "point %d counts its %d ok cases without a label as unsettled" % (p, without), str(unsettled[p]))
                mapped = {int(l): int(g) for l, g in zip(label[rows], gid[rows])}
                expect = np.array([mapped.get(int(l), -1) for l in cases_label[p]])
                check((expect == cases_global[p]).all(), "global_attractor maps the labels at point %d" % p)
            for i in set(gid.tolist()):
                points = sorted(p for p in range(4) for r in range(offsets[p], offsets[p + 1]) if gid[r] == i)
                # the stretches where the id is found: each begins with a birth, split or return (or the
                # first point) and ends with a death, merger or vanished (or the last point)
                starts = [p for p in points if p - 1 not in points]
                ends = [p + 1 for p in points if p + 1 not in points and p < 3]
                begun = sorted(int(ev_point[k]) for k in range(len(kinds))
                               if ev_id[k] == i and kinds[k] in ("birth", "split", "return"))
                ended = sorted(int(ev_point[k]) for k in range(len(kinds))
                               if ev_id[k] == i and kinds[k] in ("death", "merger", "vanished"))
                check(begun == [p for p in starts if p > 0], "id %d: begins where first found" % i, str(begun))
                check(ended == ends, "id %d: ends after its last point" % i, str(ended))
                returned = [int(ev_point[k]) for k in range(len(kinds)) if ev_id[k] == i and kinds[k] == "return"]
                check(returned == starts[1:], "id %d: found again only with a return" % i, str(returned))
            print("continuation: %d ids, events %s, unsettled %s" % (len(set(gid.tolist())), kinds, unsettled.tolist()))
            # run.extend_unsettled: only the unsettled, irregular and slow cases run on, up to the budget.
            # At c_r = 0.6, a_hat = 62.5 (just past H1's flip) and 70 (past P4's) part of the grid has no
            # steady state within 100 periods, and some cases still creep towards P2, P4 or P8.
            unsettled_grid = ["--parameters.c_r=0.6", "--axes.a_hat=62.5, 70", *SMALL_GRID[1:]]
            files = {}
            for budget in (None, 400):
                files[budget] = os.path.join(tmp, "extended_%s.h5" % budget)
                extra = ["--run.extend_unsettled=%d" % (budget or 0)]  # the example runs on to 1000 periods
                rc, err = run("run", ini, "--output.file=" + files[budget], "--run.progress=never", *unsettled_grid,
                              *extra)
                check(rc == 0, "the continuation sweep runs with run.extend_unsettled = %s" % budget, err)
            if rc == 0:
                with h5py.File(files[None], "r") as h5:
                    periods_before = h5["cases/periods_run"][()]
                    was_unsettled = (h5["cases/status"][()] == 0) & (h5["cases/attractor"][()] < 0)
                    unsettled_before = h5["basins/cases_unsettled"][()]
                    codes = [c.decode() if isinstance(c, bytes) else c for c in h5["cases/class"][()]]
                    # irregular windows (class X) run on too: a steady one may be a chaotic transient
                    irregular = (h5["cases/status"][()] == 0) & np.array([c.startswith("X") for c in codes])
                    # and so do slowly converging ones (the "~" mark): the period they go to is not yet sure
                    slow = (h5["cases/status"][()] == 0) & np.array([c.endswith("~") for c in codes])
                    extendable = was_unsettled | irregular | slow
                with h5py.File(files[400], "r") as h5:
                    b = h5["basins"]
                    left = b["cases_unsettled"][()]
                    extended = int(b.attrs["extended_cases"])
                    periods_after = h5["cases/periods_run"][()]
                check(was_unsettled.sum() > 0 and was_unsettled.sum() == unsettled_before.sum(),
                      "the grid has unsettled cases, counted in /basins", str(unsettled_before))
                check(slow.sum() > 0, "the grid has slowly converging cases", str(slow.sum()))
                check(extended == int(extendable.sum()),
                      "every unsettled, irregular and slowly converging case is extended",
                      "%d of %d (%d unsettled, %d slow)" % (extended, extendable.sum(), was_unsettled.sum(), slow.sum()))
                check((left <= unsettled_before).all(), "extension leaves no more unsettled cases",
                      "%s %s" % (left, unsettled_before))
                check((periods_after[~extendable] == periods_before[~extendable]).all(),
                      "settled periodic cases keep their results")
                check((periods_after[extendable] > periods_before[extendable]).all()
                      and (periods_after <= 400).all(), "unsettled, irregular and slow cases ran on, within the budget")
                print("extension: unsettled %s -> %s, %d cases extended" % (unsettled_before.tolist(), left.tolist(),
                                                                          extended))
            # A steady irregular window runs on too: Model A (e = 1) at lambda = 0.55125, just above the
            # boundary crisis of its chaotic band, where much of the band is a transient that outlasts 300
            # periods (cases of class X with an attractor label), and at 3000 periods escapes to L.
            crisis = os.path.join(root, "examples", "gap_oscillator_global_continuation.ini")
            crisis_grid = ["--axes.lambda=0.55125, 0.5525", "--axes.x1_0=linspace(-0.04, 0.04, 6)",
                           "--axes.v1_0=linspace(-0.25, 0.25, 6)", "--analysis.seed_from_previous=false"]
            chaotic = {}
            for budget in (None, 3000):
                chaotic[budget] = os.path.join(tmp, "crisis_%s.h5" % budget)
                extra = ["--run.extend_unsettled=%d" % budget] if budget else []
                rc, err = run("run", crisis, "--output.file=" + chaotic[budget], "--run.progress=never", *crisis_grid, *extra)
                check(rc == 0, "Model A near its crisis runs with run.extend_unsettled = %s" % budget, err)
            if rc == 0:
                with h5py.File(chaotic[None], "r") as h5:
                    codes = [c.decode() if isinstance(c, bytes) else c for c in h5["cases/class"][()]]
                    settled_x = (h5["cases/attractor"][()] >= 0) & np.array([c.startswith("X") for c in codes])
                    before = h5["cases/periods_run"][()]
                with h5py.File(chaotic[3000], "r") as h5:
                    after = h5["cases/periods_run"][()]
                    codes_after = [c.decode() if isinstance(c, bytes) else c for c in h5["cases/class"][()]]
                check(settled_x.sum() > 0 and (after[settled_x] > before[settled_x]).all(),
                      "irregular cases with a label (steady windows) run on", "%d X cases" % settled_x.sum())
                escaped = sum(1 for k in np.flatnonzero(settled_x) if codes_after[k].startswith("L"))
                check(escaped > 0, "some steady-looking chaotic transients escape to the impact-free orbit when run on",
                      "%d of %d" % (escaped, settled_x.sum()))
                print("crisis: %d irregular cases with a label at 300 periods, %d of them reach L when run on"
                      % (settled_x.sum(), escaped))
            rc, err = run("run", ini, "--output.file=" + os.path.join(tmp, "refused.h5"), "--run.progress=never",
                          *SMALL_GRID, "--run.extend_unsettled=50")
            check(rc == 2 and "run.extend_unsettled" in err and "run.max_periods" in err,
                  "run.extend_unsettled at or below run.max_periods is refused naming both keys", err)
            for threads in (1, 3):
                other = os.path.join(tmp, "continuation_%d.h5" % threads)
                rc, err = run("run", ini, "--output.file=" + other, "--run.progress=never", *SMALL_GRID,
                              "--run.threads=%d" % threads)
                check(rc == 0, "the continuation sweep runs on %d threads" % threads, err)
                if rc == 0:
                    differ = labelling_differences(out, other)
                    check(not differ, "labels and /basins on %d threads equal the default's" % threads, str(differ))
            png = os.path.join(tmp, "fractions.png")
            rc, err = run("plot", out, "--kind", "fractions", "--out", png)
            check(rc == 0 and os.path.getsize(png) > 10000, "vibro plot --kind fractions draws it", err)

        for value, what in (("z0", "an initial-condition axis"), ("c_r", "a parameter that is not an axis")):
            rc, err = run("run", ini, "--output.file=" + os.path.join(tmp, "refused.h5"), *SMALL_GRID,
                          "--analysis.global_continuation=" + value)
            check(rc == 2 and "analysis.global_continuation" in err and "a_hat" in err,
                  "global continuation along %s is refused naming the key and the accepted axis" % what, err)
        rc, err = run("run", ini, "--output.file=" + os.path.join(tmp, "refused.h5"), *SMALL_GRID,
                      "--analysis.match_distance=-1")
        check(rc == 2 and "analysis.match_distance" in err, "a negative match distance is refused", err)
        for key, value, accepted in (("match_by", "overlap", "distance, basin_overlap"),
                                     ("match_vanished", "yes", "false, true"),
                                     ("match_period_doublings", "1", "false, true"),
                                     ("match_period_changes", "no", "false, true"),
                                     ("match_extent_changes", "2", "false, true"),
                                     ("match_windows", "on", "false, true"),
                                     ("seed_directions", "backward", "forward, both")):
            rc, err = run("run", ini, "--output.file=" + os.path.join(tmp, "refused.h5"), *SMALL_GRID,
                          "--analysis.%s=%s" % (key, value))
            check(rc == 2 and "analysis." + key in err and accepted in err,
                  "analysis.%s = %s is refused naming the key and what it accepts" % (key, value), err)
        rc, err = run("run", ini, "--output.file=" + os.path.join(tmp, "refused.h5"), *SMALL_GRID,
                      "--output.strobe_points=none")
        check(rc == 2 and "strobe_points" in err, "global continuation without stroboscopic points is refused", err)
        for extra, what in ((["--analysis.global_continuation=none"], "without global continuation"),
                            (["--analysis.seed_from_previous=yes"], "with a value other than false or true")):
            rc, err = run("run", ini, "--output.file=" + os.path.join(tmp, "refused.h5"), *SMALL_GRID,
                          "--analysis.seed_from_previous=true", *extra)
            check(rc == 2 and "analysis.seed_from_previous" in err, "seeding %s is refused naming the key" % what, err)
        # Where every member of one-periodic hopping has settled, the transient shows no multiplier: the
        # attractor's Floquet multiplier (from its first settled member's orbit) stands in, and equals the
        # continued orbit's multiplier there (vibro continue, shooting to 1e-11) to the settling tolerance.
        fine = os.path.join(tmp, "fine.h5")
        rc, err = run("run", ini, "--output.file=" + fine, "--run.progress=never", "--axes.a_hat=62.0, 62.15",
                      "--axes.z0=linspace(0, 0.005, 6)", "--axes.v0=linspace(-0.3, 0.3, 6)", "--run.max_periods=1000",
                      "--run.extend_unsettled=0")
        check(rc == 0, "the fine-grid sweep runs", err)
        branch_stem = os.path.join(tmp, "hopping.h5")
        rc2, err2 = run("continue", os.path.join(root, "examples", "conveyor_fold_curve.ini"), "--parameters.phase=0",
                        "--parameters.a_hat=62.0", "--parameter", "a_hat", "--to", "62.15", "--step", "0.15",
                        "--max-step", "0.15", "--output.file=" + branch_stem)
        check(rc2 == 0, "the hopping orbit is continued over the fine grid", err2)
        if rc == 0 and rc2 == 0:
            with h5py.File(fine, "r") as h5, h5py.File(os.path.join(tmp, "hopping.branch.h5"), "r") as br:
                rows = h5["basins/attractors"]
                offsets, classes = rows["offsets"][()], [c.decode() for c in rows["class"][()]]
                floquet = rows["floquet_multiplier"][()]
                continued = dict(zip(br["branch/parameter"][()], br["branch/multipliers_real"][()][:, 0]))
                for point, a_hat in enumerate((62.0, 62.15)):
                    hopping = [r for r in range(offsets[point], offsets[point + 1]) if classes[r] == "H1"]
                    check(len(hopping) == 1, "one H1 attractor at a_hat = %g" % a_hat, str(classes))
                    there = [m for p, m in continued.items() if abs(p - a_hat) < 1e-9]
                    check(len(there) == 1, "the branch has a point at a_hat = %g" % a_hat, str(list(continued)))
                    if hopping and there:
                        mu = floquet[hopping[0]]
                        check(abs(mu - there[0]) < 1e-6,
                              "H1's Floquet multiplier at a_hat = %g equals the continuation's to 1e-6" % a_hat,
                              "%r vs %r" % (mu, there[0]))
                        print("a_hat = %g: H1's Floquet multiplier %.10f, continuation %.10f" % (a_hat, mu, there[0]))
    print("ok" if not FAILURES else "%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
