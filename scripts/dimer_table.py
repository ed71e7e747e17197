#!/usr/bin/python3
"""Print one line per case of a dimer sweep: axis values, class, drift and the main observables.

usage: /usr/bin/python3 scripts/dimer_table.py results/dimer_xxx.h5
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402

COLUMNS = ["drift_speed_rel", "kappa_rel", "impacts_tip1", "impacts_tip2", "double_impacts",
           "contact_fraction_tip1", "contact_fraction_tip2", "mean_theta", "max_theta", "max_hop_tip1",
           "max_hop_tip2"]


def main(path):
    data = vibro_results.load(path)
    obs = data["observables"]
    print(" ".join(data["order"] + ["class"] + COLUMNS))
    for i in range(data["n"]):
        line = ["%.4g" % data["coords"][a][i] for a in data["order"]]
        line.append(data["cls"][i] if data["status"][i] == 0 else "FAILED")
        line += ["%.4g" % obs[c][i] for c in COLUMNS]
        print(" ".join(line))


if __name__ == "__main__":
    main(sys.argv[1])
