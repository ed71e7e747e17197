#!/usr/bin/python3
"""Which Python `vibro plot` runs its scripts with, and what it says when that Python lacks modules.

usage: test_plot_python.py VIBRO_BINARY PACKAGE_PYTHON

PACKAGE_PYTHON: the interpreter the build made the vibro Python package for ("" without one).
- VIBRO_PYTHON first: a bare virtual environment's python (no numpy, h5py, matplotlib, xarray) is
  refused with exit 2, naming the interpreter, VIBRO_PYTHON and each missing module, no traceback; a
  VIBRO_PYTHON that does not exist is named; VIBRO_PYTHON = this Python draws the figure;
- without VIBRO_PYTHON, the package's interpreter comes before python3 on PATH: with a `python3`
  first on PATH that would fail, the figure is still drawn; without a package, PATH's python3 is
  the one named.
Exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

FAILURES = []
MODULES = ["numpy", "h5py", "matplotlib", "xarray"]


def check(condition, what, detail=""):
    print(("ok    " if condition else "FAIL  ") + what + ("" if condition else "\n      " + str(detail)[-1500:]))
    if not condition:
        FAILURES.append(what)


def plot(binary, path, env, name):
    png = path.replace(".h5", "_%s.png" % name)
    done = subprocess.run([binary, "plot", path, "--out", png], capture_output=True, text=True, env=env, timeout=120)
    return done.returncode, done.stderr, os.path.exists(png)


def main():
    binary, package_python = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="vibro-plot-python-") as folder:
        sweep = os.path.join(folder, "small.ini")
        with open(sweep, "w") as out:
            out.write("model = conveyor\n[axes]\na_hat = 40, 50, 60\n[run]\nmax_periods = 40\nwindow_periods = 10\n")
        path = os.path.join(folder, "small.h5")
        done = subprocess.run([binary, "run", sweep, "--output.file=" + path], capture_output=True, text=True, timeout=120)
        check(done.returncode == 0, "a small sweep", done.stderr)
        base = {k: v for k, v in os.environ.items() if k not in ("VIBRO_PYTHON", "PYTHONPATH")}

        bare = os.path.join(folder, "bare")
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", bare], check=True)
        bare_python = os.path.join(bare, "bin", "python")
        code, err, drawn = plot(binary, path, dict(base, VIBRO_PYTHON=bare_python), "bare")
        check(code == 2 and not drawn and "Traceback" not in err, "a Python without the modules: exit 2, no figure", err)
        check(bare_python in err and "VIBRO_PYTHON" in err and "lacks the modules %s" % " ".join(MODULES) in err,
              "... the message names the interpreter, VIBRO_PYTHON and every missing module", err)

        missing = os.path.join(folder, "no", "python3")
        code, err, drawn = plot(binary, path, dict(base, VIBRO_PYTHON=missing), "missing")
        check(code == 2 and "cannot run %s (VIBRO_PYTHON Python)" % missing in err, "a VIBRO_PYTHON that does not exist is named", err)

        code, err, drawn = plot(binary, path, dict(base, VIBRO_PYTHON=sys.executable), "chosen")
        check(code == 0 and drawn, "VIBRO_PYTHON = a Python with the modules draws", err)

        fake = os.path.join(folder, "fake-bin")
        os.makedirs(fake)
        with open(os.path.join(fake, "python3"), "w") as out:
            out.write("#!/bin/sh\necho 'the python3 on PATH ran' >&2\nexit 3\n")
        os.chmod(os.path.join(fake, "python3"), 0o755)
        env = dict(base, PATH=fake + os.pathsep + base.get("PATH", ""))
        code, err, drawn = plot(binary, path, env, "default")
        if package_python:
            check(code == 0 and drawn and "the python3 on PATH ran" not in err,
                  "no VIBRO_PYTHON: the package's interpreter (%s), not python3 on PATH" % package_python, err)
        else:
            check(code == 2 and "python3 (PATH Python)" in err, "no VIBRO_PYTHON and no package: python3 on PATH", err)
    print("%d failure(s)" % len(FAILURES))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
