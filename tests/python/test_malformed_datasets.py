"""A dataset of the wrong type or an index out of its table is a FileError naming the file and the
dataset, before anything reads it: from vibro.open, and from `vibro plot` (exit 2, no traceback, no
image). Once, /cases/status holding strings ended `vibro plot` in a traceback (int() of a string), and
/cases/strobe/offsets pointing past the strobe table drew a figure with exit 0 (or a traceback).

Each file is a small conveyor sweep (2 x 2 cases, 40 periods) with one dataset replaced through h5py.
Needs only the pure-Python package (python/) and the binary.
"""
import os
import shutil
import subprocess

import h5py
import numpy as np
import pytest

import vibro


@pytest.fixture(scope="module")
def clean(cli, tmp_path_factory):
    folder = tmp_path_factory.mktemp("malformed")
    sweep = folder / "small.ini"
    sweep.write_text("model = conveyor\n[axes]\na_hat = 40, 60\nz0 = 0, 0.002\n[run]\nmax_periods = 40\n"
                     "window_periods = 10\nthreads = 1\n")
    path = str(folder / "clean.h5")
    code, _, err = cli("run", str(sweep), "--output.file=" + path, cwd=str(folder))
    assert code == 0, err
    return path


def replaced(clean, folder, name, values):
    """A copy of the file with dataset `name` replaced by `values`."""
    path = os.path.join(str(folder), name.replace("/", "_") + ".h5")
    shutil.copy(clean, path)
    with h5py.File(path, "r+") as h5:
        attrs = dict(h5[name].attrs)
        del h5[name]
        h5[name] = values
        h5[name].attrs.update(attrs)
    return path


def strings(n):
    return np.array([b"ok"] * n, dtype="S8")


# name -> (replacement from the clean file's dataset, what the message must say)
BAD = {
    "status strings": ("cases/status", lambda d: strings(len(d)), "/cases/status holds strings, expected integers"),
    "status code 7": ("cases/status", lambda d: np.full(len(d), 7, dtype=np.int8), "/cases/status holds 7"),
    "class numbers": ("cases/class", lambda d: np.zeros(len(d)), "/cases/class holds floating-point numbers"),
    "observable strings": ("cases/observables/mean_velocity", lambda d: strings(len(d)),
                           "/cases/observables/mean_velocity holds strings, expected numbers"),
    "axis strings": ("axes/a_hat", lambda d: strings(len(d)), "/axes/a_hat holds strings, expected numbers"),
    "offsets past the table": ("cases/strobe/offsets", lambda d: d + 5, "/cases/strobe/offsets points outside"),
    "offsets falling": ("cases/strobe/offsets", lambda d: d[::-1].copy(), "/cases/strobe/offsets points outside"),
    "offsets floats": ("cases/strobe/offsets", lambda d: d.astype(float),
                       "/cases/strobe/offsets holds floating-point numbers, expected integers"),
    "offsets one short": ("cases/strobe/offsets", lambda d: d[:-1].copy(), "/cases/strobe/offsets has shape"),
    "strobe mode strings": ("cases/strobe/mode", lambda d: strings(len(d)), "/cases/strobe/mode holds strings"),
}


def test_clean_file_reads(clean):
    ds = vibro.open(clean)
    assert ds["status"].shape == (2, 2) and int(ds["strobe_count"].sum()) == ds.sizes["strobe_row"] > 0


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_dataset_is_named(clean, case, tmp_path):
    name, make, said = BAD[case]
    with h5py.File(clean, "r") as h5:
        original = h5[name][()]
    path = replaced(clean, tmp_path, name, make(original))
    with pytest.raises(vibro.FileError) as error:
        vibro.open(path)
    message = str(error.value)
    assert message.startswith(path + ": ") and said in message, message


@pytest.mark.parametrize("case,kind", [("status strings", "bifurcation"), ("offsets past the table", "timeseries")])
def test_vibro_plot_refuses(clean, cli, case, kind, tmp_path):
    """vibro plot: exit 2 and one message naming the file and the dataset; no traceback, no image."""
    name, make, said = BAD[case]
    with h5py.File(clean, "r") as h5:
        original = h5[name][()]
    path = replaced(clean, tmp_path, name, make(original))
    png = str(tmp_path / "out.png")
    code, out, err = cli("plot", path, "--kind", kind, "--out", png)
    assert code == 2 and "Traceback" not in err and path in err and said in err, (code, out, err)
    assert not os.path.exists(png)
