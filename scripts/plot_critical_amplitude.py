#!/usr/bin/python3
"""Observed ("real") critical amplitude of the conveyor's second state (conveyor paper, Figs. 16 and 19).

usage: plot_critical_amplitude.py IN.h5 [IN2.h5 ...] OUT.png [--z0max MM ...] [--strict] [--a-range LO HI]

The figure is chosen from the axes of the input (all inputs must be of the same kind):

Fig. 16 (axes a_hat and z0; c_r an axis or a parameter; the conveyor paper)
    For every c_r and every maximum initial height z0max (mm; default 0.5 1 2 3 5 7.5 10), the drop
    heights are the 21 values linspace(0, z0max, 21), picked out of the file's z0 axis by exact list
    membership (tolerance 1e-12 m). The observed critical amplitude is the smallest a_hat with at least one
    H1 case among them. Plotted against z0max, one curve per c_r, with the horizontal lines a*(c_r)
    (Eq. 64) and a_up(c_r) (Eq. 40 via Eq. 63); a second panel shows it against c_r, one curve per z0max,
    over the a*(c_r) and a_up(c_r) curves. Prints the table, with the number of H1 cases at the critical
    amplitude, the plate's peak tangential velocity B omega there (equal to v_T* at a*, Eq. 66), and the
    period-2 cases within 1e-4 m/s of v_T* (reported separately; they do not count).

Fig. 19 (axes a_hat, psi1 and v1; also works on the Fig. 18 sweep)
    For every (v1, psi1) cell, the first a_hat (scanning upwards) whose case is H1. Map in colour bins of
    2 m/s^2; white: no H1 in the range ("none"); dark grey: infeasible (status 1, no first impact, at every
    a_hat of the cell); light grey: no H1 and infeasible at some a_hat. One panel per c_r (or per value of
    any other axis); several input files give several panels (e.g. the c_r = 0.35 and 0.7 runs).
    Prints the cell count per bin, 'none' and 'infeasible', and checks that every coloured cell lies in
    [a*, a_up] of its c_r; also the count restricted to the paper's colour range 50..76 m/s^2.

H1 counts the slowly converging H1~ cases too (the '~' qualifier is merged with its class); --strict
counts plain H1 only (the summary says where that changes a critical amplitude). --a-range LO HI restricts
the a_hat scan (both figures). Only cases with status 0 count.
"""
import argparse
import math
import os
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import BoundaryNorm, ListedColormap  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conveyor_analytic import a_star, a_up, b_omega, v_t_star  # noqa: E402
from vibro_results import grid, load, param_values  # noqa: E402
from vibro import style  # noqa: E402  (vibro_results puts python/ on the path)

style.setup()

Z0MAX_DEFAULT_MM = (0.5, 1, 2, 3, 5, 7.5, 10)
Z0_TOL = 1e-12
PAPER_RANGE = (50.0, 76.0)


# ---------------------------------------------------------------------------------------------------------
def is_h1(cls, strict):
    return (cls == "H1") if strict else ((cls == "H1") | (cls == "H1~"))


def take(data, arrays, fixed):
    """Per-case arrays as grids, with the axes in `fixed` (name -> index) removed."""
    out = []
    for arr in arrays:
        sl = tuple(fixed.get(name, slice(None)) for name in data["order"])
        out.append(grid(data, arr)[sl])
    rest = [n for n in data["order"] if n not in fixed]
    return out, rest


