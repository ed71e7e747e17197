#!/usr/bin/python3
"""Loading curves A_max(lambda) of the gap oscillator (Bazhenov et al. 2013, Model A; the paper and a shooting reference).

usage: plot_loading_curve.py IN.h5 [IN2.h5 ...] OUT.png

Draws, against lambda, the semi-amplitude A1 of the main body (observable A1, (|max| + |min|) / 2)
and the half peak-to-peak range A2 of the attached body (observable A2_pp): one row of panels per body
(y shared along a row) and one column per value of any swept axis other than lambda (e.g. e).
Markers are coloured by the steady-state class: impact-free (L), (1,1), other periodic (n,k),
irregular (X); hollow markers flag a slowly converging case ("~" suffix). Several files (e.g. an
upward and a downward continuation sweep, or two impact laws) are overlaid, each with its own marker
shape and a thin connecting line, labelled by its law (/parameters attribute `law`, with `e` for
restitution) and its sweep direction (root attribute `direction`), so hysteresis shows as two
branches. The closed-form linear (impact-free) response A1 = |X1| lambda, A2 = |X2| lambda (closed-form linear response,
computed from each file's parameters) is drawn up to the grazing threshold lambda* = D / |X1 - X2|,
which is marked by a vertical line. Where the sweep covers lambda*, an inset in every panel zooms on
the grazing region (0.545 <= lambda <= 0.605).

Prints, per file (and per value of the other axes), the lowest lambda with impacts
(impacts_per_period > 0), the highest impact-free lambda, and the values at lambda = 0.6, 1, 2, 3.
"""
import os
import sys

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vibro_results  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()

TABLE_LAMBDAS = (0.6, 1.0, 2.0, 3.0)
MARKERS = ("^", "v", "o", "s", "D", "P", "X", "<", ">")
LINESTYLES = ("-", "--", ":", "-.")
CLASS_STYLE = (  # (key, label, colour)
    ("L", "impact-free (L)", "tab:blue"),
    ("11", "(1,1)", "tab:green"),
    ("periodic", "other periodic (n,k)", "tab:orange"),
    ("Q", "quasi-periodic (Q)", "tab:cyan"),
    ("X", "irregular (X)", "tab:red"),
    ("bad", "failed / not ok", "black"),
)
CLASS_COLOUR = {k: c for k, _, c in CLASS_STYLE}


def class_key(cls, status):
    """The colour group of one case's class string."""
    if status != 0 or not cls:
        return "bad"
    c = cls.rstrip("~")
    if c == "L":
        return "L"
    if c == "(1,1)":
        return "11"
    if c.startswith("("):
        return "periodic"
    return "Q" if c == "Q" else "X"


def linear_response(p):
    """|X1|, |X2|, |X1 - X2| per unit lambda of the impact-free steady state (closed-form linear response), and lambda*."""
    m1, m2 = p["m1"], p["m2"]
    k1, k2 = m1 * p["omega1"] ** 2, m2 * p["omega2"] ** 2
    c1, c2 = 2 * p["xi1"] * m1 * p["omega1"], 2 * p["xi2"] * m2 * p["omega2"]
    w = p["omega"]
    Z = (np.array([[k1 + k2, -k2], [-k2, k2]]) - w ** 2 * np.diag([m1, m2])
         + 1j * w * np.array([[c1 + c2, -c2], [-c2, c2]]))
    X = np.linalg.solve(Z, np.array([p["F0"], 0.0], dtype=complex))
    rel = abs(X[0] - X[1])
    return abs(X[0]), abs(X[1]), rel, (p["D"] / rel if rel > 0 else np.inf)


def read_file(path):
    data = vibro_results.load(path)
    if "lambda" not in data["axes"]:
        raise SystemExit("%s: lambda is not an axis of this sweep (axes: %s)" % (path, ", ".join(data["order"]) or "none"))
    direction = str(data["attrs"].get("direction", ""))
    continuation = str(data["attrs"].get("continuation", "none"))
    params = data["params"]
    law = params.get("law", "?")
    label = str(law)
    if law == "restitution" and "e" not in data["axes"] and "e" in params:
        label += " e=%g" % params["e"]
    if continuation == "lambda":
        label += ", " + (direction or "up")
    elif continuation not in ("", "none"):
        label += ", continuation %s %s" % (continuation, direction)
    else:
        label += ", cold starts"
    data.update(direction=direction, continuation=continuation, label=label)
    return data


