#!/usr/bin/env python3
"""Hysteresis of a ball balancer max-motion curve: x_max/R against m_e/m_P from an upward and a downward
continuation sweep (examples/ball_balancer_hysteresis_{up,down}.ini), locked cases marked.

usage: plot_ball_balancer_hysteresis.py UP.h5 DOWN.h5 OUT.png
Prints the ratios where the two sweeps disagree (one locked, the other drifting) and the transition
(first locked ratio going up, last locked ratio going down).
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


def main(up_path, down_path, out):
    fig, ax = plt.subplots(figsize=(8, 5))
    curves = {}
    for path, name in ((up_path, "up"), (down_path, "down")):
        data = vibro_results.load(path)
        ratio = data["axes"]["me_ratio"]
        x = data["observables"]["x_max"]
        locked = data["observables"]["locked"] == 1
        curves[name] = (ratio, x, locked)
        line, = ax.plot(ratio, x, "-", lw=1, label="sweep " + name)
        ax.plot(ratio[locked], x[locked], ".", ms=4, color=line.get_color())
    ax.set_xlabel(style.label("m_e / m_P", "-"))
    ax.set_ylabel(style.label("x_max / R", "-"))
    params = data["params"]  # what the files ran
    ax.set_title("%d ball(s), spin %g omega_n: continuation in m_e/m_P (dots: locked)"
                 % (int(params.get("n_balls", 1)), params.get("spin_ratio", float("nan"))))
    style.legend_outside(ax)
    style.save(fig, out)
    ru, xu, lu = curves["up"]
    rd, xd, ld = curves["down"]
    print("up: first locked at %.2f; down: last locked at %.2f" % (ru[np.argmax(lu)], rd[np.where(ld)[0].min()]))
    differ = [r for r, a, b in zip(ru, lu, ld) if a != b]
    print("ratios where the sweeps disagree (locked vs drifting): %s" % ", ".join("%.2f" % r for r in differ))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3])
