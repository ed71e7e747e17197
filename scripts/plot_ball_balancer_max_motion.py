#!/usr/bin/env python3
"""Fig. 54, 60 and 62 of Dedow 2016: maximum steady horizontal rotor motion x_max/R against the
eccentric-mass ratio m_e/m_P, one curve per value of the sweep's first axis (n_balls in
examples/ball_balancer_fig54_*.ini, spin_ratio in ball_balancer_fig60.ini, r_ball in
ball_balancer_fig62.ini); me_ratio must be the second axis.

usage: plot_ball_balancer_max_motion.py SWEEP.h5 OUT.png
Prints, per curve: the zero-ball slope (n_balls = 0); the critical transition (the largest drop of x_max
between neighbouring ratios, where the balls stop lagging) and the first locked ratio; the saturation
point (the smallest x_max among locked cases).
"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()


def main(path, out):
    data = vibro_results.load(path)
    first = data["order"][0]
    curves = data["axes"][first]
    ratio = data["axes"]["me_ratio"]
    R = float(data["params"].get("R", 0.3048))
    x = vibro_results.grid(data, data["observables"]["x_max"])
    locked = vibro_results.grid(data, data["observables"]["locked"])
    spin = data["params"].get("spin_ratio", float("nan"))
    kind = data["params"].get("balls", "point_mass").replace("_", " ")
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, value in enumerate(curves):
        n = int(value) if first == "n_balls" else int(data["params"].get("n_balls", 1))
        label = {"n_balls": "%d ball(s)" % n, "r_ball": "r/R = %.3f" % (value / R)}.get(first, "%s = %g" % (first, value))
        ax.plot(ratio, x[i], "-", lw=1, label=label)
        if n > 0:
            ax.plot(ratio[locked[i] == 1], x[i][locked[i] == 1], ".", ms=3, color=ax.lines[-1].get_color())
        if n == 0:
            print("0 balls: slope x_max/R per unit m_e/m_P = %.6f" % (x[i][-1] / ratio[-1]))
            continue
        drop = x[i][1:] - x[i][:-1]
        j = int(np.argmin(drop))
        first_locked = ratio[np.argmax(locked[i] == 1)] if (locked[i] == 1).any() else float("nan")
        candidates = np.where(locked[i] == 1, x[i], np.inf)
        s = int(np.argmin(candidates))
        print("%s: critical transition between %.2f and %.2f (x_max/R %.5f -> %.5f), first locked %.2f; "
              "saturation at %.2f, x_max/R = %.5f" % (label, ratio[j], ratio[j + 1], x[i][j], x[i][j + 1], first_locked,
                                                   ratio[s], x[i][s]))
    ax.set_xlabel(style.label("m_e / m_P", "-"))
    ax.set_ylabel(style.label("x_max / R", "-"))
    ax.set_title("spin %s omega_n, %s balls (dots: locked)" % ("%.2f" % spin if first != "spin_ratio" else "swept", kind))
    style.legend_outside(ax)
    style.save(fig, out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
