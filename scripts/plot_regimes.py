#!/usr/bin/python3
"""Regime diagram of one or more `vibro run` sweep files (generic; written for the vibro-platform,
Bazhenov et al. 2013 Model B, the paper and a shooting reference).

usage: plot_regimes.py IN.h5 [IN2.h5 ...] OUT.png [--x AXIS] [--y OBS[,OBS...]] [--logx | --linx]

Draws, for every input file, the chosen observables (default A1 in mm and max_contact_force in 1e5 N)
against the x axis (default: the first axis in the file's grid order that is not `phase`), one panel
per observable. Every case is a marker coloured by its steady-state class: a distinct colour per
periodic class (n,k) present in any of the files (the same colour in every file and panel), blue for
impact-free (L), grey for irregular (X); a hollow marker flags a slowly converging case ('~' suffix).
Cases that are not ok (infeasible, failed, not run) have no observable value; they are drawn as black
crosses along the panel's bottom edge. When a file has axes besides x (e.g. the forcing phase), all
their cases are drawn at the same x, so multistability shows as several markers per x ('xN' beside a
marker: N cases coincide there). Several files
(e.g. a continuation sweep run with direction up and down) are overlaid, each with its own marker
shape (and a thin line through its cases in run order when x is its only axis), and a legend naming
the file and its continuation direction (root attributes `continuation`, `direction`).
The x axis is logarithmic when its values are positive and span more than a decade (--logx / --linx
force it).

Observables are scaled by their unit: m -> mm, N -> 1e5 N, s -> ms; others as stored.

Prints one table per file: for each x value (ascending), the classes found with their counts, the
range of the first observable over all ok cases, and for the (1,1) class its A1 (mm) and
max_contact_force (N): the mean over the (1,1) cases at that x, and their spread when they differ.
"""
import argparse
import os
import sys
from collections import Counter, OrderedDict

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

DEFAULT_Y = ("A1", "max_contact_force")
MARKERS = ("o", "s", "^", "D", "v", "P", "<", ">", "X")
SIZES = (70, 38, 26, 20, 16, 14, 12, 10, 10)
LINESTYLES = ("-", "--", ":", "-.")
# fixed colours for the common classes, so they look the same in every diagram; others take the next
# free colour of PERIODIC_COLOURS
FIXED_COLOURS = {"(1,1)": "tab:green", "(2,1)": "tab:orange", "(2,2)": "tab:red", "(3,2)": "tab:purple",
                 "(6,3)": "tab:brown", "(4,2)": "tab:pink", "(6,4)": "tab:olive", "(8,4)": "tab:cyan"}
PERIODIC_COLOURS = ("tab:green", "tab:orange", "tab:red", "tab:purple", "tab:brown", "tab:pink",
                    "tab:olive", "tab:cyan", "gold", "navy", "lime", "teal", "maroon", "magenta",
                    "darkorange", "slateblue", "yellowgreen", "crimson", "sienna", "deepskyblue")
L_COLOUR = "tab:blue"
X_COLOUR = "0.55"
OTHER_COLOUR = "black"
# unit -> (factor, shown unit)
UNIT_SCALE = {"m": (1e3, "mm"), "N": (1e-5, "1e5 N"), "s": (1e3, "ms")}


def parse_nk(cls):
    """(n, k) of a class code '(n,k)' or '(n,k)~'; None for any other code."""
    c = cls.rstrip("~")
    if c.startswith("(") and c.endswith(")"):
        try:
            n, k = (int(p) for p in c[1:-1].split(","))
            return n, k
        except ValueError:
            return None
    return None


def base_class(cls):
    return cls.rstrip("~")


def class_sort_key(c):
    nk = parse_nk(c)
    if c == "L":
        return (0, 0, 0, c)
    if nk is not None:
        return (1, nk[0], nk[1], c)
    if c == "X":
        return (3, 0, 0, c)
    return (2, 0, 0, c)


