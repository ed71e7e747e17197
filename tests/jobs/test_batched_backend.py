#!/usr/bin/python3
"""run.backend = batched steps the cases many at a time through the model's host-and-device kernel;
its result files must equal run.backend = cpu's bit for bit (every dataset under cases/ but the wall
times). Also: run.backend = cuda on a build or machine without a GPU, and batched where the model or
the requested outputs have no batched path, are refused with exit code 2 before any work.

usage: test_batched_backend.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

import h5py

FAILURES = []


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail))
    else:
        print("ok: %s" % what)


def datasets(path):
    out = {}
    with h5py.File(path, "r") as h5:
        for group in ("axes", "cases", "parameters"):
            if group in h5:
                h5[group].visititems(
                    lambda name, obj, g=group: out.__setitem__(g + "/" + name, obj[...])
                    if isinstance(obj, h5py.Dataset) else None)
    out.pop("cases/wall_seconds", None)
    return out


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


def main():
    vibro, repo = sys.argv[1], sys.argv[2]
    fig6 = os.path.join(repo, "examples", "conveyor_fig6.ini")
    with tempfile.TemporaryDirectory() as tmp:
        # Adaptive (1108 extrapolation jumps on this grid), fixed length, and a per-period event
        # budget that fails most cases mid-run: the failure path must match too.
        for label, extra in (("adaptive", []), ("fixed", ["--run.steady_state=fixed"]),
                             ("event budget", ["--run.max_events_per_period=4"])):
            files = {}
            for backend in ("cpu", "batched"):
                files[backend] = os.path.join(tmp, "fig6_%s_%s.h5" % (label.replace(" ", "_"), backend))
                done = run(vibro, fig6, files[backend], "--run.threads=2", "--run.backend=" + backend, *extra)
                check(done.returncode == 0, "%s %s: vibro run succeeds" % (label, backend), done.stderr[-400:])
            if FAILURES:
                break
            cpu, batched = datasets(files["cpu"]), datasets(files["batched"])
            bad = differences(cpu, batched)
            check(not bad, "%s: batched file equals the cpu file bit for bit" % label, ", ".join(bad[:10]))
            status = cpu["cases/status"]
            if label == "event budget":
                check((status == 2).sum() > 100, "event budget: most cases fail (the failure path is exercised)",
                      str((status == 2).sum()))
            else:
                check((status == 0).all(), "%s: every case ok" % label)
            if label == "adaptive":
                check(cpu["cases/jumps"].sum() > 0, "adaptive: the grid exercises extrapolation jumps")

        refused = (
            ("cuda without a GPU back end", fig6, ["--run.backend=cuda"], "run.backend = cuda"),
            ("a model without a batched kernel", os.path.join(repo, "examples", "gap_oscillator_fig4.ini"),
             ["--run.backend=batched"], "has no batched kernel"),
            ("floquet multipliers", fig6, ["--run.backend=batched", "--output.floquet=true"], "output.floquet"),
            ("an unknown backend", fig6, ["--run.backend=gpu"], "run.backend"),
        )
        for label, ini, extra, needle in refused:
            out = os.path.join(tmp, "refused.h5")
            done = run(vibro, ini, out, *extra)
            check(done.returncode == 2 and needle in done.stderr and not os.path.exists(out),
                  "refused before any work: %s (exit 2, names it, no file)" % label,
                  "rc=%d stderr=%s" % (done.returncode, done.stderr[-300:]))
            if "cuda" in extra[0]:
                check("accepted here: cpu, batched" in done.stderr, "the cuda refusal says what is accepted")
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
