#!/usr/bin/python3
"""Mean feeding velocity against the acceleration amplitude (conveyor paper, Figs. 6, 14 and 18).

usage: plot_feeding_velocity.py IN.h5 OUT.png [--panel AXIS ...] [--bw | --no-bw] [--quiet]

Reads a `vibro run` sweep of the conveyor model (the conveyor paper) and draws one dot per case
(mean feeding velocity, /cases/observables/mean_velocity) against a_hat, coloured by the family of the
steady-state class:

    S  permanent contact        M  coupled / microthrow (Mk)   H1  period-1 hopping, n = 1
    Hn n-period flights (n > 1) P  period-k hopping (Pk)       X   chaotic / not converged

Slowly converging cases ('~' suffix) are merged with their family. Infeasible (status 1) and failed
(status 2) cases are not drawn; they are counted in the summary.

Analytic overlays (paper Eqs. 23-40, 64-65), from c_r, phi, f and g of the panel:
    v_T*  = (pi g n / omega) (1 - c_r)/(1 + c_r) cot(phi)                 Eq. 28, n = 1 solid, n = 2 dashed
    a*    = (pi g n / sin phi) (1 - c_r)/(1 + c_r)                        Eq. 64
    Gamma = 1 at a = g / sin(phi)
    a_up  = (g/sin phi) (1+c_r^2)/(1+c_r)^2 sqrt(4 + (n pi (1-c_r^2)/(1+c_r^2))^2)   Eq. 40 via Eq. 63
    B omega = a_hat cos(phi) / omega (plate's peak tangential velocity; Fig. 14; drawn by default when the
    file has a c_r axis, forced with --bw / --no-bw)

One panel per value of each panel axis. By default the panel axes are those of c_r, phi, f, g, mu and
psi1 that the file sweeps with 2 to 6 values (Fig. 14: c_r; Fig. 18: psi1); --panel AXIS overrides
(repeatable; --panel none for a single panel). Every other axis (z0, v1, ...) only adds dots per a_hat.
If c_r, phi, f or g varies within a panel, the analytic lines use its first value (with a warning).

Also prints, per panel, a table per a_hat: the classes present with their counts and the velocity range
of the H1 cases, followed by the hard checks of the paper's statements (H1 only within [a*, a_up] and at v_T*).
"""
import argparse
import math
import os
import re
import sys
from collections import Counter, OrderedDict

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conveyor_analytic import a_gamma1, a_star, a_up, b_omega, v_t_star  # noqa: E402
from vibro_results import case_param, load  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()

FAMILIES = OrderedDict([
    # family: (label, colour, marker size, z-order)
    ("X", ("X: chaotic / not converged", "0.55", 5, 1)),
    ("Q", ("Q: quasi-periodic", "tab:cyan", 6, 1)),
    ("M", ("Mk: coupled / microthrows", "tab:orange", 6, 2)),
    ("S", ("S: permanent contact", "tab:blue", 6, 3)),
    ("P", ("Pk: period-k hopping", "tab:purple", 7, 4)),
    ("Hn", ("Hn: n-period flights (n > 1)", "tab:green", 9, 5)),
    ("H1", ("H1: period-1 hopping (second state)", "tab:red", 10, 6)),
    ("?", ("other class", "k", 6, 0)),
])

PANEL_AXES_DEFAULT = ("c_r", "phi", "f", "g", "mu", "psi1")
MAX_AUTO_PANELS = 6  # an axis with more values is not split into panels unless --panel names it
UNITS = {"c_r": "", "phi": " deg", "f": " Hz", "g": " m/s^2", "mu": "", "psi1": " deg", "z0": " m",
         "v1": " m/s", "a_hat": " m/s^2"}


def family(cls):
    """Family of a class code: S, M, H1, Hn, P, Q, X, or '?'. The '~' qualifier is dropped."""
    c = cls.rstrip("~")
    if c == "S" or re.fullmatch(r"S\d+", c):
        return "S"
    if re.fullmatch(r"M\d+", c):
        return "M"
    if c == "H1":
        return "H1"
    if re.fullmatch(r"H\d+", c):
        return "Hn"
    if re.fullmatch(r"P\d+", c):
        return "P"
    if c in ("Q", "X"):
        return c
    return "?"


