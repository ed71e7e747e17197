#!/usr/bin/python3
"""run.backend = batched steps the cases many at a time through the model's host-and-device kernel;
its result files must equal run.backend = cpu's bit for bit (every dataset under cases/ but the wall
times): the conveyor's Fig. 6 study (in fixed mode without stroboscopic points, through the batch's own
reduction of its held windows), and a gap-oscillator (Model A) sweep through the DOPRI5 +
affine-guard kernel with chatter and sticking, infeasible starts, budget failures and compliant
contact; in fixed mode also budget failures in the periods the batch steps without samples; and the
models of the hybrid-model API through their fields' tapes (declared Model A with sticking and
releases, the dry-friction oscillator with failures thrown by an extrapolation jump's restart, the
impact oscillator). Also: run.backend = cuda on a build or machine without a GPU, and batched where the model or
the requested outputs have no batched path, are refused with exit code 2 before any work.

usage: test_batched_backend.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from result_datasets import datasets  # noqa: E402

FAILURES = []
REDUCED = {}  # label -> cases whose window the batch reduced itself (the run's "batched:" line)


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail))
    else:
        print("ok: %s" % what)


def differences(a, b):
    if a.keys() != b.keys():
        return ["datasets: %s" % sorted(set(a) ^ set(b))]
    bad = []
    for key in sorted(a):
        x, y = a[key], b[key]
        if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
            bad.append(key)
    return bad


def run(vibro, ini, out, *overrides):
    return subprocess.run([vibro, "run", ini, "--output.file=" + out, "--run.progress=never"] + list(overrides),
                          capture_output=True, text=True, timeout=300)


# Model A: e = 0 and 0.5 (chatter that ends in sticking, and releases), lambda from the grazing point
# lambda* = 0.5670028 of e = 1 up; x1_0 = 0.06 > D puts the bodies into each other (infeasible start).
GAP_SWEEP = """model = gap_oscillator
[parameters]
law = restitution
[axes]
e = 0.0, 0.5
lambda = 0.5670028, 1.0, 3.0, 6.0
x1_0 = -0.02, 0.06
[run]
max_periods = 100
window_periods = 20
"""


def compare_backends(vibro, ini, tmp, label, extra):
    """Runs ini on both back ends; returns the cpu file's datasets (None when a run failed)."""
    files = {}
    for backend in ("cpu", "batched"):
        files[backend] = os.path.join(tmp, "%s_%s.h5" % (label.replace(" ", "_"), backend))
        done = run(vibro, ini, files[backend], "--run.threads=2", "--run.backend=" + backend, *extra)
        check(done.returncode == 0, "%s %s: vibro run succeeds" % (label, backend), done.stderr[-400:])
        if done.returncode != 0:
            return None
        if backend == "batched":
            found = re.search(r"windows reduced in the batch (\d+)", done.stdout)
            REDUCED[label.replace("fig6 ", "", 1)] = int(found.group(1)) if found else 0
    cpu, batched = datasets(files["cpu"]), datasets(files["batched"])
    bad = differences(cpu, batched)
    check(not bad, "%s: batched file equals the cpu file bit for bit" % label, ", ".join(bad[:10]))
    return cpu


def failure_periods(datasets_of_file):
    """The period each budget failure happened in, from its reason ('... (period N) ...')."""
    found = (re.search(r"\(period (\d+)\)", r.decode()) for r in datasets_of_file["cases/reason"])
    return [int(m.group(1)) for m in found if m]


def gap_oscillator_sweeps(vibro, tmp):
    ini = os.path.join(tmp, "gap_sweep.ini")
    with open(ini, "w") as out:
        out.write(GAP_SWEEP)
    # Fixed mode steps the 79 periods before its 20-period window without samples: its budget
    # failures (periods 1 to 4 here) happen there.
    for label, extra in (("gap adaptive", []), ("gap fixed", ["--run.steady_state=fixed"]),
                         ("gap event budget", ["--run.max_events_per_period=1"]),
                         ("gap fixed event budget", ["--run.steady_state=fixed", "--run.max_events_per_period=1"]),
                         ("gap linear contact", ["--parameters.law=linear"])):
        cpu = compare_backends(vibro, ini, tmp, label, extra)
        if cpu is None:
            continue
        status = cpu["cases/status"]
        check((status == 1).sum() == 8, "%s: the 8 interpenetrating starts are infeasible" % label, str(status))
        if "event budget" in label:
            check((status == 2).sum() >= 4 and (status == 0).sum() >= 1,
                  "%s: cases fail by budget and others finish" % label, str(status))
            if "fixed" in label:
                periods = failure_periods(cpu)
                check(periods and max(periods) <= 79, "%s: the failures lie before the window" % label, str(periods))
        elif label == "gap linear contact":
            check((status == 0).sum() == 8 and np.nanmax(cpu["cases/observables/max_penetration"]) > 0,
                  "gap linear contact: every feasible case ok, in compliant contact", str(status))
        else:
            check((status == 0).sum() == 8, "%s: every feasible case ok" % label, str(status))
            check(cpu["cases/counters/stickings"].max() > 0 and cpu["cases/counters/releases"].max() > 0,
                  "%s: chatter ends in sticking and release" % label)


