#!/usr/bin/python3
"""Basin fractions along a parameter: the global continuation of attractors of a `vibro run` sweep.

usage: plot_fractions.py IN.h5 OUT.png [--max-panels N] [--obs NAME]

Reads /basins (docs/hdf5_schema.md) through vibro.open, written when the sweep sets analysis.global_continuation to one
of its parameter axes and has initial-condition axes: per parameter point the attractors found, each
with its global id (the same attractor at neighbouring points keeps its id), its basin fraction (share
of the initial conditions that reach it) and the events between points (birth, death, merger, split,
period doubling and halving, vanished and return).

Draws the fractions stacked against the continuation parameter, one look per global id (the ids found
on most points first: nine colours, then the same colours hatched, so no two ids look alike; legend: id, class, the parameter
range where it is found; the ids found on most points first), the share of initial conditions without
a steady state in grey on top (each point drawn as a step as wide as its grid cell), an attractor found
only by a seed (analysis.seed_from_previous; fraction 0) as a diamond on the axis in its colour, and
each event as a marker above the plot at the middle of the interval where it happens (birth: up
triangle, death: down triangle, merger: circle, split: square, period doubling: plus, period
halving: star, vanished: left triangle, return: right triangle) in the colour of the attractor that
appears, changes or ends. The events of ids found on 3 points or more (and on a tenth of the line), or on 2 or more
that reach an end of the line, are large,
labelled with the id, stacked when they lie closer than 4 % of the axis (so no labels overlap) and drawn as a dashed line in the id's colour
through the plot; those of short-lived ids are small, on one row below them. With further parameter axes, one panel per combination of their values (at
most --max-panels, default 6, spread evenly). Below each, the second view (vibro.plot.attractor_curves): each
id's property (--obs, default the mean velocity) against the parameter in the same colours, the median of
its cases with their range, its events marked. Prints the events with their intervals.
"""
import argparse
import os
import sys
from collections import Counter, defaultdict

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import plot as vibro_plot  # noqa: E402  (attractor_curves: the second view)
from vibro import style  # noqa: E402  (the shared look: vibro_results puts python/ on the path)

style.setup()

MARKERS = vibro_plot.EVENT_MARKERS
LEGEND_MAX = 14
LONG_LIVED = 3


