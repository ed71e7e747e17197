#!/usr/bin/python3
"""Ball balancer Fig. 54 sweep (examples/ball_balancer_fig54_15.ini: 0, 1, 2 point-mass balls x 201
eccentric-mass ratios at 1.5 omega_n, at most 400 s per case): cases/s on 1 and 2 threads, with the
adaptive steady-state stop and with fixed-length runs, and the speed-up of the adaptive stop.
Each configuration runs --repeats times (interleaved); the minimum wall time is reported, with the load
average before the runs (other jobs on the machine slow the 2-thread runs most). Asserts nothing.

usage: bench/run_ball_balancer.sh [--repeats N] [--sweep FILE]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def run(vibro, sweep, threads, mode, out):
    subprocess.run([vibro, "run", sweep, "--run.threads=%d" % threads, "--run.steady_state=" + mode,
                    "--output.file=" + out, "--output.overwrite=true"], check=True, stdout=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        return float(f.attrs["wall_seconds"]), len(f["cases/status"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vibro", default=os.path.join(REPO, "build", "jobs", "vibro"))
    ap.add_argument("--sweep", default=os.path.join(REPO, "examples", "ball_balancer_fig54_15.ini"))
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    configs = [(1, "adaptive"), (2, "adaptive"), (1, "fixed"), (2, "fixed")]
    best = {}
    print("load average before: %s" % open("/proc/loadavg").read().split()[:3])
    with tempfile.TemporaryDirectory() as work:
        for _ in range(args.repeats):
            for threads, mode in configs:
                wall, cases = run(args.vibro, args.sweep, threads, mode, os.path.join(work, "bench.h5"))
                best[(threads, mode)] = min(best.get((threads, mode), wall), wall)
    print("\n| threads | steady_state | wall (s) | cases/s |\n|---|---|---|---|")
    for threads, mode in configs:
        print("| %d | %s | %.1f | %.1f |" % (threads, mode, best[(threads, mode)], cases / best[(threads, mode)]))
    for threads in (1, 2):
        print("adaptive speed-up on %d thread(s): %.1fx" % (threads, best[(threads, "fixed")] / best[(threads, "adaptive")]))
    print("2-thread speed-up: adaptive %.2fx, fixed %.2fx" % (best[(1, "adaptive")] / best[(2, "adaptive")],
                                                             best[(1, "fixed")] / best[(2, "fixed")]))


if __name__ == "__main__":
    sys.exit(main())
