#!/usr/bin/env python3
"""Fig. 49 of Dedow 2016: stroboscopic (once per revolution) samples of the rotor displacement from
equilibrium, x/R (a) and (y - y_eq)/R (b), against the spin speed, for a ball balancer sweep over
spin_ratio (examples/ball_balancer_fig49.ini).

usage: plot_ball_balancer_bifurcation.py SWEEP.h5 OUT.png
Prints the pick-up speed (first case whose ball circulates: mean relative speed above -0.99 spin), the
lock speed (first locked case above 0.5 omega_n) and x_max/R at the zone reference speeds of the thesis's four Fig. 49 zones.
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
    spin = data["coords"]["spin_ratio"]
    obs = data["observables"]
    R = float(data["params"].get("R", 0.3048))
    samples = vibro_results.strobe(data)
    if samples is None:
        raise SystemExit("%s has no stroboscopic samples (run with output.strobe_points = window)" % path)
    values, offsets = samples["values"], samples["offsets"]
    fig, axes = plt.subplots(2, 1, figsize=(8, 8), sharex=True)
    for k in range(data["n"]):
        pts = values[offsets[k]:offsets[k + 1]]
        if len(pts) == 0:
            continue
        for ax, col in zip(axes, (0, 1)):
            ax.plot(np.full(len(pts), spin[k]), pts[:, col] / R, ",", color="k")
    axes[0].set_ylabel(style.label("x / R (once per revolution)", "-"))
    axes[1].set_ylabel(style.label("(y - y_eq) / R (once per revolution)", "-"))
    axes[1].set_xlabel(vibro_results.label(data, "spin_ratio", "spin speed / omega_n"))
    for ax in axes:
        for b in (0.34, 0.75, 1.11):
            ax.axvline(b, color="0.7", lw=0.8, ls="--")
    params = data["params"]  # the title says what the file ran, not what the example usually runs
    axes[0].set_title("%d ball(s), m_e/m_P = %g, %s (dashed: the thesis' zone limits 0.34, 0.75, 1.11 omega_n)"
                      % (int(params.get("n_balls", 1)), params.get("me_ratio", float("nan")),
                         str(params.get("balls", "point_mass")).replace("_", " ")))
    style.save(fig, out)

    omega = obs["mean_relative_speed"] / (obs["spin_rpm"] * 2 * np.pi / 60)  # in units of the spin speed
    order = np.argsort(spin)
    picked = [spin[i] for i in order if omega[i] > -0.99]
    locked = [spin[i] for i in order if spin[i] > 0.5 and obs["locked"][i] == 1]
    print("pick-up: first circulating case at %.3f omega_n" % (picked[0] if picked else float("nan")))
    if locked:
        below = [spin[i] for i in order if spin[i] < locked[0]]
        print("lock: first locked case at %.3f omega_n (previous case %.3f)" % (locked[0], below[-1]))
    for s in (0.2, 0.5, 0.75, 0.9, 1.0, 1.05, 1.1, 1.5):
        i = int(np.argmin(np.abs(spin - s)))
        print("  %.3f omega_n: x_max/R %.5f  y_max/R %.5f  %s  psi [%.3f, %.3f]" % (
            spin[i], obs["x_max"][i], obs["y_max"][i], data["cls"][i], obs["psi_low"][i], obs["psi_high"][i]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
