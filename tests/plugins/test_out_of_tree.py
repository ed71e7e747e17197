#!/usr/bin/env python3
"""Users' models, the whole way, with nothing of the vibro tree edited or copied: vibro installed
from the build into a temporary prefix (cmake --install), and three models built against the prefix
(find_package(vibro) + vibro_add_model) in folders outside the tree: (a) the single-degree-of-freedom
impact oscillator that `vibro new-model` writes (its project's Catch2 test passes too), (b) the
dry-friction oscillator and (c) Model A declared through the hybrid-model API, both compiled in place
from vibro's models/ folder by a user project that renames them (vibro has them built in). Each goes
through the same steps (exercise()): an adaptive sweep with Floquet multipliers, the same sweep on 2
MPI ranks, a kill -9 mid-sweep and `--resume`, a basin over initial conditions (plugin named in the
sweep file), `vibro continue`, and `vibro submit --dry-run`. Then (a) alone: its closed-form checks
(linear multipliers, the period doubling), branch switching at the doubling and the doubling's curve in
two parameters, its own refusals, a rebuilt plugin refused by the old
checkpoints, and the case budget of the loading vibro charged by the plugin's steps. The folders'
names hold a space and a quote, as users' folders do.

usage: test_out_of_tree.py VIBRO_BUILD_DIR MPIEXEC"""
import math
from dataclasses import dataclass
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
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the vibro tree
CASES = 40  # per model sweep: long enough to be killed between two checkpoints
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


@dataclass
class Subject:
    """A model plugin and what its sweeps vary."""
    name: str
    plugin: str
    folder: str       # where its sweep files and results go
    parameters: str   # [parameters] lines
    axis: tuple       # (parameter, low, high) of the sweep
    basin: str        # [axes] lines over initial conditions
    continuation: tuple  # (parameter, from, to)


def sweep_file(subject, path, axes, run_lines="", output_lines=""):
    return write(path, f"model = {subject.name}\n[parameters]\n{subject.parameters}[axes]\n{axes}[run]\nmax_periods = 300\n"
                 f"window_periods = 16\n{run_lines}[output]\n{output_lines}")


def kill_and_resume(label, vibro, command, output, cases, reference, env, cwd):
    """kill -9 once the checkpoint log has grown past its header, then --resume with the output file alone."""
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log, deadline, header = os.path.join(cwd, output + ".ckpt.0"), time.time() + 120, None
    while time.time() < deadline and process.poll() is None:
        size = os.path.getsize(log) if os.path.exists(log) else 0
        if header is None and size > 0:
            header = size
        elif header is not None and size > header:
            break
        time.sleep(0.005)
    check(f"{label}: the run was still going when killed", process.poll() is None)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    resumed = run(f"{label}: resume", [vibro, "run", "--resume", output], cwd=cwd, env=env)
    loaded = resumed.stderr.split("resuming", 1)[-1].split(":", 1)[-1].strip()
    check(f"{label}: resume loaded some cases, not all", "resuming" in resumed.stderr and f" of {cases} cases loaded" in resumed.stderr
          and not loaded.startswith(f"{cases} of"), resumed.stderr)
    check(f"{label}: killed and resumed equals uninterrupted", same_observables(os.path.join(cwd, reference), os.path.join(cwd, output)))


