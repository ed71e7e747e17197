#!/usr/bin/python3
"""Basin maps of a `vibro run` sweep over initial conditions (generic, any model).

usage: plot_basins.py IN.h5 OUT.png [--max-panels N] [--obs NAME] [--box B]

Reads /cases/attractor (docs/hdf5_schema.md): the attractor label of every case within its parameter
point (the cases that differ only in the [initial] axes named by the attribute initial_condition_axes;
equal labels = same attractor, -1 = no steady state). The file must have been written with
output.strobe_points = window (the default), otherwise it has no labels.

Draws one panel per parameter point (the grid of the axes that are not initial conditions; at most
--max-panels, default 6, spread evenly over the points when there are more): the label over the first
two initial-condition axes as an image, x = the first, y = the second, one colour per label, with a
legend per panel giving the label, its class code(s), the mean of the observable (--obs; default
mean_velocity or A1 when the model has it, else the first in alphabetical order) over the label's cases
and its basin fraction. Infeasible cases are grey, failed ones black, cases not run white. With only one
initial-condition axis every parameter point is a 1-D strip of labels along it. Further initial-condition
axes (more than two) split a parameter point into several panels, one per combination of their values.

Prints, per parameter point (per panel), the basin fractions (share of the initial conditions reaching
each attractor, with its class, observable mean and range) and the basin entropy of Daza et al. (2016),
"Basin entropy: a new tool to analyze uncertainty in dynamical systems", Sci. Rep. 6, 31416: the grid of
initial conditions is split into boxes of B x B cells (--box, default 5; B cells in 1-D; trailing cells
that do not fill a whole box are left out), the Gibbs entropy S_i = -sum_j p_ij ln p_ij of the outcome
distribution in each box, averaged over all boxes (S_b) and over the boxes with more than one outcome
(boundary basin entropy S_bb). Outcomes are the attractor labels; "infeasible" and "failed" count as
two further outcomes. S_bb > ln 2 is a sufficient condition for fractal basin boundaries (Daza et al.).
Files of schema 4 carry these values per parameter point (/basins, computed by vibro's
analysis/basin_entropy): they are read from the file when the panels are its parameter points and --box
is the file's box size, and computed here otherwise (older files, another --box).
"""
import argparse
import math
import os
import sys
from collections import Counter

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()

PREFERRED_OBS = ("mean_velocity", "A1")
LEGEND_MAX = 12
# outcome codes of cases without a steady state (from /cases/status)
INFEASIBLE, FAILED, NOT_RUN = -2, -3, -4
SPECIAL = {INFEASIBLE: ("infeasible", "0.6"), FAILED: ("failed", "black"), NOT_RUN: ("not run", "white")}
# observable units shown scaled: unit -> (factor, shown unit)
UNIT_SCALE = {"m": (1e3, "mm"), "N": (1e-5, "1e5 N"), "s": (1e3, "ms")}


def read_extra(path):
    """What vibro_results.load does not read: attractor labels, IC axes, units, root attributes."""
    ds = vibro_results.open_dataset(path)
    if "attractor" not in ds:
        raise SystemExit("%s: no /cases/attractor (run with output.strobe_points = window)" % path)
    att = ds.attractor
    labels = np.asarray(att.values.reshape(-1), dtype=int)
    ic = [a.strip() for a in att.attrs.get("initial_condition_axes", "none").split(",")
          if a.strip() and a.strip() != "none"]
    units = {n: ds[n].attrs.get("unit", "") for n in ds.status.dims}
    obs_units = {n: ds[n].attrs.get("unit", "") for n in ds.data_vars
                 if ds[n].attrs.get("source", "").startswith("/cases/observables/")}
    root = dict(ds.attrs)
    entropies = None
    if "basin_entropy" in ds:  # schema 4: computed by vibro (analysis/basin_entropy), per parameter point
        flat = [ds[n].values.reshape(-1).tolist() for n in
                ("basin_entropy", "boundary_basin_entropy", "basin_entropy_boxes", "basin_boundary_boxes")]
        entropies = (int(ds.attrs["basins_entropy_box"]), list(zip(*flat)))
    return labels, ic, units, obs_units, root, entropies


