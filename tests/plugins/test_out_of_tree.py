#!/usr/bin/env python3
"""A user's model, the whole way, with nothing of the vibro tree edited or copied: vibro installed
from the build into a temporary prefix (cmake --install), `vibro new-model` writes a project, the
project builds against the prefix (find_package(vibro) + vibro_add_model) and its Catch2 test passes,
and the installed vibro runs the plugin: a tiny grid (--plugin on the command line) and the project's
own adaptive sweep with Floquet multipliers (plugin named in the sweep file), a basin over initial
conditions, `vibro continue` to the (1,1) orbit's period doubling, 2 MPI ranks, kill -9 and
`--resume` (the checkpoint carries the plugin), and `vibro submit --dry-run` (the script carries
the plugin). The project folder's name holds a space and a quote, as users' folders do.

usage: test_out_of_tree.py VIBRO_BUILD_DIR MPIEXEC"""
import math
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

BUILD, MPIEXEC = os.path.abspath(sys.argv[1]), sys.argv[2]
NAME = "my_oscillator"
failures = []
timings = []


def check(label, condition, detail=""):
    if not condition:
        failures.append(f"{label}: {detail}")
        print("FAIL", label, detail, flush=True)


def run(label, command, cwd=None, env=None, expect=0, timeout=300):
    started = time.time()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    timings.append((label, time.time() - started))
    check(label, result.returncode == expect,
          f"exit {result.returncode} (expected {expect}) from {shlex.join(command)}\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return result


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def same_observables(path_a, path_b):
    with h5py.File(path_a, "r") as a, h5py.File(path_b, "r") as b:
        return all(np.array_equal(a["cases/observables/" + k][...], b["cases/observables/" + k][...], equal_nan=True)
                   for k in a["cases/observables"])


def main():
    env = dict(os.environ)
    env.pop("VIBRO_PLUGIN_PATH", None)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "prefix")
        run("install", ["cmake", "--install", BUILD, "--prefix", prefix])
        vibro = os.path.join(prefix, "bin", "vibro")
        for must in ["lib/cmake/vibro/vibroConfig.cmake", "lib/cmake/vibro/vibroConfigVersion.cmake",
                     "lib/cmake/vibro/vibroTargets.cmake", "include/vibro/analysis/hybrid_model.hpp",
                     "include/vibro/engine/core/plugin_abi.hpp", "include/vibro/vibro/plugin_abi_hash.hpp"]:
            check("installed " + must, os.path.isfile(os.path.join(prefix, must)))

        project = os.path.join(tmp, "user's models", NAME)
        run("new-model", [vibro, "new-model", NAME, project], env=env)
        expected = ["CMakeLists.txt", f"{NAME}_model.cpp", f"test_{NAME}.cpp", f"{NAME}.ini", "README.md"]
        check("new-model files", sorted(os.listdir(project)) == sorted(expected), os.listdir(project))
        with open(os.path.join(project, f"{NAME}_model.cpp")) as f:
            model_lines = sum(1 for line in f)
        run("new-model refuses a non-empty folder", [vibro, "new-model", NAME, project], env=env, expect=2)

        build = os.path.join(project, "build")
        run("configure the project", ["cmake", "-S", project, "-B", build, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}"], env=env)
        run("build the project", ["cmake", "--build", build, "--parallel", "2"], env=env, timeout=600)
        plugin = os.path.join(build, f"{NAME}.so")
        run("the project's Catch2 test", ["ctest", "--test-dir", build, "--output-on-failure"], env=env)
        exported = subprocess.run(["nm", "-D", "--defined-only", plugin], capture_output=True, text=True).stdout.split()
        check("the plugin exports its entry point alone", [s for s in exported if "vibro" in s] == ["vibro_plugin_entry"], exported)

        listed = run("models", [vibro, "models", "--plugin", plugin], env=env).stdout
        check("models names the plugin file", f"{NAME} " in listed and f"[plugin {plugin}]" in listed, listed)
        described = run("describe", [vibro, "describe", NAME, "--plugin", plugin], env=env).stdout
        check("describe names the plugin file", f"from plugin {plugin}" in described and "sigma" in described, described)

        # A tiny grid, the plugin named on the command line.
        tiny = write(os.path.join(project, "tiny.ini"), f"model = {NAME}\n[parameters]\nsigma = 1.0\n[axes]\nomega = 0.8, 0.85\n[run]\nmax_periods = 300\n"
                     "window_periods = 16\n[output]\nkeep_checkpoints = false\n")
        one_rank = os.path.join(project, "tiny_1.h5")
        run("vibro run (tiny grid)", [vibro, "run", tiny, "--plugin", plugin, f"--output.file={one_rank}"], env=env)

        # The model's own refusal (validate() throws in the plugin) reaches vibro as bad input.
        refused = run("the plugin's validate() refuses", [vibro, "run", tiny, "--plugin", plugin, "--initial.x0=5",
                                                          f"--output.file={one_rank}"], env=env, expect=2)
        check("the plugin's message", "x0 lies beyond the stop" in refused.stderr, refused.stderr)

        # The checkpoints of a sweep run with one build of the plugin are not mixed with another's: the
        # same file with other bytes (an appended byte: still a loadable library) is another sweep.
        rebuilt = os.path.join(project, "rebuilt", f"{NAME}.so")
        os.mkdir(os.path.dirname(rebuilt))
        with open(plugin, "rb") as src, open(rebuilt, "wb") as dst:
            dst.write(src.read() + b"\0")
        kept = os.path.join(project, "kept.h5")
        run("sweep with checkpoints kept", [vibro, "run", tiny, "--plugin", plugin, f"--output.file={kept}",
                                            "--output.keep_checkpoints=true"], env=env)
        other = run("rerun with a rebuilt plugin", [vibro, "run", tiny, "--plugin", rebuilt, f"--output.file={kept}", "--output.overwrite=true"],
                    env=env, expect=2)
        check("a rebuilt plugin's rerun refuses the old checkpoints", "kept.h5.ckpt.0" in other.stderr, other.stderr)

        # The project's own sweep, as its README runs it: adaptive steady states and Floquet multipliers.
        run("vibro run (the project's sweep)", [vibro, "run", f"{NAME}.ini"], cwd=project, env=env)
        with h5py.File(os.path.join(project, f"{NAME}.h5"), "r") as h5:
            impacts = h5["cases/observables/impacts_per_period"][...]
            modulus = h5["cases/floquet/max_modulus"][...]
            real, imag = h5["cases/floquet/real"][...], h5["cases/floquet/imag"][...]
            stopped_early = h5["cases/stopped_early"][...]
        period = 2 * math.pi / 0.8
        free = [i for i in range(len(impacts)) if impacts[i] == 0]
        check("impact-free cases above the harmonic amplitude 2.5384", len(free) >= 1, impacts)
        # Impact-free: the linear flow's multipliers exp((-zeta +- i sqrt(1 - zeta^2)) T), modulus exp(-zeta T).
        for i in free:
            moduli = np.hypot(real[i], imag[i])
            check(f"Floquet moduli of impact-free case {i}", np.all(np.abs(moduli - math.exp(-0.1 * period)) < 1e-6), moduli)
        check("impacting cases have multipliers", np.all(np.isfinite(modulus)), modulus)
        check("adaptive mode ended cases early", stopped_early.sum() > 0, stopped_early)

        # A basin: a grid over the initial conditions at one stop position.
        write(os.path.join(project, "basin.ini"), f"model = {NAME}\nplugin = build/{NAME}.so\n[parameters]\nsigma = 1.0\n[axes]\nx0 = -1, 0, 0.9\n"
              "v0 = -1, 0, 1\n[run]\nmax_periods = 400\nwindow_periods = 16\n[output]\nfile = basin.h5\n")
        run("vibro run (basin)", [vibro, "run", "basin.ini"], cwd=project, env=env)
        with h5py.File(os.path.join(project, "basin.h5"), "r") as h5:
            labels = h5["cases/attractor"][...]
        check("basin: every case labelled", labels.shape == (9,) and np.all(labels >= 0), labels)

        # Continuation, as the README runs it: the (1,1) orbit from sigma = 1 loses stability by period
        # doubling at sigma = 1.95866 (the closed form, checked to 1e-5 in vibro's own tests).
        run("vibro continue", [vibro, "continue", f"{NAME}.ini", "--axes.sigma=1.0", "--parameter", "sigma", "--to", "2.2"],
            cwd=project, env=env)
        with h5py.File(os.path.join(project, f"{NAME}.branch.h5"), "r") as h5:
            kinds = [k.decode() if isinstance(k, bytes) else k for k in h5["events/kind"][...]]
            where = h5["events/parameter"][...]
        doubling = [p for k, p in zip(kinds, where) if k == "period_doubling"]
        check("continue finds the period doubling at 1.95866", len(doubling) == 1 and abs(doubling[0] - 1.95866) < 1e-4,
              list(zip(kinds, where)))

        # 2 MPI ranks: every rank loads the plugin; results equal the single rank's.
        two_ranks = os.path.join(project, "tiny_2.h5")
        run("2 MPI ranks", [MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", "2", vibro, "run", tiny,
                            "--plugin", plugin, f"--output.file={two_ranks}"], env=env)
        check("2 ranks: the same results as 1", same_observables(one_rank, two_ranks))

        # kill -9 in the middle of a sweep, then --resume with nothing but the output file.
        long_sweep = write(os.path.join(project, "long.ini"), f"model = {NAME}\n[axes]\nsigma = linspace(0.5, 2.5, 120)\n[run]\nmax_periods = 400\n"
                           "window_periods = 16\nthreads = 1\n[output]\ncheckpoint_seconds = 0.05\nstrobe_points = none\n")
        reference = os.path.join(project, "long_reference.h5")
        run("reference sweep", [vibro, "run", long_sweep, "--plugin", plugin, f"--output.file={reference}"], env=env)
        killed = os.path.join(project, "long_killed.h5")
        process = subprocess.Popen([vibro, "run", long_sweep, "--plugin", plugin, f"--output.file={killed}"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        log, deadline, header = killed + ".ckpt.0", time.time() + 120, None
        while time.time() < deadline and process.poll() is None:
            size = os.path.getsize(log) if os.path.exists(log) else 0
            if header is None and size > 0:
                header = size
            elif header is not None and size > header:
                break
            time.sleep(0.005)
        check("the run was still going when killed", process.poll() is None)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        resumed = run("resume", [vibro, "run", "--resume", killed], env=env)
        check("resume loaded some cases, not all", "resuming" in resumed.stderr and " of 120 cases loaded" in resumed.stderr
              and not resumed.stderr.split("resuming", 1)[1].split(":", 1)[1].strip().startswith("120 of"), resumed.stderr)
        check("killed and resumed equals uninterrupted", same_observables(reference, killed))

        # vibro submit --dry-run: every rank of the batch job loads the plugin by its absolute path.
        script = os.path.join(project, "tiny.sbatch")
        run("submit --dry-run", [vibro, "submit", tiny, "--plugin", plugin, "--nodes", "1", "--ntasks-per-node", "2",
                                 "--cpus-per-task", "1", "--time", "10", "--script", script, "--dry-run"], env=env)
        with open(script) as f:
            text = f.read()
        srun = [line for line in text.splitlines() if line.startswith("srun ")]
        # Read as bash reads it: the quoted path must come back as one word.
        words = shlex.split(srun[0].rstrip(" &")) if len(srun) == 1 else []
        check("the script's srun line carries the plugin", f"--plugin={plugin}" in words, srun)

    for label, seconds in timings:
        print(f"{seconds:7.1f} s  {label}")
    print(f"model file: {model_lines} lines; total {sum(s for _, s in timings):.1f} s")
    for failure in failures:
        print("FAIL", failure)
    print(f"{'FAILED' if failures else 'passed'}: out-of-tree model ({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
