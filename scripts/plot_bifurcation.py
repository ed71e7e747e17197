#!/usr/bin/python3
"""Brute-force bifurcation diagram of one or more `vibro run` sweep files (generic, any model).

usage: plot_bifurcation.py IN.h5 [IN2.h5 ...] OUT.png [--x AXIS] [--coord NAME]

For every case, the stroboscopic points of its averaging window (/cases/strobe values + offsets,
docs/hdf5_schema.md; the file must have been written with output.strobe_points = window, the default)
are drawn as small dots at the case's value of the swept axis: coordinate NAME of the stroboscopic
state (--coord; a column named in the attribute `columns` of /cases/strobe/values, default the first
column; `drift_position` also works) against AXIS (--x; default the root attribute `continuation` when
it is not `none`, else the axis with the most values). A period-k orbit shows k dots per case, an
irregular one a vertical band. Dots are coloured by the case's class (the same colour in every file;
the '~' mark of a slowly converging case is dropped for the colour). Cases with further axes besides x
are all drawn at their x value. Cases that are not ok (no stroboscopic points) are drawn as black
crosses on the bottom edge.

Several files (e.g. an upward and a downward continuation sweep of the same axis) are overlaid, each
with its own marker (filled dots for the first, hollow circles for the second, then crosses, ...) and
a legend entry naming the file and its continuation axis and direction (root attributes
`continuation`, `direction`); below the diagram a thin strip per file shows the class at each x (the
most common class there when the file has further axes), so hysteresis shows as strips that differ.

Prints one table per file: the runs of equal class along x (ascending): x range, class, number of
cases, distinct stroboscopic values of the coordinate per case (min-max; values closer than 1e-5 of
the coordinate's overall range count as one; a period-k orbit has k), the coordinate's range, and impacts per period when the
model has that observable.
"""
import argparse
import os
import sys
from collections import Counter

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.transforms import blended_transform_factory  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()

FILE_STYLES = (dict(marker="o", s=3, filled=True), dict(marker="o", s=16, filled=False),
               dict(marker="x", s=10, filled=True), dict(marker="+", s=14, filled=True),
               dict(marker="s", s=10, filled=False), dict(marker="^", s=10, filled=False))


def base_class(c):
    return c.rstrip("~")


def class_sort_key(c):
    """L/S first, then periodic codes by (period, impacts), X last."""
    if c in ("L", "S"):
        return (0, 0, 0, c)
    if c.startswith("X"):
        return (3, 0, 0, c)
    if c == "Q":  # quasi-periodic: after every periodic code, before X
        return (2, 10**9, 0, c)
    if c.startswith("(") and c.endswith(")"):
        try:
            n, k = (int(p) for p in c[1:-1].split(","))
            return (1, n, k, c)
        except ValueError:
            pass
    digits = "".join(ch for ch in c if ch.isdigit())
    return (2, int(digits) if digits else 0, 0, c)


def read_strobe(path, data, coord):
    """The root attributes, the coordinate's name, unit and stroboscopic values, and each case's rows."""
    ds = data["dataset"]
    samples = vibro_results.strobe(data)
    if samples is None:
        raise SystemExit("%s: no /cases/strobe (run with output.strobe_points = window)" % path)
    columns = samples["columns"]
    if coord is None or coord in columns:
        name = coord or columns[0]
        values, unit = np.asarray(samples["values"][:, columns.index(name)], dtype=float), samples["units"][name]
    elif coord == "drift_position":
        name, values = coord, np.asarray(ds.strobe_drift_position.values, dtype=float)
        unit = style.variable_unit(ds.strobe_drift_position)
    else:
        raise SystemExit("%s: no stroboscopic coordinate %r; columns: %s (or drift_position)"
                         % (path, coord, ", ".join(columns)))
    return dict(ds.attrs), name, unit, values, samples["offsets"]


def longest_axis(data):
    """The default x axis: the swept axis with the most values (the first of those), so that a sweep of
    33 aspect ratios at 3 frequencies is drawn against the aspect ratio; None without axes."""
    return max(data["order"], key=lambda name: len(data["axes"][name])) if data["order"] else None


