#!/usr/bin/python3
"""A regime boundary two ways, side by side: Model A's grazing curve lambda*(omega) (restitution e = 1),
where the impact-free orbit first touches, traced by two-parameter continuation (`vibro continue
--curve grazing`, examples/gap_oscillator_grazing_curve.ini: from omega = 7.249 at lambda = 1 up to
lambda = 2) against the same boundary read off brute-force sweeps (omega x lambda, each omega a
continuation line upwards in lambda from the impact-free orbit at lambda = 0.5, as
examples/gap_oscillator_regime_map.ini; the boundary in a column is the midpoint between its last
impact-free and its first impacting case).

Both are judged by the closed form lambda*(omega) = D / |X1 - X2| of the impact-free response
(examples/check_gap_oscillator_grazing_curve.py): the largest error over the curve's points, and over
the sweep's columns. The sweep's error falls with its lambda step, its cost grows as 1 / step; the
table gives, for each step, the measured time and the time that step scaled down to the curve's
accuracy would take (cost proportional to the number of cases, an extrapolation, not a run).
Wall times of whole commands (start and file included), the minimum of --repeats runs; asserts nothing.

usage: two_parameter_curve_bench.py --vibro build/jobs/vibro [--columns N] [--steps 0.05,0.01,0.002]
       [--repeats R] [--threads T]
Use Debian's /usr/bin/python3 (numpy, h5py).
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(SOURCE, "examples", "gap_oscillator_grazing_curve.ini")
CONTINUE = ["--parameter", "omega", "--to", "7.6", "--step", "0.01", "--max-step", "0.05", "--method", "arclength",
            "--curve", "grazing", "--parameters", "omega,lambda", "--curve-to", "2"]


def closed_form():
    """grazing_lambda(parameters, omega) of the example's check script (one closed form, one place)."""
    spec = importlib.util.spec_from_file_location("check", os.path.join(SOURCE, "examples", "check_gap_oscillator_grazing_curve.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.grazing_lambda


def timed(command, cwd, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def parameters(h5):
    return {k: float(h5["parameters"][k][()]) for k in h5["parameters"] if h5["parameters"][k].dtype.kind == "f"}


def by_continuation(vibro, work, repeats):
    seconds = timed([vibro, "continue", EXAMPLE, *CONTINUE, "--output.file=curve.h5", "--output.overwrite=true"], work, repeats)
    with h5py.File(os.path.join(work, "curve.grazing1.curve.h5"), "r") as h5:
        p = parameters(h5)
        omega, lam = h5["curve/parameter_1"][...], h5["curve/parameter_2"][...]
    error = max(abs(l - closed_form()(p, w)) for w, l in zip(omega, lam))
    return seconds, error, omega, p


def by_sweep(vibro, work, omegas, step, repeats, threads):
    lambdas = np.arange(0.5, 2.0 + step / 2, step)
    ini = os.path.join(work, "map.ini")
    with open(ini, "w") as f:
        f.write("model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 1\n[axes]\n"
                "omega = %s\nlambda = %s\n[run]\ncontinuation = lambda\ndirection = up\nmax_periods = 2000\n"
                "window_periods = 32\nsteady_state = adaptive\nthreads = %d\n[output]\nfile = map.h5\noverwrite = true\n"
                % (", ".join("%.12g" % w for w in omegas), ", ".join("%.12g" % v for v in lambdas), threads))
    seconds = timed([vibro, "run", ini], work, repeats)
    import vibro as package  # the sweep as a grid (build/python, put on the path by main)

    grid = package.open(os.path.join(work, "map.h5"))
    p = {k: float(grid[k].values) for k in ("m1", "m2", "omega1", "omega2", "xi1", "xi2", "D", "F0")}
    classes = grid["class"].transpose("omega", "lambda").values
    errors = []
    for w, column in zip(grid["omega"].values, classes):
        free = [k for k, c in enumerate(column) if str(c).startswith("L")]
        if not free or free[-1] + 1 >= len(column):
            continue  # no boundary inside the column
        boundary = 0.5 * (lambdas[free[-1]] + lambdas[free[-1] + 1])
        errors.append(abs(boundary - closed_form()(p, w)))
    return seconds, max(errors), len(omegas) * len(lambdas), len(errors)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vibro", default=os.path.join(SOURCE, "build", "jobs", "vibro"))
    ap.add_argument("--columns", type=int, default=12, help="omega values of the sweep (over the curve's omega range)")
    ap.add_argument("--steps", default="0.05,0.01,0.002", help="the sweep's lambda steps")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    vibro = os.path.abspath(args.vibro)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(vibro)), "python"))  # build/python
    with tempfile.TemporaryDirectory() as work:
        seconds, error, omega, _ = by_continuation(vibro, work, args.repeats)
        print("| method | boundary points | cases | largest error in lambda | wall s | wall s at the curve's accuracy |")
        print("|---|---|---|---|---|---|")
        print("| two-parameter continuation | %d | - | %.2g | %.1f | %.1f |" % (len(omega), error, seconds, seconds))
        omegas = np.linspace(omega.min(), omega.max(), args.columns)
        for step in (float(s) for s in args.steps.split(",")):
            swept, sweep_error, cases, columns = by_sweep(vibro, work, omegas, step, args.repeats, args.threads)
            scaled = swept * sweep_error / error  # cases (and time) grow as 1 / step, the error falls as step
            print("| brute-force sweep, lambda step %g | %d | %d | %.2g | %.1f | %.3g (extrapolated) |"
                  % (step, columns, cases, sweep_error, swept, scaled))


if __name__ == "__main__":
    main()
