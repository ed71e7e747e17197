#!/usr/bin/env python3
"""Users' models on run.backend = batched, through the real binary and plugins built with
vibro_add_model: the six-body chain (12 states, 12 counted stops, 6 tracked amplitudes) writes the
cpu back end's file bit for bit (every dataset but the wall times); a model whose vector field
branches on the state runs on cpu and is refused on batched with exit code 2 before any file is
written, the refusal naming the model, the mode and the branch.

usage: test_batched_plugins.py VIBRO PLUGIN_DIR"""
import os
import subprocess
import sys
import tempfile

import h5py

VIBRO, PLUGINS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(label, condition, detail=""):
    print(("ok: " if condition else "FAIL: ") + label)
    if not condition:
        failures.append(f"{label}: {detail}")


def datasets(path):
    out = {}
    with h5py.File(path, "r") as h5:
        h5["cases"].visititems(lambda name, obj: out.__setitem__(name, obj[...]) if isinstance(obj, h5py.Dataset) else None)
    out.pop("wall_seconds", None)
    return out


def run(tmp, sweep, plugin, output, *extra):
    return subprocess.run([VIBRO, "run", sweep, "--plugin", os.path.join(PLUGINS, plugin), "--output.file=" + output,
                           "--run.progress=never", "--run.threads=2"] + list(extra),
                          capture_output=True, text=True, cwd=tmp, timeout=300)


with tempfile.TemporaryDirectory() as tmp:
    chain = os.path.join(tmp, "chain.ini")
    with open(chain, "w") as f:
        f.write("model = six_body_chain\n[parameters]\nF = 3\ngap = 0.3\n[axes]\nomega = linspace(1.1, 1.7, 7)\n"
                "[run]\nmax_periods = 60\nwindow_periods = 8\n")
    files = {}
    for backend in ("cpu", "batched"):
        files[backend] = os.path.join(tmp, f"chain_{backend}.h5")
        done = run(tmp, chain, "six_body_chain.so", files[backend], "--run.backend=" + backend)
        check(f"six-body chain on {backend}", done.returncode == 0, done.stderr[-1000:])
    if all(os.path.exists(f) for f in files.values()):
        cpu, batched = datasets(files["cpu"]), datasets(files["batched"])
        differ = sorted(k for k in cpu if k not in batched or cpu[k].tobytes() != batched[k].tobytes())
        check("six-body chain: the batched file equals the cpu file bit for bit", cpu.keys() == batched.keys() and not differ,
              differ[:10])
        check("six-body chain: every case ok", (cpu["status"] == 0).all(), cpu["status"])

    bilinear = os.path.join(tmp, "bilinear.ini")
    with open(bilinear, "w") as f:
        f.write("model = branching_field\n[axes]\nomega = 0.5, 0.8\n[run]\nmax_periods = 40\nwindow_periods = 8\n")
    done = run(tmp, bilinear, "branching_field.so", os.path.join(tmp, "cpu.h5"))
    check("a branching field runs on cpu", done.returncode == 0, done.stderr[-1000:])
    refused = os.path.join(tmp, "refused.h5")
    done = run(tmp, bilinear, "branching_field.so", refused, "--run.backend=batched")
    left = [f for f in (refused, refused + ".partial", refused + ".ckpt.0") if os.path.exists(f)]
    check("a branching field is refused on batched before any work",
          done.returncode == 2 and not left and "branching_field" in done.stderr and "'springs'" in done.stderr
          and "branch on the state" in done.stderr and "accepted for it: cpu" in done.stderr,
          (done.returncode, left, done.stderr[-600:]))

print(f"{'FAILED' if failures else 'passed'}: batched plugins ({len(failures)} failures)")
sys.exit(1 if failures else 0)
