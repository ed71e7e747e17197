#!/usr/bin/python3
"""Compares two result files of the same sweep made by different back ends (e.g. cpu and cuda):
the share of cases with the same class, the largest mean-velocity difference over the cases both
call periodic (models with a mean velocity), and the share of cases with the same impact count. Prints one line per figure.

usage: compare_backends.py REFERENCE.h5 OTHER.h5
"""
import os
import sys

import h5py
import numpy as np


def main():
    missing = [p for p in sys.argv[1:3] if not os.path.exists(p)]
    if missing:
        print("missing: %s" % ", ".join(missing))
        return 2
    ref, other = (h5py.File(p, "r") for p in sys.argv[1:3])
    a, b = ref["cases"], other["cases"]
    n = a["class"].shape[0]
    if b["class"].shape[0] != n:
        print("different case counts: %d and %d" % (n, b["class"].shape[0]))
        return 2
    same_class = a["class"][...] == b["class"][...]
    print("cases: %d" % n)
    print("same class: %.4f %% (%d differ)" % (100.0 * same_class.mean(), n - same_class.sum()))
    periodic = (a["periodicity"][...] == 0) & (b["periodicity"][...] == 0) & same_class
    has_velocity = "observables/mean_velocity" in a and "observables/mean_velocity" in b  # transport models
    va = a["observables/mean_velocity"][...] if has_velocity else None
    vb = b["observables/mean_velocity"][...] if has_velocity else None
    if has_velocity and periodic.any():
        d = np.abs(va[periodic] - vb[periodic])
        print("periodic in both, same class: %d; mean velocity max |diff| %.3e m/s, cases above 1e-6 m/s: %d"
              % (periodic.sum(), d.max(), (d > 1e-6).sum()))
    ia, ib = a["counters/impacts"][...], b["counters/impacts"][...]
    print("same impact count: %.4f %%; impacts %d and %d" % (100.0 * (ia == ib).mean(), ia.sum(), ib.sum()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
