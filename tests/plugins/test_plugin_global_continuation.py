#!/usr/bin/env python3
"""A user's plugin model through global continuation gives the fractions, ids and events of the same
model built in: Model A declared through the hybrid-model API (models/gap_oscillator_declared),
built in as gap_oscillator_declared and, from the same source, as the plugin plugin_gap_oscillator
(vibro_add_model, tests/plugins/CMakeLists.txt). The global continuation across the hysteresis at
grazing (restitution e = 1, lambda 0.55 to 0.5675, 5 x 5 initial conditions, seeding from both
neighbours; as examples/gap_oscillator_global_continuation.ini on a coarse grid) is run with each, and
/cases/attractor, /cases/global_attractor and every dataset of /basins with its attributes must be
the same bit for bit, with more than one id and at least one event so that there is something to
compare.

usage: test_plugin_global_continuation.py VIBRO PLUGIN"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

VIBRO, PLUGIN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SWEEP = """model = {model}
[parameters]
e = 1
[axes]
lambda = 0.55, 0.5525, 0.5575, 0.5625, 0.565, 0.5675
x1_0 = linspace(-0.04, 0.04, 5)
v1_0 = linspace(-0.25, 0.25, 5)
[run]
max_periods = 300
window_periods = 20
progress = never
[analysis]
global_continuation = lambda
seed_from_previous = true
"""
failures = []


def check(label, condition, detail=""):
    if not condition:
        failures.append(f"{label}: {detail}")
        print("FAIL", label, detail, flush=True)


def labelling(path):
    """Every dataset of /basins and the two label columns of /cases, and /basins' attributes."""
    found, attributes = {}, {}
    with h5py.File(path, "r") as h5:
        h5["basins"].visititems(lambda name, obj: found.__setitem__("basins/" + name, obj[()])
                                if isinstance(obj, h5py.Dataset) else None)
        for name in ("cases/attractor", "cases/global_attractor"):
            found[name] = h5[name][()]
        attributes = {k: v for k, v in h5["basins"].attrs.items()}
    return found, attributes


with tempfile.TemporaryDirectory() as tmp:
    files = {}
    for model, extra in (("gap_oscillator_declared", []), ("plugin_gap_oscillator", ["--plugin=" + PLUGIN])):
        sweep = os.path.join(tmp, model + ".ini")
        with open(sweep, "w") as f:
            f.write(SWEEP.format(model=model))
        files[model] = os.path.join(tmp, model + ".h5")
        done = subprocess.run([VIBRO, "run", sweep, "--output.file=" + files[model], *extra], capture_output=True,
                              text=True, timeout=300)
        check(f"{model} runs", done.returncode == 0, done.stderr[-1000:])
    if not failures:
        (built_in, built_in_attrs), (plugin, plugin_attrs) = (labelling(files[m]) for m in files)
        differ = sorted(name for name in set(built_in) | set(plugin)
                        if name not in built_in or name not in plugin or built_in[name].shape != plugin[name].shape
                        or not np.array_equal(built_in[name], plugin[name], equal_nan=built_in[name].dtype.kind == "f"))
        check("/basins and the labels of the plugin equal the built-in model's", not differ, str(differ))
        check("the same /basins attributes", built_in_attrs == plugin_attrs,
              str({k: (built_in_attrs.get(k), plugin_attrs.get(k)) for k in set(built_in_attrs) | set(plugin_attrs)
                   if built_in_attrs.get(k) != plugin_attrs.get(k)}))
        kinds = [k.decode() if isinstance(k, bytes) else str(k) for k in built_in.get("basins/events/kind", [])]
        ids = set(built_in["basins/attractors/global_id"].tolist())
        check("something to compare: more than one id and an event", len(ids) > 1 and kinds, f"ids {ids}, events {kinds}")
        print(f"built-in and plugin: {len(ids)} ids, events {kinds}")

print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
