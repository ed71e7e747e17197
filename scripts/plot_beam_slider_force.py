#!/usr/bin/python3
"""Mean axial force on the held slider against its location (Krack et al. 2017, Fig. 11a and the red bars of
Fig. 7a; results R12 of docs/models/beam_slider.md, R13).

usage: plot_beam_slider_force.py IN.h5 OUT.png

IN.h5 is a surrogate sweep over x_C0, optionally also over f (examples/beam_slider_surrogate_fx130.ini,
examples/beam_slider_surrogate_zeros.ini). Draws F_x_mean (symlog) and the mean energy against
x_C / l, one curve per frequency, and prints the table and every sign change of F_x_mean (linear
interpolation), labelled stable (F_x falls through zero: the slider is pushed back) or unstable.
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


def zeros(x, F):
    """(location, 'stable' | 'unstable') of every sign change of F along x."""
    out = []
    for i in range(len(x) - 1):
        if F[i] != 0 and np.sign(F[i]) != np.sign(F[i + 1]):
            x0 = x[i] - F[i] * (x[i + 1] - x[i]) / (F[i + 1] - F[i])
            out.append((x0, "stable" if F[i] > 0 else "unstable"))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = vibro_results.load(sys.argv[1])
    xs = data["coords"]["x_C0"]
    fs = vibro_results.case_param(data, "f", np.arange(data["n"]))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    print("| f [Hz] | x_C / l | F_x_mean [N] | energy_mean [J] |")
    print("|---|---|---|---|")
    found = []
    for fv in np.unique(fs):
        idx = np.where(fs == fv)[0]
        idx = idx[np.argsort(xs[idx])]
        x, F = xs[idx], data["observables"]["F_x_mean"][idx]
        E = data["observables"]["energy_mean"][idx]
        ax1.plot(x, F, "o-", ms=3, label="f = %g Hz" % fv)
        ax2.plot(x, E, "o-", ms=3)
        for xi, Fi, Ei in zip(x, F, E):
            print("| %g | %.3f | %+.3e | %.3e |" % (fv, xi, Fi, Ei))
        found += [(fv, x0, kind) for x0, kind in zeros(x, F)]
    style.symlog(ax1, "y", 1e-5)  # ticks at 0 and whole decades: none crowd the zero line
    ax1.axhline(0, color="k", lw=0.5)
    ax1.set_ylabel(vibro_results.label(data, "F_x_mean", "mean F_x"))
    style.legend_outside(ax1)
    ax2.set_yscale("log")
    ax2.set_ylabel(vibro_results.label(data, "energy_mean", "mean energy"))
    ax2.set_xlabel(vibro_results.label(data, "x_C0", "x_C / l"))
    style.suptitle(fig, data["dataset"], "surrogate system: mean axial contact force on the slider")
    style.save(fig, sys.argv[2])
    for fv, x0, kind in found:
        print("f = %g Hz: zero of F_x at x_C = %.4f l (%s)" % (fv, x0, kind))


if __name__ == "__main__":
    main()
