#!/usr/bin/python3
"""Response curves of the beam with a sliding mass (Krack et al. 2017, Figs. 6, 7b, 11b, 12, 13).

usage: plot_beam_slider_response.py IN.h5 [IN2.h5 ...] OUT.png [--x AXIS]

For every input file and every value of its other axes (e.g. x_C0 of the surrogate resonance sweep),
draws the mean energy (log) and the mean slider location x_C_mean / l against the x axis (default f).
A continuation sweep (Fig. 13) is drawn in run order with its direction in the legend. Prints, per
curve, the x value of the largest mean energy (the resonance f_res for a frequency axis), that energy,
and the final x_C_mean; for continuation sweeps also the x_C_mean track.
"""
import argparse
import sys

import os

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, __import__("os").path.dirname(__file__))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()


def curves(data, xname):
    """(label, indices sorted by the x axis) per combination of the other axes' values."""
    others = [a for a in data["order"] if a != xname]
    keys = {}
    for i in range(data["n"]):
        key = tuple(data["coords"][a][i] for a in others)
        keys.setdefault(key, []).append(i)
    for key, idx in keys.items():
        idx = np.array(idx)
        idx = idx[np.argsort(data["coords"][xname][idx])]
        label = ", ".join("%s = %g" % (a, v) for a, v in zip(others, key))
        yield label, idx


l_half = 0.5  # the beam's middle, in units of its length l


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--x", default="f")
    args = ap.parse_args()
    if len(args.files) < 2:
        sys.exit(__doc__)
    out = args.files[-1]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
    for path in args.files[:-1]:
        data = vibro_results.load(path)
        direction = data["attrs"].get("direction", "up")
        continuation = data["attrs"].get("continuation", "none")
        variant = data["params"].get("variant", "?")
        for label, idx in curves(data, args.x):
            x = data["coords"][args.x][idx]
            ok = data["status"][idx] == 0
            E = data["observables"]["energy_mean"][idx]
            xm = data["observables"]["x_C_mean"][idx]
            stem = os.path.splitext(os.path.basename(path))[0] + " " if len(args.files) > 2 else ""  # several files: which
            name = "%s%s%s" % (stem, variant, (", " + label) if label else "")
            if continuation != "none":
                name += " (%s)" % direction
            ax1.plot(x[ok], E[ok], ".-", ms=3, lw=0.8, label=name)
            # the slider's mean location is exactly l/2 where it cannot move (reference system): draw
            # its rounding noise (1e-12) as the value it is
            ax2.plot(x[ok], l_half + style.snap_zero(xm[ok] - l_half, 1.0), ".-", ms=3, lw=0.8)
            if ok.any():
                k = np.nanargmax(np.where(ok, E, -np.inf))
                print("%s: peak energy %.3e J at %s = %g; x_C_mean / l from %.3f to %.3f" %
                      (name, E[k], args.x, x[k], xm[ok][0], xm[ok][-1]))
            if continuation != "none":
                run_order = x[::-1] if direction == "down" else x
                track = xm[::-1] if direction == "down" else xm
                print("  track (%s = x_C_mean / l): %s" % (args.x, ", ".join(
                    "%g=%.3f" % (a, b) for a, b in zip(run_order[::5], track[::5]))))
            if (~ok).any():
                print("  cases not ok at %s = %s" % (args.x, x[~ok]))
    ax1.set_yscale("log")
    ax1.set_ylabel(vibro_results.label(data, "energy_mean", "mean energy"))
    style.legend_outside(ax1)
    style.suptitle(fig, data["dataset"], "mean energy and slider location against %s" % args.x)
    ax2.set_ylabel(vibro_results.label(data, "x_C_mean", "mean x_C / l"))
    ax2.set_xlabel(vibro_results.label(data, args.x))
    style.tidy_limits(ax2)
    style.save(fig, out)


if __name__ == "__main__":
    main()