def groups(data):
    """(key, indices sorted by lambda) for every combination of the axes other than lambda."""
    others = [a for a in data["order"] if a != "lambda"]
    lam = data["coords"]["lambda"]
    if not others:
        return [((), np.argsort(lam, kind="stable"))]
    combos = sorted(set(zip(*(data["coords"][a] for a in others))))
    out = []
    for combo in combos:
        mask = np.ones(data["n"], dtype=bool)
        for a, v in zip(others, combo):
            mask &= data["coords"][a] == v
        idx = np.flatnonzero(mask)
        out.append((tuple(zip(others, combo)), idx[np.argsort(lam[idx], kind="stable")]))
    return out


def key_title(key):
    return ", ".join("%s = %g" % kv for kv in key) if key else ""


def fmt(x, spec="%.6f"):
    return "nan" if x is None or not np.isfinite(x) else spec % x


def print_table(data, key, idx):
    lam = data["coords"]["lambda"][idx]
    obs = data["observables"]
    ipp = obs["impacts_per_period"][idx]
    ok = data["status"][idx] == 0
    title = data["label"] + (" [" + key_title(key) + "]" if key else "")
    print("%s  (%s)" % (title, data["path"]))
    impacting = lam[ok & (ipp > 0)]
    free = lam[ok & (ipp == 0)]
    first = impacting.min() if impacting.size else np.nan
    last_free = free.max() if free.size else np.nan
    print("  lowest lambda with impacts: %s   highest impact-free lambda: %s" % (fmt(first, "%.4f"), fmt(last_free, "%.4f")))
    # impact-free cases above the first impacting one (hysteresis / isolated windows)
    if impacting.size and free.size and last_free > first:
        print("  note: impact-free and impacting cases interleave between lambda %.4f and %.4f" % (first, last_free))
    bad = np.count_nonzero(~ok)
    if bad:
        print("  %d case(s) not ok" % bad)
    print("  %7s  %-9s %9s %9s %9s %9s %7s %11s" % ("lambda", "class", "A1", "A1_pp", "A2", "A2_pp", "imp/T", "Fmax (N)"))
    for target in TABLE_LAMBDAS:
        j = np.flatnonzero(np.abs(lam - target) < 1e-9)
        if not j.size:
            print("  %7.3f  (not in the sweep)" % target)
            continue
        i = idx[j[0]]
        print("  %7.3f  %-9s %9s %9s %9s %9s %7s %11s" % (
            target, data["cls"][i] or "-", fmt(obs["A1"][i]), fmt(obs["A1_pp"][i]), fmt(obs["A2"][i]),
            fmt(obs["A2_pp"][i]), fmt(obs["impacts_per_period"][i], "%.3f"), fmt(obs["max_contact_force"][i], "%.4g")))