def entropy_of(counts):
    p = np.asarray([c for c in counts if c > 0], dtype=float)
    p /= p.sum()
    return float(-(p * np.log(p)).sum())


def basin_entropy(outcome, box):
    """(S_b, S_bb, boxes, boundary boxes) of a 1-D or 2-D outcome grid, boxes of box (x box) cells."""
    if outcome.ndim == 1:
        outcome = outcome[None, :]
        bshape = (1, box)
    else:
        bshape = (box, box)
    n0, n1 = outcome.shape[0] // bshape[0], outcome.shape[1] // bshape[1]
    s_all = []
    s_boundary = []
    for i in range(n0):
        for j in range(n1):
            cell = outcome[i * bshape[0]:(i + 1) * bshape[0], j * bshape[1]:(j + 1) * bshape[1]]
            counts = Counter(cell.ravel().tolist())
            s = entropy_of(counts.values())
            s_all.append(s)
            if len(counts) > 1:
                s_boundary.append(s)
    if not s_all:
        return float("nan"), float("nan"), 0, 0
    sbb = float(np.mean(s_boundary)) if s_boundary else 0.0
    return float(np.mean(s_all)), sbb, len(s_all), len(s_boundary)


def fmt_value(name, value, units):
    u = units.get(name, "")
    return "%s = %g%s" % (name, value, (" " + u) if u and u != "-" else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--max-panels", type=int, default=6)
    ap.add_argument("--obs", default=None, help="observable averaged per attractor in legend and table")
    ap.add_argument("--box", type=int, default=5, help="box size of the basin entropy, cells (default 5)")
    args = ap.parse_args()

    data = vibro_results.load(args.input)
    labels, ic, units, obs_units, root, entropies = read_extra(args.input)
    order, shape = data["order"], data["shape"]
    ic = [a for a in ic if a in order]
    if not ic:
        raise SystemExit("%s: no initial-condition axes (attribute initial_condition_axes = none): "
                         "every parameter point has one case, there are no basins to map" % args.input)
    map_axes = ic[:2]
    # panels: every combination of the axes that are not map axes (parameters first, then extra IC axes)
    panel_axes = [a for a in order if a not in map_axes]
    panel_axes = [a for a in panel_axes if a not in ic] + [a for a in panel_axes if a in ic]
    perm = [order.index(a) for a in panel_axes + map_axes]

    if args.obs:
        if args.obs not in data["observables"]:
            raise SystemExit("no observable %r; have %s" % (args.obs, ", ".join(data["observables"])))
        obs_name = args.obs
    else:
        obs_name = next((o for o in PREFERRED_OBS if o in data["observables"]),
                        next(iter(data["observables"]), None))
    obs = data["observables"].get(obs_name) if obs_name else None
    factor, obs_unit = UNIT_SCALE.get(obs_units.get(obs_name, ""), (1.0, obs_units.get(obs_name, "")))

    status = data["status"]
    outcome = labels.copy()
    outcome[(labels < 0) & (status == 1)] = INFEASIBLE
    outcome[(labels < 0) & (status == 2)] = FAILED
    outcome[(labels < 0) & (status == 3)] = NOT_RUN
    outcome[(labels < 0) & (status == 0)] = FAILED  # ok but unlabelled: should not happen
    idx = np.arange(data["n"]).reshape(shape).transpose(perm)   # panel axes..., map axes
    panel_shape = idx.shape[:len(panel_axes)]
    map_shape = idx.shape[len(panel_axes):]
    idx = idx.reshape((-1,) + map_shape)
    n_panels = idx.shape[0]

    print("%s: model %s, %d cases; initial-condition axes %s; %d parameter point(s)%s"
          % (args.input, data["model"], data["n"], " x ".join("%s (%d)" % (a, len(data["axes"][a]))
                                                             for a in ic),
             n_panels, "" if not panel_axes else " over " + ", ".join(panel_axes)))
    print("observable: %s%s; basin entropy boxes of %s cells" % (
        obs_name, " [%s]" % obs_unit if obs_unit else "",
        ("%dx%d" % (args.box, args.box)) if len(map_axes) == 2 else str(args.box)))

    panels = []
    for p in range(n_panels):
        cases = idx[p]
        where = np.unravel_index(p, panel_shape) if panel_axes else ()
        title = ", ".join(fmt_value(a, data["axes"][a][k], units) for a, k in zip(panel_axes, where))
        if not title:  # one parameter point: the figure's title names its parameters
            title = "%s (one parameter point)" % data["model"]
        out = outcome[cases]
        flat = cases.ravel()
        total = flat.size
        rows = []
        for lab in sorted(set(outcome[flat].tolist()), key=lambda v: (v < 0, abs(v))):
            sel = flat[outcome[flat] == lab]
            if lab >= 0:
                cls = Counter(data["cls"][sel])
                cls_text = "/".join(c for c, _ in cls.most_common())
                vals = obs[sel] * factor if obs is not None else np.array([np.nan])
                mean = float(np.nanmean(vals)) if np.isfinite(vals).any() else float("nan")
                lo = float(np.nanmin(vals)) if np.isfinite(vals).any() else float("nan")
                hi = float(np.nanmax(vals)) if np.isfinite(vals).any() else float("nan")
            else:
                cls_text, mean, lo, hi = SPECIAL[lab][0], float("nan"), float("nan"), float("nan")
            rows.append((lab, cls_text, len(sel), len(sel) / total, mean, lo, hi))
        # the file's values where its points are the panels and its box is asked for; else computed here
        # (files before schema 4, another --box, more than two initial-condition axes)
        from_file = (entropies is not None and entropies[0] == args.box and len(ic) <= 2
                     and len(entropies[1]) == n_panels)
        sb, sbb, nbox, nbound = entropies[1][p] if from_file else basin_entropy(out, args.box)
        panels.append((title, cases, out, rows, sb, sbb))

        n_att = sum(1 for r in rows if r[0] >= 0)
        print()
        print("%s: %d initial conditions, %d attractor(s)" % (title, total, n_att))
        print("  %5s  %-12s %8s %6s  %14s  %s" % ("label", "class", "share", "cases",
                                                  "mean " + (obs_name or "-"), "range"))
        for lab, cls_text, cnt, share, mean, lo, hi in rows:
            if lab >= 0:
                rng = "[%.6g, %.6g]" % (lo, hi)
                rng = rng if "%.6g" % lo != "%.6g" % hi else ""
                print("  %5d  %-12s %7.2f%% %6d  %14.6g  %s" % (lab, cls_text, 100 * share, cnt, mean, rng))
            else:
                print("  %5s  %-12s %7.2f%% %6d" % ("-", cls_text, 100 * share, cnt))
        print("  basin entropy S_b = %.4f, boundary basin entropy S_bb = %.4f (%d boxes, %d on a boundary;"
              " ln 2 = 0.6931%s)" % (sb, sbb, nbox, nbound,
                                      ": S_bb > ln 2, fractal boundary" if sbb > math.log(2) else ""))

    # choose the panels to draw
    shown = list(range(n_panels))
    if n_panels > args.max_panels > 0:
        shown = sorted(set(int(round(v)) for v in np.linspace(0, n_panels - 1, args.max_panels)))
        print("\ndrawing %d of %d parameter points (--max-panels)" % (len(shown), n_panels))
    one_d = len(map_axes) == 1
    nshow = len(shown)
    if one_d:
        fig, axs = plt.subplots(nshow, 1, figsize=(10, 1.0 + 1.3 * nshow), squeeze=False)
        axs = axs[:, 0]
    else:
        ncol = min(3, nshow)
        nrow = int(math.ceil(nshow / ncol))
        lines = max(min(len(panels[p][3]), LEGEND_MAX + 1) for p in shown)
        fig, axs = plt.subplots(nrow, ncol, figsize=(5.6 * ncol, (4.6 + 0.17 * lines) * nrow), squeeze=False,
                                gridspec_kw=dict(hspace=0.2 + 0.06 * lines))
        axs = axs.ravel()
        for ax in axs[nshow:]:
            ax.set_visible(False)

    xname = map_axes[0]
    xv = data["axes"][xname]
    for ax, p in zip(axs, shown):
        title, cases, out, rows, sb, sbb = panels[p]
        codes = [r[0] for r in rows]
        # label k: the k-th category look (colour, and past the palette a hatch), the same in every panel
        looks = [style.category_style(c) if c >= 0 else {"color": SPECIAL[c][1], "hatch": ""} for c in codes]
        pos = {c: k for k, c in enumerate(codes)}
        img = np.vectorize(pos.get)(out).astype(float)
        if one_d:
            style.category_mesh(ax, vibro_results.cell_edges(xv), [0, 1], img[None, :], looks, shading="flat")
            ax.set_yticks([])
        else:
            yname = map_axes[1]
            yv = data["axes"][yname]
            # image rows = y (second map axis), columns = x (first map axis)
            style.category_mesh(ax, vibro_results.cell_edges(xv), vibro_results.cell_edges(yv), img.T, looks,
                                shading="flat")
            ax.set_ylabel(style.label(yname, units.get(yname, "")))
        ax.set_xlabel(style.label(xname, units.get(xname, "")))
        ax.set_title("%s\nS_b = %.3f, S_bb = %.3f" % (title, sb, sbb), fontsize=9)
        handles = []
        labels = style.class_labels([r[1] for r in rows], data["legend"].get("classes"), width=40)
        # means that are zero up to rounding (a resting attractor's drift, 1e-10) shown as 0
        scale = max([abs(r[4]) for r in rows if r[0] >= 0 and np.isfinite(r[4])] or [0.0])
        # at most LEGEND_MAX entries: the largest basins, then one line for the rest
        ranked = sorted(range(len(rows)), key=lambda r: -rows[r][3])
        keep = set(ranked[:LEGEND_MAX]) if len(rows) > LEGEND_MAX + 1 else set(ranked)
        for r, ((lab, cls_text, cnt, share, mean, lo, hi), look) in enumerate(zip(rows, looks)):
            if r not in keep:
                continue
            if lab >= 0:
                meaning = labels.get(cls_text, cls_text)[len(cls_text) + 2:]
                text = "%d: %s%s, %s = %.4g%s (%.1f %%)" % (lab, cls_text, " (%s)" % meaning if meaning else "", obs_name,
                                                            style.snap_zero([mean], scale)[0],
                                                            " " + obs_unit if obs_unit else "", 100 * share)
            else:
                text = "%s (%.1f %%)" % (cls_text, 100 * share)
            handles.append(style.category_handle(look, text))
        rest = [rows[r] for r in range(len(rows)) if r not in keep]
        if rest:
            handles.append(Patch(facecolor="none", edgecolor="none",
                                 label="+ %d more labels (%.1f %%): see the printed table"
                                 % (len(rest), 100 * sum(r[3] for r in rest))))
        if one_d:
            ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      frameon=False)
        else:
            ax.legend(handles=handles, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13),
                      ncol=1, frameon=False)
    style.suptitle(fig, data["dataset"], "basins of attraction")  # the fixed parameters with their units
    style.save(fig, args.output)
    print("\nwrote %s" % args.output)


if __name__ == "__main__":
    main()