def exercise(subject, vibro, env):
    """The steps every model goes through; returns the sweep's and the branch's result files."""
    name, at = subject.name, subject.folder
    axis, low, high = subject.axis
    sweep = sweep_file(subject, os.path.join(at, f"{name}_sweep.ini"), f"{axis} = linspace({low}, {high}, {CASES})\n",
                       "steady_state = adaptive\nthreads = 1\n",
                       f"file = {name}.h5\nfloquet = true\ncheckpoint_seconds = 0.05\nstrobe_points = none\n")
    command = [vibro, "run", sweep, "--plugin", subject.plugin]
    run(f"{name}: adaptive sweep with Floquet multipliers", command, cwd=at, env=env)
    with h5py.File(os.path.join(at, f"{name}.h5"), "r") as h5:
        status, reason = h5["cases/status"][...], h5["cases/reason"][...]
        stopped_early = h5["cases/stopped_early"][...]
        modulus = h5["cases/floquet/max_modulus"][...]
    check(f"{name}: every case ok", np.all(status == 0), list(zip(status, reason)))
    check(f"{name}: adaptive mode ended cases early", stopped_early.sum() > 0, stopped_early)
    check(f"{name}: every case has Floquet multipliers", np.all(np.isfinite(modulus)), modulus)

    run(f"{name}: 2 MPI ranks", [MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", "2", *command,
                                 f"--output.file={name}_2.h5"], cwd=at, env=env)
    check(f"{name}: 2 ranks give the 1 rank's results", same_observables(os.path.join(at, f"{name}.h5"), os.path.join(at, f"{name}_2.h5")))
    kill_and_resume(name, vibro, [*command, f"--output.file={name}_killed.h5"], f"{name}_killed.h5", CASES, f"{name}.h5", env, at)

    # A basin over initial conditions, the plugin named in the sweep file (relative to it).
    basin = sweep_file(subject, os.path.join(at, f"{name}_basin.ini"), subject.basin, output_lines=f"file = {name}_basin.h5\n")
    with open(basin) as f:
        text = f.read()
    write(basin, text.replace("\n", f"\nplugin = {os.path.relpath(subject.plugin, at)}\n", 1))
    run(f"{name}: basin", [vibro, "run", basin], cwd=at, env=env)
    with h5py.File(os.path.join(at, f"{name}_basin.h5"), "r") as h5:
        labels, status = h5["cases/attractor"][...], h5["cases/status"][...]
    check(f"{name}: basin: every case ok and labelled", labels.shape == (9,) and np.all(labels >= 0) and np.all(status == 0),
          (labels, status))

    parameter, start, end = subject.continuation
    run(f"{name}: vibro continue", [vibro, "continue", sweep, "--plugin", subject.plugin, f"--axes.{parameter}={start}",
                                    "--parameter", parameter, "--to", str(end)], cwd=at, env=env)
    with h5py.File(os.path.join(at, f"{name}.branch.h5"), "r") as h5:
        along = h5["branch/parameter"][...]
        residual = h5["branch/residual"][...]
    check(f"{name}: continue traces the branch from {start} to {end}", along.size >= 3 and abs(along[0] - start) < 1e-12
          and abs(along.max() - end) < 1e-9 and np.all(residual < 1e-6), (along, residual))

    script = os.path.join(at, f"{name}.sbatch")
    run(f"{name}: submit --dry-run", [vibro, "submit", sweep, "--plugin", subject.plugin, f"--output.file={name}_batch.h5",
                                      "--nodes", "1", "--ntasks-per-node", "2",
                                      "--cpus-per-task", "1", "--time", "10", "--script", script, "--dry-run"], cwd=at, env=env)
    with open(script) as f:
        srun = [line for line in f.read().splitlines() if line.startswith("srun ")]
    # Read as bash reads it: the quoted path must come back as one word.
    words = shlex.split(srun[0].rstrip(" &")) if len(srun) == 1 else []
    check(f"{name}: the script's srun line carries the plugin", f"--plugin={subject.plugin}" in words, srun)
    return os.path.join(at, f"{name}.h5"), os.path.join(at, f"{name}.branch.h5")


