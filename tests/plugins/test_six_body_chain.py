#!/usr/bin/env python3
"""A declared model of the size users bring, through `vibro run`: 6 masses (12 state components),
12 rigid stops each with a counter of its own (7 adapter counters + 12 = 19 counters), the amplitude of
every mass (6 tracked components: 14 aux values). A small sweep over the forcing frequency: every case
ends ok, no mass passes its stops, the stops' own counters add up to the impacts counter, and every
stop is hit somewhere. A checkpoint in the format of the samples before these sizes is refused by name.

usage: test_six_body_chain.py VIBRO PLUGIN"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

VIBRO, PLUGIN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(label, condition, detail=""):
    if not condition:
        failures.append(f"{label}: {detail}")


with tempfile.TemporaryDirectory() as tmp:
    sweep = os.path.join(tmp, "chain.ini")
    with open(sweep, "w") as f:
        f.write("model = six_body_chain\n[parameters]\nF = 3\ngap = 0.3\n[axes]\nomega = 1.1, 1.3, 1.5, 1.7\n[run]\n"
                "max_periods = 60\nwindow_periods = 8\n[output]\nfile = chain.h5\n")
    result = subprocess.run([VIBRO, "run", sweep, "--plugin", PLUGIN], capture_output=True, text=True, cwd=tmp, timeout=120)
    check("vibro run", result.returncode == 0, result.stderr[-2000:])
    if result.returncode == 0:
        with h5py.File(os.path.join(tmp, "chain.h5"), "r") as h5:
            status = h5["cases/status"][...]
            counters = {k: h5["cases/counters/" + k][...] for k in h5["cases/counters"]}
            amplitudes = [h5[f"cases/observables/amplitude_x{i}"][...] for i in range(1, 7)]
        check("every case ok", np.all(status == 0), status)
        stops = [f"impacts_{side}_{i}" for i in range(1, 7) for side in ("upper", "lower")]
        check("a counter per stop", all(s in counters for s in stops), sorted(counters))
        check("19 counters", len(counters) == 19, sorted(counters))
        if all(s in counters for s in stops):
            per_stop = np.array([counters[s] for s in stops])
            check("the stops' counters add up to the impacts", np.array_equal(per_stop.sum(axis=0), counters["impacts"]),
                  (per_stop.sum(axis=0), counters["impacts"]))
            check("every stop hit in some case", np.all(per_stop.max(axis=1) > 0), dict(zip(stops, per_stop.max(axis=1))))
        check("6 amplitudes within the stops", all(np.all((a > 0) & (a <= 0.3 + 1e-9)) for a in amplitudes), amplitudes)

    # A checkpoint log of the earlier sample layout (12 counters, 8 aux values) is refused, naming it.
    old = os.path.join(tmp, "old.h5.ckpt.0")
    with open(old, "wb") as f:
        f.write(b"VIBRO-CHECKPOINT-4\n" + bytes(64))
    result = subprocess.run([VIBRO, "run", sweep, "--plugin", PLUGIN, "--output.file=old.h5"], capture_output=True, text=True,
                            cwd=tmp, timeout=120)
    check("an old checkpoint is refused", result.returncode == 2 and "old.h5.ckpt.0" in result.stderr
          and "not a checkpoint of this vibro version" in result.stderr, (result.returncode, result.stderr))
    check("an old checkpoint is left alone", os.path.getsize(old) == 19 + 64)

for failure in failures:
    print("FAIL", failure)
print(f"{'FAILED' if failures else 'passed'}: six-body chain ({len(failures)} failures)")
sys.exit(1 if failures else 0)