TABLE_ORDER = ("S", "M", "H1", "Hn", "P", "Q", "X", "?")


def class_sort_key(code):
    """Table order: S, Mk, H1, Hn, Pk, Q, X, others; then by k, then plain before '~'."""
    fam = family(code)
    m = re.search(r"\d+", code)
    return (TABLE_ORDER.index(fam) if fam in TABLE_ORDER else 99, int(m.group()) if m else 0, code)


def hop_n(cls):
    """n of an Hn class (1 for H1), else None."""
    m = re.fullmatch(r"H(\d+)", cls.rstrip("~"))
    return int(m.group(1)) if m else None


def fmt_val(name, v):
    return ("%s = %g%s" % (name, v, UNITS.get(name, ""))).strip()


def summarize_panel(data, idx, title, cr, phi, f, g, out):
    """Per-a_hat table and hard checks for one panel; returns the lines."""
    a = data["coords"]["a_hat"][idx]
    cls = data["cls"][idx]
    st = data["status"][idx]
    vel = data["observables"]["mean_velocity"][idx]
    vts = {n: v_t_star(cr, phi, f, g, n) for n in (1, 2, 3, 4)}
    ast, aup = a_star(cr, phi, g, 1), a_up(cr, phi, g, 1)
    ast2, aup2 = a_star(cr, phi, g, 2), a_up(cr, phi, g, 2)
    out.append("")
    out.append("== %s" % title)
    out.append("   analytic: v_T*(n=1) = %.10f m/s, v_T*(n=2) = %.10f m/s; a* = %.4f, Gamma=1 at %.4f, "
               "a_up = %.4f (n=1); n=2 window [%.4f, %.4f] m/s^2"
               % (vts[1], vts[2], ast, a_gamma1(phi, g), aup, ast2, aup2))
    out.append("   %-8s %-6s %-62s %s" % ("a_hat", "cases", "classes (count)", "H1 velocity range (m/s)"))
    for av in np.unique(a):
        sel = a == av
        labels = []
        for c, s in zip(cls[sel], st[sel]):
            labels.append(c if s == 0 else {1: "infeasible", 2: "failed", 3: "not-run"}.get(s, "status%d" % s))
        cnt = Counter(labels)
        text = " ".join("%s=%d" % (k, cnt[k]) for k in sorted(cnt, key=class_sort_key))
        h1 = sel & np.array([hop_n(c) == 1 for c in cls]) & (st == 0)
        if h1.any():
            vr = "%.10f .. %.10f (%d)" % (vel[h1].min(), vel[h1].max(), h1.sum())
        else:
            vr = "-"
        out.append("   %-8g %-6d %-62s %s" % (av, sel.sum(), text, vr))
    # hard checks (the paper's statements)
    ok = st == 0
    n_of = np.array([hop_n(c) if hop_n(c) is not None else 0 for c in cls])
    h1 = ok & (n_of == 1)
    out.append("   checks:")
    if h1.any():
        out.append("     H1 cases: %d, a_hat in [%g, %g]; predicted window [%.4f, %.4f]"
                   % (h1.sum(), a[h1].min(), a[h1].max(), ast, aup))
        if "last_impact_phase" in data["observables"]:
            ph = data["observables"]["last_impact_phase"][idx]
            hs = h1 & ~np.array([c.endswith("~") for c in cls]) & (a >= ast)
            if hs.any():
                dth = np.abs(np.angle(np.exp(1j * (ph[hs] - np.arccos(ast / a[hs])))))
                out.append("     max |last_impact_phase - acos(a*/a_hat)| over plain H1: %.3e rad (%d of %d > 1e-6)"
                           % (dth.max(), (dth > 1e-6).sum(), hs.sum()))
        outside = h1 & ((a < ast) | (a > aup))
        out.append("     H1 outside [a*, a_up]: %d%s" % (outside.sum(), "" if not outside.any() else
                   "  at a_hat " + ", ".join("%g" % x for x in np.unique(a[outside]))))
        slow = np.array([c.endswith("~") for c in cls])
        for name, s in (("H1", h1 & ~slow), ("H1~", h1 & slow)):
            if s.any():
                dv = np.abs(vel[s] - vts[1])
                out.append("     max |v - v_T*| over %s: %.3e m/s (%d of %d cases > 1e-6)"
                           % (name, dv.max(), (dv > 1e-6).sum(), s.sum()))
    else:
        out.append("     no H1 case (predicted window [%.4f, %.4f])" % (ast, aup))
    hn = ok & (n_of > 1)
    for n in sorted(set(n_of[hn])):
        s = hn & (n_of == n)
        slow = np.array([c.endswith("~") for c in cls])
        dv = np.abs(vel - v_t_star(cr, phi, f, g, n))
        text = "; ".join("max |v - v_T*(n=%d)| over %s (%d) = %.3e m/s" % (n, nm, q.sum(), dv[q].max())
                         for nm, q in (("H%d" % n, s & ~slow), ("H%d~" % n, s & slow)) if q.any())
        outside = s & ((a < a_star(cr, phi, g, n)) | (a > a_up(cr, phi, g, n)))
        out.append("     H%d cases: %d, a_hat in [%g, %g] (window [%.4f, %.4f], %d outside); %s"
                   % (n, s.sum(), a[s].min(), a[s].max(), a_star(cr, phi, g, n), a_up(cr, phi, g, n),
                      outside.sum(), text))
    s_hi = ok & np.array([family(c) == "S" for c in cls]) & (a > a_gamma1(phi, g))
    if s_hi.any():
        out.append("     WARNING: %d S cases with Gamma > 1 (a_hat > %.4f): a permanent contact above Gamma = 1 cannot persist, so this indicates a bug"
                   % (s_hi.sum(), a_gamma1(phi, g)))
    n_inf, n_fail = (st == 1).sum(), (st == 2).sum()
    if n_inf or n_fail or (st > 2).sum():
        out.append("     infeasible: %d, failed: %d, other status: %d" % (n_inf, n_fail, (st > 2).sum()))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--panel", action="append", default=None,
                    help="axis to split panels by (repeatable; 'none' for one panel)")
    bw = ap.add_mutually_exclusive_group()
    bw.add_argument("--bw", dest="bw", action="store_true", default=None, help="draw B omega")
    bw.add_argument("--no-bw", dest="bw", action="store_false", help="do not draw B omega")
    ap.add_argument("--quiet", action="store_true", help="no summary table")
    args = ap.parse_args(argv)

    data = load(args.input)
    if data["model"] and data["model"] != "conveyor":
        print("warning: model is '%s', not 'conveyor'" % data["model"], file=sys.stderr)
    if "a_hat" not in data["axes"]:
        raise SystemExit("%s: no a_hat axis (axes: %s)" % (args.input, ", ".join(data["axes"])))

    if args.panel is None:
        panel_axes = [k for k in PANEL_AXES_DEFAULT
                      if k in data["axes"] and 1 < len(data["axes"][k]) <= MAX_AUTO_PANELS]
    elif args.panel == ["none"]:
        panel_axes = []
    else:
        panel_axes = args.panel
        for k in panel_axes:
            if k not in data["axes"]:
                raise SystemExit("--panel %s: not an axis of the file (axes: %s)" % (k, ", ".join(data["axes"])))
    draw_bw = ("c_r" in data["axes"]) if args.bw is None else args.bw

    # panels: every combination of the panel axes' values
    all_idx = np.arange(data["n"])
    panels = [((), all_idx)]
    for k in panel_axes:
        new = []
        for key, idx in panels:
            for v in data["axes"][k]:
                new.append((key + ((k, v),), idx[data["coords"][k][idx] == v]))
        panels = new

    lines = ["%s: %d cases; axes %s" % (args.input, data["n"], ", ".join(
        "%s[%d]" % (k, len(v)) for k, v in data["axes"].items()))]
    npan = len(panels)
    ncol = 1 if npan <= 4 else 2
    nrow = int(math.ceil(npan / ncol))
    fig, axs = plt.subplots(nrow, ncol, figsize=(10.5 * ncol, 5.2 * nrow), squeeze=False)
    for p, (key, idx) in enumerate(panels):
        ax = axs[p // ncol][p % ncol]
        pv = {}
        for name in ("c_r", "phi", "f", "g"):
            vals = np.unique(case_param(data, name, idx))
            if len(vals) > 1:
                print("warning: %s varies within a panel (%s); the analytic lines use %g"
                      % (name, ", ".join("%g" % x for x in vals), vals[0]), file=sys.stderr)
            pv[name] = float(vals[0])
        cr, phi, f, g = pv["c_r"], pv["phi"], pv["f"], pv["g"]
        title = ", ".join(fmt_val(k, v) for k, v in key) if key else fmt_val("c_r", cr)
        if not args.quiet:
            summarize_panel(data, idx, title, cr, phi, f, g, lines)

        a = data["coords"]["a_hat"][idx]
        cls = data["cls"][idx]
        st = data["status"][idx]
        vel = data["observables"]["mean_velocity"][idx]
        fam = np.array([family(c) for c in cls])
        ok = st == 0
        for fm, (label, col, ms, zo) in FAMILIES.items():
            s = ok & (fam == fm)
            if s.any():
                ax.scatter(a[s], vel[s], s=ms, c=col, label="%s (%d)" % (label, s.sum()), zorder=zo + 2,
                           linewidths=0)
        amin, amax = float(np.min(data["axes"]["a_hat"])), float(np.max(data["axes"]["a_hat"]))
        span = amax - amin if amax > amin else 1.0
        xlo, xhi = amin - 0.02 * span, amax + 0.02 * span
        v1s, v2s = v_t_star(cr, phi, f, g, 1), v_t_star(cr, phi, f, g, 2)
        ast, aup, ag1 = a_star(cr, phi, g), a_up(cr, phi, g), a_gamma1(phi, g)
        ax.axhline(v1s, color="tab:red", lw=1.0, zorder=1, label="v_T* (Eq. 28), n = 1: %.4f m/s" % v1s)
        ax.axhline(v2s, color="tab:green", lw=1.0, ls="--", zorder=1,
                   label="v_T* (Eq. 28), n = 2: %.4f m/s" % v2s)
        ax.axvline(ast, color="k", lw=1.0, ls="-.", zorder=1, label="a* (Eq. 64) = %.2f" % ast)
        ax.axvline(ag1, color="k", lw=1.0, ls=":", zorder=1, label="Gamma = 1: %.2f" % ag1)
        ax.axvline(aup, color="k", lw=1.0, ls="--", zorder=1, label="a_up (Eq. 40) = %.2f" % aup)
        if draw_bw:
            xs = np.array([xlo, xhi])
            ax.plot(xs, b_omega(xs, phi, f), color="tab:cyan", lw=1.0, zorder=1,
                    label="plate B omega = a cos(phi)/omega")
        ax.set_xlim(xlo, xhi)
        vok = vel[ok]
        if vok.size:
            ylo = min(0.0, float(np.nanmin(vok)))
            yhi = max(float(np.nanmax(vok)), v1s)
            if v2s <= 1.25 * yhi:
                yhi = max(yhi, v2s)
            pad = 0.06 * (yhi - ylo if yhi > ylo else 1.0)
            ax.set_ylim(ylo - pad, yhi + pad)
        ax.set_xlabel("acceleration amplitude a_hat [m/s^2]")
        ax.set_ylabel("mean feeding velocity [m/s]")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), markerscale=1.5, framealpha=0.85)
    for p in range(npan, nrow * ncol):
        axs[p // ncol][p % ncol].set_visible(False)
    style.suptitle(fig, data["dataset"], "mean feeding velocity against the acceleration amplitude")
    style.save(fig, args.output)
    if not args.quiet:
        print("\n".join(lines))
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