# ---------------------------------------------------------------------------------------------------------
# Fig. 16
def fig16(datas, out_png, z0max_mm, strict, a_range):
    rows = []  # (c_r, z0max_mm, crit, crit_strict, n_h1, vmean, nz_found, p2info, a*, a_up, Bomega)
    lines = []
    for data in datas:
        phi, f, g = (float(data["params"][k]) for k in ("phi", "f", "g"))
        for k in ("phi", "f", "g"):
            if k in data["axes"]:
                raise SystemExit("%s: %s is swept; the Fig. 16 analysis expects it fixed" % (data["path"], k))
        zax = data["axes"]["z0"]
        a_vals = data["axes"]["a_hat"]
        vel_all = data["observables"]["mean_velocity"]
        for ci, cr in enumerate(param_values(data, "c_r")):
            fixed = {"c_r": ci} if "c_r" in data["axes"] else {}
            (cls, st, vel), rest = take(data, (data["cls"], data["status"], vel_all), fixed)
            # move a_hat to axis 0 and z0 to axis 1; every other axis is flattened into more cases
            ia, iz = rest.index("a_hat"), rest.index("z0")
            others = [i for i in range(len(rest)) if i not in (ia, iz)]
            perm = [ia, iz] + others
            cls, st, vel = (np.transpose(x, perm).reshape(len(a_vals), len(zax), -1) for x in (cls, st, vel))
            ok = st == 0
            h1 = ok & is_h1(cls, strict)
            h1s = ok & is_h1(cls, True)
            vts = v_t_star(cr, phi, f, g)
            p2 = ok & np.vectorize(lambda c: c.rstrip("~") == "P2")(cls) & (np.abs(vel - vts) < 1e-4)
            ast, aup = a_star(cr, phi, g), a_up(cr, phi, g)
            aorder = np.argsort(a_vals)
            for zm in z0max_mm:
                want = np.linspace(0.0, zm * 1e-3, 21)
                zi = []
                for w in want:
                    hit = np.nonzero(np.abs(zax - w) <= Z0_TOL)[0]
                    if hit.size:
                        zi.append(hit[0])
                zi = np.array(sorted(set(zi)), dtype=int)
                if zi.size < 21:
                    print("warning: c_r = %g, z0max = %g mm: only %d of the 21 drop heights are on the z0 axis"
                          % (cr, zm, zi.size), file=sys.stderr)
                crit = crit_s = None
                n_h1 = 0
                vmean = float("nan")
                p2a = []
                for ai in aorder:
                    av = a_vals[ai]
                    if a_range and not (a_range[0] <= av <= a_range[1]):
                        continue
                    if zi.size and p2[ai][zi].any():
                        p2a.append(av)
                    if zi.size and crit is None and h1[ai][zi].any():
                        crit = av
                        n_h1 = int(h1[ai][zi].sum())
                        vmean = float(vel[ai][zi][h1[ai][zi]].mean())
                    if zi.size and crit_s is None and h1s[ai][zi].any():
                        crit_s = av
                rows.append(dict(c_r=cr, z0max=zm, crit=crit, crit_strict=crit_s, n_h1=n_h1, vmean=vmean,
                                 nz=int(zi.size), p2=p2a, a_star=ast, a_up=aup, vts=vts,
                                 bw=b_omega(crit, phi, f) if crit is not None else None))

    # table
    lines.append("Fig. 16: observed critical amplitude (smallest a_hat with >= 1 %s case among the z0 values of "
                 "linspace(0, z0max, 21))%s" % ("H1" if strict else "H1/H1~",
                                               "; a_hat restricted to [%g, %g]" % tuple(a_range) if a_range else ""))
    lines.append("%-6s %-9s %-8s %-9s %-9s %-5s %-13s %-13s %-8s %s" % (
        "c_r", "z0max/mm", "a_crit", "a*", "a_up", "#H1", "v(H1) m/s", "Bw(a_crit)", "in win", "notes"))
    bad = 0
    for r in rows:
        crit = r["crit"]
        inwin = "-" if crit is None else ("yes" if r["a_star"] <= crit <= r["a_up"] else "NO")
        bad += inwin == "NO"
        notes = []
        if r["nz"] < 21:
            notes.append("only %d/21 z0 values" % r["nz"])
        if not strict and r["crit_strict"] != crit:
            notes.append("plain H1 only: %s" % ("none" if r["crit_strict"] is None else "%g" % r["crit_strict"]))
        if r["p2"]:
            notes.append("P2 at v_T* (+-1e-4): a_hat %s" % ",".join("%g" % x for x in r["p2"]))
        lines.append("%-6g %-9g %-8s %-9.4f %-9.4f %-5d %-13s %-13s %-8s %s" % (
            r["c_r"], r["z0max"], "none" if crit is None else "%g" % crit, r["a_star"], r["a_up"], r["n_h1"],
            "-" if crit is None else "%.10f" % r["vmean"], "-" if crit is None else "%.6f" % r["bw"], inwin,
            "; ".join(notes)))
    lines.append("check: %d critical amplitude(s) outside [a*, a_up]" % bad)
    print("\n".join(lines))

    # plot
    crs = sorted(set(r["c_r"] for r in rows))
    zms = list(z0max_mm)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(14, 5.6))
    cmap = plt.get_cmap("tab10")
    for i, cr in enumerate(crs):
        rr = [r for r in rows if r["c_r"] == cr]
        col = cmap(i % 10)
        x = [r["z0max"] for r in rr if r["crit"] is not None]
        y = [r["crit"] for r in rr if r["crit"] is not None]
        ax1.plot(x, y, "o-", color=col, label="c_r = %g" % cr)
        xn = [r["z0max"] for r in rr if r["crit"] is None]
        if xn:
            ax1.plot(xn, [rr[0]["a_up"]] * len(xn), "x", color=col, ms=9, label="c_r = %g: no H1 (none)" % cr)
        ax1.axhline(rr[0]["a_star"], color=col, ls="--", lw=1)
        ax1.axhline(rr[0]["a_up"], color=col, ls=":", lw=1)
    ax1.plot([], [], "k--", lw=1, label="a* (Eq. 64)")
    ax1.plot([], [], "k:", lw=1, label="a_up (Eq. 40)")
    ax1.set_xlabel("maximum initial height z0max [mm]")
    ax1.set_ylabel("observed critical amplitude [m/s^2]")
    ax1.set_title("critical amplitude against z0max", fontsize=10)
    ax1.grid(alpha=0.3)
    ax1.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))

    phi, g = float(datas[0]["params"]["phi"]), float(datas[0]["params"]["g"])
    if crs:
        lo, hi = max(0.02, min(crs) - 0.05), min(0.98, max(crs) + 0.05)
        cc = np.linspace(lo, hi, 200)
        ax2.plot(cc, [a_star(c, phi, g) for c in cc], "k--", lw=1, label="a* (Eq. 64)")
        ax2.plot(cc, [a_up(c, phi, g) for c in cc], "k:", lw=1, label="a_up (Eq. 40)")
    cmap2 = plt.get_cmap("viridis")
    for j, zm in enumerate(zms):
        rr = sorted((r for r in rows if r["z0max"] == zm and r["crit"] is not None), key=lambda r: r["c_r"])
        col = cmap2(j / max(1, len(zms) - 1))
        ax2.plot([r["c_r"] for r in rr], [r["crit"] for r in rr], "o-", color=col, ms=4,
                 label="z0max = %g mm" % zm)
    ax2.set_xlabel("coefficient of restitution c_r [-]")
    ax2.set_ylabel("observed critical amplitude [m/s^2]")
    ax2.set_title("critical amplitude against c_r", fontsize=10)
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle("conveyor: observed critical amplitude (first a_hat with %s)" % ("H1" if strict else "H1 or H1~"),
                 fontsize=10)
    style.save(fig, out_png)
    print("wrote %s" % out_png)