# The declared Model A (hybrid-model API, its field a traced tape on the batched back end): the same
# chatter, sticking and releases as the built-in's sweep above, and infeasible starts.
DECLARED_GAP_SWEEP = GAP_SWEEP.replace("model = gap_oscillator\n[parameters]\nlaw = restitution\n",
                                       "model = gap_oscillator_declared\n")

# The dry-friction oscillator: stick-slip; on this grid two cases fail when an extrapolation jump's
# restart finds its mode switches do not settle (the failure a restart throws).
DRY_FRICTION_SWEEP = """model = dry_friction_oscillator
[axes]
mu = linspace(0.05, 0.9, 40)
omega = linspace(0.3, 1.5, 30)
[run]
max_periods = 300
"""


def hybrid_api_sweeps(vibro, repo, tmp):
    for label, text, extra in (("declared gap adaptive", DECLARED_GAP_SWEEP, []),
                               ("declared gap fixed", DECLARED_GAP_SWEEP, ["--run.steady_state=fixed"]),
                               ("dry friction adaptive", DRY_FRICTION_SWEEP, []),
                               ("dry friction fixed groups of 100", DRY_FRICTION_SWEEP,
                                ["--run.steady_state=fixed", "--run.batch_cases=100"])):
        ini = os.path.join(tmp, label.replace(" ", "_") + ".ini")
        with open(ini, "w") as out:
            out.write(text)
        cpu = compare_backends(vibro, ini, tmp, label, extra)
        if cpu is None:
            continue
        status = cpu["cases/status"]
        if "declared gap" in label:
            check((status == 1).sum() == 8 and (status == 0).sum() == 8,
                  "%s: 8 infeasible starts, 8 cases ok" % label, str(status))
            check(cpu["cases/counters/stickings"].max() > 0 and cpu["cases/counters/releases"].max() > 0,
                  "%s: chatter ends in sticking and release" % label)
        elif label == "dry friction adaptive":
            check((status == 2).sum() >= 1 and (status == 0).sum() > 1000,
                  "%s: a restart's failure is recorded, the rest ok" % label, str(np.unique(status, return_counts=True)))
            check(cpu["cases/jumps"].sum() > 0, "%s: the grid exercises extrapolation jumps" % label)
    imp = os.path.join(repo, "examples", "impact_oscillator_sigma.ini")
    compare_backends(vibro, imp, tmp, "impact oscillator", ["--output.floquet=false"])


def launch_counts(vibro, fig6, tmp):
    """run.backend = null stands in for a GPU: where launches run on a device and a fixed-mode group's
    rows are held, the group is stepped in one launch (the host has nothing to do between its
    launches); run.batch_periods set keeps its launches of that length, and adaptive mode launches 8
    periods at a time (its detectors retire cases between launches). 11 groups of 100 cases."""
    expected = (("fixed", ["--run.steady_state=fixed"], 11),
                ("fixed reduced", ["--run.steady_state=fixed", "--output.strobe_points=none"], 11),
                # 100 periods, a 50-period window: 52 periods (4 kept), then 6 launches of 8
                ("fixed, run.batch_periods = 8", ["--run.steady_state=fixed", "--run.batch_periods=8"], 77))
    def groups_and_launches(*extra):
        """One null run of fig6 in groups of 100: its "batched:" line's (groups, launches), and the line."""
        result = run(vibro, fig6, os.path.join(tmp, "null.h5"), "--run.backend=null", "--run.batch_cases=100",
                     "--output.overwrite=true", *extra)
        line = re.search(r"batched: (\d+) group\(s\), (\d+) launch\(es\)", result.stdout)
        if result.returncode != 0 or line is None:
            return None, result.stdout + result.stderr
        return (int(line.group(1)), int(line.group(2))), line.group(0)

    for label, extra, launches in expected:
        counts, shown = groups_and_launches(*extra)
        check(counts == (11, launches), "null back end, %s: %d launches for 11 groups" % (label, launches), shown)
    counts, shown = groups_and_launches()
    check(counts is not None and counts[1] > 7 * counts[0],
          "null back end, adaptive: launches of 8 periods (more than 7 a group)", shown)