def class_colours(classes):
    """A colour per base class code: (1,1) first, then the other (n,k) by n, k; L blue, X grey."""
    colours = OrderedDict()
    present = sorted(set(classes), key=class_sort_key)
    used = {FIXED_COLOURS[c] for c in present if c in FIXED_COLOURS}
    free = [c for c in PERIODIC_COLOURS if c not in used] or list(PERIODIC_COLOURS)
    i = 0
    for c in present:
        if c == "L":
            colours[c] = L_COLOUR
        elif c == "X":
            colours[c] = X_COLOUR
        elif c in FIXED_COLOURS:
            colours[c] = FIXED_COLOURS[c]
        elif parse_nk(c) is not None:
            colours[c] = free[i % len(free)]
            i += 1
        else:
            colours[c] = OTHER_COLOUR
    return colours


def annotate_counts(ax, xv, yv, cls, ok):
    """Write 'xN' beside a marker that stands for N > 1 coinciding cases (same x, class and value)."""
    groups = Counter()
    for i in np.flatnonzero(ok & np.isfinite(yv)):
        groups[(xv[i], cls[i], float("%.4g" % yv[i]))] += 1
    for (xval, _, yval), cnt in groups.items():
        if cnt > 1:
            ax.annotate("\u00d7%d" % cnt, (xval, yval), xytext=(6, -3), textcoords="offset points",
                        fontsize=7, color="0.25")


def load(path):
    """vibro_results.load plus the root attributes continuation/direction."""
    data = vibro_results.load(path)
    data["continuation"] = str(data["attrs"].get("continuation", "none")) or "none"
    data["direction"] = str(data["attrs"].get("direction", "up")) or "up"
    return data


def default_x(data):
    for name in data["order"]:
        if name != "phase":
            return name
    return data["order"][0] if data["order"] else None


def x_values(data, x):
    """Per-case value of x: the axis if swept, else the fixed parameter (all cases at one x)."""
    if x in data["coords"]:
        return np.asarray(data["coords"][x], dtype=float)
    if x in data["params"] and not isinstance(data["params"][x], str):
        return np.full(data["n"], float(data["params"][x]))
    raise SystemExit("%s: '%s' is neither an axis (%s) nor a numeric parameter"
                     % (data["path"], x, ", ".join(data["order"]) or "none"))


def run_order(data, x):
    """Case indices in the order they were run along x (continuation direction), for one-axis files."""
    idx = np.arange(data["n"])
    if data["continuation"] == x and data["direction"] == "down":
        idx = idx[::-1]
    return idx


def file_label(data, x):
    name = os.path.splitext(os.path.basename(data["path"]))[0]
    if data["continuation"] in ("", "none"):
        return "%s (no continuation)" % name
    c = data["continuation"]
    if c in data["axes"]:
        vals = data["axes"][c]
        if data["direction"] == "down":
            vals = vals[::-1]
        return "%s: continuation %s, direction %s (%s %g \u2192 %g)" % (
            name, c, data["direction"], c, vals[0], vals[-1])
    return "%s: continuation %s, direction %s" % (name, c, data["direction"])


def scale_of(unit):
    return UNIT_SCALE.get(unit, (1.0, unit))


def fmt_counts(classes):
    cnt = Counter(classes)
    return " ".join("%s x%d" % (c, cnt[c]) for c in sorted(cnt, key=class_sort_key))


