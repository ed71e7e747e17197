#!/usr/bin/python3
"""Compares the class fractions (the share of the cases in each /cases/class, e.g. the basin
fractions of a basin map) of two result files, which may be sweeps of different grid sizes over the
same region (a back end's full map against another's subsample). Prints each class's fraction in
both, the largest difference, and whether it is within the tolerance (default 0.5 percentage points).

usage: compare_class_fractions.py REFERENCE.h5 OTHER.h5 [TOLERANCE]
Exit code 0 within the tolerance, 1 beyond it, 2 when a file is missing or cannot be read (damaged,
not a vibro sweep: one message naming it). Reads the files through the package (vibro.open) from the
checkout's python/ folder; it needs numpy, h5py and xarray, not the compiled part of vibro.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402  (puts the checkout's python/ on the path)


def fractions(path):
    classes = np.asarray(vibro_results.open_dataset(path)["class"].values.reshape(-1))
    names, counts = np.unique(classes, return_counts=True)
    return {str(n): c / classes.size for n, c in zip(names, counts)}, classes.size


def main():
    missing = [p for p in sys.argv[1:3] if not os.path.exists(p)]
    if len(sys.argv) < 3 or missing:
        print("missing: %s" % ", ".join(missing or ["two result files"]))
        return 2
    tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 0.005
    (ref, n_ref), (other, n_other) = fractions(sys.argv[1]), fractions(sys.argv[2])
    print("cases: %d and %d" % (n_ref, n_other))
    worst = 0.0
    for name in sorted(set(ref) | set(other)):
        a, b = ref.get(name, 0.0), other.get(name, 0.0)
        worst = max(worst, abs(a - b))
        print("class %-8s %8.4f %%  %8.4f %%  diff %+.4f %%" % (name, 100 * a, 100 * b, 100 * (b - a)))
    # The binomial sampling error of the smaller map's fractions, for a subsample against a full map.
    n = min(n_ref, n_other)
    noise = max(np.sqrt(f * (1 - f) / n) for f in list(ref.values()) + list(other.values()))
    verdict = "within" if worst <= tolerance else "BEYOND"
    print("largest difference %.4f %% (%s %.2f %%); sampling error of the %d-case map about %.3f %%"
          % (100 * worst, verdict, 100 * tolerance, n, 100 * noise))
    return 0 if worst <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
