#!/usr/bin/python3
"""Every example's figure, drawn from a tiny version of the example and checked.

usage: test_example_figures.py VIBRO_BIN SOURCE_DIR [--out DIR] [--points N] [--periods P] [--only NAME ...] [--reuse]

Each examples/*.ini names how it is run (`# run:` lines: vibro run / vibro continue) and drawn
(`# plot:` lines: a scripts/plot_*.py command or `vibro plot`). This test runs every example once,
shrunk on the command line (each axis cut to --points values: first, middle, last; at most --periods
periods, a tenth of them in the window; a continuation ends after a short stretch) -- the example
files themselves are not changed -- and then every plot command of every example on those results,
in this process (matplotlib is imported once). For every figure it checks:
  - the PNG exists, is not empty and is not one flat colour;
  - every axis that shows tick labels has a label with its unit in brackets ("[-]": dimensionless);
  - no title names a file (a path or an .h5/.ini/.png name);
  - class maps use a categorical colour map (vibro.style), never a continuous one, and a diverging map
    is centred on zero;
  - each figure went through vibro.style.save (so the shared style applies);
  - its layout, measured with matplotlib's bounding boxes (vibro.style.layout_problems): no legend,
    title, axis label or tick label past the canvas, no legend over an axes' data area or a label, no
    two texts of an axes overlapping.
The `vibro plot` kinds that no example draws (a trace, a stroboscopic series) are drawn on one case
each (KINDS_WITHOUT_EXAMPLE). Then every examples/python script and every vibro.plot helper is drawn as a user draws them (the built
package, matplotlib's defaults, the script's own savefig; python_figures.py) and its layout checked the
same way.
With --out the figures stay in DIR (for looking at them); --points/--periods make them richer, --points 0
runs the examples as they are; --only picks examples; --reuse draws the results already in DIR.
"""
import argparse
import contextlib
import io
import os
import re
import runpy
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

RUN = re.compile(r"build/jobs/vibro (run|continue) (.*)$")
PLOT_SCRIPT = re.compile(r"(?:/usr/bin/python3 )?(scripts/(?:plot_\w+|dimer_table)\.py .*)$")
VIBRO_PLOT = re.compile(r"build/jobs/vibro plot (.*)$")
PLOT_KINDS = {"bifurcation": "plot_bifurcation.py", "basin": "plot_basins.py", "drift": "plot_drift_map.py",
              "timeseries": "plot_strobe_series.py", "branch": "plot_branch.py", "fractions": "plot_fractions.py",
              "trace": "plot_trace.py", "regimes": "plot_regime_map.py"}
CLASS_MAP_SCRIPTS = ("plot_basins.py", "plot_dimer_modes.py", "plot_ball_balancer_basin.py", "plot_bifurcation.py")
UNIT = re.compile(r"\[[^\]]+\]")
FILE_NAME = re.compile(r"[\w.-]*/[\w./-]*\.(h5|ini|png)\b|[\w-]+\.(h5|ini)\b")
DIVERGING = ("RdBu", "RdBu_r", "coolwarm", "bwr", "seismic", "PiYG", "PRGn", "BrBG", "PuOr", "RdGy", "RdYlBu")


def header(path):
    """The example's leading comment block, continuation lines joined to their command."""
    lines = []
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                break
            lines.append(line[1:].strip())
    return lines


def values_of(spec):
    """The values of an axis as the sweep file writes it: linspace(a, b, n), range(a, b, step) (both
    ends included) or a list."""
    spec = spec.strip().strip('"')
    m = re.match(r"(linspace|logspace|range)\((.*)\)$", spec)
    if not m:
        return [v.strip() for v in spec.split(",")]
    a, b, c = (float(v) for v in m.group(2).split(","))
    if m.group(1) == "linspace":
        return ["%.12g" % v for v in np.linspace(a, b, int(c))]
    if m.group(1) == "logspace":
        return ["%.12g" % v for v in np.logspace(a, b, int(c))]
    n = int(np.floor((b - a) / c + 1e-9)) + 1
    return ["%.12g" % (a + k * c) for k in range(n)]