def _s(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def read(path):
    """The file's /basins, as vibro.open gives it (dense per point and global id), back as the ragged
    rows per point (offsets, global_id, fraction, class) that the drawing below walks."""
    ds = vibro_results.open_dataset(path)
    continued = str(ds.attrs.get("basins_continuation_axis", "none"))
    if continued == "none":
        raise SystemExit("%s: no global continuation in this file (run the sweep with "
                         "analysis.global_continuation = AXIS and initial-condition axes)" % path)
    axes = [a for a in str(ds.attrs["basins_parameter_axes"]).split(",") if a and a != "none"]
    values = {a: np.asarray(ds[a].values) for a in axes}
    units = {a: str(ds[a].attrs.get("unit", "")) for a in axes}
    npoints = int(np.prod([len(values[a]) for a in axes])) if axes else 1
    width = ds.sizes["attractor_id"]
    label = ds["attractor_label"]
    # a row per (point, id) where the attractor is found (by a seed, too: it has a label, fraction 0)
    point, column = np.nonzero(label.values.reshape(npoints, width) != label.attrs["absent"])
    offsets = np.concatenate([[0], np.cumsum(np.bincount(point, minlength=npoints))])
    table = {"global_id": ds["attractor_id"].values[column]}
    for key, name in (("fraction", "basin_fraction"), ("class", "attractor_class")):
        table[key] = ds[name].values.reshape(npoints, width)[point, column]
    cases_run = ds["basin_cases_run"].values.reshape(-1)
    settled = ds["basin_cases_settled"].values.reshape(-1)
    events = {k: ds["event_" + k].values for k in ("kind", "point", "global_id", "partner", "parameter_from", "parameter_to")}
    return dict(axes=axes, values=values, units=units, offsets=offsets, table=table, cases_run=cases_run,
                settled=settled, events=events, model=str(ds.attrs.get("model", "")), axis=continued,
                dataset=ds)


def unit_text(unit):
    return unit if unit and unit != "-" else "-"


def lines_of(d):
    """Per line along the continuation axis: (title, point indices in axis order)."""
    axes, values = d["axes"], d["values"]
    shape = [len(values[a]) for a in axes]
    q = axes.index(d["axis"])
    grid = np.arange(int(np.prod(shape))).reshape(shape)
    moved = np.moveaxis(grid, q, -1).reshape(-1, shape[q])
    others = [a for a in axes if a != d["axis"]]
    other_shape = [len(values[a]) for a in others]
    out = []
    for k, points in enumerate(moved):
        where = np.unravel_index(k, other_shape) if others else ()
        title = ", ".join(style.quantity(a, values[a][i], d["units"][a]) for a, i in zip(others, where))  # "c_r = 0.6"
        out.append((title, points, {a: values[a][i] for a, i in zip(others, where)}))
    return out


def draw(ax, d, points, look_of, legend_ids):
    colour_of = lambda i: look_of(i)["color"]  # noqa: E731
    x = d["values"][d["axis"]]
    table, offsets = d["table"], d["offsets"]
    fractions = defaultdict(lambda: np.zeros(len(points)))
    present = defaultdict(lambda: np.zeros(len(points), dtype=bool))  # found there (by a seed, too)
    classes = defaultdict(Counter)
    for k, p in enumerate(points):
        for r in range(offsets[p], offsets[p + 1]):
            gid = int(table["global_id"][r])
            fractions[gid][k] += table["fraction"][r]
            present[gid][k] = True
            classes[gid][_s(table["class"][r])] += 1
    ids = sorted(fractions)
    none = 1.0 - (d["settled"][points] / np.maximum(d["cases_run"][points], 1))
    # each point's fractions as a step of the width of its grid cell: the data are per point
    lower = np.zeros(len(points))
    for values, look in [(fractions[i], look_of(i)) for i in ids] + [(none, {"color": "0.8", "hatch": ""})]:
        ax.fill_between(x, lower, lower + values, step="mid", facecolor=look["color"], hatch=look["hatch"] or None,
                        edgecolor="white", linewidth=0)
        lower = lower + values
    # attractors found only by a seed (no initial condition of the grid reached them): fraction 0, so
    # no band; a diamond on the axis in their colour
    for i in ids:
        seeded = present[i] & (fractions[i] == 0)
        if seeded.any():
            ax.plot(x[seeded], np.full(seeded.sum(), 0.0), ls="", marker="D", color=colour_of(i), markeredgecolor="k",
                    markersize=6, clip_on=False, zorder=6)
    # an id at the line's first or last point may live on beyond the grid: its span is a lower bound
    span = {i: int(present[i].sum()) + (len(points) if present[i].sum() > 1 and (present[i][0] or present[i][-1]) else 0)
            for i in ids}
    levels = draw_events(ax, d, points, colour_of, span)
    for i in ids:
        where = x[present[i]]
        legend_ids[i] = (classes[i].most_common(1)[0][0], where.min(), where.max(), len(where))
    ax.set_xlim(x.min(), x.max())
    ax.set_ylim(0, 1)
    ax.set_xlabel("%s [%s]" % (d["axis"], unit_text(d["units"][d["axis"]])))
    ax.set_ylabel("basin fraction [-]")
    return levels


def draw_events(ax, d, points, colour_of, span):
    """The events of this line above the stack, at the middle of their interval. Ids found on many
    points (long_lived: at least LONG_LIVED and a tenth of the line): a large marker labelled with the
    id, events closer than 4 % of the axis stacked upwards (a birth and a death in one interval both show), and
    a dashed line down through the stack in the id's colour. Short-lived ids (which would hide the
    figure): small markers on one row below them."""
    ev = d["events"]
    in_line = set(int(p) for p in points)
    long_lived = max(LONG_LIVED, len(points) // 10)
    x = d["values"][d["axis"]]
    gap = 0.04 * float(x.max() - x.min() or 1.0)  # a label and its marker: ~4 % of the axis wide
    placed = []  # (mid, row) of the large markers drawn: a row holds labels at least `gap` apart
    for k in range(len(ev["kind"])):
        if int(ev["point"][k]) not in in_line:
            continue
        kind = _s(ev["kind"][k])
        gid = int(ev["global_id"][k])
        mid = 0.5 * (ev["parameter_from"][k] + ev["parameter_to"][k])
        style = dict(marker=MARKERS.get(kind, "x"), color=colour_of(gid), markeredgecolor="k", clip_on=False, zorder=5)
        if span.get(gid, 0) < long_lived:
            ax.plot([mid], [1.03], markersize=4, **style)
            continue
        level = next(r for r in range(len(placed) + 1) if all(abs(m - mid) >= gap for m, q in placed if q == r))
        placed.append((mid, level))
        y = 1.09 + 0.06 * level
        ax.plot([mid], [y], markersize=8, **style)
        ax.annotate("%d" % gid, (mid, y), xytext=(5, -3), textcoords="offset points", fontsize=7, annotation_clip=False)
        ax.axvline(mid, color=colour_of(gid), lw=1.2, ls="--", zorder=4)
    return 1 + max(q for _, q in placed) if placed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--max-panels", type=int, default=6)
    ap.add_argument("--obs", default=None, help="the attractors' property in the lower panel (default: the "
                    "first observable named velocity, drift or speed)")
    args = ap.parse_args()
    d = read(args.input)
    lines = lines_of(d)
    shown = list(range(len(lines)))
    if len(lines) > args.max_panels > 0:
        shown = sorted(set(int(round(v)) for v in np.linspace(0, len(lines) - 1, args.max_panels)))
    # colours by how many points an id is found on: the longest-lived ids get distinct colours (the
    # events draw dashed lines in them, so no long-lived id is black or grey)
    spans = Counter(int(g) for g in d["table"]["global_id"])
    rank = {i: k for k, (i, _) in enumerate(sorted(spans.items(), key=lambda kv: (-kv[1], kv[0])))}
    # past the palette's nine colours an id is told apart by its hatch: no two ids of the figure alike
    look_of = lambda i: style.category_style(rank.get(i, len(rank) + i))  # noqa: E731
    # per line two panels: the fractions, then each id's mean velocity (or other property) along the
    # axis in the same colours, births and deaths marked (vibro.plot.attractor_curves)
    fig, axs = plt.subplots(2 * len(shown), 1, figsize=(10, 6.4 * len(shown) + 0.6), squeeze=False,
                            gridspec_kw=dict(height_ratios=[1.1, 1] * len(shown)))
    ev = d["events"]
    unit = unit_text(d["units"][d["axis"]])
    for row, k in enumerate(shown):
        ax, curves = axs[2 * row, 0], axs[2 * row + 1, 0]
        title, points, point = lines[k]
        ids = sorted(set(int(g) for g in d["table"]["global_id"]))
        vibro_plot.attractor_curves(d["dataset"], variable=args.obs, ax=curves, legend=False,
                                    looks={i: look_of(i) for i in ids}, **point)
        curves.set_title("")
        curves.set_title("the attractors' %s along %s (events marked as above)" % (
            curves.get_ylabel().split(" (")[0], d["axis"]), fontsize=9, loc="left")
        curves.set_xlim(d["values"][d["axis"]].min(), d["values"][d["axis"]].max())
        legend_ids = {}
        levels = draw(ax, d, points, look_of, legend_ids)
        handles = []
        # the ids found on most points first
        for i, (cls, lo, hi, _) in sorted(legend_ids.items(), key=lambda kv: (-kv[1][3], kv[0]))[:LEGEND_MAX]:
            shown_unit = "" if unit == "-" else " " + unit
            handles.append(style.category_handle(look_of(i), "id %d: %s, %s %g..%g%s" % (i, cls, d["axis"], lo, hi, shown_unit)))
        if len(legend_ids) > LEGEND_MAX:
            handles.append(Patch(facecolor="none", edgecolor="none", label="+ %d more ids" % (len(legend_ids) - LEGEND_MAX)))
        handles.append(Patch(facecolor="0.8", label="no steady state"))
        handles.append(Line2D([], [], ls="", marker="D", color="0.5", markeredgecolor="k",
                              label="found only by a seed (fraction 0)"))
        for kind, m in MARKERS.items():
            handles.append(Line2D([], [], ls="", marker=m, color="0.5", markeredgecolor="k", label=kind))
        style.legend_outside(ax, handles, frameon=False)
        fixed = style.parameter_text(d["dataset"])  # with units
        line = ", ".join(t for t in (title, fixed) if t)
        ax.set_title("basin fractions along %s: %s%s" % (d["axis"], d["model"], ("\n" + line) if line else ""),
                     fontsize=10, pad=22 + 18 * levels)
    print("%s: %d global ids, %d events" % (d["model"], len(set(int(g) for g in d["table"]["global_id"])),
                                            len(ev["kind"])))
    for k in range(len(ev["kind"])):
        partner = int(ev["partner"][k])
        print("  %-6s id %d%s in (%g, %g] %s" % (_s(ev["kind"][k]), int(ev["global_id"][k]),
                                                ("" if partner < 0 else " (partner %d)" % partner),
                                                ev["parameter_from"][k], ev["parameter_to"][k], unit))
    style.save(fig, args.output)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