def in_place_project(folder, prefix, env):
    """(b) and (c): vibro's own model files compiled by a user project, under other names."""
    os.makedirs(os.path.join(folder, "tree"))
    os.symlink(os.path.join(SOURCE, "models"), os.path.join(folder, "tree", "models"))  # for #include "models/..."
    models = os.path.join(SOURCE, "models")
    write(os.path.join(folder, "CMakeLists.txt"), f"""cmake_minimum_required(VERSION 3.20)
project(in_place_models LANGUAGES CXX)
set(CMAKE_BUILD_TYPE Release)
find_package(vibro CONFIG REQUIRED)
vibro_add_model(user_dry_friction SOURCES "{models}/dry_friction_oscillator/dry_friction_oscillator_model.cpp")
target_compile_definitions(user_dry_friction_objects PRIVATE VIBRO_MODEL_NAME="user_dry_friction")
vibro_add_model(user_gap_oscillator SOURCES "{models}/gap_oscillator_declared/gap_oscillator_declared_model.cpp"
                "{models}/two_body/gap_oscillator_parameters.cpp")
target_compile_definitions(user_gap_oscillator_objects PRIVATE VIBRO_MODEL_NAME="user_gap_oscillator")
target_include_directories(user_gap_oscillator_objects PRIVATE "${{CMAKE_CURRENT_SOURCE_DIR}}/tree")
""")
    build = os.path.join(folder, "build")
    run("configure the in-place project", ["cmake", "-S", folder, "-B", build, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}"], env=env)
    run("build the in-place project", ["cmake", "--build", build, "--parallel", "2"], env=env, timeout=600)
    return build


def budget_reaches_plugin(subject, vibro, env):
    """The loading vibro's case budget bounds a plugin's steps: forcing 1e5 times slower than the
    oscillator needs about 2e5 steps a period, past a bound of 2e4; the other case finishes."""
    sweep = sweep_file(subject, os.path.join(subject.folder, "budget.ini"), "omega = 0.8, 1e-5\n",
                       "max_steps_per_period = 20000\n", "file = budget.h5\n")
    run("slow forcing past the step budget", [vibro, "run", sweep, "--plugin", subject.plugin], cwd=subject.folder, env=env)
    with h5py.File(os.path.join(subject.folder, "budget.h5"), "r") as h5:
        status = h5["cases/status"][...]
        reason = [r.decode() if isinstance(r, bytes) else r for r in h5["cases/reason"][...]]
    check("budget: the fast case ok, the slow one failed", list(status) == [0, 2], list(zip(status, reason)))
    check("budget: the reason names the bound and its key", "integration steps in one period" in reason[1]
          and "more than the 20000 allowed" in reason[1] and "run.max_steps_per_period" in reason[1], reason)


def closed_form_checks(subject, sweep_h5, branch_h5):
    """(a): impact-free cases have the linear flow's multipliers exp((-zeta +- i sqrt(1 - zeta^2)) T),
    modulus exp(-zeta T); the (1,1) orbit from sigma = 1 loses stability by period doubling at
    sigma = 1.95866 (the closed form, checked to 1e-5 in vibro's own tests)."""
    with h5py.File(sweep_h5, "r") as h5:
        impacts = h5["cases/observables/impacts_per_period"][...]
        real, imag = h5["cases/floquet/real"][...], h5["cases/floquet/imag"][...]
    free = [i for i in range(len(impacts)) if impacts[i] == 0]
    check("(a): impact-free cases above the harmonic amplitude 2.5384", len(free) >= 1, impacts)
    for i in free:
        moduli = np.hypot(real[i], imag[i])
        check(f"(a): Floquet moduli of impact-free case {i}", np.all(np.abs(moduli - math.exp(-0.1 * 2 * math.pi / 0.8)) < 1e-6), moduli)
    with h5py.File(branch_h5, "r") as h5:
        kinds = [k.decode() if isinstance(k, bytes) else k for k in h5["events/kind"][...]]
        where = h5["events/parameter"][...]
    doubling = [p for k, p in zip(kinds, where) if k == "period_doubling"]
    check("(a): continue finds the period doubling at 1.95866", len(doubling) == 1 and abs(doubling[0] - 1.95866) < 1e-4,
          list(zip(kinds, where)))


def switch_and_curve(subject, vibro, env):
    """(a): from the (1,1) branch's period doubling, the plugin's doubled branch (--switch PD1) and the
    doubling's curve in (sigma, omega) (--curve period_doubling): at every point of the curve a multiplier
    at -1."""
    at, sweep = subject.folder, os.path.join(subject.folder, f"{subject.name}_sweep.ini")
    common = [vibro, "continue", sweep, "--plugin", subject.plugin, "--axes.sigma=1.0", "--parameter", "sigma", "--to", "2.2"]
    run("(a): continue --switch PD1", [*common, "--switch", "PD1", "--output.file=switched.h5"], cwd=at, env=env)
    with h5py.File(os.path.join(at, "switched.pd1.branch.h5"), "r") as h5:
        periods, doubled = int(h5.attrs["periods"]), h5["branch/parameter"].shape[0]
    check("(a): the doubled branch has period 2 and several points", periods == 2 and doubled >= 3, (periods, doubled))
    run("(a): continue --curve period_doubling", [*common, "--curve", "period_doubling", "--parameters", "sigma,omega",
                                                   "--curve-to", "0.85", "--output.file=curve.h5"], cwd=at, env=env)
    with h5py.File(os.path.join(at, "curve.period_doubling1.curve.h5"), "r") as h5:
        mu = h5["curve/multipliers_real"][...] + 1j * h5["curve/multipliers_imag"][...]
        omega = h5["curve/parameter_2"][...]
        end = h5.attrs["end"]
    nearest = np.abs(mu + 1).min(axis=1) if mu.size else np.array([])
    check("(a): the doubling's curve reaches omega = 0.85, a multiplier at -1 at every point",
          len(omega) >= 3 and abs(omega[-1] - 0.85) < 1e-9 and np.all(nearest < 1e-6), (end, omega, nearest))


def own_refusals(subject, vibro, env):
    """(a): the plugin's validate() reaches vibro as bad input; a sweep's checkpoints are not mixed
    with a rebuilt plugin's (the same file with other bytes, still a loadable library)."""
    at, plugin = subject.folder, subject.plugin
    tiny = sweep_file(subject, os.path.join(at, "tiny.ini"), "omega = 0.8, 0.85\n", "", "file = kept.h5\n")
    refused = run("the plugin's validate() refuses", [vibro, "run", tiny, "--plugin", plugin, "--initial.x0=5"], cwd=at, env=env, expect=2)
    check("the plugin's message", "x0 lies beyond the stop" in refused.stderr, refused.stderr)
    rebuilt = os.path.join(at, "rebuilt", os.path.basename(plugin))
    os.mkdir(os.path.dirname(rebuilt))
    with open(plugin, "rb") as src, open(rebuilt, "wb") as dst:
        dst.write(src.read() + b"\0")
    run("sweep with checkpoints kept", [vibro, "run", tiny, "--plugin", plugin, "--output.keep_checkpoints=true"], cwd=at, env=env)
    other = run("rerun with a rebuilt plugin", [vibro, "run", tiny, "--plugin", rebuilt, "--output.overwrite=true"], cwd=at, env=env, expect=2)
    check("a rebuilt plugin's rerun refuses the old checkpoints", "kept.h5.ckpt.0" in other.stderr, other.stderr)


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
        check("nothing of models/ installed", not os.path.exists(os.path.join(prefix, "include", "vibro", "models")))

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

        in_place = in_place_project(os.path.join(tmp, "user's models", "in place"), prefix, env)
        subjects = [
            Subject(NAME, plugin, project, "zeta = 0.1\nomega = 0.8\nr = 0.8\n", ("sigma", 0.5, 3.0),
                    "x0 = -1, 0, 0.4\nv0 = -1, 0, 1\n", ("sigma", 1.0, 2.2)),
            Subject("user_dry_friction", os.path.join(in_place, "user_dry_friction.so"), os.path.dirname(in_place),
                    "mu = 0.3\nF = 1\n", ("omega", 0.4, 0.8), "x0 = -1, 0, 1\nv0 = -1, 0, 1\n",
                    # not from omega = 0.5: without viscous damping the free oscillation fits the forcing
                    # period there (a family of orbits, Den Hartog's closed form singular)
                    ("omega", 0.55, 0.7)),
            Subject("user_gap_oscillator", os.path.join(in_place, "user_gap_oscillator.so"), os.path.dirname(in_place),
                    "e = 0.5\n", ("lambda", 0.6, 3.0), "x1_0 = -0.04, -0.02, 0\nv1_0 = -0.1, 0, 0.1\n", ("lambda", 0.6, 1.0)),
        ]
        results = {s.name: exercise(s, vibro, env) for s in subjects}
        closed_form_checks(subjects[0], *results[NAME])
        switch_and_curve(subjects[0], vibro, env)
        own_refusals(subjects[0], vibro, env)
        budget_reaches_plugin(subjects[0], vibro, env)

    for label, seconds in timings:
        print(f"{seconds:7.1f} s  {label}")
    print(f"model file: {model_lines} lines; total {sum(s for _, s in timings):.1f} s")
    for failure in failures:
        print("FAIL", failure)
    print(f"{'FAILED' if failures else 'passed'}: out-of-tree model ({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
