#!/usr/bin/env python3
"""Figures of a global continuation file (analysis.global_continuation along one axis): how long ids
live, events by kind, id swaps, and for the conveyor the id of one-periodic hopping (class H1) with its
birth and period doubling against the closed forms (scripts/conveyor_analytic.py: a* of Eq. 64, the
flip a_up of Eq. 40).

usage: continuation_figures.py FILE.h5

- ids living two points or fewer: ids found at one or two parameter points in all;
- a swap: two ids a and b found at two neighbouring points whose kinds (class and period) trade places
  (a has b's kind at the later point and b has a's, the two kinds different);
- H1: the id of the H1 attractor with the most cases, the points of the line where it is found, its
  events with their intervals, and whether the interval of its birth holds a* and that of its period
  doubling holds a_up (the file's parameters c_r, phi, g).
Prints one block of text; exits 1 when the file has no global continuation.
"""
import collections
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conveyor_analytic  # noqa: E402


def strings(dataset):
    return [v.decode() if isinstance(v, bytes) else str(v) for v in dataset[()]]


def main(path):
    with h5py.File(path, "r") as h5:
        b = h5["basins"]
        if b.attrs["continuation_axis"] in (b"none", "none"):
            print("%s: no global continuation" % path)
            return 1
        axis = b.attrs["continuation_axis"]
        axis = axis.decode() if isinstance(axis, bytes) else axis
        values = h5["axes"][axis][()]
        offsets = b["attractors/offsets"][()]
        gid = b["attractors/global_id"][()]
        cls = strings(b["attractors/class"])
        period = b["attractors/period"][()]
        cases = b["attractors/cases"][()]
        kinds = strings(b["events/kind"])
        ev_id = b["events/global_id"][()]
        ev_from, ev_to = b["events/parameter_from"][()], b["events/parameter_to"][()]
        params = {k: h5["parameters"][k][()] for k in h5["parameters"]}
    points = len(offsets) - 1
    rows = [range(offsets[p], offsets[p + 1]) for p in range(points)]
    found = collections.defaultdict(set)  # id -> points
    kind_at = [{} for _ in range(points)]  # point -> id -> (class, period)
    for p in range(points):
        for r in rows[p]:
            found[gid[r]].add(p)
            kind_at[p][gid[r]] = (cls[r], int(period[r]))
    short = sorted(i for i, ps in found.items() if len(ps) <= 2)
    print("file: %s (c_r = %g, %d points along %s)" % (path, params.get("c_r", np.nan), points, axis))
    print("ids: %d; living two points or fewer: %d (%.0f %%)" % (len(found), len(short),
                                                                100.0 * len(short) / max(len(found), 1)))
    print("short-lived: " + ", ".join("%d %s at %s" % (i, "/".join(sorted({kind_at[p][i][0] for p in found[i]})),
                                                       ",".join("%g" % values[p] for p in sorted(found[i])))
                                      for i in short))
    print("events: " + ", ".join("%s %d" % kv for kv in sorted(collections.Counter(kinds).items())))
    swaps = []
    for p in range(points - 1):
        both = sorted(set(kind_at[p]) & set(kind_at[p + 1]))
        for x in both:
            for y in both:
                if x < y and kind_at[p][x] != kind_at[p][y] and kind_at[p][x] == kind_at[p + 1][y] \
                        and kind_at[p][y] == kind_at[p + 1][x]:
                    swaps.append("%d<->%d in (%g, %g]" % (x, y, values[p], values[p + 1]))
    print("swaps: %d%s" % (len(swaps), (" (" + "; ".join(swaps) + ")") if swaps else ""))
    h1 = collections.Counter()
    for r in range(len(gid)):
        if cls[r] == "H1":
            h1[gid[r]] += int(cases[r])
    if not h1 or "phi" not in params:
        return 0
    i = h1.most_common(1)[0][0]
    ps = sorted(found[i])
    print("H1 id %d: found at %s = %g .. %g (%d points, %d gaps); classes %s" % (
        i, axis, values[ps[0]], values[ps[-1]], len(ps), ps[-1] - ps[0] + 1 - len(ps),
        " ".join("%s@%g" % (kind_at[p][i][0], values[p]) for p in ps if kind_at[p][i][0] != "H1"
                 and (p == ps[0] or kind_at[p - 1].get(i, ("",))[0] != kind_at[p][i][0]))))
    a_star = conveyor_analytic.a_star(params["c_r"], params["phi"], params["g"])
    a_up = conveyor_analytic.a_up(params["c_r"], params["phi"], params["g"])
    for k in range(len(kinds)):
        if ev_id[k] == i:
            print("  %s in (%g, %g]" % (kinds[k], ev_from[k], ev_to[k]))
    born = [k for k in range(len(kinds)) if ev_id[k] == i and kinds[k] == "birth"]
    doubled = [k for k in range(len(kinds)) if ev_id[k] == i and kinds[k] == "period_doubling"]
    inside = lambda k, x: ev_from[k] < x <= ev_to[k]
    print("  a* = %.4f: %s" % (a_star, "in its birth's interval" if any(inside(k, a_star) for k in born)
                               else "present from the first point" if ps[0] == 0 and not born
                               else "NOT in its birth's interval"))
    print("  a_up = %.4f: %s" % (a_up, "in its period doubling's interval" if any(inside(k, a_up) for k in doubled)
                                 else "NOT in a period doubling's interval"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
