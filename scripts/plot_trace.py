#!/usr/bin/python3
"""One case's time history from a `vibro trace` file: time series, a phase portrait and the impact map.

usage: plot_trace.py IN.trace.h5 OUT.png [--components A,B,...] [--phase X,Y] [--from-period P]

Left: the state components against time in forcing periods (default: the first four), with the
stroboscopic samples (t = k T) as dots and the impacts as crosses. Top right: the phase portrait of
X against Y (default: the first component against its rate, the component whose unit is X's per second
and whose name is closest to X's), with the samples as dots. Bottom right: the impact map, each
impact's phase (t mod T) / T against the approach value of the component its reset changes most (for a
model without impacts, such as the beam slider, the closings of its contacts). The title carries the
case's values of the parameters its sweep sets and sweeps, with units; a component moving less than
1e-6 of its unit's largest motion (a residue) is drawn flat.
--from-period P leaves the first P periods (a transient) out of the portrait and the map.
"""
import argparse
import difflib
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

PROG = "plot_trace.py"


RESIDUE = 1e-6  # a component moving less than this fraction of its unit's largest motion is drawn flat:
# a thousandth of a pixel on any figure, below the models' solver tolerances (the beam slider's 1e-5)


def tidy(ax, scales=None):
    """Scientific notation for very small or large ticks, so long labels do not overlap; an axis whose
    data move less than RESIDUE of their natural size (scales: axis -> the largest magnitude of the
    components sharing its unit) drawn flat (a symmetric mode at 1e-13 m beside motions of 1e-3 m)."""
    ax.ticklabel_format(axis="both", style="sci", scilimits=(-3, 4), useOffset=False)
    for axis, scale in (scales or {}).items():
        style.tidy_limits(ax, atol=RESIDUE * scale, scale=scale, axes=(axis,))


def unit_scales(data):
    """component index -> the largest magnitude reached by any component with the same unit."""
    size = np.nanmax(np.abs(data["states"]), axis=0) if len(data["time"]) else np.zeros(len(data["units"]))
    by_unit = {}
    for unit, value in zip(data["units"], size):
        by_unit[unit] = max(by_unit.get(unit, 0.0), float(value))
    return [by_unit[u] for u in data["units"]]


def contact_events(data):
    """The events the map shows: impacts where the model has them, else the closing of a contact (a mode
    switch into a mode with more contacts, e.g. the beam slider's open_to_one_contact); and the name of
    what is shown."""
    kinds = data["event_kind"]
    impacts = np.array([k.startswith("impact") for k in kinds], dtype=bool)
    if impacts.any():
        return impacts, "impacts"
    order = ("open", "one", "two", "three", "four")

    def closes(kind):
        parts = kind.split("_to_")
        if len(parts) != 2:
            return False
        rank = [next((i for i, word in enumerate(order) if p.startswith(word)), -1) for p in parts]
        return rank[1] > rank[0] >= 0 or (rank[0] == -1 and "contact" in parts[1])
    contacts = np.array([closes(k) for k in kinds], dtype=bool)
    return contacts, "contact closings"


def read(path):
    """The trace file through vibro.open (python/vibro/_dataset.py), as the arrays this script draws."""
    ds = vibro_results.open_dataset(path)
    if ds.attrs.get("format") != "vibro-trace":
        vibro_results.fail(path, "not a trace file (format vibro-trace; vibro trace writes one)")
    components = [str(c) for c in ds.component.values]
    return {
        "model": str(ds.attrs["model"]),
        "case": int(ds.attrs["case"]),
        "period": float(ds.attrs["period"]),
        "components": components,
        "units": [style.variable_unit(ds[c]) for c in components],
        "time": ds.time.values,
        "states": np.column_stack([ds[c].values for c in components]) if components else np.zeros((0, 0)),
        "event_time": ds.event_time.values,
        "event_kind": [str(k) for k in ds.event_kind.values],
        "before": ds.event_before.values,
        "after": ds.event_after.values,
        "strobe_time": ds.strobe_time.values,
        "strobe_state": ds.strobe_state.values,
        # the case's values of what the sweep sets and sweeps, with units, for the title
        "parameters": style.parameter_text(ds, style.sweep_keys(ds.attrs.get("sweep_text", ""), "axes")
                                           + style.sweep_keys(ds.attrs.get("sweep_text", ""))),
    }


def pick(data, names, option):
    out = []
    for name in names:
        if name not in data["components"]:
            raise SystemExit("%s: %s: '%s' is not a component; the file has %s"
                             % (PROG, option, name, ", ".join(data["components"])))
        out.append(data["components"].index(name))
    return out


def rate_of(data, x):
    """The component that is x's rate: unit x's per second, name closest to x's; else the next one."""
    unit = data["units"][x] + "/s"
    candidates = [i for i, u in enumerate(data["units"]) if u == unit and i != x]
    if not candidates:
        return (x + 1) % len(data["components"])
    name = data["components"][x]
    return max(candidates, key=lambda i: difflib.SequenceMatcher(None, name, data["components"][i]).ratio())


