#!/usr/bin/python3
"""Model files against the C++ models they restate, side by side in one run.

The jobs: the impact oscillator's sigma = linspace(0, 3.5, N), the dry-friction oscillator's
omega = linspace(0.3, 1.5, N) and Model A's lambda = linspace(0.6, 3.0, N) (against
gap_oscillator_declared, the same system in C++ through the hybrid-model API) (default N = 60), a fixed 400 forcing periods from rest (so both do the
same work), one thread, no Floquet multipliers. The built-in model and its model file
(examples/models/*.vibro) run the same sweep, interleaved A B A B ... --repeats times; the minimum CPU
time of each is reported with the ratio file / built-in and the largest difference of their results.
Prints one Markdown table; asserts nothing about timings.
Usage: model_file_bench.py --vibro build/jobs/vibro [--cases N] [--repeats R]
Use Debian's /usr/bin/python3 (numpy, h5py).
"""

import argparse
import os
import resource
import subprocess
import tempfile

import h5py
import numpy as np

JOBS = {"impact oscillator": ("impact_oscillator", "impact_oscillator.vibro", "sigma = linspace(0.0, 3.5, {n})"),
        "dry friction oscillator": ("dry_friction_oscillator", "dry_friction_oscillator.vibro",
                                    "omega = linspace(0.3, 1.5, {n})"),
        "Model A": ("gap_oscillator_declared", "gap_oscillator.vibro", "lambda = linspace(0.6, 3.0, {n})")}


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(vibro, ini, out):
    if os.path.exists(out):
        os.remove(out)  # vibro refuses to overwrite a result file
    before = child_cpu()
    subprocess.run([vibro, "run", ini, "--output.file=" + out], check=True, capture_output=True)
    return child_cpu() - before


def largest_difference(a, b):
    worst = 0.0
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        def visit(name, obj):
            nonlocal worst
            if isinstance(obj, h5py.Dataset) and name != "wall_seconds" and obj.dtype.kind == "f":
                x, y = obj[...], fb["cases"][name][...]
                d = np.abs(x - y)[np.isfinite(x) & np.isfinite(y)]
                if d.size:
                    worst = max(worst, float(d.max()))
        fa["cases"].visititems(visit)
    return worst


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vibro", required=True)
    parser.add_argument("--cases", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print("| job | cases | C++ model CPU [s] | model file CPU [s] | file / C++ | largest difference |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, (builtin, model_file, axis) in JOBS.items():
            times = {"builtin": [], "file": []}
            outs = {}
            for which, model in (("builtin", builtin), ("file", os.path.join(repo, "examples", "models", model_file))):
                ini = os.path.join(tmp, f"{builtin}_{which}.ini")
                with open(ini, "w") as fh:
                    fh.write(f"model = {model}\n[axes]\n{axis.format(n=args.cases)}\n[run]\nsteady_state = fixed\n"
                             f"max_periods = 400\nwindow_periods = 20\nthreads = 1\nprogress = never\n"
                             f"[output]\nfloquet = false\n")
                outs[which] = (ini, os.path.join(tmp, f"{builtin}_{which}.h5"))
            for _ in range(args.repeats):
                for which in ("builtin", "file"):
                    times[which].append(run(args.vibro, *outs[which]))
            cpp, mine = min(times["builtin"]), min(times["file"])
            diff = largest_difference(outs["builtin"][1], outs["file"][1])
            print(f"| {label} | {args.cases} | {cpp:.3f} | {mine:.3f} | {mine / cpp:.2f} | {diff:.3g} |")


main()
