#!/usr/bin/python3
"""Model A loading curve: vibro against the CVODE peer (Bazhenov et al. 2013, Model A).

The job: lambda = linspace(0.6, 3.0, 300), 500 forcing periods from rest, fixed length (so both tools do
the same work), A1 / A2 over the last 20 periods; Hertz contact and restitution e = 1. Measured:
  1. vibro on the full curve, 1 and 2 threads;
  2. build/bench/peers/cvode_gap_oscillator (one core) at its default tolerances (rtol 1e-10, atol 1e-12:
     the same numbers as vibro's defaults) and at tight ones (rtol 1e-11, atol 1e-13: about vibro's
     accuracy), on every --cvode-stride-th lambda of the same curve (CVODE is the slow part of the run);
  3. untimed: a vibro reference at rtol 1e-13 / atol 1e-15 on the CVODE cases (--ref-stride; the error of
     every timed run against it), and both tools at lambda = 1.0 and 2.0 against the shooting reference's values.
All timed runs are repeated (interleaved A B C A B C ...) and the minimum is reported. Prints one Markdown
table and notes; asserts nothing about timings. Shared helpers come from conveyor_fig6_bench.py.
Use Debian's /usr/bin/python3 (numpy, h5py). bench/run_gap_oscillator.sh fills in the paths.
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from conveyor_fig6_bench import (Timed, finish_report, fmt_e, fmt_rate, fmt_s, git_revision, loadavg, log,  # noqa: E402
                                 machine_info, run_cmd, snapshot)

LAWS = {"hertz": ("Hertz", "law = hertz", "hertz"),
        "restitution": ("restitution e = 1", "law = restitution\ne = 1", "restitution")}
# regression values of a shooting reference (A1, A2 = half peak-to-peak of x2), from rest, 6 digits
SPEC = {("restitution", 1.0): (0.078736, 0.147551), ("restitution", 2.0): (0.192440, 0.294523),
        ("hertz", 1.0): (0.078503, 0.147482), ("hertz", 2.0): (0.192218, 0.294694)}


def write_ini(path, law, lambdas, periods, window):
    axis = lambdas if isinstance(lambdas, str) else ", ".join(repr(float(v)) for v in lambdas)
    with open(path, "w") as fh:
        fh.write(f"# written by gap_oscillator_bench.py\nmodel = gap_oscillator\n\n[parameters]\n"
                 f"{LAWS[law][1]}\n\n[axes]\nlambda = {axis}\n\n[run]\nsteady_state = fixed\n"
                 f"max_periods = {periods}\nwindow_periods = {window}\n")


def write_lambdas(path, lambdas):
    with open(path, "w") as fh:
        fh.write("lambda\n" + "".join(f"{float(v)!r}\n" for v in lambdas))


def read_h5(path):
    with h5py.File(path, "r") as f:
        return {"wall": float(f.attrs["wall_seconds"]), "lambda": f["axes/lambda"][:],
                "A1": f["cases/observables/A1"][:], "A2": f["cases/observables/A2_pp"][:],
                "ipp": f["cases/observables/impacts_per_period"][:],
                "impacts": f["cases/counters/impacts"][:].astype(np.int64),
                "steps": f["cases/counters/steps"][:].astype(np.int64),
                "case_wall": f["cases/wall_seconds"][:],
                "cls": [c.decode() if isinstance(c, bytes) else str(c) for c in f["cases/class"][:]]}


def read_peer(path):
    with open(path) as fh:
        rows = list(csv.DictReader(fh))
    return {"lambda": np.array([float(r["lambda"]) for r in rows]),
            "A1": np.array([float(r["A1"]) for r in rows]), "A2": np.array([float(r["A2_pp"]) for r in rows]),
            "impacts": np.array([int(r["impacts"]) for r in rows], dtype=np.int64),
            "wall": sum(float(r["wall_s"]) for r in rows)}


def rel(a, b):
    return np.abs(np.asarray(a) / np.asarray(b) - 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vibro", default=os.path.join(REPO, "build/jobs/vibro"))
    ap.add_argument("--cvode", default=os.path.join(REPO, "build/bench/peers/cvode_gap_oscillator"))
    ap.add_argument("--repeats", type=int, default=3, help="runs of every timed configuration (min is reported)")
    ap.add_argument("--lambdas", default="linspace(0.6, 3.0, 300)", help="vibro's lambda axis")
    ap.add_argument("--periods", type=int, default=500)
    ap.add_argument("--window", type=int, default=20)
    ap.add_argument("--cvode-stride", type=int, default=6, help="CVODE runs every Nth lambda of the curve")
    ap.add_argument("--ref-stride", type=int, default=None,
                    help="reference on every Nth lambda (default: the CVODE stride; 0: none)")
    ap.add_argument("--default-tol", default="1e-10,1e-12", help="CVODE 'default' RTOL,ATOL")
    ap.add_argument("--tight-tol", default="1e-11,1e-13", help="CVODE 'tight' RTOL,ATOL")
    ap.add_argument("--laws", default="hertz,restitution")
    ap.add_argument("--workdir", default=None, help="keep the HDF5/CSV files here (default: temp)")
    args = ap.parse_args()
    if args.ref_stride is None:
        args.ref_stride = args.cvode_stride

    laws = [x for x in args.laws.split(",") if x]
    for law in laws:
        if law not in LAWS:
            raise SystemExit(f"unknown law {law}")
    if not os.path.exists(args.vibro):
        raise SystemExit(f"not found: {args.vibro}")
    have_cvode = os.access(args.cvode, os.X_OK)
    if not have_cvode:
        log(f"note: {args.cvode} not found, CVODE rows skipped")
    tols = {"default": args.default_tol.split(","), "tight": args.tight_tol.split(",")}

    work = args.workdir or tempfile.mkdtemp(prefix="vibro_gap_bench_")
    os.makedirs(work, exist_ok=True)
    P = lambda name: os.path.join(work, name)  # noqa: E731
    vibro_src = args.vibro
    args.vibro = snapshot(args.vibro, P("bin"))
    vibro_version = subprocess.run([args.vibro, "--version"], capture_output=True, text=True).stdout.strip()
    if have_cvode:
        args.cvode = snapshot(args.cvode, P("bin"))
    t_start = time.perf_counter()
    mach, load0 = machine_info(), loadavg()
    env = dict(os.environ)
    env.pop("OMP_NUM_THREADS", None)  # --run.threads decides

    def vibro_cmd(ini, out, threads, *extra):
        return [args.vibro, "run", ini, f"--run.threads={threads}", f"--output.file={out}",
                "--output.overwrite=true", "--output.strobe_points=none", *extra]

    def stamp():
        return f"[{time.perf_counter() - t_start:6.1f} s]"

    # ---- timed runs, interleaved: per repeat, per law: vibro 1 thread, vibro 2 threads, CVODE default, tight
    lam = None
    timed = {}
    for law in laws:
        write_ini(P(f"{law}.ini"), law, args.lambdas, args.periods, args.window)
        for key in ("v1", "v2") + (("default", "tight") if have_cvode else ()):
            timed[(law, key)] = Timed(f"{law}-{key}")
    for rep in range(args.repeats):
        log(f"{stamp()} repeat {rep + 1}/{args.repeats}")
        for law in laws:
            for key in ("v1", "v2", "default", "tight"):
                t = timed.get((law, key))
                if t is None:
                    continue
                if key in ("v1", "v2"):
                    out = P(f"{law}_{key}_r{rep}.h5")
                    w, _ = run_cmd(vibro_cmd(P(f"{law}.ini"), out, 1 if key == "v1" else 2), env=env)
                    r = read_h5(out)
                    if lam is None:  # the peer gets vibro's own lambda values, bit for bit
                        lam = r["lambda"]
                        sub = np.arange(0, len(lam), args.cvode_stride)
                        write_lambdas(P("lambdas_cvode.csv"), lam[sub])
                else:
                    out = P(f"{law}_{key}_r{rep}.csv")
                    w, err = run_cmd([args.cvode, LAWS[law][2], P("lambdas_cvode.csv"), str(args.periods),
                                      str(args.window), *tols[key]], out_path=out, env=env)
                    r = read_peer(out)
                    m = re.search(r"(\d+) steps", err)
                    r["steps"] = int(m.group(1)) if m else None
                t.inner.append(r["wall"])
                t.process.append(w)
                if t.first is None:
                    t.first = r
                elif not (np.array_equal(r["A1"], t.first["A1"]) and np.array_equal(r["A2"], t.first["A2"])):
                    t.nondeterministic = True

    # ---- untimed: reference and the shooting reference's regression points
    ref = {}
    ref_idx = np.arange(0, len(lam), args.ref_stride) if args.ref_stride > 0 else np.array([], dtype=int)
    reg = {}
    write_lambdas(P("lambdas_reg.csv"), [1.0, 2.0])
    for law in laws:
        if len(ref_idx):
            log(f"{stamp()} reference {law}: vibro rtol 1e-13, atol 1e-15 on {len(ref_idx)} lambdas")
            write_ini(P(f"{law}_ref.ini"), law, lam[ref_idx], args.periods, args.window)
            run_cmd(vibro_cmd(P(f"{law}_ref.ini"), P(f"{law}_ref.h5"), 2, "--numerics.rtol=1e-13",
                              "--numerics.atol=1e-15"), env=env)
            ref[law] = read_h5(P(f"{law}_ref.h5"))
        log(f"{stamp()} regression points {law}: lambda 1.0, 2.0")
        write_ini(P(f"{law}_reg.ini"), law, [1.0, 2.0], args.periods, args.window)
        run_cmd(vibro_cmd(P(f"{law}_reg.ini"), P(f"{law}_reg.h5"), 1), env=env)
        reg[(law, "vibro")] = read_h5(P(f"{law}_reg.h5"))
        if have_cvode:
            for key in ("default", "tight"):
                run_cmd([args.cvode, LAWS[law][2], P("lambdas_reg.csv"), str(args.periods), str(args.window),
                         *tols[key]], out_path=P(f"{law}_reg_{key}.csv"), env=env)
                reg[(law, key)] = read_peer(P(f"{law}_reg_{key}.csv"))

    # ---- the table
    n = len(lam)
    head = ("| law | run | cases | threads | wall s min / med / max | cases/s | impacts | impacts/s | "
            "speed-up; vibro / CVODE (cases/s) | A1 vs vibro 1 thread: max / p99 | A2 vs vibro 1 thread: max / p99 | "
            "error vs reference: A1 / A2 max (median) |")
    rows, notes = [], []
    for law in laws:
        v1, v2 = timed[(law, "v1")], timed[(law, "v2")]
        f1 = v1.first
        in_ref = {i: k for k, i in enumerate(ref_idx)}

        def ref_err(A1, A2, idx):
            """max relative error against the reference over the cases idx (indices into the curve)."""
            if law not in ref:
                return "-"
            pairs = [(k, in_ref[i]) for k, i in enumerate(idx) if i in in_ref]
            if not pairs:
                return "-"
            a, b = zip(*pairs)
            R = ref[law]
            e1 = rel(np.asarray(A1)[list(a)], R["A1"][list(b)])
            e2 = rel(np.asarray(A2)[list(a)], R["A2"][list(b)])
            return (f"{fmt_e(e1.max())} ({fmt_e(np.median(e1))}) / {fmt_e(e2.max())} ({fmt_e(np.median(e2))})"
                    + ("" if len(pairs) == len(idx) else f" on {len(pairs)} cases"))

        all_idx = np.arange(n)
        same_2 = np.array_equal(f1["A1"], v2.first["A1"]) and np.array_equal(f1["A2"], v2.first["A2"])
        for t, th in ((v1, 1), (v2, 2)):
            imp = int(np.sum(t.first["impacts"]))
            rows.append(f"| {LAWS[law][0]} | vibro fixed {args.periods} | {n} | {th} | {t.spread()} | "
                        f"{fmt_rate(n / t.best)} | {imp} | {fmt_rate(imp / t.best)} | "
                        + ("1 (base)" if th == 1 else f"x{v1.best / v2.best:.2f} vs 1 thread") + " | "
                        + ("-" if th == 1 else f"identical to 1 thread: {'yes' if same_2 else 'NO'}")
                        + f" | - | {ref_err(t.first['A1'], t.first['A2'], all_idx)} |")
        if not have_cvode:
            continue
        sub = np.arange(0, n, args.cvode_stride)
        share = float(np.sum(f1["case_wall"][sub]) / np.sum(f1["case_wall"]))  # vibro's time on the same cases
        share2 = float(np.sum(v2.first["case_wall"][sub]) / np.sum(v2.first["case_wall"]))
        for key in ("default", "tight"):
            t = timed[(law, key)]
            p = t.first
            if not np.allclose(p["lambda"], lam[sub], rtol=1e-15, atol=0):
                raise SystemExit("CVODE lambdas do not match vibro's")
            imp = int(np.sum(p["impacts"]))
            cps = len(sub) / t.best
            r1 = len(sub) / (v1.best * share) / cps
            r2 = len(sub) / (v2.best * share2) / cps
            dA1, dA2 = rel(p["A1"], f1["A1"][sub]), rel(p["A2"], f1["A2"][sub])
            rows.append(f"| {LAWS[law][0]} | CVODE Adams, rtol {tols[key][0]}, atol {tols[key][1]} ({key}) | "
                        f"{len(sub)} | 1 | {t.spread()} | {fmt_rate(cps)} | {imp} | {fmt_rate(imp / t.best)} | "
                        f"x{r1:.1f} (1 thread), x{r2:.1f} (2 threads) | {fmt_e(dA1.max())} / "
                        f"{fmt_e(np.percentile(dA1, 99))} | {fmt_e(dA2.max())} / {fmt_e(np.percentile(dA2, 99))} | "
                        f"{ref_err(p['A1'], p['A2'], sub)} |")
            dimp = p["impacts"] - f1["impacts"][sub]
            if np.any(dimp):
                notes.append(f"{LAWS[law][0]}, CVODE {key}: impact counts differ from vibro's on "
                             f"{int(np.sum(dimp != 0))}/{len(sub)} cases (CVODE - vibro: min {int(dimp.min())}, "
                             f"max {int(dimp.max())}).")
        steps = [f"vibro {np.sum(f1['steps'][sub]) / (len(sub) * args.periods):.0f}"]
        for key in ("default", "tight"):
            st = timed[(law, key)].first.get("steps")
            if st:
                steps.append(f"CVODE {key} {st / (len(sub) * args.periods):.0f}")
        notes.append(f"{LAWS[law][0]}: accepted steps per forcing period on the CVODE cases: " + ", ".join(steps)
                     + " (CVODE: CVodeGetNumSteps summed over the restarts).")
        cls = sorted(set(f1["cls"]))
        notes.append(f"{LAWS[law][0]}: vibro classes on the curve: " + ", ".join(
            f"{c} x{f1['cls'].count(c)}" for c in cls) + f"; impacts per period in the window "
            f"{f1['ipp'].min():g}..{f1['ipp'].max():g}.")

    print("# Model A loading curve: vibro against SUNDIALS CVODE\n")
    print(f"Machine: {mach['cpu']}, nproc {mach['nproc']} (usable {mach['usable']}), Linux {mach['kernel']}; "
          f"load average at start {load0}, at end {loadavg()}.  ")
    print(f"{vibro_version or 'vibro'}, checkout {git_revision()} ({vibro_src}, copied before the first run).  ")
    print(f"Job: gap_oscillator (Model A), lambda = {args.lambdas} ({n} cases, {lam[0]:g}..{lam[-1]:g}), "
          f"{args.periods} periods from rest, fixed length, A1 / A2 = A2_pp over the last {args.window} periods. "
          f"CVODE on the lambdas at stride {args.cvode_stride} ({len(np.arange(0, n, args.cvode_stride))} cases); "
          f"its vibro/CVODE ratio uses vibro's time on exactly those cases (its per-case times' share).\n")
    print(head)
    print("|" + "---|" * 12)
    for r in rows:
        print(r)

    print("\nIndependent check's regression values (lambda exactly 1.0 and 2.0, from rest, "
          f"{args.periods} periods, window {args.window}; untimed runs):\n")
    print("| law | lambda | A1 check | A1 vibro | A1 CVODE default | A1 CVODE tight | A2 check | A2 vibro | "
          "A2 CVODE default | A2 CVODE tight |")
    print("|" + "---|" * 10)
    for law in laws:
        for k, lv in enumerate((1.0, 2.0)):
            s = SPEC[(law, lv)]
            cells = []
            for q, sv in (("A1", s[0]), ("A2", s[1])):
                cells.append(f"{sv:.6f}")
                for key in ("vibro", "default", "tight"):
                    r = reg.get((law, key))
                    cells.append(f"{r[q][k]:.6f}" if r is not None else "-")
            print(f"| {LAWS[law][0]} | {lv:g} | " + " | ".join(cells) + " |")
    worst = 0.0
    for (law, key), r in reg.items():
        for k, lv in enumerate((1.0, 2.0)):
            s = SPEC[(law, lv)]
            worst = max(worst, abs(r["A1"][k] - s[0]), abs(r["A2"][k] - s[1]))
    print(f"\nLargest deviation from the shooting reference's 6-digit values over all of these: {worst:.1e} m.")

    print("\nNotes")
    print(f"- Timings: every timed configuration ran {args.repeats} times, the repeats interleaved (per repeat and "
          "law: vibro 1 thread, vibro 2 threads, CVODE default, CVODE tight); rates use the MIN. vibro's time is "
          "the HDF5 root attribute wall_seconds (the sweep, without start-up and file writing); CVODE's is the "
          "sum of its per-case wall_s. Whole-process minima: "
          + ", ".join(f"{t.name} {fmt_s(min(t.process))} s" for t in timed.values()) + ".")
    print("- impacts = contact onsets over the whole run (transient included): vibro's /cases/counters/impacts "
          "(grazing contacts are counted apart, as grazings), CVODE's impacts column; impacts/s = impacts / wall.")
    print("- Accuracy columns: relative differences |CVODE / vibro - 1| on the CVODE cases, against vibro 1 "
          "thread at its defaults (rtol 1e-10, atol 1e-12; extrema located on the dense output). CVODE locates "
          "extrema too (v1 = 0, v2 = 0 root functions in the window, plus event points and the window ends).")
    if ref:
        print(f"- Error vs reference: vibro at rtol 1e-13, atol 1e-15 (2 threads, untimed) on the lambdas at "
              f"stride {args.ref_stride} ({len(ref_idx)} cases), max and median |x / ref - 1| over those of them "
              "a run has (all of the CVODE cases by default); this is what 'comparable accuracy' of the tight "
              "CVODE setting refers to.")
    for s in notes:
        print(f"- {s}")
    finish_report(list(timed.values()), t_start, work, args.workdir)


if __name__ == "__main__":
    main()
