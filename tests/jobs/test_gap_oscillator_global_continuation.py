#!/usr/bin/python3
"""Global continuation of Model A's attractors across the hysteresis at grazing, as the example ships.

usage: test_gap_oscillator_global_continuation.py VIBRO_BINARY REPO_ROOT

examples/gap_oscillator_global_continuation.ini (restitution e = 1, analysis.seed_from_previous = true,
default matching) on a coarse grid: lambda = 0.55, 0.5525, 0.5575, 0.5625, 0.565, 0.5675 and 5 x 5
initial conditions (150 cases, a few seconds). Between the end of the downward sweep's impacting
motion (0.552) and the grazing threshold lambda* = 0.5670 the impact-free orbit L and the impacting
motion coexist:
- L is one id from 0.55 to 0.565; where the grid misses it (0.5625, 0.565) the seed from the point
  before finds it, with basin fraction 0; it ends in (0.565, 0.5675], at the grazing threshold;
- the impacting motion is one id from its birth in (0.55, 0.5525] to 0.565, through the periodic
  window (14,11) at 0.5575 (a period_change in (0.5525, 0.5575] and another in (0.5575, 0.5625]); it
  ends in (0.565, 0.5675] too, where (1,1) is born;
- no split or merger (the band is born 0.8 scales from L, within the match distance but not within
  L's region); fractions plus the unsettled share sum to 1 at every point.
Without seeding the grid loses L after 0.5575: a death, still no merger into the band around it.
Exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

import h5py

FAILURES = []
GRID = ["--axes.lambda=0.55, 0.5525, 0.5575, 0.5625, 0.565, 0.5675", "--axes.x1_0=linspace(-0.04, 0.04, 5)",
        "--axes.v1_0=linspace(-0.25, 0.25, 5)", "--run.progress=never"]


def read(path):
    """Per global id: {point: (class, cases)}; the events as (kind, id, from, to); fraction sums."""
    with h5py.File(path, "r") as h5:
        b = h5["basins"]
        offsets = b["attractors/offsets"][()]
        gid, cls = b["attractors/global_id"][()], b["attractors/class"].asstr()[()]
        cases, fraction = b["attractors/cases"][()], b["attractors/fraction"][()]
        ids = {}
        sums = []
        for p in range(len(offsets) - 1):
            rows = range(offsets[p], offsets[p + 1])
            for r in rows:
                ids.setdefault(int(gid[r]), {})[p] = (cls[r], int(cases[r]))
            sums.append(sum(fraction[r] for r in rows) + 1 - b["cases_settled"][p] / b["cases_run"][p])
        ev = b["events"]
        events = sorted((ev["kind"].asstr()[k], int(ev["global_id"][k]), float(ev["parameter_from"][k]),
                         float(ev["parameter_to"][k])) for k in range(len(ev["kind"])))
        seeds = int(b.attrs["seed_cases"])
    return ids, events, sums, seeds


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail))


def id_of(ids, classes):
    found = [g for g, at in ids.items() if {c for c, _ in at.values()} & classes]
    return found[0] if len(found) == 1 else None


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    ini = os.path.join(root, "examples", "gap_oscillator_global_continuation.ini")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "gap.h5")

        def run(what, *extra):
            # the second run resumes from the first one's checkpoint: only the seeds are computed again
            done = subprocess.run([vibro, "run", ini, "--output.file=" + out, "--output.keep_checkpoints=true",
                                   "--output.overwrite=true", *GRID, *extra], cwd=tmp, capture_output=True, text=True,
                                  timeout=300)
            check(done.returncode == 0, "%s runs" % what, done.stderr[-500:])
            return read(out) if done.returncode == 0 else None

        grid_only = run("the grid without seeding", "--analysis.seed_from_previous=false")
        shipped = run("the example as shipped")
        if shipped:
            ids, events, sums, seeds = shipped
            print("seeded: ids %s\n  events %s\n  seed cases %d" % (ids, events, seeds))
            check(all(abs(s - 1) < 1e-12 for s in sums), "fractions sum to 1 at every point", str(sums))
            check(len(ids) == 3, "three ids: L, the impacting band, (1,1)", str(sorted(ids)))
            free, band, impact = id_of(ids, {"L"}), id_of(ids, {"X"}), id_of(ids, {"(1,1)"})
            check(None not in (free, band, impact) and len({free, band, impact}) == 3, "one id per attractor",
                  str((free, band, impact)))
            if None not in (free, band, impact):
                check(sorted(ids[free]) == [0, 1, 2, 3, 4] and {c for c, _ in ids[free].values()} == {"L"},
                      "L is one id from 0.55 to 0.565", str(ids[free]))
                check(any(n == 0 for _, n in ids[free].values()), "a seed finds L where the grid misses it",
                      str(ids[free]))
                check(sorted(ids[band]) == [1, 2, 3, 4] and {c for c, _ in ids[band].values()} == {"X", "(14,11)"},
                      "the band is one id from 0.5525 to 0.565, through the (14,11) window", str(ids[band]))
                check(sorted(ids[impact]) == [5], "(1,1) at 0.5675 only", str(ids[impact]))
                # the (14,11) window takes the band's id and gives it back: both named period_change
                # (before, the window was matched to the band without an event)
                check(events == sorted([("birth", band, 0.55, 0.5525), ("birth", impact, 0.565, 0.5675),
                                        ("death", free, 0.565, 0.5675), ("death", band, 0.565, 0.5675),
                                        ("period_change", band, 0.5525, 0.5575),
                                        ("period_change", band, 0.5575, 0.5625)]),
                      "band born at the downward sweep's end, through its window with a period change each way, "
                      "L and band lost at grazing, no split or merger", str(events))
            check(seeds > 0, "seed cases ran", str(seeds))

        if grid_only:
            ids, events, _, seeds = grid_only
            print("grid only: ids %s\n  events %s" % (ids, events))
            free = id_of(ids, {"L"})
            check(free is not None and ("death", free, 0.5575, 0.5625) in events,
                  "without seeding the grid loses L after 0.5575: a death", str(events))
            check(not [e for e in events if e[0] in ("split", "merger")], "no split or merger", str(events))
            check(seeds == 0, "no seed cases without seeding", str(seeds))
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