# ---------------------------------------------------------------------------------------------------------
# Fig. 19
NONE, PART, INFEAS = -1.0, -2.0, -3.0


def fig19(datas, out_png, strict, a_range):
    panels = []
    lines = []
    for data in datas:
        f, g = float(data["params"]["f"]), float(data["params"]["g"])
        extra = [n for n in data["order"] if n not in ("a_hat", "psi1", "v1")]
        for n in extra:
            if n in ("phi", "f", "g"):
                print("warning: %s is swept; the analytic window uses each panel's value" % n, file=sys.stderr)
        vel_all = data["observables"]["mean_velocity"]
        combos = [{}]
        for n in extra:
            combos = [dict(c, **{n: i}) for c in combos for i in range(len(data["axes"][n]))]
        for fixed in combos:
            (cls, st, vel), rest = take(data, (data["cls"], data["status"], vel_all), fixed)
            perm = [rest.index("a_hat"), rest.index("psi1"), rest.index("v1")]
            cls, st = np.transpose(cls, perm), np.transpose(st, perm)
            a_vals, psi, v1 = data["axes"]["a_hat"], data["axes"]["psi1"], data["axes"]["v1"]
            ia, ip, iv = np.argsort(a_vals), np.argsort(psi), np.argsort(v1)
            a_vals, psi, v1 = a_vals[ia], psi[ip], v1[iv]
            cls, st = cls[ia][:, ip][:, :, iv], st[ia][:, ip][:, :, iv]
            if a_range:
                keep = (a_vals >= a_range[0]) & (a_vals <= a_range[1])
                a_vals, cls, st = a_vals[keep], cls[keep], st[keep]
            pv = {}
            for k in ("c_r", "phi"):
                pv[k] = float(data["axes"][k][fixed[k]]) if k in fixed else float(data["params"][k])
            h1 = (st == 0) & is_h1(cls, strict)
            h1s = (st == 0) & is_h1(cls, True)
            anyh = h1.any(axis=0)
            first = np.argmax(h1, axis=0)
            crit = np.where(anyh, a_vals[first], np.nan)
            anyhs = h1s.any(axis=0)
            crit_s = np.where(anyhs, a_vals[np.argmax(h1s, axis=0)], np.nan)
            infeas_all = (st == 1).all(axis=0)
            infeas_any = (st == 1).any(axis=0)
            failed = (st == 2).any(axis=0)
            code = np.where(anyh, crit, np.where(infeas_all, INFEAS, np.where(infeas_any, PART, NONE)))
            title = "c_r = %g" % pv["c_r"] + "".join(
                ", %s = %g" % (n, data["axes"][n][i]) for n, i in fixed.items() if n != "c_r")
            panels.append(dict(title=title, path=data["path"], psi=psi, v1=v1, a_vals=a_vals, code=code,
                               crit=crit, crit_s=crit_s, failed=failed, c_r=pv["c_r"],
                               a_star=a_star(pv["c_r"], pv["phi"], g), a_up=a_up(pv["c_r"], pv["phi"], g),
                               vts=v_t_star(pv["c_r"], pv["phi"], f, g)))

    lines.append("Fig. 19: first a_hat (scanning upwards) whose case is %s, per (psi1, v1) cell%s"
                 % ("H1" if strict else "H1 or H1~",
                    "; a_hat restricted to [%g, %g]" % tuple(a_range) if a_range else ""))
    for p in panels:
        code, crit = p["code"], p["crit"]
        ncell = code.size
        lo_e, hi_e = bin_edges(p["a_vals"])
        edges = np.arange(lo_e, hi_e + 1e-9, 2.0)
        lines.append("")
        lines.append("== %s (%s): %d cells (psi1 %d x v1 %d), a_hat %g..%g (%d values); a* = %.4f, a_up = %.4f"
                     % (p["title"], p["path"], ncell, len(p["psi"]), len(p["v1"]), p["a_vals"].min(),
                        p["a_vals"].max(), len(p["a_vals"]), p["a_star"], p["a_up"]))
        col = ~np.isnan(crit)
        for e0, e1 in zip(edges[:-1], edges[1:]):
            n = int((col & (crit >= e0) & (crit < e1)).sum())
            lines.append("   [%5g, %5g)  %6d cells" % (e0, e1, n))
        lines.append("   none          %6d cells (no H1 in the a_hat range)" % int((code == NONE).sum()))
        lines.append("   none, part.   %6d cells (no H1; infeasible at some a_hat)" % int((code == PART).sum()))
        lines.append("   infeasible    %6d cells (no first impact at any a_hat)" % int((code == INFEAS).sum()))
        if p["failed"].any():
            lines.append("   cells with a failed case (status 2): %d" % int(p["failed"].sum()))
        if col.any():
            out = col & ((crit < p["a_star"]) | (crit > p["a_up"]))
            lines.append("   coloured: %d cells, a_crit in [%g, %g]; outside [a*, a_up] = [%.4f, %.4f]: %d%s"
                         % (col.sum(), np.nanmin(crit), np.nanmax(crit), p["a_star"], p["a_up"], out.sum(),
                            "" if not out.any() else "  <-- CHECK FAILS"))
            diff = col & ~(crit == p["crit_s"])
            if not strict and diff.any():
                lines.append("   %d cells change when only plain H1 counts (H1~ first)" % diff.sum())
            inpaper = col & (crit >= PAPER_RANGE[0]) & (crit <= PAPER_RANGE[1])
            lines.append("   with a_crit in the paper's colour range [%g, %g]: %d cells"
                         % (PAPER_RANGE[0], PAPER_RANGE[1], inpaper.sum()))
        else:
            lines.append("   no coloured cell")
    print("\n".join(lines))

    # plot
    npan = len(panels)
    ncol = 1 if npan == 1 else 2
    nrow = int(math.ceil(npan / ncol))
    fig, axs = plt.subplots(nrow, ncol, figsize=(8.2 * ncol, 6.0 * nrow), squeeze=False)
    for k, p in enumerate(panels):
        ax = axs[k // ncol][k % ncol]
        lo_e, hi_e = bin_edges(p["a_vals"])
        edges = np.arange(lo_e, hi_e + 1e-9, 2.0)
        nb = len(edges) - 1
        base = plt.get_cmap("turbo")
        colours = [base(0.08 + 0.84 * i / max(1, nb - 1)) for i in range(nb)]
        # colour index: 0 infeasible, 1 none (partly infeasible), 2 none, 3 + b the 2 m/s^2 bin b
        cmap = ListedColormap(["0.30", "0.78", "white"] + colours)
        norm = BoundaryNorm(np.arange(-0.5, 3 + nb), cmap.N)
        code = p["code"]
        b = np.clip(np.floor((np.nan_to_num(code, nan=lo_e) - lo_e) / 2.0), 0, nb - 1)
        idx = np.where(code == INFEAS, 0, np.where(code == PART, 1, np.where(code == NONE, 2, 3 + b)))
        xe = cell_edges(p["v1"])
        ye = cell_edges(p["psi"])
        mesh = ax.pcolormesh(xe, ye, idx, cmap=cmap, norm=norm, shading="flat")
        cb = fig.colorbar(mesh, ax=ax, ticks=np.arange(0, 3 + nb))
        cb.ax.set_yticklabels(["infeasible", "none, part. infeas.", "none"]
                              + ["%g-%g" % (e0, e0 + 2) for e0 in edges[:-1]])
        cb.ax.tick_params(labelsize=7)
        cb.set_label("first a_hat with H1, bins of 2 [m/s^2]")
        ax.set_xlabel("approach speed before the first impact v1 [m/s]")
        ax.set_ylabel("phase of the first impact psi1 [deg]")
        ax.set_title("%s: a* = %.2f, a_up = %.2f (grid %g..%g)"
                     % (p["title"], p["a_star"], p["a_up"], p["a_vals"].min(), p["a_vals"].max()), fontsize=10)
        ax.set_xlim(xe[0], xe[-1])
        ax.set_ylim(ye[0], ye[-1])
        ax.set_yticks(np.arange(0, 361, 45) if len(p["psi"]) > 4 else p["psi"])
    for k in range(npan, nrow * ncol):
        axs[k // ncol][k % ncol].set_visible(False)
    # no figure number: the same map draws the paper's Fig. 18 (psi1 = 90, 180) and Fig. 19 sweeps
    fig.suptitle("real critical amplitude over the first-impact conditions (%s)%s"
                 % ("H1" if strict else "H1 incl. H1~",
                    ", a_hat in [%g, %g]" % tuple(a_range) if a_range else ""), fontsize=10)
    style.save(fig, out_png)
    print("wrote %s" % out_png)


def bin_edges(a_vals):
    """Colour-bin edges (2 m/s^2) covering the a_hat grid: even numbers around [min, max]."""
    lo = 2.0 * math.floor(float(np.min(a_vals)) / 2.0)
    hi = 2.0 * math.floor(float(np.max(a_vals)) / 2.0) + 2.0
    return lo, hi


def cell_edges(v):
    v = np.asarray(v, dtype=float)
    if v.size == 1:
        return np.array([v[0] - 0.5, v[0] + 0.5])
    mid = 0.5 * (v[1:] + v[:-1])
    return np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])


