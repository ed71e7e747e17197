#!/usr/bin/python3
"""Stroboscopic time series of one case of a `vibro run` sweep (generic, any model).

usage: plot_strobe_series.py IN.h5 OUT.png [--case I]

Draws every coordinate of the stroboscopic points stored for case I (default 0): the averaging
window's samples (/cases/strobe; needs output.strobe_points = window, the default) against their
index, one panel per state coordinate, with the drift position when the model transports. The title
gives the case's axis values and the sweep's fixed parameters with units; a residue below the run's
period-detection tolerance (run.tol times the component's largest size in the sweep) is drawn flat.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--case", type=int, default=0)
    args = ap.parse_args()
    ds = vibro_results.open_dataset(args.input)
    if "strobe_values" not in ds:
        raise SystemExit("plot_strobe_series.py: %s has no stroboscopic points (output.strobe_points = none)" % args.input)
    starts, counts = ds.strobe_start.values.reshape(-1), ds.strobe_count.values.reshape(-1)  # per case, file order
    n = len(starts)
    if not 0 <= args.case < n:
        raise SystemExit("plot_strobe_series.py: --case %d is out of range; expected [0, %d]" % (args.case, n - 1))
    lo, hi = int(starts[args.case]), int(starts[args.case] + counts[args.case])
    values = ds.strobe_values.values[lo:hi]
    drift = ds.strobe_drift_position.values[lo:hi]
    columns = [str(c) for c in ds.component.values]
    cls = str(ds["class"].values.reshape(-1)[args.case])
    model = ds.attrs["model"]
    if hi == lo:
        raise SystemExit("plot_strobe_series.py: case %d has no stroboscopic points (class '%s')" % (args.case, cls))
    panels = len(columns) + (1 if np.any(drift != 0) else 0)
    fig, axes = plt.subplots(panels, 1, figsize=(6.4, 1.6 * panels + 0.8), sharex=True, squeeze=False)
    k = np.arange(hi - lo)
    units = ds.strobe_values.attrs.get("units", "").split(",")
    for p, name in enumerate(columns):
        axes[p, 0].plot(k, values[:, p], ".", ms=4)
        axes[p, 0].set_ylabel(style.label(name, units[p] if p < len(units) else ""))
    if panels > len(columns):
        axes[-1, 0].plot(k, drift, ".", ms=4)
        axes[-1, 0].set_ylabel(style.label("drift position", style.variable_unit(ds.strobe_drift_position)))
    # a converged orbit's residue (below the run's period-detection tolerance of the component's size
    # over the sweep) is drawn flat, not as a trend with 8-digit ticks
    tol = float(ds.attrs.get("tol", 1e-4))
    every = np.abs(ds.strobe_values.values)
    for p, ax in enumerate(axes[:, 0]):
        scale = float(np.nanmax(every[:, p])) if p < len(columns) and every.size else float(np.nanmax(np.abs(drift)))
        style.tidy_limits(ax, atol=tol * scale, scale=scale)
    axes[-1, 0].set_xlabel(style.label("stroboscopic sample k (t = t_window + k T)", "-"))
    axes[-1, 0].xaxis.set_major_locator(MaxNLocator(integer=True))  # samples are counted
    where = np.unravel_index(args.case, ds["status"].shape)  # file order is the grid's C order
    point = [style.quantity(dim, ds[dim].values[i], style.variable_unit(ds[dim]))
             for dim, i in zip(ds["status"].dims, where) if dim in ds.coords]
    axes[0, 0].set_title("%s, case %d: class %s\n%s" % (model, args.case, cls, ", ".join(
        [p for p in [", ".join(point), style.parameter_text(ds)] if p])), fontsize=9)
    style.save(fig, args.output)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
