#!/usr/bin/python3
"""The Python package as researchers install it: a wheel built by `python3 -m build`, installed into a
fresh virtual environment, imported and run there.

usage: test_wheel.py REPO_ROOT CMAKE_BUILD_DIR [VIBRO]

1. a virtual environment (--system-site-packages: numpy, h5py, xarray from Debian, no network) builds
   the wheel with its own interpreter: `VENV/bin/python -m build --wheel --no-isolation`, which runs
   CMake for that interpreter (setup.py); the CMake build folder is CMAKE_BUILD_DIR (a sibling of the
   project's build folder, so that ccache finds the project's compiled objects);
2. a second, fresh environment installs the wheel with pip (--no-deps: the dependencies are Debian's,
   whose h5py pip does not recognise by name; no source tree on its path) and, from a
   folder outside the repository, imports vibro from its site-packages, runs a 2 x 2 conveyor sweep
   (vibro.sweep) whose n = 1 hopping case feeds at the Eq. 28 velocity, and vibro.simulate (a Dataset
   with units);
3. in that environment, its bin/ first on PATH and no PYTHONPATH, as a researcher runs them: the
   README's Python example (read from README.md), each script of examples/python (copied out of the
   repository, so that the build's package cannot stand in for the installed one: each must import
   vibro from the environment's site-packages) and, given the binary VIBRO, `vibro plot` of a sweep
   file with VIBRO_PYTHON naming the environment's Python; each must write its figure.
Prints the time of each step. Needs python3-build and python3-venv (scripts/install_deps.sh --tests).
Exits 1 on any failure.
"""
import glob
import os
import subprocess
import sys
import tempfile
import time

FAILURES = []

SMOKE = r"""
import os, sys
import numpy, h5py, xarray  # the wheel's dependencies
import vibro
site = os.path.dirname(os.path.dirname(vibro.__file__))
assert site.startswith(sys.prefix) and "site-packages" in site, (vibro.__file__, sys.prefix)
assert os.path.basename(vibro._compiled().__file__).startswith("_core."), vibro._compiled().__file__
ds = vibro.sweep({"model": "conveyor", "parameters": {"c_r": 0.6, "mu": 0.15},
                  "axes": {"a_hat": [40.0, 50.0], "z0": [0.0, 0.002]},
                  "run": {"max_periods": 100, "window_periods": 50}}, threads=1)
v = float(ds.mean_velocity.sel(a_hat=50.0, z0=0.002))
assert abs(v - 0.1153810534) < 1e-7, v
traj = vibro.simulate("conveyor", periods=5, a_hat=50, z0=0.002)
assert traj.h.attrs["units"] == "m" and traj.time.attrs["units"] == "s", traj
print("wheel ok:", vibro.__file__, "mean_velocity %.10f m/s" % v)
"""


def check(condition, what, detail=""):
    print(("ok    " if condition else "FAIL  ") + what + ("" if condition else "\n      " + str(detail)[-3000:]))
    if not condition:
        FAILURES.append(what)
    return condition


def step(what, command, **kwargs):
    start = time.time()
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    check(done.returncode == 0, "%s (%.1f s)" % (what, time.time() - start), done.stdout + done.stderr)
    return done


# Runs before each example's own code: every `import vibro` must find the wheel's package.
ONLY_INSTALLED = r"""
import os, sys, vibro
assert "site-packages" in vibro.__file__ and vibro.__file__.startswith(sys.prefix), vibro.__file__
"""


def readme_python(root):
    """The README's Python example: its first ```python block."""
    with open(os.path.join(root, "README.md")) as readme:
        text = readme.read()
    start = text.index("```python\n") + len("```python\n")
    return text[start:text.index("```", start)]


def run_examples(root, python, vibro, folder, env):
    """The README's example, examples/python/*.py and `vibro plot` with the environment's Python."""
    env = dict(env, PATH=os.path.dirname(python) + os.pathsep + env.get("PATH", ""), MPLBACKEND="Agg")
    work = os.path.join(folder, "work")
    os.makedirs(os.path.join(work, "examples", "python"))
    snippet = readme_python(root)
    step("the README's Python example", [python, "-c", ONLY_INSTALLED + snippet], env=env, cwd=work)
    for name in sorted(os.listdir(os.path.join(root, "examples", "python"))):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(root, "examples", "python", name)) as source:
            code = source.read()
        copy = os.path.join(work, "examples", "python", name)
        with open(copy, "w") as out:  # the guard first; a docstring after it is just a string
            out.write(ONLY_INSTALLED + code)
        before = set(os.listdir(os.path.join(work, "results"))) if os.path.isdir(os.path.join(work, "results")) else set()
        step("examples/python/" + name, [python, copy], env=env, cwd=work)
        after = set(os.listdir(os.path.join(work, "results"))) if os.path.isdir(os.path.join(work, "results")) else set()
        check(any(f.endswith(".png") for f in after - before), name + " wrote a figure", sorted(after))
    if vibro:
        sweep = os.path.join(work, "fig6.h5")
        step("vibro run --example conveyor_fig6", [vibro, "run", "--example", "conveyor_fig6", "--output.file=" + sweep,
                                                   "--run.threads=2"], env=env, cwd=work)
        figure = os.path.join(work, "fig6_cli.png")
        step("vibro plot with VIBRO_PYTHON = the environment's Python",
             [vibro, "plot", sweep, "--out", figure], env=dict(env, VIBRO_PYTHON=python), cwd=work)
        check(os.path.isfile(figure) and os.path.getsize(figure) > 10000, "vibro plot wrote " + figure)


def main():
    root, cmake_dir = sys.argv[1], sys.argv[2]
    vibro = sys.argv[3] if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory(prefix="vibro-wheel-") as folder:
        builder, user, dist = (os.path.join(folder, name) for name in ("build-env", "user-env", "dist"))
        step("a build environment", [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", builder])
        env = dict(os.environ, VIBRO_CMAKE_BUILD_DIR=cmake_dir)
        env.pop("PYTHONPATH", None)
        if not step("python -m build --wheel in it", [os.path.join(builder, "bin", "python"), "-m", "build", "--wheel",
                                                      "--no-isolation", "--outdir", dist, root], env=env, cwd=root).returncode:
            wheels = glob.glob(os.path.join(dist, "vibro-*.whl"))
            check(len(wheels) == 1, "one wheel", wheels)
            with open(os.path.join(cmake_dir, "CMakeCache.txt")) as cache:
                built_for = [line for line in cache if line.startswith("Python3_EXECUTABLE:")]
            check(built_for and built_for[0].strip().endswith(os.path.join(builder, "bin", "python")),
                  "the extension was built for the environment's interpreter", built_for)
            step("a fresh environment", [sys.executable, "-m", "venv", "--system-site-packages", user])
            python = os.path.join(user, "bin", "python")
            # --no-deps: Debian registers its h5py as "h5py._debian_h5py_serial", which pip does not count
            # as h5py; numpy, h5py and xarray come from Debian (checked by importing them below).
            step("pip install the wheel", [python, "-m", "pip", "install", "--no-index", "--no-deps", wheels[0]], env=env)
            smoke = step("import vibro, a sweep and a trajectory", [python, "-c", SMOKE], env=env, cwd=folder)
            print(smoke.stdout.strip())
            run_examples(root, python, vibro, folder, env)
    print("%d failure(s)" % len(FAILURES))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