def main():
    vibro, repo = sys.argv[1], sys.argv[2]
    fig6 = os.path.join(repo, "examples", "conveyor_fig6.ini")
    with tempfile.TemporaryDirectory() as tmp:
        # Adaptive (1108 extrapolation jumps on this grid), fixed length, and a per-period event
        # budget that fails most cases mid-run: the failure path must match too. In fixed mode the
        # batch steps the 49 periods before the 50-period window without samples: failures there
        # and in the window both keep their status and reason. (A fixed run's batch holds every kept
        # sample until the last launch and its detectors are fed once: CaseBatch::hold_samples.)
        for label, extra in (("adaptive", []), ("fixed", ["--run.steady_state=fixed"]),
                             ("event budget", ["--run.max_events_per_period=4"]),
                             ("fixed event budget", ["--run.steady_state=fixed", "--run.max_events_per_period=4"]),
                             # 11 groups, two in flight at a time: one group's launch, the other's
                             # detectors (how a GPU overlaps them), interleaved as on a GPU
                             ("adaptive groups of 100", ["--run.batch_cases=100"]),
                             ("fixed groups of 100", ["--run.steady_state=fixed", "--run.batch_cases=100"]),
                             # other launch lengths: 3 periods, and a fixed run's 100 in one launch
                             ("adaptive 3 periods a launch", ["--run.batch_periods=3"]),
                             ("fixed in one launch", ["--run.steady_state=fixed", "--run.batch_periods=100"]),
                             # a window of the whole budget: every period kept, the last launch steps
                             # past the budget (held rows of 32 samples, the detectors stop at 30)
                             ("fixed window of the whole budget", ["--run.steady_state=fixed", "--run.max_periods=30",
                                                                 "--run.window_periods=29"]),
                             # without stroboscopic points the batch reduces each held window itself
                             # (CaseBatch::reduce_held, as a GPU does beside its samples): the same bits
                             ("fixed reduced", ["--run.steady_state=fixed", "--output.strobe_points=none"]),
                             ("fixed reduced event budget", ["--run.steady_state=fixed", "--output.strobe_points=none",
                                                             "--run.max_events_per_period=4"]),
                             # the plan a GPU's groups get by default (one launch a held group), failures
                             # before and inside the window included
                             ("fixed reduced event budget in one launch",
                              ["--run.steady_state=fixed", "--output.strobe_points=none", "--run.max_events_per_period=4",
                               "--run.batch_periods=100"]),
                             ("fixed reduced window of the whole budget",
                              ["--run.steady_state=fixed", "--output.strobe_points=none", "--run.max_periods=30",
                               "--run.window_periods=29"])):
            cpu = compare_backends(vibro, fig6, tmp, "fig6 " + label, extra)
            if cpu is None:
                break
            status = cpu["cases/status"]
            if "event budget" in label:
                check((status == 2).sum() > 100, "%s: most cases fail (the failure path is exercised)" % label,
                      str((status == 2).sum()))
                if "fixed" in label:
                    periods = failure_periods(cpu)
                    check(min(periods) <= 49 and max(periods) > 49,
                          "fixed event budget: cases fail both before and inside the window",
                          "%d..%d" % (min(periods), max(periods)))
            else:
                check((status == 0).all(), "%s: every case ok" % label)
            if "reduced" in label:
                ok = int((status == 0).sum())
                check(ok > 0 and REDUCED.get(label) == ok, "%s: the batch reduced every finished case's window" % label,
                      "%s of %d" % (REDUCED.get(label), ok))
            if label == "adaptive":
                check(cpu["cases/jumps"].sum() > 0, "adaptive: the grid exercises extrapolation jumps")
        gap_oscillator_sweeps(vibro, tmp)
        hybrid_api_sweeps(vibro, repo, tmp)
        launch_counts(vibro, fig6, tmp)

        refused = (
            ("cuda without a GPU back end", fig6, ["--run.backend=cuda"], "run.backend = cuda"),
            ("a model without a batched kernel", os.path.join(repo, "examples", "vibro_platform_basin.ini"),
             ["--run.backend=batched"], "has no batched kernel"),
            ("continuation", os.path.join(repo, "examples", "gap_oscillator_fig4.ini"), ["--run.backend=batched"],
             "run.continuation"),
            ("floquet multipliers", fig6, ["--run.backend=batched", "--output.floquet=true"], "output.floquet"),
            ("an unknown backend", fig6, ["--run.backend=gpu"], "run.backend"),
        )
        for label, ini, extra, needle in refused:
            out = os.path.join(tmp, "refused.h5")
            done = run(vibro, ini, out, *extra)
            left = [f for f in (out, out + ".ckpt.0", out + ".partial") if os.path.exists(f)]
            check(done.returncode == 2 and needle in done.stderr and not left,
                  "refused before any work: %s (exit 2, names it, no file, no checkpoint)" % label,
                  "rc=%d left=%s stderr=%s" % (done.returncode, left, done.stderr[-300:]))
            if "cuda" in extra[0]:
                check("accepted here: cpu, batched" in done.stderr, "the cuda refusal says what is accepted")
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
