#!/usr/bin/python3
"""Mode and drift-sign map of a dimer sweep over two axes (basins over (h0, theta0), or Gamma maps).

usage: plot_dimer_modes.py IN.h5 OUT.png [--x AXIS] [--y AXIS]

Reads a `vibro run` sweep of the dimer (examples/dimer_basin.ini, dimer_gamma.ini) and colours every
case by its mode (the class code's letters, Liu, Zhao and Brogliato 2008): D+ forward drift (towards
the bouncing end), D- backward drift, P pendulum (drift pattern, no drift), R rest, J jump, F
flutter, H small hop, O other; failed cases black. x and y default to the first two axes. Further
axes are not allowed (select with --axes.KEY=value when running). Prints the share of each mode and
the median drift (drift_speed_rel, mm/s) of each.
"""
import argparse
import os
import re
import sys
from collections import Counter, OrderedDict

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro_results import cell_edges, load  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()

MODES = OrderedDict([("D+", "tab:red"), ("D-", "tab:blue"), ("P", "tab:cyan"), ("R", "0.85"), ("J", "tab:green"),
                     ("F", "tab:purple"), ("H", "tab:orange"), ("O", "0.45"), ("failed", "k")])


def mode_of(cls, status):
    if status != 0:
        return "failed"
    m = re.match(r"(D[+-]|[PRJFHO])", cls)
    return m.group(1) if m else "O"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--x")
    parser.add_argument("--y")
    args = parser.parse_args()
    data = load(args.input)
    order = data["order"]
    if len(order) != 2:
        raise SystemExit("need exactly two axes, the file has %s" % order)
    x = args.x or order[0]
    y = args.y or order[1]
    modes = np.array([mode_of(c, s) for c, s in zip(data["cls"], data["status"])])
    codes = np.array([list(MODES).index(m) for m in modes]).reshape(data["shape"])
    if order.index(x) == 0:
        codes = codes.T  # rows = y
    fig, ax = plt.subplots(figsize=(8.5, 5))
    cmap, norm = style.categorical_cmap(list(MODES.values()))
    ax.pcolormesh(cell_edges(data["axes"][x]), cell_edges(data["axes"][y]), codes, cmap=cmap, norm=norm,
                  shading="flat")
    drift = data["observables"]["drift_speed_rel"]
    counts = Counter(modes)
    handles = []
    for m, colour in MODES.items():
        if counts[m]:
            sel = modes == m
            med = np.median(drift[sel]) if m != "failed" else float("nan")
            print("%-6s %4d cases (%5.1f %%), median drift_speed_rel %+.3f mm/s" % (m, counts[m], 100.0 * counts[m] / len(modes), med))
            # the mode's meaning from the file's legend (a period-1 code of the family, e.g. D+1)
            meaning = style.class_meaning(m + "1", data["legend"].get("classes"), width=45) if m != "failed" else ""
            handles.append(plt.Rectangle((0, 0), 1, 1, color=colour,
                                         label="%s%s (%d)" % (m, ": " + meaning if meaning else "", counts[m])))
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # beside the map
    ax.set_xlabel(vibro_results.label(data, x))
    ax.set_ylabel(vibro_results.label(data, y))
    ax.set_title("dimer modes: A_r = %s, f = %s Hz, Gamma = %s" % tuple(
        data["params"].get(k, "swept") for k in ("A_r", "f", "Gamma")))
    style.save(fig, args.output)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
