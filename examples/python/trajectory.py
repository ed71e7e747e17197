"""One case's trajectory with its impacts marked: the conveyor's n = 1 hopping orbit at a_hat = 50 m/s^2
(Fig. 6 settings, dropped from 2 mm), its last 5 of 100 forcing periods. Top: the gap h to the plate;
bottom: the normal velocity u relative to the plate, which each impact reverses (u after = -c_r u
before). One impact per period, at the phase acos(a*/a_hat) = 0.736 rad; the tangential velocity vT
stays at the Eq. 28 value 0.11538105 m/s.

Run from the repository after `bash scripts/quickstart.sh`:
    python3 examples/python/trajectory.py   (writes results/conveyor_trajectory.png)
"""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../build/python"))  # an installed vibro first
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import vibro  # noqa: E402
import vibro.style  # noqa: E402

periods = 100
traj = vibro.simulate("conveyor", periods=periods, samples_per_period=200, a_hat=50, z0=0.002, f=50, phi=12,
                      c_r=0.6, mu=0.15, start="drop", on_plate="coupled")
print(traj)
T = float(traj.period)
shown = (traj.time >= (periods - 5) * T).values
events = ((traj.event_time >= (periods - 5) * T) & (traj.event_kind == "impact")).values
fig, axes = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
for ax, name in zip(axes, ("h", "u")):
    ax.plot(traj.time[shown] / T, traj[name][shown], lw=1)
    ax.plot(traj.event_time[events] / T, traj[name + "_before"][events], "o", color="C3", ms=4, label="impact: before")
    ax.plot(traj.event_time[events] / T, traj[name + "_after"][events], "x", color="C2", ms=6, label="after")
    ax.set_ylabel("%s (%s)" % (name, traj[name].attrs["units"]))
vibro.style.legend_outside(axes[1])  # beside the data, inside the saved image
axes[1].set_xlabel("t / T")
axes[0].set_title("Conveyor, a_hat = 50 m/s^2: n = 1 hopping")
os.makedirs("results", exist_ok=True)
fig.savefig("results/conveyor_trajectory.png", dpi=120)
phase = np.mod(2 * np.pi * traj.event_time.values[events] / T, 2 * np.pi)
vT = traj.vT.values[shown]
print("impact phases (rad):", np.round(phase, 6), "vT %.8f..%.8f m/s" % (vT.min(), vT.max()))
print("wrote results/conveyor_trajectory.png")
