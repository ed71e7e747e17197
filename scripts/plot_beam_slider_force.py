#!/usr/bin/python3
"""Mean axial force on the held slider against its location (seed 004, Fig. 11a; spec beam_slider.md R12).

usage: plot_beam_slider_force.py IN.h5 OUT.png

IN.h5 is a surrogate sweep over x_C0 (examples/beam_slider_surrogate_fx130.ini). Draws F_x_mean
(symlog) and the mean energy against x_C / l, and prints the table and every sign change of F_x_mean
(linear interpolation), labelled stable (F_x falls through zero: the slider is pushed back) or
unstable.
"""
import sys

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, __import__("os").path.dirname(__file__))
import vibro_results  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = vibro_results.load(sys.argv[1])
    x = data["coords"]["x_C0"]
    order = np.argsort(x)
    x = x[order]
    F = data["observables"]["F_x_mean"][order]
    E = data["observables"]["energy_mean"][order]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    ax1.plot(x, F, "o-", ms=3)
    ax1.set_yscale("symlog", linthresh=1e-5)
    ax1.axhline(0, color="k", lw=0.5)
    ax1.set_ylabel("mean F_x [N]")
    ax2.plot(x, E, "o-", ms=3)
    ax2.set_yscale("log")
    ax2.set_ylabel("mean energy [J]")
    ax2.set_xlabel("x_C / l")
    ax1.set_title("surrogate at f = %g Hz" % data["params"].get("f", float("nan")))
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)
    print("| x_C / l | F_x_mean [N] | energy_mean [J] |")
    print("|---|---|---|")
    for xi, Fi, Ei in zip(x, F, E):
        print("| %.3f | %+.3e | %.3e |" % (xi, Fi, Ei))
    for i in range(len(x) - 1):
        if np.sign(F[i]) != np.sign(F[i + 1]) and F[i] != 0:
            x0 = x[i] - F[i] * (x[i + 1] - x[i]) / (F[i + 1] - F[i])
            kind = "stable" if F[i] > 0 else "unstable"
            print("zero of F_x at x_C = %.4f l (%s)" % (x0, kind))


if __name__ == "__main__":
    main()