def sections(path):
    """section -> {key: value} of an INI sweep file (comments dropped)."""
    out, current = {}, ""
    with open(path) as f:
        for raw in f:
            line = raw.split("#")[0].strip()
            if line.startswith("["):
                current = line.strip("[]")
            elif "=" in line:
                key, value = line.split("=", 1)
                out.setdefault(current, {})[key.strip()] = value.strip()
    return out


def pick(values, n):
    """n values spread over the list: first, last and evenly between (the order is kept)."""
    if len(values) <= n:
        return values
    return [values[i] for i in sorted(set(np.linspace(0, len(values) - 1, n).round().astype(int)))]


def shrink(path, points, periods):
    """Command-line overrides making the example tiny: every axis cut to `points` values (2 beyond the
    second axis), at most `periods` periods with a window of a tenth."""
    ini = sections(path)
    overrides = []
    for k, (axis, spec) in enumerate(ini.get("axes", {}).items()):
        overrides.append("--axes.%s=%s" % (axis, ", ".join(pick(values_of(spec), points if k < 2 else 2))))
    run = ini.get("run", {})
    if "max_periods" in run:
        top = min(int(run["max_periods"]), periods)
        window = max(2, min(int(run.get("window_periods", top)), top // 2))
        overrides += ["--run.max_periods=%d" % top, "--run.window_periods=%d" % window]
        if "means_window" in run:
            overrides.append("--run.means_window=%d" % window)
    return overrides


def commands(path, results):
    """(run commands, plot commands) of an example, with results/ moved to `results`."""
    runs, plots = [], []
    for line in header(path):
        line = line.replace("results/", results + "/")
        m = RUN.search(line)
        if m:
            runs.append((m.group(1), shlex.split(m.group(2))))
            continue
        m = VIBRO_PLOT.search(line)
        if m:
            args = shlex.split(m.group(1))
            kind = args[args.index("--kind") + 1] if "--kind" in args else "bifurcation"
            out = args[args.index("--out") + 1] if "--out" in args else re.sub(r"\.h5$", "_%s.png" % kind, args[0])
            rest = [a for i, a in enumerate(args[1:], 1) if a not in ("--kind", "--out") and args[i - 1] not in ("--kind", "--out")]
            plots.append([PLOT_KINDS[kind], args[0], out] + rest)
            continue
        m = PLOT_SCRIPT.search(line)
        if m:
            words = shlex.split(m.group(1).split(";")[0].split(" (")[0])
            plots.append([os.path.basename(words[0])] + words[1:])
    return runs, plots


def run_example(vibro, source, path, results, points, periods):
    runs, _ = commands(path, results)
    for verb, args in runs:
        command = [vibro, verb] + args + ["--run.threads=1"]
        if verb == "run" and points > 0:  # --points 0: the example as it is
            command += shrink(path, points, periods)
        elif "--to" in args and points > 0:  # a continuation: its start case as it is, then a short stretch (10 steps)
            step = float(args[args.index("--max-step") + 1]) if "--max-step" in args else 0.01
            start = sections(path).get("parameters", {}).get(args[args.index("--parameter") + 1])
            if start is not None:  # towards --to, which may lie below the start
                down = float(args[args.index("--to") + 1]) < float(start)
                command[command.index("--to") + 1] = "%g" % (float(start) + (-10 if down else 10) * step)
        done = subprocess.run(command, cwd=source, capture_output=True, text=True)
        if done.returncode != 0:
            return "%s: %s failed (%d): %s" % (os.path.basename(path), " ".join(command), done.returncode,
                                               done.stderr.strip()[-600:])
    return None


def draw(source, words):
    """Runs scripts/WORDS[0] with the rest as its arguments, in this process; (error, stdout)."""
    script = os.path.join(source, "scripts", words[0])
    argv, sys.argv = sys.argv, [script] + words[1:]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            runpy.run_path(script, run_name="__main__")
        return None, out.getvalue()
    except SystemExit as error:
        return (None if error.code in (0, None) else "exit %s" % error.code), out.getvalue()
    except Exception as error:  # noqa: BLE001 -- reported with the script's name
        return "%s: %s" % (type(error).__name__, error), out.getvalue()
    finally:
        sys.argv = argv


def problems_of(script, description):
    """What is wrong with a figure's description (vibro.style.describe)."""
    found = []
    titles = [description["suptitle"]] + [a["title"] for a in description["axes"]]
    for text in titles:
        if FILE_NAME.search(text):
            found.append("title names a file: %r" % text)
    maps = []
    for ax in description["axes"]:
        if not ax["visible"]:
            continue
        for axis in ("x", "y"):
            if ax[axis + "ticks_shown"] and not ax["inset"] and not UNIT.search(ax[axis + "label"]):
                found.append("%s axis without a unit in brackets: %r (other label %r)"
                             % (axis, ax[axis + "label"], ax[("y" if axis == "x" else "x") + "label"]))
        maps += ax["colour_maps"]
        for name, lo, hi in ax.get("norms", []):
            if name in DIVERGING and not np.isclose(lo, -hi):
                found.append("diverging colour map %s not centred on zero (%g .. %g)" % (name, lo, hi))
    if script in CLASS_MAP_SCRIPTS and "categorical" not in maps:
        found.append("class map without a categorical colour map (maps: %s)" % maps)
    return found + description.get("layout", ["no layout measured (not saved through vibro.style.save)"])


def python_figures(vibro, source, results):
    """The problems of the examples/python scripts' and vibro.plot helpers' figures (python_figures.py,
    in a fresh interpreter: matplotlib's defaults, as a user has them)."""
    build_python = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(vibro))), "python")
    out = os.path.join(results, "python_figures.json")
    done = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_figures.py"),
                           build_python, source, results, out], capture_output=True, text=True)
    if done.returncode != 0:
        return ["python_figures.py failed (%d): %s" % (done.returncode, done.stderr[-800:])]
    import json

    with open(out) as f:
        records = json.load(f)
    return ["%s: %s" % (r["figure"], p) for r in records for p in r["problems"]] + \
        ([] if records else ["python_figures.py drew nothing"])