# ---------------------------------------------------------------------------------------------------------
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("files", nargs="+", help="IN.h5 [IN2.h5 ...] OUT.png")
    ap.add_argument("--z0max", type=float, nargs="+", default=list(Z0MAX_DEFAULT_MM),
                    help="maximum initial heights in mm (Fig. 16; default 0.5 1 2 3 5 7.5 10)")
    ap.add_argument("--strict", action="store_true", help="count plain H1 only, not H1~")
    ap.add_argument("--a-range", type=float, nargs=2, metavar=("LO", "HI"), default=None,
                    help="restrict the a_hat scan to [LO, HI]")
    args = ap.parse_args(argv)
    if len(args.files) < 2:
        ap.error("need IN.h5 ... OUT.png")
    inputs, out_png = args.files[:-1], args.files[-1]
    if out_png.endswith(".h5"):
        ap.error("the last argument must be the output image, got %s" % out_png)
    datas = [load(p) for p in inputs]
    kinds = []
    for d in datas:
        ax = d["axes"]
        if "a_hat" not in ax:
            raise SystemExit("%s: no a_hat axis" % d["path"])
        if "psi1" in ax and "v1" in ax:
            kinds.append(19)
        elif "z0" in ax:
            kinds.append(16)
        else:
            raise SystemExit("%s: cannot tell the figure from the axes %s (Fig. 16 needs a_hat and z0; Fig. 19 "
                             "needs a_hat, psi1 and v1)" % (d["path"], ", ".join(ax)))
    if len(set(kinds)) != 1:
        raise SystemExit("the inputs mix Fig. 16 and Fig. 19 sweeps")
    if kinds[0] == 16:
        fig16(datas, out_png, args.z0max, args.strict, args.a_range)
    else:
        fig19(datas, out_png, args.strict, args.a_range)


if __name__ == "__main__":
    main()
