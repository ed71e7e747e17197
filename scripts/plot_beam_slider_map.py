#!/usr/bin/python3
"""Regime map of the beam with a sliding mass (Krack et al. 2017, Figs. 7a / 8; results R8-R10 of docs/models/beam_slider.md).

usage: plot_beam_slider_map.py IN.h5 OUT.png

IN.h5 is a sweep over f x x_C0 of the adaptive system (examples/beam_slider_fig7a.ini). Draws the mean
slider location x_C_mean / l of every case against f (colour: x_C(0)), and the mean energy against f.
Prints, per frequency: the fraction of x_C(0) values that end off-centre (class O: |x_C - l/2| >=
0.02 l), the range and median of the off-centre means, and a regime label: centre (most cases at the
centre), operating (most off-centre, their means within 0.05 l of each other) or scatter (most
off-centre, means spread wider).
"""
import sys

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, __import__("os").path.dirname(__file__))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = vibro_results.load(sys.argv[1])
    f = data["coords"]["f"]
    x0 = data["coords"]["x_C0"]
    ok = data["status"] == 0
    xm = data["observables"]["x_C_mean"]
    energy = data["observables"]["energy_mean"]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 8), sharex=True)
    sc = ax1.scatter(f[ok], xm[ok], c=x0[ok], cmap="viridis", s=14)
    # one colour bar beside both panels, so that both keep the same width and their f axes line up
    fig.colorbar(sc, ax=[ax1, ax2], label=vibro_results.label(data, "x_C0", "x_C(0) / l"))
    ax1.axhspan(0.48, 0.52, color="0.9", zorder=0, label="centre (class C)")
    ax1.set_ylabel(vibro_results.label(data, "x_C_mean", "mean x_C / l"))
    style.legend_outside(ax1)
    ax2.scatter(f[ok], energy[ok], c=x0[ok], cmap="viridis", s=14)
    ax2.set_yscale("log")
    ax2.set_ylabel(vibro_results.label(data, "energy_mean", "mean energy"))
    ax2.set_xlabel(vibro_results.label(data, "f"))
    style.suptitle(fig, data["dataset"], "beam with sliding mass")  # variant, base_load, ... with units
    style.save(fig, sys.argv[2])
    print("| f [Hz] | cases | off-centre fraction | off-centre x_C_mean / l: min / median / max | regime |")
    print("|---|---|---|---|---|")
    for fv in data["axes"]["f"]:
        sel = ok & (f == fv)
        off = sel & (data["cls"] == "O")
        frac = off.sum() / max(sel.sum(), 1)
        if off.any():
            v = xm[off]
            stats = "%.3f / %.3f / %.3f" % (v.min(), np.median(v), v.max())
            spread = v.max() - v.min()
        else:
            stats, spread = "-", 0.0
        regime = "centre" if frac <= 0.5 else ("operating" if spread <= 0.05 else "scatter")
        print("| %g | %d | %.2f | %s | %s |" % (fv, sel.sum(), frac, stats, regime))
    failed = (~ok).sum()
    if failed:
        print("cases not ok: %d" % failed)


if __name__ == "__main__":
    main()