def print_table(data, x, ys):
    xv = x_values(data, x)
    cls, status = data["cls"], data["status"]
    obs = data["observables"]
    y0 = ys[0]
    f0, u0 = scale_of(data["units"].get(y0, ""))
    a1 = obs.get("A1")
    fmax = obs.get("max_contact_force")
    print()
    print("== %s  [%s]  x = %s; %d cases; %s" % (data["path"], data["model"], x, data["n"],
                                                   file_label(data, x).split(": ", 1)[-1]))
    others = [a for a in data["order"] if a != x]
    if others:
        print("   other axes drawn at the same x: %s" % ", ".join(
            "%s (%d values)" % (a, len(data["axes"][a])) for a in others))
    head = "%12s  %-34s  %-19s  %s" % (x, "classes (count)", "%s (%s) all ok" % (y0, u0),
                                       "(1,1): A1 (mm)   Fmax (N)")
    print(head)
    print("-" * len(head))
    for xval in np.unique(xv):
        sel = np.flatnonzero(xv == xval)
        labels = [cls[i] if status[i] == 0 and cls[i] else "status%d" % status[i] for i in sel]
        ok = sel[status[sel] == 0]
        yv = obs[y0][ok] * f0 if y0 in obs else np.array([])
        yv = yv[np.isfinite(yv)]
        if len(yv) == 0:
            yrange = "-"
        elif np.ptp(yv) <= 5e-4 * max(abs(yv).max(), 1e-300):
            yrange = "%.4f" % yv.mean()
        else:
            yrange = "%.3f .. %.3f" % (yv.min(), yv.max())
        one = sel[[cls[i] == "(1,1)" and status[i] == 0 for i in sel]]
        tag = ""
        if len(one) == 0:
            one = sel[[cls[i] == "(1,1)~" and status[i] == 0 for i in sel]]
            tag = " (only (1,1)~)" if len(one) else ""
        if len(one) and a1 is not None and fmax is not None:
            a = a1[one] * 1e3
            f = fmax[one]
            s = "%.4f  %.4e" % (a.mean(), f.mean())
            if len(one) > 1 and (np.ptp(a) > 1e-4 * abs(a.mean()) or np.ptp(f) > 1e-4 * abs(f.mean())):
                s += "  (spread %.2g mm, %.2g N)" % (np.ptp(a), np.ptp(f))
            s += tag
        else:
            s = "-"
        print("%12g  %-34s  %-19s  %s" % (xval, fmt_counts(labels), yrange, s))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="IN.h5 [IN2.h5 ...] OUT.png")
    ap.add_argument("--x", help="x axis (default: the first axis that is not 'phase')")
    ap.add_argument("--y", help="observables, comma separated (default: %s)" % ",".join(DEFAULT_Y))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--logx", action="store_true", help="log x axis")
    g.add_argument("--linx", action="store_true", help="linear x axis")
    args = ap.parse_args(argv)
    if len(args.files) < 2:
        ap.error("need at least one IN.h5 and the OUT.png")
    inputs, out = args.files[:-1], args.files[-1]
    if out.endswith(".h5"):
        ap.error("the last argument is the output image, not a .h5 file (%s)" % out)

    datas = [load(p) for p in inputs]
    x = args.x or default_x(datas[0])
    if x is None:
        raise SystemExit("%s has no axes: give --x" % inputs[0])
    ys = [s.strip() for s in args.y.split(",") if s.strip()] if args.y else list(DEFAULT_Y)
    for d in datas:
        missing = [y for y in ys if y not in d["observables"]]
        if missing:
            raise SystemExit("%s: no observable %s (has: %s)" % (
                d["path"], ", ".join(missing), ", ".join(d["observables"])))

    all_classes = [base_class(c) for d in datas
                   for c, s in zip(d["cls"], d["status"]) if s == 0 and c]
    colours = class_colours(all_classes)

    xs_all = np.concatenate([x_values(d, x) for d in datas])
    xs_pos = xs_all[np.isfinite(xs_all)]
    if args.logx:
        logx = True
    elif args.linx:
        logx = False
    else:
        logx = bool(len(xs_pos)) and xs_pos.min() > 0 and xs_pos.max() / xs_pos.min() > 10.0

    fig, axs = plt.subplots(len(ys), 1, sharex=True, squeeze=False,
                            figsize=(9.0, 2.2 + 2.8 * len(ys)))
    axs = axs[:, 0]
    any_slow = False
    any_bad = False
    for fi, d in enumerate(datas):
        xv = x_values(d, x)
        marker = MARKERS[fi % len(MARKERS)]
        size = SIZES[min(fi, len(SIZES) - 1)] if len(datas) > 1 else 50
        ok = (d["status"] == 0) & np.array([bool(c) for c in d["cls"]])
        slow = np.array([c.endswith("~") for c in d["cls"]]) & ok
        any_slow |= bool(slow.any())
        one_axis = len(d["order"]) == 1 and d["order"][0] == x
        for ax, y in zip(axs, ys):
            fac, _ = scale_of(d["units"].get(y, ""))
            yv = d["observables"][y] * fac
            if one_axis and len(datas) > 1:
                idx = run_order(d, x)
                idx = idx[ok[idx]]
                ax.plot(xv[idx], yv[idx], LINESTYLES[fi % len(LINESTYLES)], color="0.6", lw=0.8,
                        zorder=1)
            for c, col in colours.items():
                sel = ok & np.array([base_class(k) == c for k in d["cls"]]) & np.isfinite(yv)
                full = sel & ~slow
                hollow = sel & slow
                if full.any():
                    ax.scatter(xv[full], yv[full], s=size, marker=marker, c=col,
                               edgecolors="k", linewidths=0.4, zorder=3 + fi)
                if hollow.any():
                    # a bit larger and on top, so it shows as a ring around a coinciding filled one
                    ax.scatter(xv[hollow], yv[hollow], s=size * 1.8, marker=marker, facecolors="none",
                               edgecolors=col, linewidths=1.3, zorder=20 + fi)
            if not one_axis:
                annotate_counts(ax, xv, yv, d["cls"], ok)
            bad = ~ok
            if bad.any():
                any_bad = True
                tr = blended_transform_factory(ax.transData, ax.transAxes)
                ax.scatter(xv[bad], np.full(bad.sum(), 0.02), s=30, marker="x", c="k",
                           transform=tr, zorder=5, clip_on=False)

    d0 = datas[0]
    for ax, y in zip(axs, ys):
        _, u = scale_of(d0["units"].get(y, ""))
        ax.set_ylabel(style.label(y, u))
        ax.grid(True, alpha=0.3, which="both" if logx else "major")
        if logx:
            ax.set_xscale("log")
    axs[-1].set_xlabel(vibro_results.label(d0, x))
    if not logx:
        xu_vals = np.unique(xs_pos)
        if 1 < len(xu_vals) <= 12:
            axs[-1].set_xticks(xu_vals)
            axs[-1].set_xticklabels(["%g" % v for v in xu_vals])
    else:
        xu_vals = np.unique(xs_pos)
        if len(xu_vals) <= 12:
            axs[-1].set_xticks(xu_vals)
            axs[-1].set_xticklabels(["%g" % v for v in xu_vals])
            axs[-1].minorticks_off()

    # legends: classes (colour) in the first panel, files (marker shape) below the panels
    labels = style.class_labels(list(colours), d0["legend"].get("classes"), width=45)
    handles = [Line2D([], [], ls="", marker="o", ms=7, mfc=col, mec="k", mew=0.4, label=labels[c])
               for c, col in colours.items()]
    if any_slow:
        handles.append(Line2D([], [], ls="", marker="o", ms=7, mfc="none", mec="0.3", mew=1.3,
                              label="hollow: slowly converging (~)"))
    if any_bad:
        handles.append(Line2D([], [], ls="", marker="x", ms=6, color="k", label="not ok"))
    axs[0].legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0),
                  title="class", title_fontsize=8, framealpha=0.85)
    fhandles = [Line2D([], [], ls=LINESTYLES[i % len(LINESTYLES)] if (
        len(datas) > 1 and len(d["order"]) == 1) else "", color="0.6",
        marker=MARKERS[i % len(MARKERS)], ms=7, mfc="0.8", mec="k", label=file_label(d, x))
        for i, d in enumerate(datas)]
    style.legend_outside(axs[-1], fhandles)

    others = sorted({a for d in datas for a in d["order"] if a != x})
    choice = ", ".join("%s=%s" % (k, v) for k, v in sorted(d0["params"].items())
                       if isinstance(v, str))
    title = "%s regimes vs %s" % (d0["model"] or "?", x)
    if choice:
        title += " (%s)" % choice
    if others:
        title += "\nall cases over %s drawn at each %s" % (", ".join(others), x)
    axs[0].set_title(title, fontsize=10)
    style.save(fig, out)
    plt.close(fig)

    for d in datas:
        print_table(d, x, ys)
    print("\nwrote %s" % out)


if __name__ == "__main__":
    main(sys.argv[1:])