def strobe_column(data, c):
    """Column c of the samples (the samples hold the section's components, the trace's first ones)."""
    state = data["strobe_state"]
    return state[:, c] if state.ndim == 2 and c < state.shape[1] else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--components", help="comma-separated components for the time series")
    ap.add_argument("--phase", help="X,Y: the phase portrait's components")
    ap.add_argument("--from-period", type=float, default=0.0, help="leave earlier periods out of portrait and map")
    args = ap.parse_args()
    data = read(args.input)
    if not data["components"] or len(data["time"]) == 0:
        raise SystemExit("%s: %s holds no states" % (PROG, args.input))
    T = data["period"]
    series = pick(data, args.components.split(","), "--components") if args.components else \
        list(range(min(4, len(data["components"]))))
    if args.phase:
        xy = pick(data, args.phase.split(","), "--phase")
        if len(xy) != 2:
            raise SystemExit("%s: --phase takes two components X,Y" % PROG)
        px, py = xy
    else:
        px = 0
        py = rate_of(data, 0)

    t = data["time"] / T
    ts = data["strobe_time"] / T
    te = data["event_time"] / T
    impacts, events_name = contact_events(data)
    scales = unit_scales(data)

    fig = plt.figure(figsize=(11, 1.9 * max(len(series), 3) + 0.8))
    grid = fig.add_gridspec(len(series), 2)
    first = None
    for row, c in enumerate(series):
        ax = fig.add_subplot(grid[row, 0], sharex=first)
        first = first or ax
        ax.plot(t, data["states"][:, c], lw=0.8, color="C0")
        s = strobe_column(data, c)
        if s is not None and len(ts):
            ax.plot(ts, s, ".", ms=5, color="C1", label="t = k T")
        if impacts.any():
            ax.plot(te[impacts], data["before"][impacts, c], "x", ms=4, color="C3", label="%s (before)" % events_name[:-1])
        ax.set_ylabel(style.label(data["components"][c], data["units"][c]))
        tidy(ax, {"y": scales[c]})
        if row == 0 and (len(ts) or impacts.any()):  # above the panel, clear of the data
            ax.legend(loc="lower right", bbox_to_anchor=(1, 1.0), ncol=2, fontsize=7, frameon=False)
        if row < len(series) - 1:
            plt.setp(ax.get_xticklabels(), visible=False)
    first.figure.axes[len(series) - 1].set_xlabel(style.label("t / T (forcing periods)", "-"))

    late = t >= args.from_period
    ax = fig.add_subplot(grid[: max(len(series) // 2, 1), 1])
    ax.plot(data["states"][late, px], data["states"][late, py], lw=0.7, color="C0")
    sx, sy = strobe_column(data, px), strobe_column(data, py)
    if sx is not None and sy is not None:
        keep = ts >= args.from_period
        ax.plot(sx[keep], sy[keep], ".", ms=6, color="C1", label="stroboscopic samples")
        style.legend_outside(ax)
    ax.set_xlabel(style.label(data["components"][px], data["units"][px]))
    ax.set_ylabel(style.label(data["components"][py], data["units"][py]))
    ax.set_title("phase portrait", fontsize=9)
    tidy(ax, {"x": scales[px], "y": scales[py]})

    ax = fig.add_subplot(grid[max(len(series) // 2, 1):, 1] if len(series) > 1 else grid[0, 1])
    chosen = impacts & (te >= args.from_period)
    if chosen.any():
        jump = np.abs(data["after"][chosen] - data["before"][chosen])
        spread = np.ptp(data["states"], axis=0)
        spread[spread == 0] = 1
        c = int(np.argmax(np.max(jump / spread, axis=0)))
        phase = np.mod(data["event_time"][chosen], T) / T
        ax.plot(phase, data["before"][chosen, c], "o", ms=4, color="C3")
        ax.set_xlim(0, 1)
        ax.set_xlabel("%s phase (t mod T) / T [-]" % events_name[:-1].split()[-1])
        ax.set_ylabel(style.label(data["components"][c] + " before", data["units"][c]))
        tidy(ax, {"y": scales[c]})
    else:
        ax.text(0.5, 0.5, "no impacts or contacts in the traced periods", ha="center", va="center", transform=ax.transAxes)
        ax.set_xticks([])
        ax.set_yticks([])
    ax.set_title("%s map (%d %s)" % ("impact" if events_name == "impacts" else "contact", int(chosen.sum()), events_name),
                 fontsize=9)
    fig.suptitle("%s, case %d (%s): %d periods of T = %.4g s" % (data["model"], data["case"], data["parameters"],
                                                                int(round(t[-1] - t[0])), T), wrap=True)
    style.save(fig, args.output)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
