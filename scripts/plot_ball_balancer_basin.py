#!/usr/bin/env python3
"""Basin map of a ball balancer sweep over two initial-condition axes (examples/ball_balancer_basin.ini):
left, locked (the balls settle against the unbalance) or drifting; right, x_max/R.

usage: plot_ball_balancer_basin.py SWEEP.h5 OUT.png
Prints the share of locked cells and the x_max/R range of each class.
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
    a, b = data["order"][:2]
    ok = data["status"] == 0
    locked = vibro_results.grid(data, np.where(ok, data["observables"]["locked"], np.nan))
    x = vibro_results.grid(data, data["observables"]["x_max"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    ea, eb = vibro_results.cell_edges(data["axes"][a]), vibro_results.cell_edges(data["axes"][b])
    # locked or drifting: two colours and a legend (white: a case that is not ok)
    style.binary_mesh(axes[0], eb, ea, locked, ("drifting", "locked"))
    m1 = axes[1].pcolormesh(eb, ea, x, cmap="viridis")
    fig.colorbar(m1, ax=axes[1], label=style.label("x_max / R", "-"))
    for ax in axes:
        ax.set_xlabel(vibro_results.label(data, b))
        ax.set_ylabel(vibro_results.label(data, a))
    fig.suptitle("spin %.2f omega_n, m_e/m_P = %.2f, %d balls" % (data["params"].get("spin_ratio", np.nan),
                                                                 data["params"].get("me_ratio", np.nan),
                                                                 int(data["params"].get("n_balls", 0))))
    style.save(fig, out)
    flat_l, flat_x = locked.reshape(-1), x.reshape(-1)
    print("locked cells: %d of %d" % (int((flat_l == 1).sum()), flat_l.size))
    for value, name in ((1, "locked"), (0, "drifting")):
        sel = flat_x[flat_l == value]
        if sel.size:
            print("  %s: x_max/R from %.5f to %.5f" % (name, sel.min(), sel.max()))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
