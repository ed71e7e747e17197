#!/usr/bin/python3
"""Scaled drift speed of the dimer against the aspect ratio (report Figs. 11 and 15).

usage: plot_dimer_drift.py IN.h5 OUT.png [--alpha DEG]

Reads a `vibro run` sweep of the dimer with an A_r axis (and optionally f and initial-condition axes,
examples/dimer_fig15.ini, dimer_fig11.ini, dimer_ar25.ini). For every (f, A_r) point it takes the
cases that reached the drift or pendulum mode (class D+, D- or P; observable mode_index 1 or 2) and
plots the median of kappa_rel (the drift towards the bouncing end, scaled as u f / g * 100) with the
individual releases as small dots. The closed-form estimate of the report's Section 7 (corrected) is overlaid: kappa_p
(forward, A_r < 5) and kappa_n (backward, A_r > 5) for alpha = 0 and --alpha (default 30 deg), with
the file's Gamma and mu_c.

Prints per frequency a table A_r, releases in drift / all, median kappa_rel, and the reversal (the
first sign change of the median) and the first A_r beyond it where |median kappa| < 0.1.
"""
import argparse
import math
import os
import sys
from collections import OrderedDict

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dimer_analytic import kappa_backward, kappa_forward  # noqa: E402
from vibro_results import case_param, load  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()

DRIFT_MODES = (1, 2)  # mode_index: drift, pendulum


def medians(data, f_values):
    """OrderedDict f -> list of (A_r, n_drift, n_all, median kappa or nan, kappas)."""
    n = data["n"]
    idx = np.arange(n)
    A = case_param(data, "A_r", idx)
    F = case_param(data, "f", idx)
    kappa = data["observables"]["kappa_rel"]
    mode = data["observables"]["mode_index"]
    ok = data["status"] == 0
    out = OrderedDict()
    for f in f_values:
        rows = []
        for a in sorted(set(A[F == f])):
            here = (F == f) & (A == a)
            drift = here & ok & np.isin(mode, DRIFT_MODES)
            ks = kappa[drift]
            rows.append((a, int(drift.sum()), int(here.sum()), float(np.median(ks)) if len(ks) else math.nan, ks))
        out[f] = rows
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--alpha", type=float, default=30.0, help="impact phase of the second formula curve, deg")
    args = parser.parse_args()
    data = load(args.input)
    if data["model"] not in ("", "dimer"):
        raise SystemExit("%s: model %s, not dimer" % (args.input, data["model"]))
    f_values = [float(v) for v in (data["axes"]["f"] if "f" in data["axes"] else [data["params"]["f"]])]
    table = medians(data, f_values)
    gamma = float(data["params"].get("Gamma", 0.9))
    mu_c = float(data["params"].get("mu_c", 0.12))

    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    colours = ["tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange"]
    for (f, rows), colour in zip(table.items(), colours):
        a = np.array([r[0] for r in rows])
        med = np.array([r[3] for r in rows])
        ax.plot(a, med, "o-", color=colour, label="%g Hz (median over releases in drift)" % f)
        for r in rows:
            ax.plot(np.full(len(r[4]), r[0]), r[4], ".", color=colour, ms=3, alpha=0.4)
        print("f = %g Hz: A_r, releases in drift / all, median kappa_rel" % f)
        for r in rows:
            print("  %5.2f  %3d / %3d  %+.3f" % (r[0], r[1], r[2], r[3]))
        finite = [(r[0], r[3]) for r in rows if not math.isnan(r[3])]
        reversal = next(((x0, x1) for (x0, k0), (x1, k1) in zip(finite, finite[1:]) if k0 > 0 and k1 < -0.1), None)
        if reversal:
            print("  reversal between A_r = %g and %g" % reversal)
            vanish = next((x for x, k in finite if x > reversal[1] and abs(k) < 0.1), None)
            print("  backward drift vanishes (|kappa| < 0.1) from A_r = %s" % ("%.4g" % vanish if vanish else None))
        else:
            print("  no reversal found")
    grid = np.linspace(2.0, 8.5, 200)
    for alpha, dash in ((0.0, ":"), (math.radians(args.alpha), "--")):
        label = "drift formula, alpha = %g deg" % math.degrees(alpha)
        ax.plot(grid[grid < 5], [kappa_forward(a, gamma, mu_c, alpha) for a in grid[grid < 5]], "k" + dash, lw=1,
                label=label + " (kappa_p, kappa_n)")
        ax.plot(grid[grid >= 5], [kappa_backward(a, gamma, mu_c, alpha) for a in grid[grid >= 5]], "k" + dash, lw=1)
    ax.axhline(0, color="0.6", lw=0.8)
    ax.set_xlabel(style.label("aspect ratio A_r", "-"))
    ax.set_ylabel(style.label("kappa_rel = 100 u f / g", "-"))
    ax.set_title("dimer drift, Gamma = %g, mu_c = %g, mu_i = %s" % (gamma, mu_c, data["params"].get("mu_i", "swept")))
    style.legend_outside(ax)
    style.save(fig, args.output)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
