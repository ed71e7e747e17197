#!/usr/bin/python3
"""Drift-speed map of a `vibro run` sweep (generic, any model): a transport observable per cell.

usage: plot_drift_map.py IN.h5 OUT.png [--obs NAME] [--x AXIS] [--y AXIS]

Draws the observable NAME (default: the first observable whose name contains "velocity", "drift" or
"speed") over two swept axes (default: the longest across, the next longest up) as a coloured cell map (diverging colours centred on zero, so the
direction of transport reads at a glance; sequential colours for a quantity without sign, whole-number
bands for a count); with one axis, as a curve. Cases with any other axis
values are averaged per cell (e.g. over initial conditions); cases that are not ok are left out.
"""
import argparse
import os
import sys


import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()


def default_observable(names):
    for key in ("velocity", "drift", "speed"):
        for name in names:
            if key in name:
                return name
    raise SystemExit("plot_drift_map.py: no velocity/drift/speed observable; choose one with --obs (%s)" % ", ".join(names))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--obs")
    ap.add_argument("--x")
    ap.add_argument("--y")
    args = ap.parse_args()
    data = vibro_results.load(args.input)
    obs = args.obs or default_observable(list(data["observables"]))
    if obs not in data["observables"]:
        raise SystemExit("plot_drift_map.py: no observable '%s' in %s (%s)" % (obs, args.input, ", ".join(data["observables"])))
    order = data["order"]
    if not order:
        raise SystemExit("plot_drift_map.py: %s has no swept axis" % args.input)
    by_length = sorted(order, key=lambda a: -len(data["axes"][a]))  # stable: ties keep the grid order
    x = args.x or by_length[0]  # the longest axis across, the next longest up
    y = args.y or next((a for a in by_length if a != x), None)
    for a in (x, y):
        if a is not None and a not in order:
            raise SystemExit("plot_drift_map.py: no axis '%s' in %s (%s)" % (a, args.input, ", ".join(order)))
    unit = {a: data["units"][a] for a in order + [obs]}
    label = {k: style.label(k, u) for k, u in unit.items()}
    values = np.where(data["status"] == 0, data["observables"][obs], np.nan)
    xs = data["axes"][x]
    ix = np.searchsorted(xs, data["coords"][x]) if np.all(np.diff(xs) > 0) else np.array([list(xs).index(v) for v in data["coords"][x]])
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    if y is None:
        mean = np.array([np.nanmean(values[ix == i]) if np.any(ix == i) else np.nan for i in range(len(xs))])
        ax.plot(xs, mean, "o-", ms=3)
        ax.axhline(0, color="0.6", lw=0.8)
        ax.set_xlabel(label[x])
        ax.set_ylabel(label[obs])
    else:
        ys = data["axes"][y]
        iy = np.array([list(ys).index(v) for v in data["coords"][y]])
        cells = np.full((len(ys), len(xs)), np.nan)
        for j in range(len(ys)):
            for i in range(len(xs)):
                sel = (ix == i) & (iy == j) & np.isfinite(values)
                if np.any(sel):
                    cells[j, i] = values[sel].mean()
        xe, ye = vibro_results.cell_edges(xs), vibro_results.cell_edges(ys)
        finite = cells[np.isfinite(cells)]
        if finite.size and finite.min() >= 0 and np.all(finite == np.round(finite)):
            style.count_mesh(ax, xe, ye, cells, obs, unit[obs])  # a count: sequential, whole numbers
        elif finite.size and finite.min() >= 0:  # no sign to show: sequential from zero
            mesh = ax.pcolormesh(xe, ye, cells, cmap="viridis", vmin=0, shading="flat")
            fig.colorbar(mesh, ax=ax, label=label[obs])
        else:  # a signed transport: diverging colours centred on zero, the direction reads at a glance
            limit = np.abs(finite).max() if finite.size else 1.0
            mesh = ax.pcolormesh(xe, ye, cells, cmap="RdBu_r", vmin=-limit, vmax=limit, shading="flat")
            fig.colorbar(mesh, ax=ax, label=label[obs])
        ax.set_xlabel(label[x])
        ax.set_ylabel(label[y])
    ax.set_title("%s: %s\n%s" % (data["model"], obs, style.parameter_text(data["dataset"])), fontsize=9)
    style.save(fig, args.output)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
