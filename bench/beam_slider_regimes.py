#!/usr/bin/env python3
"""The beam slider's regime criteria (R8, R9, R13 of docs/models/beam_slider.md) on the whole Fig. 7a map.

Runs examples/beam_slider_fig7a.ini (the paper's printed Eq. (6), 459 cases, 4000 periods each) keeping
every stroboscopic sample, and examples/beam_slider_surrogate_zeros.ini, then judges the criteria with
the end position of a case taken as the mean of its stroboscopic x_C over the last W of its first T
periods. Because a fixed-length run is a prefix of a longer one (bit-identical trajectories), one map
gives the answer of every shorter protocol too: `--protocol T:W` (repeatable) prints the criteria for
each, and how far each case's end position moves against the full 4000:1000 protocol. The CI test
tests/beam_slider/test_regime_map.cpp uses one such shorter protocol on a subset of frequencies.

    /usr/bin/python3 bench/beam_slider_regimes.py [--vibro build/jobs/vibro] [--workdir DIR]
        [--map FILE --zeros FILE] [--protocol 1000:250 ...] [--threads 2]

About 850 CPU s for the map (nice it on a shared machine); the map file with all samples is ~240 MB.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import vibro_results  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CENTRE_BAND = 0.02      # |x - l/2| < 0.02 l is "centre"
OPERATING = [110, 115, 120, 125, 130, 135, 140]
LOW = [85, 90, 95]
SCATTER = [145, 150, 155, 160, 165, 170, 175]
CLUSTER_GAP = 0.02      # end positions closer than this (sorted neighbours) form one cluster


def run(vibro, ini, out, extra, threads):
    cmd = [vibro, "run", os.path.join(ROOT, "examples", ini), "--output.file=" + out,
           "--run.threads=%d" % threads] + extra
    t0 = time.time()
    subprocess.run(cmd, check=True)
    print("%s: %.1f s wall" % (ini, time.time() - t0))


def end_positions(path, protocols):
    """{(T, W): array (N,) of mean strobe x_C / l over periods T-W..T}, plus f, x_C0, status."""
    data = vibro_results.load(path)
    l = data["params"]["l"]
    with h5py.File(path, "r") as h5:
        x = h5["cases/strobe/drift_position"][()] / l
        offsets = h5["cases/strobe/offsets"][()]
    ends = {}
    for T, W in protocols:
        e = np.full(data["n"], np.nan)
        for i in range(data["n"]):
            a, b = offsets[i], offsets[i + 1]
            if b - a >= T:  # sample j is at period j + 1
                e[i] = x[a + T - W - 1:a + T].mean()
        ends[(T, W)] = e
    return ends, data["coords"]["f"], data["coords"]["x_C0"], data["status"]


def stable_zeros(path):
    """{f: [x where the surrogate's F_x falls through zero, linearly interpolated]}."""
    d = vibro_results.load(path)
    f, x, F = d["coords"]["f"], d["coords"]["x_C0"], d["observables"]["F_x_mean"]
    zeros = {}
    for fi in np.unique(f):
        sel = np.where(np.isclose(f, fi))[0]
        sel = sel[np.argsort(x[sel])]
        xs, Fs = x[sel], F[sel]
        zeros[round(fi)] = [xs[k] + Fs[k] * (xs[k + 1] - xs[k]) / (Fs[k] - Fs[k + 1])
                            for k in range(len(xs) - 1) if Fs[k] > 0 and Fs[k + 1] <= 0]
    return zeros


def clusters(values):
    v = np.sort(values)
    groups, start = [], 0
    for k in range(1, len(v) + 1):
        if k == len(v) or v[k] - v[k - 1] > CLUSTER_GAP:
            groups.append(v[start:k])
            start = k
    return groups


def judge(ends, f, x0, ok, zeros):
    """Prints every criterion's statistic and verdict for one protocol; returns {name: passed}."""
    def at(fi, outer=False):
        sel = ok & np.isclose(f, fi) & (x0 >= (0.6 if outer else 0))
        return ends[sel]

    centre = lambda v: np.abs(v - 0.5) < CENTRE_BAND
    verdict = {}
    off = [1 - centre(at(fi)).mean() for fi in OPERATING]
    verdict["R8a"] = min(off) >= 0.8
    print("  R8a off-centre fraction 110..140 Hz: " + " ".join("%.2f" % v for v in off))
    low = np.concatenate([at(fi) for fi in LOW])
    band = np.concatenate([at(fi) for fi in OPERATING])
    c_low, c_band = centre(low).mean(), centre(band).mean()
    verdict["R8b"] = c_low >= 0.25 and c_low >= 5 * c_band
    print("  R8b centre fraction pooled 85..95 Hz %.3f (per f: %s), 110..140 Hz %.3f" % (
        c_low, " ".join("%.2f" % centre(at(fi)).mean() for fi in LOW), c_band))
    spans = [np.ptp(at(fi)) for fi in SCATTER]
    verdict["R8c"] = sum(s >= 0.1 for s in spans) * 2 >= len(SCATTER)
    print("  R8c span 145..175 Hz: " + " ".join("%.3f" % s for s in spans))
    above = [centre(at(fi)).mean() for fi in (180, 185, 190, 195, 200)]
    print("  (R8d, not a criterion) centre fraction 180..200 Hz: " + " ".join("%.2f" % v for v in above))
    med = [np.median(at(fi, True)) for fi in OPERATING]
    steps_ok = all(b >= a - 0.03 for a, b in zip(med, med[1:]))
    verdict["R9"] = (0.70 <= med[3] <= 0.80 and 0.70 <= med[4] <= 0.80 and steps_ok and med[-1] - med[0] >= 0.08)
    print("  R9 medians (starts >= 0.6 l) 110..140 Hz: " + " ".join("%.3f" % m for m in med)
          + "  rise %.3f" % (med[-1] - med[0]))
    worst = 0.0
    for fi in OPERATING:
        z = zeros.get(fi, [])
        for group in clusters(at(fi, True)):
            d = min((abs(np.median(group) - zi) for zi in z), default=np.inf)
            worst = max(worst, d)
            print("    R13 %d Hz cluster %.3f..%.3f (%d ends, median %.3f): nearest stable zero %s, distance %.3f" % (
                fi, group[0], group[-1], len(group), np.median(group),
                " ".join("%.3f" % zi for zi in z) or "none", d))
    verdict["R13"] = worst <= 0.05
    print("  R13 largest distance cluster median - stable zero: %.3f l" % worst)
    print("  verdicts: " + ", ".join("%s %s" % (k, "met" if v else "NOT met") for k, v in verdict.items()))
    return verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vibro", default=os.path.join(ROOT, "build", "jobs", "vibro"))
    ap.add_argument("--workdir")
    ap.add_argument("--map", help="an existing map file with every strobe sample (skips the run)")
    ap.add_argument("--zeros", help="an existing surrogate-zeros file (skips the run)")
    ap.add_argument("--protocol", action="append", default=[], help="T:W, periods run and averaged")
    ap.add_argument("--threads", type=int, default=0)
    a = ap.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="beam_slider_regimes_")
    os.makedirs(work, exist_ok=True)
    map_file = a.map or os.path.join(work, "fig7a_all_samples.h5")
    zeros_file = a.zeros or os.path.join(work, "surrogate_zeros.h5")
    if not a.map:
        run(a.vibro, "beam_slider_fig7a.ini", map_file,
            ["--output.strobe_points=window", "--run.window_periods=3999"], a.threads)
    if not a.zeros:
        run(a.vibro, "beam_slider_surrogate_zeros.ini", zeros_file, [], a.threads)
    protocols = [(4000, 1000)] + [tuple(int(v) for v in p.split(":")) for p in a.protocol]
    ends, f, x0, status = end_positions(map_file, protocols)
    ok = status == 0
    print("cases %d, not ok (a corner left the beam) %d: %s" % (
        len(f), (~ok).sum(), " ".join("%g/%.3f" % (fi, xi) for fi, xi in zip(f[~ok], x0[~ok]))))
    zeros = stable_zeros(zeros_file)
    full = ends[protocols[0]]
    for p in protocols:
        print("protocol: %d periods, end position = mean strobe x_C over the last %d" % p)
        judge(ends[p], f, x0, ok, zeros)
        if p != protocols[0]:
            sub = ok & np.isin(np.round(f), LOW + OPERATING + SCATTER)
            d = np.abs(ends[p] - full)[sub]
            same = (np.abs(ends[p] - 0.5) < CENTRE_BAND) == (np.abs(full - 0.5) < CENTRE_BAND)
            print("  against 4000:1000 on 85..175 Hz (%d cases): |difference| median %.4f, 90th pct %.4f, max %.4f l;"
                  " same centre/off-centre class %d" % (sub.sum(), np.median(d), np.percentile(d, 90), d.max(),
                                                        same[sub].sum()))


if __name__ == "__main__":
    main()