# `vibro plot` kinds no example draws: one case's trace and one case's stroboscopic series, on cases
# where the old figures went wrong (the beam slider at 200 Hz: symmetric modes at 1e-13 of their unit's
# scale drawn as oscillations, its contacts leaving an empty impact map; a converged orbit of Model A
# whose 1e-8 residue was drawn as a trend). (example, vibro trace arguments or None, plot words)
KINDS_WITHOUT_EXAMPLE = (
    ("beam_slider_reference", ["--case", "2", "--periods", "20", "--out", "RESULTS/beam_slider_reference.trace.h5"],
     ["plot_trace.py", "RESULTS/beam_slider_reference.trace.h5", "RESULTS/beam_slider_reference_trace.png"]),
    ("gap_oscillator_fig4", None,
     ["plot_strobe_series.py", "RESULTS/gap_oscillator_fig4.h5", "RESULTS/gap_oscillator_fig4_timeseries.png", "--case", "1"]),
)


# the beam slider's contacts on its map (it used to read "impact map (0 impacts)")
EXPECTED_TITLES = {"beam_slider_reference_trace.png": re.compile(r"contact map \([1-9]\d* contact closings\)")}


def trace_runs(vibro, source, results, points, periods, chosen):
    """Runs `vibro trace` for KINDS_WITHOUT_EXAMPLE (the example shrunk as its sweep was); errors."""
    errors = []
    for name, trace, _ in KINDS_WITHOUT_EXAMPLE:
        if trace is None or name not in chosen:
            continue
        path = os.path.join(source, "examples", name + ".ini")
        command = [vibro, "trace", path] + [w.replace("RESULTS", results) for w in trace] + shrink(path, points, periods)
        done = subprocess.run(command, cwd=source, capture_output=True, text=True)
        if done.returncode != 0:
            errors.append("%s failed (%d): %s" % (" ".join(command), done.returncode, done.stderr.strip()[-600:]))
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vibro")
    ap.add_argument("source")
    ap.add_argument("--out")
    ap.add_argument("--points", type=int, default=3)
    ap.add_argument("--periods", type=int, default=20)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--reuse", action="store_true", help="draw the results already in --out (no runs)")
    args = ap.parse_args()
    source = os.path.abspath(args.source)
    sys.path.insert(0, os.path.join(source, "python"))
    sys.path.insert(0, os.path.join(source, "scripts"))
    from vibro import style

    style.setup()
    start = time.time()
    scratch = None if args.out else tempfile.TemporaryDirectory(prefix="vibro_figures_")
    results = args.out or scratch.name
    os.makedirs(results, exist_ok=True)
    examples = sorted(os.path.join(source, "examples", f) for f in os.listdir(os.path.join(source, "examples"))
                      if f.endswith(".ini") and (not args.only or f[:-4] in args.only))
    failures = []
    if not args.reuse:
        # 8 at once on 2 cores: a tiny run spends most of its wall time (~2.5 s) in the MPI start-up's
        # waits, not on the CPU
        with ThreadPoolExecutor(8) as pool:
            for error in pool.map(lambda p: run_example(args.vibro, source, p, results, args.points, args.periods),
                                  examples):
                if error:
                    failures.append(error)
        failures += trace_runs(args.vibro, source, results, args.points, args.periods,
                               [os.path.basename(p)[:-4] for p in examples])
    ran = time.time() - start
    figures, cpu = 0, {}
    for path in examples:
        _, plots = commands(path, results)
        if not plots:
            failures.append("%s: no '# plot:' line" % os.path.basename(path))
        plots += [[w.replace("RESULTS", results) for w in words] for name, _, words in KINDS_WITHOUT_EXAMPLE
                  if name == os.path.basename(path)[:-4]]
        for words in plots:
            if words[0] == "dimer_table.py":  # prints a table, draws nothing
                error, _ = draw(source, words)
                if error:
                    failures.append("%s: %s" % (" ".join(words), error))
                continue
            before = len(style.saved)
            began = time.process_time()
            error, output = draw(source, words)
            cpu[words[0]] = cpu.get(words[0], 0.0) + time.process_time() - began
            name = "%s -> %s" % (os.path.basename(path), " ".join([words[0]] + [os.path.basename(w) for w in words[1:]]))
            if error:
                failures.append("%s: %s\n%s" % (name, error, output[-800:]))
                continue
            png = words[2] if len(words) > 2 and words[2].endswith(".png") else next(w for w in words if w.endswith(".png"))
            if not os.path.exists(png) or os.path.getsize(png) == 0:
                failures.append("%s: no PNG written" % name)
                continue
            import matplotlib.pyplot as plt

            pixels = plt.imread(png)
            if np.ptp(pixels[..., :3]) == 0:
                failures.append("%s: the PNG is one flat colour" % name)
            mine = [d for d in style.saved[before:] if os.path.abspath(d["path"]) == os.path.abspath(png)]
            if not mine:
                failures.append("%s: not written through vibro.style.save" % name)
                continue
            figures += 1
            failures += ["%s: %s" % (name, p) for p in problems_of(words[0], mine[-1])]
            expected = EXPECTED_TITLES.get(os.path.basename(png))
            titles = [a["title"] for a in mine[-1]["axes"]]
            if expected and not any(expected.search(t) for t in titles):
                failures.append("%s: no title matches %r (titles %s)" % (name, expected.pattern, titles))
    drawn = time.time()
    if not args.only:
        failures += python_figures(args.vibro, source, results)
    print("%d examples run in %.1f s, %d figures drawn and checked in %.1f s, the Python examples and "
          "vibro.plot helpers in %.1f s" % (len(examples), ran, figures, drawn - start - ran, time.time() - drawn))
    print("CPU seconds per script: " + ", ".join("%s %.1f" % item for item in sorted(cpu.items(), key=lambda i: -i[1])))
    if failures:
        print("FAILED:\n" + "\n".join(failures))
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