def distinct_count(v, tol):
    if v.size == 0:
        return 0
    v = np.sort(v)
    return int(1 + np.count_nonzero(np.diff(v) > tol))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="IN.h5 [IN2.h5 ...] OUT.png")
    ap.add_argument("--x", default=None, help="swept axis on the horizontal axis")
    ap.add_argument("--coord", default=None, help="stroboscopic coordinate (column name)")
    args = ap.parse_args()
    if len(args.files) < 2:
        ap.error("need at least one input file and the output file")
    inputs, output = args.files[:-1], args.files[-1]

    runs = []
    for path in inputs:
        data = vibro_results.load(path)
        root, cname, cunit, values, offsets = read_strobe(path, data, args.coord)
        cont = root.get("continuation", "none")
        xname = args.x or (cont if cont and cont != "none" else longest_axis(data))
        if xname is None or xname not in data["coords"]:
            raise SystemExit("%s: no axis %r to plot against; axes: %s" % (path, xname, ", ".join(data["order"])))
        runs.append(dict(path=path, data=data, root=root, cname=cname, cunit=cunit, values=values, offsets=offsets,
                         xname=xname, cont=cont, direction=root.get("direction", "up")))
    xname = runs[0]["xname"]
    if any(r["xname"] != xname for r in runs):
        print("warning: the files default to different x axes (%s); using %s"
              % (", ".join(sorted(set(r["xname"] for r in runs))), xname))
        for r in runs:
            if xname not in r["data"]["coords"]:
                raise SystemExit("%s has no axis %s" % (r["path"], xname))
            r["xname"] = xname
    cname = runs[0]["cname"]

    classes = sorted({base_class(c) for r in runs for c, s in zip(r["data"]["cls"], r["data"]["status"])
                      if s == 0 and c}, key=class_sort_key)
    looks = style.category_styles(classes)  # past the palette: the class's marker (one file) and hatch (strip)
    colours = {c: look["color"] for c, look in looks.items()}
    all_values = np.concatenate([r["values"] for r in runs]) if runs else np.array([])
    finite = all_values[np.isfinite(all_values)]
    span = float(finite.max() - finite.min()) if finite.size else 1.0
    tol = 1e-5 * (span if span > 0 else 1.0)

    nstrip = len(runs)
    fig = plt.figure(figsize=(11, 6.2 + 0.35 * nstrip))
    gs = fig.add_gridspec(1 + nstrip, 1, height_ratios=[16] + [1] * nstrip, hspace=0.08)
    ax = fig.add_subplot(gs[0])
    strips = [fig.add_subplot(gs[1 + k], sharex=ax) for k in range(nstrip)]
    bottom = blended_transform_factory(ax.transData, ax.transAxes)

    file_handles = []
    for k, r in enumerate(runs):
        data, offs, vals = r["data"], r["offsets"], r["values"]
        look = FILE_STYLES[k % len(FILE_STYLES)]
        x = data["coords"][xname]
        cls = np.array([base_class(c) for c in data["cls"]], dtype=object)
        counts = np.diff(offs)
        xs = np.repeat(x, counts)
        cs = np.repeat(cls, counts)
        for c in classes:
            sel = cs == c
            if not sel.any():
                continue
            marker = looks[c]["marker"] if nstrip == 1 else look["marker"]  # several files: marker = file
            if look["filled"]:
                ax.scatter(xs[sel], vals[sel], s=look["s"], marker=marker, c=colours[c],
                           linewidths=0.6 if look["marker"] in "x+" else 0, zorder=3 + k, rasterized=True)
            else:
                ax.scatter(xs[sel], vals[sel], s=look["s"], marker=marker, facecolors="none",
                           edgecolors=colours[c], linewidths=0.6, zorder=3 + k, rasterized=True)
        bad = data["status"] != 0
        if bad.any():
            ax.scatter(x[bad], np.full(bad.sum(), 0.01), transform=bottom, marker="x", s=14, c="black",
                       linewidths=0.8, zorder=5, clip_on=False)
        desc = os.path.splitext(os.path.basename(r["path"]))[0]
        if r["cont"] and r["cont"] != "none":
            desc += " (%s %s)" % (r["cont"], r["direction"])
        file_handles.append(Line2D([], [], linestyle="none", marker=look["marker"], color="black",
                                   markerfacecolor="black" if look["filled"] else "none",
                                   markersize=4 if look["filled"] else 6, label=desc))

        # class strip: the (most common) class at each x value, x ascending
        xv = np.unique(x)
        strip_cls = []
        for v in xv:
            here = [c for c, s in zip(cls[x == v], data["status"][x == v]) if s == 0 and c]
            strip_cls.append(Counter(here).most_common(1)[0][0] if here else "")
        strip_codes = sorted(set(strip_cls), key=lambda c: (c == "", class_sort_key(c) if c else ()))
        pos = {c: i for i, c in enumerate(strip_codes)}
        sa = strips[k]
        style.category_mesh(sa, vibro_results.cell_edges(xv), [0, 1], np.array([[pos[c] for c in strip_cls]], dtype=float),
                            [looks[c] if c in looks else {"color": "black", "hatch": ""} for c in strip_codes],
                            shading="flat")
        sa.set_yticks([0.5])
        sa.set_yticklabels(["%s %s" % ("●" if look["filled"] and look["marker"] == "o" else
                                       "○" if look["marker"] == "o" else look["marker"], r["direction"])
                            if r["cont"] != "none" else "class"], fontsize=7)
        sa.tick_params(axis="y", length=0)
        if k < nstrip - 1:
            plt.setp(sa.get_xticklabels(), visible=False)

        # table: runs of equal class along x (ascending)
        ipp = data["observables"].get("impacts_per_period")
        print("%s: model %s, %d cases, x = %s, coordinate %s; continuation %s, direction %s"
              % (r["path"], data["model"], data["n"], xname, cname, r["cont"], r["direction"]))
        print("  %-21s %-10s %5s  %-9s %-27s %s" % ("x range", "class", "cases", "distinct",
                                                     "%s range" % cname, "impacts/T" if ipp is not None else ""))
        order = np.argsort(x, kind="stable")
        seg = []

        def flush(seg):
            if not seg:
                return
            idx = np.array(seg)
            nd = [distinct_count(vals[offs[i]:offs[i + 1]], tol) for i in idx]
            pv = np.concatenate([vals[offs[i]:offs[i + 1]] for i in idx])
            rng = "[%.6g, %.6g]" % (pv.min(), pv.max()) if pv.size else "-"
            xr = ("%.6g" % x[idx[0]]) if x[idx[0]] == x[idx[-1]] else "%.6g .. %.6g" % (x[idx[0]], x[idx[-1]])
            label = data["cls"][idx[0]] or {1: "infeasible", 2: "failed", 3: "not run"}.get(
                int(data["status"][idx[0]]), "?")
            nds = ("%d" % min(nd)) if min(nd) == max(nd) else "%d-%d" % (min(nd), max(nd))
            ip = ""
            if ipp is not None:
                v = ipp[idx]
                v = v[np.isfinite(v)]
                if v.size:
                    ip = ("%.4g" % v.min()) if np.isclose(v.min(), v.max()) else "%.4g-%.4g" % (v.min(), v.max())
            print("  %-21s %-10s %5d  %-9s %-27s %s" % (xr, label, len(idx), nds, rng, ip))

        prev = None
        for i in order:
            key = (data["cls"][i], int(data["status"][i]))
            if key != prev:
                flush(seg)
                seg = []
                prev = key
            seg.append(i)
        flush(seg)
        print()

    strips[-1].set_xlabel(vibro_results.label(runs[0]["data"], xname))
    plt.setp(ax.get_xticklabels(), visible=False)
    ax.set_ylabel(style.label("%s at t = kT (window of each case)" % cname, runs[0]["cunit"]))
    ax.grid(True, alpha=0.3, linewidth=0.5)
    meanings = runs[0]["data"]["legend"].get("classes")
    labels = style.class_labels(classes, meanings, width=40)
    class_handles = [style.category_handle(looks[c], labels[c], "marker" if nstrip == 1 else "patch") for c in classes]
    # one legend right of the diagram, the files (marker) then the classes (colour): a legend of the
    # axes, which the layout makes room for
    gap = Line2D([], [], linestyle="none", label=" ")
    ax.legend(handles=file_handles + [gap] + class_handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0),
              ncol=max(1, (len(classes) + len(file_handles) + 20) // 22), frameon=False)
    models = sorted({r["data"]["model"] for r in runs})
    fixed = style.parameter_text(runs[0]["data"]["dataset"]) if len(runs) == 1 else ""
    ax.set_title("bifurcation diagram (stroboscopic points): %s, %s against %s%s" % (", ".join(models), cname, xname,
                 "\n" + fixed if fixed else ""), fontsize=10)
    style.save(fig, output)
    print("wrote %s" % output)


if __name__ == "__main__":
    main()