def main(argv):
    if len(argv) < 3 or any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 and argv[1] in ("-h", "--help") else 2
    inputs, out = argv[1:-1], argv[-1]
    files = [read_file(p) for p in inputs]

    # one column per combination of the non-lambda axes (union over the files)
    keys = []
    for d in files:
        for key, _ in groups(d):
            if key not in keys:
                keys.append(key)
    ncol = len(keys)
    fig, axs = plt.subplots(2, ncol, figsize=(6.4 * ncol, 8.4), squeeze=False, sharex=True,
                            sharey="row")
    insets = {}
    used_classes, any_slow = set(), False
    lam_all = np.concatenate([d["coords"]["lambda"] for d in files])
    lo, hi = lam_all.min(), lam_all.max()

    for fi, d in enumerate(files):
        marker = MARKERS[fi % len(MARKERS)]
        ls = LINESTYLES[fi % len(LINESTYLES)]
        for key, idx in groups(d):
            col = keys.index(key)
            lam = d["coords"]["lambda"][idx]
            ck = np.array([class_key(c, s) for c, s in zip(d["cls"][idx], d["status"][idx])])
            slow = np.array([c.endswith("~") for c in d["cls"][idx]])
            used_classes.update(ck)
            any_slow = any_slow or bool(slow.any())
            p = dict(d["params"])
            p.update({a: v for a, v in key})
            X1, X2, _, lstar = linear_response(p)
            for row, (name, lin) in enumerate((("A1", X1), ("A2_pp", X2))):
                y = d["observables"][name][idx]
                targets = [axs[row][col]]
                if (row, col) not in insets and lo < lstar < hi:
                    ax = axs[row][col]
                    insets[(row, col)] = ax.inset_axes([0.53, 0.07, 0.44, 0.36])
                    insets[(row, col)].set_zorder(10)
                    insets[(row, col)].set_label(style.INSET)  # a zoom: the panel's axes and units
                if (row, col) in insets:
                    targets.append(insets[(row, col)])
                for ax in targets:
                    ax.plot(lam, y, ls=ls, lw=0.6, color="0.45", zorder=1)
                    for k, _, colour in CLASS_STYLE:
                        sel = ck == k
                        if not sel.any():
                            continue
                        full = sel & ~slow
                        ax.scatter(lam[full], y[full], s=14 if ax is targets[0] else 18, marker=marker,
                                   color=colour, zorder=3, linewidths=0)
                        hollow = sel & slow
                        if hollow.any():
                            ax.scatter(lam[hollow], y[hollow], s=16, marker=marker, facecolors="none",
                                       edgecolors=colour, zorder=3)
                    # closed-form linear branch up to lambda*, and lambda* (where inside the sweep)
                    if lo < lstar:
                        xl = np.linspace(lo, min(lstar, hi), 50)
                        ax.plot(xl, lin * xl, color="k", lw=0.9, ls="--", zorder=2)
                    if lo <= lstar <= hi:
                        ax.axvline(lstar, color="tab:purple", lw=0.8, ls=":", zorder=0)

    # the fixed parameters every file shares, with units (what differs is in the legend)
    shared = [style.parameter_text(f["dataset"]).split(", ") for f in files]
    shared = ", ".join(p for p in shared[0] if p and all(p in other for other in shared[1:]))
    for col, key in enumerate(keys):
        for row, (name, what) in enumerate((("A1", "A1: main body semi-amplitude [m]"),
                                            ("A2_pp", "A2: attached body, half peak-to-peak [m]"))):
            ax = axs[row][col]
            ax.set_ylabel(what)
            ax.grid(alpha=0.3)
            t = key_title(key)
            if row == 0:
                ax.set_title(("gap oscillator loading curve" + (": " + t if t else "") + ("\n" + shared if shared else "")),
                             fontsize=10)
            if row == 1:
                ax.set_xlabel("load factor lambda [-]")
            ins = insets.get((row, col))
            if ins is not None:
                ins.set_xlim(0.545, 0.605)
                ys = []
                for d in files:
                    for k2, idx in groups(d):
                        if k2 != key:
                            continue
                        lam = d["coords"]["lambda"][idx]
                        sel = (lam >= 0.545) & (lam <= 0.605)
                        ys.append(d["observables"][name][idx][sel])
                ys = np.concatenate(ys) if ys else np.array([])
                ys = ys[np.isfinite(ys)]
                if ys.size:
                    pad = 0.08 * (ys.max() - ys.min() + 1e-6)
                    ins.set_ylim(ys.min() - pad, ys.max() + pad)
                ins.tick_params(labelsize=7)
                ins.set_title("grazing region", fontsize=7)
                ins.grid(alpha=0.3)

    # legends: classes (colours), files (marker shape + line style), reference lines
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], ls="", marker="o", color=c, label=l) for k, l, c in CLASS_STYLE if k in used_classes]
    if any_slow:
        handles.append(Line2D([], [], ls="", marker="o", markerfacecolor="none", color="0.3", label="slowly converging (~)"))
    for fi, d in enumerate(files):
        handles.append(Line2D([], [], ls=LINESTYLES[fi % len(LINESTYLES)], lw=0.8, color="0.3",
                              marker=MARKERS[fi % len(MARKERS)], label=d["label"]))
    p0 = files[0]["params"]
    lstar0 = linear_response({**p0, **{a: d0 for a, d0 in groups(files[0])[0][0]}})[3]
    if lo < lstar0:
        handles.append(Line2D([], [], ls="--", color="k", label="linear (impact-free) closed form"))
    if lo <= lstar0 <= hi:
        handles.append(Line2D([], [], ls=":", color="tab:purple", label="grazing lambda* = %.4f" % lstar0))
    style.legend_outside(axs[1][0], handles)
    style.save(fig, out)

    print("lambda* = D/|X1 - X2| = %.5f   (|X1| = %.6f, |X2| = %.6f m per unit lambda)" % (
        lstar0, *linear_response({**p0, **{a: d0 for a, d0 in groups(files[0])[0][0]}})[:2]))
    for d in files:
        for key, idx in groups(d):
            print_table(d, key, idx)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
