#!/usr/bin/python3
"""A branch of periodic orbits from `vibro continue` (OUT.branch.h5; docs/hdf5_schema.md).

usage: plot_branch.py IN.branch.h5 OUT.png [--coord NAME]

Top: coordinate NAME (default the first) of the orbit's point on the section against the continued
parameter, solid where the orbit is stable and dashed where it is not; bottom: the largest multiplier
modulus, with the unit circle. Events (grazing, mode change, period doubling, fold, Neimark-Sacker) are marked.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--coord")
    args = ap.parse_args()
    branch = vibro_results.open_dataset(args.input)
    if branch.attrs.get("format") != "vibro-branch":
        vibro_results.fail(args.input, "a %s file, not a branch file of vibro continue" % branch.attrs.get("format"))
    name = branch.attrs["parameter"]
    p = branch[name].values
    state = branch.state.values
    columns = [str(c) for c in branch.component.values]
    modulus = branch.max_modulus.values
    stable = branch.stable.values == 1
    # A fold only estimated (no map reached it) is labelled so.
    kinds = [str(k) + (" (estimated)" if str(d).startswith("estimated") else "")
             for k, d in zip(branch.event_kind.values, branch.event_detail.values)]
    where = branch.event_parameter.values
    model = branch.attrs["model"]
    coord = args.coord or columns[0]
    if coord not in columns:
        raise SystemExit("plot_branch.py: no coordinate '%s' (%s)" % (coord, ", ".join(columns)))
    y = state[:, columns.index(coord)]
    units = dict(zip(columns, branch.state.attrs.get("units", "").split(",")))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.4, 6), sharex=True)
    for mask, dash, label in ((stable, "-", "stable"), (~stable, "--", "unstable")):
        top.plot(np.where(mask, p, np.nan), np.where(mask, y, np.nan), dash, color="C0", label=label)
        bottom.plot(np.where(mask, p, np.nan), np.where(mask, modulus, np.nan), dash, color="C0")
    bottom.axhline(1, color="0.5", lw=0.8)
    for kind, at in zip(kinds, where):
        for ax in (top, bottom):
            ax.axvline(at, color="C3", lw=0.8, ls=":")
    style.event_labels(top, list(where), kinds)  # neighbouring events share a label: none overlap
    top.set_ylabel(style.label(coord, units.get(coord, "")))
    style.legend_outside(top)
    style.tidy_limits(top)
    top.set_title("%s: branch in %s\n%s" % (model, name, style.parameter_text(branch)), fontsize=9)
    bottom.set_ylabel(style.label("max |multiplier|", "-"))
    bottom.set_xlabel(style.variable_label(branch[name]))
    style.save(fig, args.output)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
