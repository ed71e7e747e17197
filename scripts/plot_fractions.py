#!/usr/bin/python3
"""Basin fractions along a parameter: the global continuation of attractors of a `vibro run` sweep.

usage: plot_fractions.py IN.h5 OUT.png [--max-panels N] [--obs NAME]

Reads /basins (docs/hdf5_schema.md) through vibro.open, written when the sweep sets analysis.global_continuation to one
of its parameter axes and has initial-condition axes: per parameter point the attractors found, each
with its global id (the same attractor at neighbouring points keeps its id), its basin fraction (share
of the initial conditions that reach it) and the events between points (birth, death, merger, split,
period doubling and halving, vanished and return).

Per line along the continuation axis two panels: the fractions stacked (vibro.plot.fractions: one look
per global id, the share without a steady state in grey, seeds and events marked, the legend naming
each id's class and range), and below them each id's property (--obs, default the mean velocity)
against the parameter in the same looks (vibro.plot.attractor_curves). The ids found on most points
get the first looks of the palette, the same in every panel. With further parameter axes, one pair of
panels per combination of their values (at most --max-panels, default 6, spread evenly). Prints the
events with their intervals.
"""
import argparse
import itertools
import os
import sys

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import plot as vibro_plot  # noqa: E402
from vibro import style  # noqa: E402  (the shared look: vibro_results puts python/ on the path)

style.setup()


def panels(ds, axis, most):
    """The values of the axes other than the continuation axis, one dict per line drawn (at most `most`,
    spread evenly)."""
    others = [a for a in ds["basin_cases_run"].dims if a != axis]
    points = [dict(zip(others, values)) for values in itertools.product(*[ds[a].values.tolist() for a in others])]
    if len(points) > most > 0:
        points = [points[k] for k in sorted(set(int(round(v)) for v in np.linspace(0, len(points) - 1, most)))]
    return points


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--max-panels", type=int, default=6)
    ap.add_argument("--obs", default=None, help="the attractors' property in the lower panel (default: the "
                    "first observable named velocity, drift or speed)")
    args = ap.parse_args()
    ds = vibro_results.open_dataset(args.input)
    axis = str(ds.attrs.get("basins_continuation_axis", "none"))
    if axis == "none":
        raise SystemExit("%s: no global continuation in this file (run the sweep with "
                         "analysis.global_continuation = AXIS and initial-condition axes)" % args.input)
    labels = ds["attractor_label"]
    found = (labels != labels.attrs["absent"]).values.reshape(-1, ds.sizes["attractor_id"]).sum(axis=0)
    # the ids found on most points first: the palette's first looks (no long-lived id hatched)
    order = sorted((int(g) for g in np.flatnonzero(found)), key=lambda g: (-found[g], g))
    looks = {gid: style.category_style(k) for k, gid in enumerate(order)}
    shown = panels(ds, axis, args.max_panels)
    fig, axs = plt.subplots(2 * len(shown), 1, figsize=(10, 6.4 * len(shown) + 0.6), squeeze=False,
                            gridspec_kw=dict(height_ratios=[1.1, 1] * len(shown)))
    for row, point in enumerate(shown):
        ax, curves = axs[2 * row, 0], axs[2 * row + 1, 0]
        vibro_plot.fractions(ds, ax=ax, looks=looks, **point)
        vibro_plot.attractor_curves(ds, variable=args.obs, ax=curves, legend=False, looks=looks, **point)
        curves.set_xlim(ax.get_xlim())  # the same parameter range as the fractions above
        curves.set_title("")
        curves.set_title("the attractors' %s along %s (events marked as above)" % (
            curves.get_ylabel().split(" (")[0], axis), fontsize=9, loc="left")
    unit = style.variable_unit(ds[axis])
    unit = "" if unit in style.DIMENSIONLESS else unit
    print("%s: %d global ids, %d events" % (ds.attrs.get("model", ""), len(order), ds.sizes.get("event", 0)))
    for k in range(ds.sizes.get("event", 0)):
        partner = int(ds["event_partner"].values[k])
        print("  %-6s id %d%s in (%g, %g] %s" % (ds["event_kind"].values[k], int(ds["event_global_id"].values[k]),
                                                ("" if partner < 0 else " (partner %d)" % partner),
                                                ds["event_parameter_from"].values[k], ds["event_parameter_to"].values[k],
                                                unit))
    style.save(fig, args.output)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
