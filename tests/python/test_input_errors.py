"""Bad input from Python raises vibro.InputError (a ValueError) carrying the message the command line
prints after "vibro: error: ", before any case runs."""
import os

import pytest

import vibro

BAD_SWEEPS = {
    "unknown_model": "model = conveyer\n",
    "unknown_key": "model = conveyor\n[parameters]\nc_rr = 0.5\n",
    "out_of_range": "model = conveyor\n[parameters]\nc_r = 1.5\n",
    "bad_axis": "model = conveyor\n[axes]\na_hat = linspace(30, 80, 0)\n",
}


@pytest.mark.parametrize("name", sorted(BAD_SWEEPS))
def test_sweep_refuses_like_vibro_run(cli, tmp_path, name):
    ini = tmp_path / (name + ".ini")
    ini.write_text(BAD_SWEEPS[name])
    out = str(tmp_path / (name + ".h5"))
    code, _, err = cli("run", str(ini), "--output.file=" + out, cwd=tmp_path)
    assert code == 2
    with pytest.raises(vibro.InputError) as raised:
        vibro.sweep(str(ini), output=out)
    assert isinstance(raised.value, ValueError)
    assert err == "vibro: error: %s\n" % raised.value
    assert not os.path.exists(out)


def test_bad_override_refused_like_the_command(cli, tmp_path, root):
    code, _, err = cli("run", "--example", "conveyor_fig6", "--run.max_periods=-3",
                       "--output.file=" + str(tmp_path / "x.h5"), cwd=tmp_path)
    assert code == 2
    with pytest.raises(vibro.InputError) as raised:
        vibro.sweep(example="conveyor_fig6", run__max_periods=-3, output=str(tmp_path / "x.h5"))
    assert err == "vibro: error: %s\n" % raised.value


def test_describe_unknown_model(cli):
    code, _, err = cli("describe", "conveyr")
    assert code == 2
    with pytest.raises(vibro.InputError) as raised:
        vibro.describe("conveyr")
    assert err == "vibro: error: %s\n" % raised.value
    assert "conveyor" in str(raised.value)  # the closest name


def test_open_refuses_a_file_that_is_not_vibros(tmp_path):
    junk = tmp_path / "junk.h5"
    junk.write_bytes(b"not hdf5")
    with pytest.raises(vibro.FileError, match="junk.h5"):
        vibro.open(str(junk))


@pytest.mark.parametrize("name", ["unknown_key", "out_of_range"])
def test_sweep_given_as_text_or_dict_is_named_so(cli, tmp_path, name):
    """A sweep given as text or a dict is written to a temporary file for the run; its errors name the
    key and "(sweep given as text)" with the line, never that file (deleted when the message is read)."""
    ini = tmp_path / "given.ini"
    ini.write_text(BAD_SWEEPS[name])
    _, _, err = cli("run", str(ini), "--output.file=" + str(tmp_path / "x.h5"), cwd=tmp_path)
    key = {"unknown_key": "parameters.c_rr", "out_of_range": "parameters.c_r"}[name]
    value = {"unknown_key": 0.5, "out_of_range": 1.5}[name]
    messages = []
    for spec, line in ((BAD_SWEEPS[name], 3), ({"model": "conveyor", "parameters": {key.split(".")[1]: value}}, 4)):
        with pytest.raises(vibro.InputError) as raised:
            vibro.sweep(spec)
        messages.append(str(raised.value))
        assert key in messages[-1] and "(sweep given as text):%d" % line in messages[-1], messages[-1]
        assert "vibro-sweep-" not in messages[-1] and "sweep.ini" not in messages[-1], messages[-1]
    # The command's message for the same text in a file, with the file's name in place of the text's.
    assert err == "vibro: error: %s\n" % messages[0].replace("(sweep given as text)", str(ini))
