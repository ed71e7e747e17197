#!/usr/bin/python3
"""Every examples/python script and every vibro.plot helper, drawn as a user draws them: the built
package (build/python), matplotlib's own defaults (no vibro.style.setup), the figure saved by the
script's own savefig call. Every savefig is measured with vibro.style.layout_problems (a legend, title
or label off the canvas, a legend on the data) and written to a JSON list for test_example_figures.py.

usage: python_figures.py BUILD_PYTHON SOURCE_DIR RESULTS_DIR OUT_JSON

RESULTS_DIR holds the examples' results (conveyor_fig6.h5, conveyor_basin_a50.h5,
conveyor_global_continuation.h5, as test_example_figures.py runs them); the scripts write under
RESULTS_DIR/python. A sweep a script gives as a dict is cut to 5 values per axis and 60 periods (the
figure's layout, not its physics, is checked here); a named example runs as it is.
"""
import json
import os
import runpy
import sys
import traceback

import numpy as np

build_python, source, results, out_json = sys.argv[1:5]
sys.path.insert(0, build_python)
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import vibro  # noqa: E402
import vibro.plot  # noqa: E402
from vibro import style  # noqa: E402

records = []
original_savefig = Figure.savefig


def measured_savefig(fig, path, *args, **kwargs):
    original_savefig(fig, path, *args, **kwargs)
    tight = kwargs.get("bbox_inches", matplotlib.rcParams["savefig.bbox"]) == "tight"
    records.append({"figure": str(path), "problems": style.layout_problems(fig, tight=tight)})


Figure.savefig = measured_savefig
original_sweep = vibro.sweep


def small_sweep(spec=None, *args, **kwargs):
    if isinstance(spec, dict):
        spec = dict(spec)
        spec["axes"] = {name: np.asarray(values)[np.linspace(0, len(values) - 1, 5).round().astype(int)]
                        for name, values in spec.get("axes", {}).items()}
        run = dict(spec.get("run", {}))
        if "max_periods" in run:
            run["max_periods"] = min(int(run["max_periods"]), 60)
            run["window_periods"] = min(int(run.get("window_periods", 30)), 30)
        spec["run"] = run
    return original_sweep(spec, *args, **kwargs)


vibro.sweep = small_sweep


def attempt(name, draw):
    """Runs draw(); a failure is recorded as a problem of `name`."""
    try:
        draw()
    except Exception:  # noqa: BLE001 -- reported with the figure's name
        records.append({"figure": name, "problems": ["failed: " + traceback.format_exc()[-800:]]})
    plt.close("all")


here = os.path.join(results, "python")
os.makedirs(here, exist_ok=True)
os.chdir(here)
examples = os.path.join(source, "examples", "python")
for script in sorted(f for f in os.listdir(examples) if f.endswith(".py")):
    attempt(script, lambda: runpy.run_path(os.path.join(examples, script), run_name="__main__"))


def helper(name, path, draw):
    """One vibro.plot helper on a result file, in a plain pyplot figure saved as a user saves it."""
    def run():
        ds = vibro.open(os.path.join(results, path))
        plt.figure()
        draw(ds)
        plt.savefig(os.path.join(here, "helper_%s.png" % name))
    attempt("vibro.plot." + name, run)


helper("classes", "conveyor_fig6.h5", lambda ds: vibro.plot.classes(ds, "a_hat", "mean_velocity"))
helper("bifurcation", "conveyor_fig6.h5", lambda ds: vibro.plot.bifurcation(ds, "a_hat"))
helper("bifurcation_dimer", "dimer_fig15.h5", lambda ds: vibro.plot.bifurcation(ds, "A_r"))  # a long title
helper("drift_map", "conveyor_fig6.h5", lambda ds: vibro.plot.drift_map(ds, "a_hat", "z0"))
helper("basin", "conveyor_basin_a50.h5", lambda ds: vibro.plot.basin(ds, "z0", "v0"))
helper("fractions", "conveyor_global_continuation.h5", lambda ds: vibro.plot.fractions(ds))
helper("attractor_curves", "conveyor_global_continuation.h5", lambda ds: vibro.plot.attractor_curves(ds))
with open(out_json, "w") as f:
    json.dump(records, f, indent=1)
