#!/usr/bin/python3
"""Results are bitwise identical whatever the number of MPI ranks and OpenMP threads.

usage: test_ranks_threads.py MPIEXEC VIBRO_BINARY

Runs three sweeps (independent conveyor cases; a continuation sweep of Model A with two lines; a
global continuation of the conveyor's attractors over a_hat with 3 x 3 initial conditions per point,
seeded from the attractors of the points before and after it)
on 1, 2, 3 and 4 ranks x 1 and 2 threads and compares every dataset under /cases, /axes and /basins
byte for byte,
except the per-case wall times. The last run also writes the file in blocks of 3 cases (the writer's
block boundaries must not show). Each sweep also runs without mpirun, where vibro is one rank and
starts no MPI: with an Open MPI setting that makes MPI_Init abort (a transport component that does not
exist) it must still write the same file. Also checks the 'ranks' provenance attribute, and that
`vibro continue` under mpirun -np 3 works on one process (one result, the file of a single process).
Exits 1 on a mismatch.
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

SWEEPS = {
    "conveyor": "model = conveyor\n[axes]\na_hat = 40, 47, 55, 62, 70\nz0 = 0, 0.0015, 0.003\n",
    "continuation": "model = gap_oscillator\n[parameters]\nlaw = restitution\n[axes]\ne = 0.5, 1\n"
                    "lambda = 0.6, 0.8, 1.0, 1.5\n[run]\ncontinuation = lambda\nmax_periods = 400\nwindow_periods = 20\n"
                    "[output]\nfloquet = true\nlyapunov_periods = 10\n",
    # global continuation of attractors: ids, fractions and events (/basins) from a pass at the end, with
    # the seed cases run from the attractors of the neighbouring points (on the writing rank's threads)
    "global_continuation": "model = conveyor\n[parameters]\nc_r = 0.6\n[initial]\nstart = drop\n[axes]\n"
                           "a_hat = 36.5, 37.5, 50, 62, 63\nz0 = 0, 0.0025, 0.005\nv0 = -0.3, 0, 0.3\n"
                           "[analysis]\nglobal_continuation = a_hat\nseed_from_previous = true\n",
}


def datasets(path):
    out = {}
    with h5py.File(path, "r") as h5:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and name.split("/")[0] in ("cases", "axes", "basins"):
                if name != "cases/wall_seconds":
                    out[name] = obj[...]
        h5.visititems(visit)
        ranks = int(h5.attrs["ranks"])
    return out, ranks


def differing(reference, data):
    """The datasets of `reference` that `data` lacks or holds otherwise, byte for byte."""
    out = []
    for key, value in reference.items():
        other = data.get(key)
        same = other is not None and value.shape == other.shape and (
            value.tobytes() == other.tobytes() if value.dtype.kind != "O" else list(value) == list(other))
        if not same:
            out.append(key)
    return out


def alone_without_mpi(vibro, env, tmp, name, ini, reference):
    """`vibro run` started alone is one rank and never starts MPI: Open MPI told to use a transport
    component that does not exist (MPI_Init aborts with it) is never asked, and the file is the one
    mpirun's runs wrote."""
    out = os.path.join(tmp, "%s_alone.h5" % name)
    cmd = [vibro, "run", ini, "--output.file=" + out, "--run.threads=2"]
    done = subprocess.run(cmd, cwd=tmp, env=dict(env, OMPI_MCA_pml="no_such_component"), capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0:
        print("FAIL: %s alone with OMPI_MCA_pml=no_such_component exited %d: %s" % (name, done.returncode,
                                                                                  done.stderr[-800:]))
        return 1
    data, recorded = datasets(out)
    differ = differing(reference or {}, data)
    if recorded != 1 or differ or not reference:
        print("FAIL: %s alone: ranks = %d, datasets differing from mpirun's: %s" % (name, recorded, differ[:10]))
        return 1
    return 0


def default_threads(mpiexec, vibro, env, tmp):
    """Without run.threads, 4 ranks on this node share its cores (the file and the summary say how),
    the last progress line counts the whole sweep, and asking for more threads than the cores allow is
    said on stderr."""
    failures = 0
    ini = os.path.join(tmp, "conveyor.ini")
    env = {k: v for k, v in env.items() if k != "OMP_NUM_THREADS"}
    expected = max(1, (os.cpu_count() or 1) // 4)
    out = os.path.join(tmp, "default_threads.h5")
    cmd = [mpiexec, "-np", "4", "--oversubscribe", "--bind-to", "none", vibro, "run", ini, "--output.file=" + out]
    done = subprocess.run(cmd + ["--run.progress=always"], cwd=tmp, env=env, capture_output=True, text=True,
                          timeout=300)
    # The last progress line counts every rank's cases (rank 0 waits for the others' final counts).
    last = [line for line in done.stderr.splitlines() if "cases/s" in line][-1:]
    if not last or not last[0].startswith("15 / 15 cases"):
        print("FAIL: the last progress line on 4 ranks counts all 15 cases: %r" % done.stderr)
        failures += 1
    with h5py.File(out, "r") as h5:
        threads = int(h5.attrs["threads"])
    if threads != expected or "on 4 rank(s) x %d thread(s)" % expected not in done.stdout:
        print("FAIL: default threads on 4 ranks: file %d, expected %d; %s" % (threads, expected, done.stdout))
        failures += 1
    many = (os.cpu_count() or 1) + 1
    cmd = cmd[:-1] + ["--output.file=" + out, "--output.overwrite=true", "--run.threads=%d" % many]
    done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0 or "oversubscribed" not in done.stderr:
        print("FAIL: 4 ranks x %d threads: no oversubscription warning: %s" % (many, done.stderr))
        failures += 1
    return failures


def one_process_commands(mpiexec, vibro, env, tmp):
    """The commands other than `vibro run` work on one process: under mpirun -np 3 `vibro continue`
    prints its result once and writes the branch file a single process writes (no three processes
    writing one file), with a note that the other ranks do nothing."""
    ini = os.path.join(tmp, "orbit.ini")
    with open(ini, "w") as f:
        f.write("model = impact_oscillator\n[parameters]\nzeta = 0.05\nomega = 2.1\nsigma = 0.25\nr = 0.8\n"
                "[run]\nmax_periods = 600\nwindow_periods = 32\nsteady_state = adaptive\n")
    failures, files = 0, {}
    for ranks in (1, 3):
        out = os.path.join(tmp, "orbit_%d.h5" % ranks)
        cmd = [vibro, "continue", ini, "--parameter", "omega", "--to", "2.2", "--output.file=" + out]
        if ranks > 1:
            cmd = [mpiexec, "-np", str(ranks), "--oversubscribe", "--bind-to", "none"] + cmd
        done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
        wrote = [line for line in done.stdout.splitlines() if line.startswith("wrote ")]
        if done.returncode != 0 or len(wrote) != 1:
            print("FAIL: %s: exit %d, %d 'wrote' lines: %s%s" % (" ".join(cmd), done.returncode, len(wrote),
                                                                 done.stdout, done.stderr))
            failures += 1
            continue
        if ranks > 1 and "the other 2 of this launch do nothing" not in done.stderr:
            print("FAIL: no note that ranks 1 and 2 do nothing: " + done.stderr)
            failures += 1
        with h5py.File(out.replace(".h5", ".branch.h5"), "r") as h5:
            found = {}
            h5.visititems(lambda name, obj: found.__setitem__(name, obj[...]) if isinstance(obj, h5py.Dataset) else None)
            files[ranks] = found
    if len(files) == 2:
        one, three = files[1], files[3]
        differ = [k for k in one if k not in three or one[k].shape != three[k].shape or
                  (one[k].tobytes() != three[k].tobytes() if one[k].dtype.kind != "O" else list(one[k]) != list(three[k]))]
        if not one or differ:
            print("FAIL: vibro continue under mpirun -np 3 wrote another branch file: %s" % (differ or "no datasets"))
            failures += 1
        print("vibro continue on 1 and 3 processes: %d datasets compared" % len(one))
    return failures


def main():
    mpiexec, vibro = sys.argv[1], os.path.abspath(sys.argv[2])
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in SWEEPS.items():
            ini = os.path.join(tmp, name + ".ini")
            with open(ini, "w") as f:
                f.write(text)
            reference = None
            for ranks in (1, 2, 3, 4):
                for threads in (1, 2):
                    out = os.path.join(tmp, "%s_%d_%d.h5" % (name, ranks, threads))
                    cmd = [mpiexec, "-np", str(ranks), "--oversubscribe", "--bind-to", "none", vibro, "run", ini,
                           "--output.file=" + out, "--run.threads=%d" % threads]
                    if (ranks, threads) == (3, 2):
                        cmd.append("--output.block_cases=3")
                    done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
                    if done.returncode != 0:
                        print("FAIL: %s exited %d: %s" % (" ".join(cmd), done.returncode, done.stderr))
                        failures += 1
                        continue
                    data, recorded = datasets(out)
                    if recorded != ranks:
                        print("FAIL: %s records ranks = %d, ran on %d" % (out, recorded, ranks))
                        failures += 1
                    if reference is None:
                        reference = data
                        continue
                    for key in differing(reference, data):
                        print("FAIL: %s: %s differs on %d ranks x %d threads" % (name, key, ranks, threads))
                        failures += 1
            if name == "global_continuation" and not {"basins/attractors/global_id", "basins/events/kind",
                                                      "cases/global_attractor"} <= set(reference or {}):
                print("FAIL: %s: the file has no global ids or events to compare" % name)
                failures += 1
            failures += alone_without_mpi(vibro, env, tmp, name, ini, reference)
            print("%s: compared 8 runs and one without mpirun, %d datasets" % (name, len(reference or {})))
        failures += default_threads(mpiexec, vibro, env, tmp)
        failures += one_process_commands(mpiexec, vibro, env, tmp)
    print("ok" if failures == 0 else "%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
