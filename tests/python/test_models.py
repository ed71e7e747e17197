"""vibro.models() and vibro.describe() say what `vibro models` and `vibro describe` print."""
import json
import re
import subprocess
import sys

import pytest

import vibro


def test_models_are_the_commands_list(cli):
    code, out, _ = cli("models")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines() if line.strip()]
    # A fresh interpreter: a model file that another test described is registered in this process
    # (vibro.models() then lists it too, as it should), but never in the command's.
    fresh = subprocess.run([sys.executable, "-c", "import json, vibro; print(json.dumps(vibro.models()))"],
                           capture_output=True, text=True, check=True)
    models = json.loads(fresh.stdout)
    assert list(models) == listed
    assert "conveyor" in listed and "gap_oscillator" in listed
    assert models["conveyor"] in out


@pytest.mark.parametrize("model", ["conveyor", "gap_oscillator"])
def test_describe_matches_the_command(cli, model):
    code, out, _ = cli("describe", model)
    assert code == 0
    d = vibro.describe(model)
    assert out.startswith("%s: %s\n" % (model, d["summary"]))
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert d["parameters"], "a model declares parameters"
    for p in d["parameters"]:
        row = rows[p["name"]]
        assert row.split()[1] == p["unit"], row
        assert p["accepted"] in row and p["description"] in row, row
    for o in d["observables"]:
        assert re.search(r"^  %s\s+%s\s+%s$" % (re.escape(o["name"]), re.escape(o["unit"]), re.escape(o["description"])),
                         out, re.M), o
    # One component per line: "  name   [unit]".
    block = re.search(r"^state components \(HDF5 /cases/strobe/values columns\):\n((?:  .*\n)+)", out, re.M).group(1)
    assert d["state"] == [line.split()[0] for line in block.splitlines()]


def test_describe_conveyor_values():
    d = vibro.describe("conveyor")
    a_hat = next(p for p in d["parameters"] if p["name"] == "a_hat")
    assert a_hat["unit"] == "m/s^2" and a_hat["section"] == "parameters"
    start = next(p for p in d["parameters"] if p["name"] == "start")
    assert start["default"] in start["choices"]
    assert d["state"] == ["h", "u", "vT"]
    assert "mean_velocity" in [o["name"] for o in d["observables"]]
