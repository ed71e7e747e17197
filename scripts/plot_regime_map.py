#!/usr/bin/python3
"""Regime map of a `vibro run` sweep over two parameters, with two-parameter curves laid over it.

usage: plot_regime_map.py IN.h5 OUT.png [--x AXIS] [--y AXIS] [--class CODE] [--overlay CURVE.h5 ...]

Each cell of the (x, y) grid is coloured by the class most of its cases reached (over every other axis,
e.g. the initial conditions), or with --class CODE by whether any of its cases reached that class:
vibro.plot.regime_map. Each --overlay file (`vibro continue --curve`: a
grazing, period-doubling or fold curve in the same two parameters) is drawn over it as a line
(vibro.plot.curves). Default axes: the two longest swept axes that are not initial conditions (then
initial-condition axes), the longest across. Prints, per curve, its kind, points and parameter ranges.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402,F401  (puts python/ on the path)
import matplotlib.pyplot as plt  # noqa: E402
import vibro  # noqa: E402
import vibro.plot  # noqa: E402
from vibro import style  # noqa: E402

style.setup()


def parameter_axes(dataset):
    """The swept axes, those that are not initial conditions first, each group longest first (ties
    keep the grid order)."""
    attractor = dataset["attractor"].attrs if "attractor" in dataset else {}
    initial = str(attractor.get("initial_condition_axes", "")).split(",")
    return sorted(dataset["class"].dims, key=lambda a: (a in initial, -dataset.sizes[a]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--x")
    ap.add_argument("--y")
    ap.add_argument("--class", dest="present")
    ap.add_argument("--overlay", action="append", default=[])
    args = ap.parse_args()
    dataset = vibro.open(args.input)
    axes = parameter_axes(dataset)
    x = args.x or (axes[0] if axes else None)
    y = args.y or next((a for a in axes if a != x), None)
    for name in (x, y):
        if name is None or name not in dataset["class"].dims:
            raise SystemExit("plot_regime_map.py: %s needs two swept axes (it has %s)"
                             % (args.input, ", ".join(dataset["class"].dims) or "none"))
    overlay = [vibro.open(path) for path in args.overlay]
    fig, ax = plt.subplots(figsize=(8.0, 4.8))
    try:
        vibro.plot.regime_map(dataset, x, y, ax=ax, overlay=overlay, present=args.present)
    except ValueError as error:
        raise SystemExit("plot_regime_map.py: %s" % error)
    for path, curve in zip(args.overlay, overlay):
        print("%s: %s curve, %d points, %s in [%.8g, %.8g], %s in [%.8g, %.8g]"
              % (path, curve.attrs.get("kind"), curve.sizes["point"], x, float(curve[x].min()), float(curve[x].max()),
                 y, float(curve[y].min()), float(curve[y].max())))
    style.save(fig, args.output)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
