#!/usr/bin/python3
"""Compares two result files of the same sweep made by different back ends (e.g. cpu and cuda):
the share of cases with the same class, the largest mean-velocity difference over the cases both
call periodic (models with a mean velocity), the share of cases with the same impact count, and the
share of cases identical bit for bit in every per-case dataset but the wall time. Prints one line per figure.

usage: compare_backends.py REFERENCE.h5 OTHER.h5
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402


def main():
    missing = [p for p in sys.argv[1:3] if not os.path.exists(p)]
    if missing:
        print("missing: %s" % ", ".join(missing))
        return 2
    a, b = (vibro_results.load(p) for p in sys.argv[1:3])
    n = a["n"]
    if b["n"] != n:
        print("different case counts: %d and %d" % (n, b["n"]))
        return 2

    def flat(data, name):
        return data["dataset"][name].values.reshape(-1)

    same_class = a["cls"] == b["cls"]
    print("cases: %d" % n)
    print("same class: %.4f %% (%d differ)" % (100.0 * same_class.mean(), n - same_class.sum()))
    periodic = (flat(a, "periodicity") == 0) & (flat(b, "periodicity") == 0) & same_class
    has_velocity = "mean_velocity" in a["observables"] and "mean_velocity" in b["observables"]  # transport models
    va = a["observables"]["mean_velocity"] if has_velocity else None
    vb = b["observables"]["mean_velocity"] if has_velocity else None
    if has_velocity and periodic.any():
        d = np.abs(va[periodic] - vb[periodic])
        print("periodic in both, same class: %d; mean velocity max |diff| %.3e m/s, cases above 1e-6 m/s: %d"
              % (periodic.sum(), d.max(), (d > 1e-6).sum()))
    ia, ib = flat(a, "counters_impacts"), flat(b, "counters_impacts")
    print("same impact count: %.4f %%; impacts %d and %d" % (100.0 * (ia == ib).mean(), ia.sum(), ib.sum()))
    same = np.ones(n, dtype=bool)
    ragged_differ = []  # datasets not one value a case (the window's stroboscopic points): whole
    for name, var in a["dataset"].data_vars.items():
        if name == "wall_seconds" or name not in b["dataset"].data_vars:
            continue
        x, y = var.values.reshape(-1), b["dataset"][name].values.reshape(-1)
        if x.dtype.kind == "f":  # the same bits: NaN equals NaN, 0.0 differs from -0.0
            x, y = x.view("u%d" % x.itemsize), y.view("u%d" % y.itemsize)
        if x.size == n and y.size == n:
            same &= x == y
        elif x.shape != y.shape or not (x == y).all():
            ragged_differ.append(name)
    print("identical cases (every per-case dataset but wall_seconds, bit for bit): %.4f %% (%d differ)"
          % (100.0 * same.mean(), n - same.sum()))
    print("other datasets (stroboscopic points): %s" % ("all identical" if not ragged_differ
                                                        else "differ: " + ", ".join(ragged_differ)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
