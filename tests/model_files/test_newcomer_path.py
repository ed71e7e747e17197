#!/usr/bin/python3
"""A newcomer's path without a compiler, as docs/model_files.md ("A first model file, without a
compiler") writes it: the files its `<!-- newcomer-file: NAME -->` blocks hold and the commands of its
`<!-- newcomer-commands -->` block, run in an empty folder with a PATH that reaches vibro and Python
only (no c++, g++, gcc, cc, clang; CXX and CC unset; no vibro headers). Each command must succeed:
describe names the model, run writes the sweep's file with every case run, plot draws a PNG.

usage: test_newcomer_path.py VIBRO_BINARY REPO_ROOT
Exits 1 on any failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

COMPILER = re.compile(r"^(.*-)?(c\+\+|g\+\+|gcc|cc|clang|clang\+\+|cpp|c89|c99|mpicc|mpicxx|mpic\+\+|mpiCC)(-[0-9.]+)?$")

import h5py

FAILURES = []


def check(condition, what, detail=""):
    print(("ok: %s" if condition else "FAIL: %s " + str(detail)[-1500:]) % what)
    if not condition:
        FAILURES.append(what)


def documented_steps(doc):
    """The files ({name: text}) and commands the docs' newcomer section gives, in its order."""
    with open(doc) as f:
        text = f.read()
    block = r"\s*```[^\n]*\n(.*?)```"
    files = {m.group(1): m.group(2) for m in re.finditer(r"<!-- newcomer-file: (\S+) -->" + block, text, re.S)}
    commands = re.search(r"<!-- newcomer-commands -->" + block, text, re.S)
    return files, [line.split() for line in commands.group(1).splitlines() if line.strip()] if commands else []


def main():
    vibro, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    files, commands = documented_steps(os.path.join(repo, "docs", "model_files.md"))
    check(len(files) >= 2 and [c[:2] for c in commands] == [["vibro", "describe"], ["vibro", "run"], ["vibro", "plot"]],
          "the docs give a model file, a sweep file and describe, run, plot", (sorted(files), commands))
    with tempfile.TemporaryDirectory() as tmp:
        # One folder on the PATH: vibro, and the PATH's programs but its compilers.
        bin_dir = os.path.join(tmp, "bin")
        os.mkdir(bin_dir)
        os.symlink(vibro, os.path.join(bin_dir, "vibro"))
        for folder in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep):
            if not os.path.isdir(folder):
                continue
            for name in os.listdir(folder):
                target = os.path.join(bin_dir, name)
                if COMPILER.match(name) or os.path.lexists(target) or not os.access(os.path.join(folder, name), os.X_OK):
                    continue
                os.symlink(os.path.join(folder, name), target)
        env = {k: v for k, v in os.environ.items() if k not in ("CXX", "CC", "CPATH", "CPLUS_INCLUDE_PATH")}
        env["PATH"] = bin_dir
        env["VIBRO_SCRIPTS"] = os.path.join(repo, "scripts")  # where an install puts vibro's plot scripts
        compilers = [c for c in ("c++", "g++", "gcc", "cc", "clang", "clang++") if shutil.which(c, path=env["PATH"])]
        check(not compilers, "no compiler on the PATH", compilers)
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        for name, text in files.items():
            with open(os.path.join(work, name), "w") as out:
                out.write(text)
        for command in commands:
            r = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=300)
            check(r.returncode == 0, " ".join(command), r.stderr)
            if command[1] == "describe":
                check("my_oscillator" in r.stdout and "wall: stop on x" in r.stdout, "describe names the model and its stop",
                      r.stdout[:800])
        h5 = os.path.join(work, "sweep.h5")
        if os.path.exists(h5):
            with h5py.File(h5, "r") as f:
                status = f["cases/status"][...]
                impacts = f["cases/observables/impacts_per_period"][...]
            check(len(status) == 31 and (status == 0).all(), "every case of the sweep ran", status)
            check((impacts > 0).any() and (impacts == 0).any(), "the sweep has impacting and impact-free cases", impacts)
        else:
            check(False, "vibro run wrote sweep.h5")
        png = os.path.join(work, "sweep_bifurcation.png")  # the name the docs give
        check(os.path.exists(png) and os.path.getsize(png) > 1000, "vibro plot drew sweep_bifurcation.png", os.listdir(work))
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)


main()
