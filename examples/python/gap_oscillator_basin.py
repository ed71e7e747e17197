"""Basin map of the gap oscillator (Model A, rigid impacts, e = 1, lambda = 1) at omega = 7.35 rad/s,
inside the range where the (1,1) impacting orbit coexists with others (examples/gap_oscillator_fold.ini):
the steady state each initial state (x1_0, v1_0) reaches, one sweep of 31 x 31 cases (about 9 s of CPU).
Three attractors share the plane: the (1,1) impacting orbit (348 cases), a (5,3) orbit (540) and the
impact-free orbit L (73).

Run from the repository after `bash scripts/quickstart.sh`:
    python3 examples/python/gap_oscillator_basin.py   (writes results/gap_oscillator_basin.png)
"""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../build/python"))  # an installed vibro first
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import vibro  # noqa: E402
import vibro.plot  # noqa: E402

spec = {
    "model": "gap_oscillator",
    "parameters": {"law": "restitution", "e": 1, "omega": 7.35},
    "axes": {"x1_0": np.linspace(-0.04, 0.04, 31), "v1_0": np.linspace(-0.4, 0.4, 31)},
    "run": {"max_periods": 600, "window_periods": 32},
}
ds = vibro.sweep(spec)
vibro.plot.basin(ds, "x1_0", "v1_0", variable="class")
plt.suptitle("Model A: steady state by initial condition")  # the axes' title gives the parameters
os.makedirs("results", exist_ok=True)
plt.savefig("results/gap_oscillator_basin.png", dpi=120)
for code in np.unique(ds["class"].values[ds.status.values == 0]):
    print("%-6s %4d cases" % (code, int((ds["class"] == code).sum())))
print("not ok:", int((ds.status != 0).sum()), "-> wrote results/gap_oscillator_basin.png")
