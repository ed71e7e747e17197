#!/usr/bin/python3
"""Beam with a sliding mass (Krack et al. 2017): time steps per second per core of Moreau midpoint
time-stepping with the GS-prox contact solver.

Runs single-thread vibro sweeps of typical cases (each a whole number of excitation periods) and reads
the step counts and per-case wall times from the HDF5 file:
  reference 85 Hz (resonance: contacts closed about half the time, many solver sweeps),
  adaptive 125 Hz from 0.6 l (operating regime), surrogate 130 Hz at 0.78 l (strong contact forces).
Each run is repeated (interleaved) and the minimum wall time is reported. An independent single-file
prototype reached about 1.1e5 steps/s per core (9 us/step). Asserts nothing: it measures and prints.
Optionally (--fig7a) times an example sweep file on 1 and 2 threads.
Use Debian's /usr/bin/python3 (h5py).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

CASES = [
    ("reference 85 Hz, 3 s", "variant = reference\nf = 85", "", 255),
    ("adaptive 125 Hz from 0.6 l, 4 s", "variant = adaptive\nf = 125", "x_C0 = 0.6", 500),
    ("surrogate 130 Hz at 0.78 l, 3 s", "variant = surrogate\nf = 130", "x_C0 = 0.78", 390),
]


def run_case(vibro, workdir, index, params, initial, periods):
    ini = os.path.join(workdir, f"case{index}.ini")
    out = os.path.join(workdir, f"case{index}.h5")
    with open(ini, "w") as fh:
        fh.write(f"model = beam_slider\n[parameters]\n{params}\n[initial]\n{initial}\n"
                 f"[run]\nsteady_state = fixed\nmax_periods = {periods}\nwindow_periods = {periods // 2}\n"
                 f"threads = 1\n[output]\nfile = {out}\noverwrite = true\n")
    subprocess.run([vibro, "run", ini], check=True, stdout=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        steps = int(f["cases/counters/steps"][0])
        sweeps = int(f["cases/counters/solver_sweeps"][0])
        contact = int(f["cases/counters/contact_steps"][0])
        wall = float(f["cases/wall_seconds"][0])
    return steps, sweeps, contact, wall


def time_sweep(vibro, ini, threads, workdir):
    out = os.path.join(workdir, f"sweep_{threads}.h5")
    subprocess.run([vibro, "run", ini, f"--run.threads={threads}", f"--output.file={out}", "--output.overwrite=true"], check=True,
                   stdout=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        return float(f.attrs["wall_seconds"]), len(f["cases/status"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vibro", default=os.path.join(REPO, "build", "jobs", "vibro"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sweep", help="also time this sweep file on --threads")
    ap.add_argument("--threads", default="1,2", help="thread counts for --sweep, comma separated")
    args = ap.parse_args()
    if not os.path.exists(args.vibro):
        sys.exit(f"beam_slider_bench.py: {args.vibro} not found; build first")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as workdir:
        best = {}
        for _ in range(args.repeats):
            for i, (name, params, initial, periods) in enumerate(CASES):
                steps, sweeps, contact, wall = run_case(args.vibro, workdir, i, params, initial, periods)
                if name not in best or wall < best[name][3]:
                    best[name] = (steps, sweeps, contact, wall)
        print("| case | steps | contact steps | solver sweeps / contact step | wall s (min) | steps/s | us/step |")
        print("|---|---|---|---|---|---|---|")
        total_steps = total_wall = 0
        for name, (steps, sweeps, contact, wall) in best.items():
            total_steps += steps
            total_wall += wall
            print(f"| {name} | {steps} | {contact} | {sweeps / max(contact, 1):.1f} | {wall:.3f} | "
                  f"{steps / wall:.3g} | {1e6 * wall / steps:.2f} |")
        print(f"| all | {total_steps} | | | {total_wall:.3f} | {total_steps / total_wall:.3g} | "
              f"{1e6 * total_wall / total_steps:.2f} |")
        if args.sweep:
            for threads in (int(t) for t in args.threads.split(",")):
                wall, cases = time_sweep(args.vibro, args.sweep, threads, workdir)
                print(f"sweep {os.path.basename(args.sweep)}: {cases} cases, {threads} thread(s): {wall:.1f} s")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
