#!/usr/bin/python3
"""A fresh run on one rank whose file needs no case read back (no stored stroboscopic points, Floquet,
shooting, Lyapunov exponents or continuation axis) writes the file's cases while they run
(output.stream_cases, default true; jobs/output/streamed_sweep_file.hpp). Its file must equal the one
written from the checkpoint logs after the sweep (output.stream_cases = false) bit for bit: every
dataset under axes/, cases/ and parameters/ but the wall times, the string columns' widths, and the
class numbers' CF attributes. Sweeps: the conveyor's Fig. 6 study on the batched back end (the batch's
own reduction of its windows) and on cpu with blocks of 7 cases (many blocks, finished out of order
by two threads, a last one cut short); a gap-oscillator sweep with infeasible starts and budget
failures (reasons of several lengths). The streamed run says so ("its cases written while they ran"),
the other does not, nor does a run that stores stroboscopic points; a streamed run leaves neither a
.partial file nor its checkpoint log behind.

usage: test_streamed_file.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import os
import sys
import tempfile

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_log import check, exit_code  # noqa: E402
from result_datasets import datasets  # noqa: E402
from test_batched_backend import GAP_SWEEP, run  # noqa: E402  (the gap-oscillator sweep with infeasible starts)

STREAMED = "its cases written while they ran"


def class_attributes(path):
    with h5py.File(path, "r") as h5:
        attrs = h5["cases/class_index"].attrs
        return {k: (attrs[k].tolist() if hasattr(attrs[k], "tolist") else attrs[k]) for k in attrs}


def compare(vibro, ini, tmp, label, extra):
    """Runs ini streamed and from the logs; returns the streamed file's datasets (None on a failed run)."""
    files, outputs = {}, {}
    for mode in ("true", "false"):
        files[mode] = os.path.join(tmp, "%s_%s.h5" % (label.replace(" ", "_"), mode))
        done = run(vibro, ini, files[mode], "--output.stream_cases=" + mode, *extra)
        if not check(done.returncode == 0, "%s, stream_cases=%s: vibro run succeeds" % (label, mode), done.stderr[-600:]):
            return None
        outputs[mode] = done.stdout
    check(STREAMED in outputs["true"], "%s: the streamed run says its cases were written while they ran" % label,
          outputs["true"][-300:])
    check(STREAMED not in outputs["false"], "%s: the run with stream_cases = false writes from the logs" % label)
    leftovers = [n for n in os.listdir(tmp) if n.startswith(os.path.basename(files["true"]) + ".")]
    check(not leftovers, "%s: no .partial or checkpoint log left behind" % label, str(leftovers))
    streamed, from_logs = datasets(files["true"]), datasets(files["false"])
    bad = sorted(set(streamed) ^ set(from_logs)) + [
        k for k in sorted(set(streamed) & set(from_logs))
        if streamed[k].dtype != from_logs[k].dtype or streamed[k].shape != from_logs[k].shape
        or streamed[k].tobytes() != from_logs[k].tobytes()]
    check(not bad, "%s: the streamed file equals the file written from the logs bit for bit" % label, ", ".join(bad[:10]))
    check(class_attributes(files["true"]) == class_attributes(files["false"]),
          "%s: the class numbers' CF attributes agree" % label)
    return streamed


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    fig6 = os.path.join(root, "examples", "conveyor_fig6.ini")
    cut = ["--axes.a_hat=linspace(30, 80, 31)", "--axes.z0=linspace(0.0001, 0.004, 9)", "--run.steady_state=fixed",
           "--run.max_periods=120", "--run.window_periods=40", "--output.strobe_points=none", "--run.threads=2"]
    with tempfile.TemporaryDirectory() as tmp:
        batched = compare(vibro, fig6, tmp, "fig6 batched", cut + ["--run.backend=batched"])
        if batched is not None:
            classes = set(batched["cases/class"].tolist()) - {b""}
            check(len(classes) >= 3, "fig6 batched: several classes (%d)" % len(classes))
        compare(vibro, fig6, tmp, "fig6 cpu blocks of 7", cut + ["--output.block_cases=7"])
        gap_ini = os.path.join(tmp, "gap.ini")
        with open(gap_ini, "w") as f:
            f.write(GAP_SWEEP)
        gap = compare(vibro, gap_ini, tmp, "gap oscillator", ["--output.strobe_points=none", "--output.block_cases=3",
                                                              "--run.threads=2"])
        if gap is not None:
            statuses = set(gap["cases/status"].tolist())
            reasons = {r for r in gap["cases/reason"].tolist() if r}
            check({0, 1}.issubset(statuses) and len(reasons) >= 1,
                  "gap oscillator: ok and infeasible cases with their reasons (statuses %s, %d reasons)"
                  % (sorted(statuses), len(reasons)))
        # Stored stroboscopic points (the default) need the cases read back: written from the logs.
        windowed = os.path.join(tmp, "window.h5")
        done = run(vibro, fig6, windowed, *[c for c in cut if not c.startswith("--output.strobe_points")])
        check(done.returncode == 0 and STREAMED not in done.stdout,
              "a run that stores stroboscopic points writes its file from the logs", done.stderr[-300:])
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
