#!/usr/bin/python3
"""A flipped bit in a result file is an error, never other data, never a crash.

usage: test_bitflip.py VIBRO_BINARY REPO_ROOT

Writes a small sweep file, then flips 1000 random single bits of it (fixed seed), one copy each. On
every copy the python loader (scripts/vibro_results.py, run in-process: a subprocess per flip would
take minutes) must end with its clear error (FileError, exit code 2) or return data equal to the
unchanged file's; a signal would kill this test. On every copy `vibro plot` runs as a process (two
at a time) and must exit 2 with a message and no traceback, or write the same PNG as for the
unchanged file; never a signal, never a hang. Also: a file declaring schema_version 999 and one missing a
dataset are refused by both. Exits 1 on any failure.
"""
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import contextlib
from concurrent.futures import ThreadPoolExecutor

import h5py
import numpy as np

FAILURES = []

SWEEP = """model = conveyor
[axes]
a_hat = linspace(30, 80, 3)
z0 = 0, 0.001
[run]
max_periods = 30
window_periods = 6
"""


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print("FAIL: %s %s" % (what, detail[-600:]))
    return condition


def same(a, b):
    if a.keys() != b.keys():
        return False
    for key in a:
        x, y = a[key], b[key]
        if hasattr(x, "identical"):  # the xarray Dataset the loader now carries (vibro.open's)
            if not (type(x) is type(y) and x.identical(y)):
                return False
        elif isinstance(x, dict):
            if not same(x, y):
                return False
        elif isinstance(x, np.ndarray):
            if not isinstance(y, np.ndarray) or x.shape != y.shape or (
                    x.tobytes() != y.tobytes() if x.dtype.kind != "O" else list(x) != list(y)):
                return False
        elif x != y:
            return False
    return True


def main():
    vibro, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sys.path.insert(0, os.path.join(root, "scripts"))
    import vibro_results
    env = dict(os.environ, VIBRO_SCRIPTS=os.path.join(root, "scripts"))

    def plot(path, png):
        try:
            done = subprocess.run([vibro, "plot", path, "--out", png], capture_output=True, text=True, timeout=60, env=env)
            return done.returncode, done.stderr
        except subprocess.TimeoutExpired:
            return None, "timed out"

    def load(path):
        with contextlib.redirect_stderr(io.StringIO()):
            try:
                data = vibro_results.load(path)
            except vibro_results.FileError as error:
                return None, error.message
        data.pop("path")
        return data, ""

    with tempfile.TemporaryDirectory() as tmp:
        ini = os.path.join(tmp, "s.ini")
        with open(ini, "w") as f:
            f.write(SWEEP)
        clean = os.path.join(tmp, "clean.h5")
        subprocess.run([vibro, "run", ini, "--output.file=" + clean], cwd=tmp, check=True, capture_output=True)
        with open(clean, "rb") as f:
            original = f.read()
        reference, _ = load(clean)
        rc, err = plot(clean, os.path.join(tmp, "clean.png"))
        check(rc == 0, "the unchanged file plots", err)
        with open(os.path.join(tmp, "clean.png"), "rb") as f:
            reference_png = f.read()
        print("file of %d bytes" % len(original))

        rng = random.Random(23)
        flipped = os.path.join(tmp, "flipped.h5")
        counts = {"refused": 0, "same": 0, "plot refused": 0, "plot same": 0}
        bits = [rng.randrange(len(original) * 8) for _ in range(1000)]
        for bit in bits:
            data = bytearray(original)
            data[bit // 8] ^= 1 << (bit % 8)
            with open(flipped, "wb") as f:
                f.write(data)
            loaded, message = load(flipped)
            if loaded is None:
                counts["refused"] += 1
                check(message.startswith(flipped) and len(message) > len(flipped) + 5,
                      "bit %d: the loader's error names the file and the problem" % bit, message)
            else:
                counts["same"] += 1
                check(same(loaded, reference), "bit %d: the loader returns the unchanged data or refuses" % bit)

        def plot_flipped(bit):
            # Each flip in a file of its own, so that two run at once (a refusal takes ~20 ms, a plot ~1 s).
            data = bytearray(original)
            data[bit // 8] ^= 1 << (bit % 8)
            # The same base name as the unchanged file: the plot's legend shows it.
            folder = os.path.join(tmp, "flip_%d" % bit)
            os.mkdir(folder)
            path, png = os.path.join(folder, os.path.basename(clean)), os.path.join(folder, "flipped.png")
            with open(path, "wb") as f:
                f.write(data)
            rc, err = plot(path, png)
            drawn = None
            if rc == 0 and os.path.exists(png):
                with open(png, "rb") as f:
                    drawn = f.read()
            shutil.rmtree(folder)
            return bit, path, rc, err, drawn

        with ThreadPoolExecutor(2) as pool:
            for bit, path, rc, err, drawn in pool.map(plot_flipped, bits):
                check(rc in (0, 2), "bit %d: vibro plot exits 0 or 2, never by a signal or a hang" % bit, "rc=%s %s" % (rc, err))
                check("Traceback" not in err, "bit %d: vibro plot prints no traceback" % bit, err)
                if rc == 2:
                    counts["plot refused"] += 1
                    check("error" in err or path in err, "bit %d: vibro plot says why" % bit, err)
                elif rc == 0:
                    counts["plot same"] += 1
                    check(drawn == reference_png, "bit %d: vibro plot draws the unchanged data" % bit)
        print("1000 flips: loader refused %(refused)d, same data %(same)d; vibro plot on all: refused "
              "%(plot refused)d, same PNG %(plot same)d" % counts)

        # A schema version it does not know, and a missing dataset.
        for name, change in [("v999", lambda h5: h5.attrs.modify("schema_version", 999)),
                             ("missing", lambda h5: h5.__delitem__("cases/status"))]:
            path = os.path.join(tmp, name + ".h5")
            shutil.copy(clean, path)
            with h5py.File(path, "r+") as h5:
                change(h5)
            loaded, message = load(path)
            check(loaded is None, "the loader refuses the %s file" % name)
            rc, err = plot(path, os.path.join(tmp, name + ".png"))
            check(rc == 2 and "Traceback" not in err and path in err, "vibro plot refuses the %s file" % name, err)
    print("ok" if not FAILURES else "%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
