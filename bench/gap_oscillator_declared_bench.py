#!/usr/bin/python3
"""Model A through the hybrid-model API against the built-in Model A, side by side in one run.

The job: the loading curve lambda = linspace(0.6, 3.0, N) (default 100), 500 forcing periods from rest at
fixed length (so both do the same work), rigid impacts with restitution e (default 1 and 0.5), one
thread. `gap_oscillator` (hand-written system and Jacobian) and `gap_oscillator_declared` (the same
system declared through analysis/hybrid_model.hpp: std::function vector field, automatic-differentiation
Jacobian, generic gap law) run the same sweep file, interleaved A B A B ... --repeats times; the minimum
wall and CPU time of each is reported with the ratios declared / built-in, and the largest difference of the
amplitudes between them. Prints one Markdown table; asserts nothing about timings.
Usage: gap_oscillator_declared_bench.py --vibro build/jobs/vibro [--cases N] [--repeats R] [--workdir DIR]
Use Debian's /usr/bin/python3 (numpy, h5py).
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

MODELS = {"gap_oscillator": ("law = restitution\n", "A1_pp", "A2_pp"),
          "gap_oscillator_declared": ("", "amplitude_x1", "amplitude_u2")}


def write_ini(path, model, e, cases, periods):
    with open(path, "w") as fh:
        fh.write(f"# written by gap_oscillator_declared_bench.py\nmodel = {model}\n\n[parameters]\n{MODELS[model][0]}"
                 f"e = {e}\n\n[numerics]\nv_eps = 1e-6\n\n[axes]\nlambda = linspace(0.6, 3.0, {cases})\n\n[run]\n"
                 f"steady_state = fixed\nmax_periods = {periods}\nwindow_periods = 20\nthreads = 1\nprogress = never\n")


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(vibro, ini, out):
    """Wall and CPU seconds of one sweep (CPU time: less disturbed by other jobs on a shared machine)."""
    c0, t0 = child_cpu(), time.perf_counter()
    p = subprocess.run([vibro, "run", ini, f"--output.file={out}", "--output.strobe_points=none", "--output.overwrite=true"],
                       capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, child_cpu() - c0
    if p.returncode != 0:
        sys.exit(f"vibro failed on {ini}:\n{p.stderr[-2000:]}")
    return wall, cpu


def amplitudes(path, model):
    with h5py.File(path, "r") as f:
        return f["cases/observables/" + MODELS[model][1]][:], f["cases/observables/" + MODELS[model][2]][:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vibro", required=True)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--periods", type=int, default=500)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--restitution", default="1,0.5")
    ap.add_argument("--workdir")
    args = ap.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="gap_declared_bench_")
    os.makedirs(work, exist_ok=True)
    rows = []
    for e in args.restitution.split(","):
        best = {}
        for _ in range(args.repeats):
            for model in MODELS:
                ini = os.path.join(work, f"{model}_e{e}.ini")
                write_ini(ini, model, e, args.cases, args.periods)
                times = run(args.vibro, ini, os.path.join(work, f"{model}_e{e}.h5"))
                best[model] = tuple(min(a, b) for a, b in zip(best.get(model, (float("inf"),) * 2), times))
        (b1, b2), (d1, d2) = (amplitudes(os.path.join(work, f"{m}_e{e}.h5"), m) for m in MODELS)
        diff = max(np.max(np.abs(d1 - b1) / np.abs(b1)), np.max(np.abs(d2 - b2) / np.abs(b2)))
        rows.append((e, best["gap_oscillator"], best["gap_oscillator_declared"], diff))
    print(f"\n{args.cases} lambda values x {args.periods} periods, 1 thread, minimum of {args.repeats} interleaved runs\n")
    print("| e | built-in gap_oscillator wall / CPU (s) | gap_oscillator_declared wall / CPU (s) | "
          "ratio declared / built-in, wall / CPU | largest relative amplitude difference |")
    print("|---|---|---|---|---|")
    for e, b, d, diff in rows:
        print(f"| {e} | {b[0]:.2f} / {b[1]:.2f} | {d[0]:.2f} / {d[1]:.2f} | {d[0] / b[0]:.2f} / {d[1] / b[1]:.2f} | {diff:.1e} |")


if __name__ == "__main__":
    main()
