"""A damaged object in a sweep file is a FileError naming the file and the object, never a silently
missing variable nor a traceback from deep inside the reader.

h5py raises KeyError for an object whose header fails its checksum, and its get()/items() turn that
into None: the reader once dropped the class legend that way without a word, and read a damaged
/parameters or /cases/observables dataset as None (AttributeError). Here one bit of one object's
header is flipped (the files of schema 3 on carry checksums), in a small global continuation of the
conveyor (4 amplitudes x 3 x 3 initial conditions, well under a second), and vibro.open and
plot_fractions.py must name that object. Needs only the pure-Python package (python/) and the binary.
"""
import os
import shutil
import subprocess
import sys

import h5py
import pytest

import vibro

# Required objects of each kind the reader walks: a scalar parameter, an observable found by walking
# /cases, a group of /basins, a /basins column and a legend group.
DAMAGED = ["parameters/mu", "cases/observables/mean_velocity", "basins/events", "basins/attractors/class",
           "legend/classes"]


@pytest.fixture(scope="module")
def clean(cli, root, tmp_path_factory):
    folder = tmp_path_factory.mktemp("damaged")
    path = str(folder / "clean.h5")
    code, _, err = cli("run", os.path.join(root, "examples", "conveyor_global_continuation.ini"),
                       "--output.file=" + path, "--run.threads=1", "--axes.a_hat=36, 38, 46, 48",
                       "--axes.z0=0, 0.002, 0.004", "--axes.v0=-0.2, 0, 0.2", cwd=folder)
    assert code == 0, err
    return path


def damage(clean, name, folder):
    """A copy of the file with one bit of the object's header flipped (inside the checksummed prefix)."""
    with h5py.File(clean, "r") as h5:
        address = h5py.h5o.get_info(h5[name].id).addr
    path = os.path.join(folder, name.replace("/", "_") + ".h5")
    shutil.copy(clean, path)
    with open(path, "r+b") as f:
        f.seek(address)
        header = bytearray(f.read(8))
        assert header[:4] == b"OHDR", "not a version-2 object header at %d: %r" % (address, header[:4])
        header[6] ^= 0x01
        f.seek(address)
        f.write(header)
    parent, key = name.rsplit("/", 1)
    with h5py.File(path, "r") as h5:  # the damage is real: h5py cannot open the object any more
        with pytest.raises(KeyError):
            h5[parent][key]
    return path


def test_clean_file_reads(clean):
    ds = vibro.open(clean)
    assert "mean_velocity" in ds and ds.sizes["event"] > 0 and "mu" in ds.coords and ds.attrs["legend"]["classes"]


@pytest.mark.parametrize("name", DAMAGED)
def test_damaged_object_is_named(clean, name, tmp_path):
    path = damage(clean, name, str(tmp_path))
    with pytest.raises(vibro.FileError) as error:
        vibro.open(path)
    message = str(error.value)
    assert message.startswith(path + ": ") and "/" + name in message, message


def test_plot_fractions_names_damaged_events(clean, root, tmp_path):
    """The script reads through vibro.open: exit 2 and one line naming the object, no traceback."""
    path = damage(clean, "basins/events", str(tmp_path))
    done = subprocess.run([sys.executable, os.path.join(root, "scripts", "plot_fractions.py"), path,
                           str(tmp_path / "out.png")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and path in done.stderr and "/basins/events" in done.stderr, done.stderr
    assert not os.path.exists(tmp_path / "out.png")
